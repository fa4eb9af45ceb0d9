"""API views for tournaments and their standings."""

from django_filters.rest_framework import DjangoFilterBackend
from django_filters.utils import translate_validation
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_field,
)
from rest_framework import exceptions, serializers, status
from rest_framework.generics import GenericAPIView
from rest_framework.response import Response
from rest_framework.utils.urls import replace_query_param
from rest_framework.views import APIView

from club.api_evenings import (
    LINK_RENEWED,
    NO_STORE,
    NewLinkInput,
    TableLinkOutput,
    link_output,
    link_version_seen,
)
from club.permissions import club_for_director, club_for_request
from config.api import Pagination, UserError, paginated
from config.schema import ErrorOutput
from core.inputs import BodyInput, MomentField, NoBodyInput, WholeNumberField
from core.moments import moment_version
from core.quoted import quoted
from core.text import BoundedCharField, BoundedSlugField, NameField, TextField
from scoring.models import RULESET_CHOICES
from scoring.rules.games import GAMES
from tournaments import rounds, selectors, services, table_links
from tournaments.filters import StandingsFilter
from tournaments.metrics import FIGURES, METRICS
from tournaments.models import Tournament, TournamentTotal
from tournaments.pagecache import standings_etag
from tournaments.selectors import MAX_PAGE, SHOWN


class TournamentOutput(serializers.ModelSerializer):
    evenings = serializers.PrimaryKeyRelatedField(many=True, read_only=True)
    ending_version = serializers.SerializerMethodField(
        help_text="A progressive's ending as it now is (tournaments.rounds.ending_version; "
        '"" while not ended): send it back as `ending_version` to take that ending back.'
    )
    final_version = serializers.SerializerMethodField(
        help_text="The declaration that its results are final as it now is "
        '(tournaments.rounds.final_version; "" while none): send it back as '
        "`final_version` to take that declaration back."
    )

    class Meta:
        model = Tournament
        fields = [
            "slug", "name", "kind", "ruleset", "is_public", "precedence", "evenings",
            "movement", "rounds_planned", "deals_per_round", "standings_round",
            "standings_version", "stake", "ended_after_round", "results_final_at",
            "ending_version", "final_version",
        ]  # fmt: skip
        extra_kwargs = {
            "ended_after_round": {
                "help_text": "A progressive with no number of rounds planned: the round its "
                "director ended it after (`POST .../end/`; null: not ended). Its last round, "
                "as `rounds_planned` is a planned one's."
            },
            "results_final_at": {
                "help_text": "When the director declared a progressive's results final "
                "(null: not yet): until then a table of its last round may still correct "
                "its last deal from its phone (law 5, ruling E9)."
            },
        }

    @extend_schema_field(OpenApiTypes.STR)
    def get_ending_version(self, tournament: Tournament) -> str:
        return rounds.ending_version(tournament)

    @extend_schema_field(OpenApiTypes.STR)
    def get_final_version(self, tournament: Tournament) -> str:
        return rounds.final_version(tournament)


#: The games' names by kind ("call_ace": "Call-Ace"), for the metrics' descriptions.
GAME_NAMES = {game.kind: game.name for game in GAMES.values()}


def _precedence_field() -> serializers.ListField:
    """The director's precedence list: metric keys from the registry, each described in the
    schema as the registry describes it."""
    described = "; ".join(
        f"`{m.key}`: {m.title}, {m.description} ({'more' if m.higher_is_better else 'fewer'} "
        "is better"
        + (f"; only at {', '.join(sorted(GAME_NAMES[g] for g in m.games))}" if m.games else "")
        + ("; never at a progressive of fixed deals, ruling P1" if m.rubbers_only else "")
        + ")"
        for m in METRICS.values()
    )
    keys = ", ".join(f"{m.key!r} ({m.title.lower()})" for m in METRICS.values())
    return serializers.ListField(
        child=serializers.ChoiceField(
            choices=[(m.key, m.title) for m in METRICS.values()],
            error_messages={
                "invalid_choice": "'{input}' is none of the metrics to rank by: give each by "
                f"its key, {keys}."
            },
        ),
        error_messages={
            "not_a_list": "The metrics to rank by are a list of their keys, the one that "
            'decides most first, such as ["rounds_won", "points"].'
        },
        required=False,
        help_text=f"Metrics in order of precedence, the first deciding most; one the "
        f"tournament's game never scores is refused. {described}.",
    )


class TournamentInput(BodyInput):
    name = TextField(words="The tournament's name")
    slug = BoundedSlugField(max_length=60, words="The tournament's address")
    kind = serializers.ChoiceField(choices=Tournament.Kind.choices)
    ruleset = serializers.ChoiceField(choices=RULESET_CHOICES, required=False, default="")
    is_public = serializers.BooleanField(default=True, help_text=selectors.PUBLIC_STANDINGS)
    precedence = _precedence_field()
    evenings = serializers.ListField(
        child=WholeNumberField(min_value=1, max_value=2**63 - 1), required=False
    )
    movement = serializers.CharField(required=False, default="")
    rounds_planned = WholeNumberField(min_value=1, max_value=100, required=False)
    deals_per_round = WholeNumberField(min_value=1, max_value=100, required=False)
    stake = BoundedCharField(
        required=False,
        max_length=20,
        words="The stake",
        help_text="a progressive's stake per point as a decimal string (\"0.25\"): each round's "
        "table settles at it as an evening's rubber does (rulings P2, M1); none settles nothing",
    )


class TournamentUpdateInput(BodyInput):
    name = TextField(required=False, words="The tournament's name")
    is_public = serializers.BooleanField(required=False, help_text=selectors.PUBLIC_STANDINGS)
    precedence = _precedence_field()
    evenings = serializers.ListField(
        child=WholeNumberField(min_value=1, max_value=2**63 - 1), required=False
    )
    standings_round = WholeNumberField(min_value=0, required=False)
    stake = BoundedCharField(
        required=False,
        max_length=20,
        words="The stake",
        help_text="a progressive's stake per point, until its first round is seated (ruling P2)",
    )


def _row_figures() -> type[serializers.Serializer]:
    """A row's figures, one field per metric (and count), each described in the schema as
    the registry describes it (`tournaments.metrics`)."""
    fields = {}
    for key in SHOWN:
        figure = FIGURES.get(key) or METRICS[key]
        described = (
            f"{figure.title}: {figure.description} "
            f"({'more' if figure.higher_is_better else 'fewer'} is better)"
        )
        fields[key] = (
            serializers.CharField(help_text=f"{described}; money as a decimal string")
            if key == "stake_won"
            else WholeNumberField(help_text=described)
        )
    return type("StandingFiguresOutput", (serializers.Serializer,), fields)


class StandingRowOutput(serializers.Serializer):
    member = WholeNumberField()
    name = serializers.CharField()
    rank = WholeNumberField(help_text="the place in the whole standings")
    tied = serializers.BooleanField(help_text="equal on every metric of the precedence list")
    display_rank = serializers.CharField(help_text='the place as shown, "=3" when tied')
    metrics = _row_figures()()


class MetricOutput(serializers.Serializer):
    key = serializers.CharField()
    title = serializers.CharField()
    description = serializers.CharField()
    higher_is_better = serializers.BooleanField()


class StandingsOutput(serializers.Serializer):
    tournament = serializers.CharField()
    version = WholeNumberField()
    computed_at = serializers.DateTimeField(allow_null=True)
    precedence = MetricOutput(many=True, help_text="the metrics ranked by, the first deciding most")
    metrics = MetricOutput(many=True, help_text="what each figure of a row means")
    player = serializers.CharField(allow_null=True, help_text="the `player` asked for, if any")
    count = WholeNumberField(help_text="rows in all (only the player's when asked)")
    page = WholeNumberField(help_text="this page (a page past the end is the last)")
    pages = WholeNumberField()
    page_size = WholeNumberField(help_text="rows a page, as on the public page")
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    rows = StandingRowOutput(many=True)


class StandingsQuery(serializers.Serializer):
    page = WholeNumberField(min_value=1, max_value=MAX_PAGE, default=1)


class ProgressOutput(serializers.Serializer):
    state = serializers.CharField()
    percent = WholeNumberField()
    version = WholeNumberField(required=False)


class TournamentListView(APIView):
    """A club's tournaments; its secretary or a tournament director creates one.

    The page `/secretary/clubs/<slug>/tournaments/new/` creates one from a form."""

    pagination_class = Pagination  # documents the paginated shape in the schema

    @extend_schema(responses=TournamentOutput(many=True))
    def get(self, request, slug):
        club = club_for_request(request, slug)
        tournaments = selectors.tournaments_visible(club=club, user=request.user).prefetch_related(
            "evenings"
        )
        return paginated(request, self, tournaments, TournamentOutput)

    @extend_schema(request=TournamentInput, responses={201: TournamentOutput})
    def post(self, request, slug):
        club = club_for_director(request, slug, write=True)
        data = TournamentInput(data=request.data)
        data.is_valid(raise_exception=True)
        values = dict(data.validated_data)
        tournament = services.tournament_create(
            club=club, evening_ids=values.pop("evenings", None), **values
        )
        return Response(TournamentOutput(tournament).data, status=status.HTTP_201_CREATED)


class TournamentDetailView(APIView):
    """One tournament; its director changes what counts and how it ranks.

    On the director's page (`/secretary/tournaments/<id>/`): "Ranked by" (the metrics in
    order) and, for a ladder, "Evenings counted" (count an evening, stop counting it)."""

    @extend_schema(responses=TournamentOutput)
    def get(self, request, slug, tslug):
        club = club_for_request(request, slug)
        return Response(
            TournamentOutput(
                selectors.tournament_for(club=club, slug=tslug, user=request.user)
            ).data
        )

    @extend_schema(request=TournamentUpdateInput, responses=TournamentOutput)
    def patch(self, request, slug, tslug):
        club = club_for_director(request, slug, write=True)
        tournament = selectors.tournament_for(club=club, slug=tslug, user=request.user)
        data = TournamentUpdateInput(data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        values = dict(data.validated_data)
        tournament = services.tournament_update(
            tournament=tournament, evening_ids=values.pop("evenings", None), **values
        )
        return Response(TournamentOutput(tournament).data)


class StandingsView(GenericAPIView):
    """The latest published standings, a hundred places a page as on the public page
    (`?page=2`), or one player's line found by name (`?player=ann`). `If-None-Match`
    with the ETag gets 304 until the standings change; each page and each `player` has
    its own ETag, and so has the browsable page (HTML) apart from the JSON."""

    queryset = TournamentTotal.objects.all()  # narrowed to the tournament in `get`
    filter_backends = [DjangoFilterBackend]
    filterset_class = StandingsFilter
    pagination_class = None  # its own paging, the page's (STANDINGS_PAGE rows)

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "page", int, description="the page, a hundred places each (past the end: the last)"
            ),
            OpenApiParameter(
                "player", str, description=StandingsFilter.base_filters["player"].extra["help_text"]
            ),
        ],
        responses={
            200: StandingsOutput,
            400: OpenApiResponse(
                ErrorOutput, description="A `page` that is not a whole number from 1, or a "
                "`player` longer than 80 characters: named in error.field.",
            ),
        },
    )  # fmt: skip
    def get(self, request, slug, tslug):
        club = club_for_request(request, slug)
        tournament = selectors.tournament_for(club=club, slug=tslug, user=request.user)
        query = StandingsQuery(data=request.query_params)
        query.is_valid(raise_exception=True)
        page = query.validated_data["page"]
        # django-filter reads `?player=` (and documents it in the schema).
        filterset = DjangoFilterBackend().get_filterset(
            request, self.get_queryset().filter(tournament=tournament), self
        )
        if not filterset.is_valid():
            raise translate_validation(filterset.errors)
        totals, player = filterset.qs, filterset.form.cleaned_data.get("player") or None
        number = selectors.standings_version_number(tournament_id=tournament.pk)
        # JSON, or DRF's browsable page to a browser (Accept): two representations, each
        # with its own tag, so no 304 tells a client holding one that it holds the other.
        kind = "api" if request.accepted_renderer.format == "json" else "api-page"
        etag = standings_etag(tournament.pk, number, page, kind, player or "")
        if request.headers.get("If-None-Match") == etag:
            return Response(status=status.HTTP_304_NOT_MODIFIED, headers={"ETag": etag})
        standings = selectors.standings_published(
            tournament=tournament, number=number, totals=totals, lazy=True
        )
        body = selectors.standings_page(standings, page)
        body["player"] = player
        body["page_size"] = selectors.STANDINGS_PAGE
        url = request.build_absolute_uri()
        last, current = body["pages"], body["page"]
        body["next"] = replace_query_param(url, "page", current + 1) if current < last else None
        body["previous"] = replace_query_param(url, "page", current - 1) if current > 1 else None
        return Response(
            StandingsOutput(body).data, headers={"ETag": etag, "Cache-Control": "no-cache"}
        )


class RecalculationView(APIView):
    """A director starts a full recalculation of the standings and follows its progress.

    The director's page has the button, and its progress bar follows the same state
    (queued, running, done) live."""

    @extend_schema(responses=ProgressOutput)
    def get(self, request, slug, tslug):
        club = club_for_director(request, slug, write=True)
        tournament = selectors.tournament_for(club=club, slug=tslug, user=request.user)
        return Response(services.standings_progress(tournament_id=tournament.pk))

    @extend_schema(request=None, responses={202: ProgressOutput})
    def post(self, request, slug, tslug):
        club = club_for_director(request, slug, write=True)
        tournament = selectors.tournament_for(club=club, slug=tslug, user=request.user)
        NoBodyInput.refuse_any_key(request)
        services.standings_request_full(tournament_id=tournament.pk)
        return Response(
            services.standings_progress(tournament_id=tournament.pk),
            status=status.HTTP_202_ACCEPTED,
        )


class EntryInput(BodyInput):
    name = NameField(words="The player's name")
    new_player = serializers.BooleanField(
        default=False,
        help_text="the name looks like a member's, and this is a new player all the same",
    )


class EntryOutput(serializers.Serializer):
    member = WholeNumberField(source="member_id")
    name = serializers.CharField(source="member.name")
    joined_round = WholeNumberField()
    left_round = WholeNumberField(allow_null=True)
    bye_rounds = serializers.ListField(child=WholeNumberField())


class RoundOutput(serializers.Serializer):
    number = WholeNumberField()
    tables = serializers.ListField(child=serializers.JSONField())
    byes = serializers.ListField(child=serializers.CharField())
    requested_byes = serializers.ListField(child=serializers.CharField())
    relaxations = serializers.ListField(child=serializers.JSONField())
    cuts = serializers.ListField(
        child=serializers.JSONField(), help_text="every card cut to seat the round (ruling T10)"
    )
    drawn_by_service = serializers.BooleanField(
        allow_null=True, help_text="the cut's cards drawn by the service; null: no cut"
    )


class RoundInput(BodyInput):
    cards = serializers.DictField(
        child=serializers.ListField(
            child=BoundedCharField(max_length=3, words="A card"), max_length=12
        ),
        required=False,
        help_text="for a round seated by a cut: the cards each player actually cut, in the "
        'order he cut them, for tables then for partners ({"Ann": ["JS", "9H"]}); without '
        "them the service draws the cards (ruling T10)",
    )
    seating = WholeNumberField(
        min_value=1,
        max_value=32767,
        required=False,
        help_text="the number of the round you mean to seat (the rounds seated, plus one), as "
        "the director's page sends it: a call sent twice (a retry after a lost answer) finds "
        "that round seated already and is refused with 409, code `round_seated`, saying "
        "when, and nothing is seated. Without it the call seats the next round as before.",
    )


def _director_tournament(request, slug, tslug, *, write=False) -> Tournament:
    club = club_for_director(request, slug, write=write)
    return selectors.tournament_for(club=club, slug=tslug, user=request.user)


class TournamentPlayersView(APIView):
    """A progressive tournament's players; the director enters late arrivals (the
    director's page: "Arriving")."""

    @extend_schema(responses=EntryOutput(many=True))
    def get(self, request, slug, tslug):
        tournament = _director_tournament(request, slug, tslug)
        return Response(
            EntryOutput(tournament.players.select_related("member").order_by("pk"), many=True).data
        )

    @extend_schema(request=EntryInput, responses={201: EntryOutput})
    def post(self, request, slug, tslug):
        tournament = _director_tournament(request, slug, tslug, write=True)
        data = EntryInput(data=request.data)
        data.is_valid(raise_exception=True)
        entry = rounds.tournament_enter(tournament=tournament, **data.validated_data)
        return Response(EntryOutput(entry).data, status=status.HTTP_201_CREATED)


class TournamentPlayerLeaveView(APIView):
    """A player leaves the tournament: he is seated in no later round (the director's
    page: "Leaves")."""

    @extend_schema(request=None, responses=EntryOutput)
    def post(self, request, slug, tslug, member):
        tournament = _director_tournament(request, slug, tslug, write=True)
        NoBodyInput.refuse_any_key(request)
        entry = rounds.tournament_withdraw(tournament=tournament, member_id=member)
        return Response(EntryOutput(entry).data)


class TournamentPlayerByeView(APIView):
    """A player sits out the next round at his own request: the movement seats the others,
    and the round lists him under `requested_byes` (the director's page: "Sits out"); a
    DELETE takes that bye back before the round is seated."""

    @extend_schema(request=None, responses=EntryOutput)
    def post(self, request, slug, tslug, member):
        tournament = _director_tournament(request, slug, tslug, write=True)
        NoBodyInput.refuse_any_key(request)
        entry = rounds.tournament_bye(tournament=tournament, member_id=member)
        return Response(EntryOutput(entry).data)

    @extend_schema(request=None, responses=EntryOutput)
    def delete(self, request, slug, tslug, member):
        """The bye asked for the next round taken back before it is seated (the director's
        page: "Plays after all")."""
        tournament = _director_tournament(request, slug, tslug, write=True)
        NoBodyInput.refuse_any_key(request)
        entry = rounds.tournament_bye_cancel(tournament=tournament, member_id=member)
        return Response(EntryOutput(entry).data)


class RoundsView(APIView):
    """The rounds seated so far; the director seats the next one with the movement.

    Each round's `relaxations` are the movement's report of what it could not honour
    that round; the director's page shows them in words under the round."""

    @extend_schema(responses=RoundOutput(many=True))
    def get(self, request, slug, tslug):
        tournament = _director_tournament(request, slug, tslug)
        return Response([rounds.round_as_dict(r) for r in tournament.rounds.order_by("number")])

    @extend_schema(
        request=RoundInput,
        responses={
            201: RoundOutput,
            409: OpenApiResponse(
                ErrorOutput,
                description="With `seating`: that round was seated already (error.code "
                "`round_seated`, error.field `seating`, the words saying when), nothing "
                "seated; or a lock not granted in time.",
            ),
        },
    )
    def post(self, request, slug, tslug):
        tournament = _director_tournament(request, slug, tslug, write=True)
        data = RoundInput(data=request.data)
        data.is_valid(raise_exception=True)
        played = rounds.round_seat_next(
            tournament_id=tournament.pk,
            user=request.user,
            cards=data.validated_data.get("cards"),
            seating=data.validated_data.get("seating"),
        )
        return Response(rounds.round_as_dict(played), status=status.HTTP_201_CREATED)


class TournamentTablesView(APIView):
    """A progressive's tables with the links their phones record with (the cards on the
    tables, tournaments.table_links; the director's eyes only), at the address the cards
    print (PUBLIC_BASE_URL when set). A table has its link once a round first seats it: a
    ladder, or a progressive with no round seated yet, lists none."""

    @extend_schema(responses=TableLinkOutput(many=True))
    def get(self, request, slug, tslug):
        tournament = _director_tournament(request, slug, tslug, write=True)
        return Response(
            [_link(request, t) for t in tournament.table_links.order_by("number")],
            headers=NO_STORE,
        )


class TournamentTableNewLinkView(APIView):
    """Issue a fresh phone link for a progressive's table (its card lost or copied): the
    old link dies at once, and a phone still holding it is told it was replaced (the
    director's page: "Fresh link")."""

    @extend_schema(
        request=NewLinkInput,
        responses={
            200: TableLinkOutput,
            404: OpenApiResponse(ErrorOutput, description="The tournament has no such table."),
            409: LINK_RENEWED,
        },
    )
    def post(self, request, slug, tslug, number):
        tournament = _director_tournament(request, slug, tslug, write=True)
        seen = link_version_seen(request)  # a malformed body is refused whatever the table
        link = tournament.table_links.filter(number=number).first()
        if link is None:
            raise exceptions.NotFound(
                f"The tournament has no table {number}: a table has its link once a round "
                "seats it (GET its tables for their numbers)."
            )
        link = table_links.table_link_renew(link_id=link.pk, user=request.user, seen=seen)
        return Response(_link(request, link), headers=NO_STORE)


def _link(request, link) -> dict:
    return link_output(request, link, page="tournament-phone")


class TournamentEndInput(BodyInput):
    round = WholeNumberField(
        min_value=1,
        max_value=32767,
        required=False,
        help_text="the round you end it after, the latest seated as you saw it: if another "
        "has been seated since, nothing is ended (409, error.field `round`)",
    )


#: A taking back's guard in its query: the version of the change as the tournament showed it
#: (`TournamentOutput`), and the code of the 409 that refuses another.
GUARDS = {
    "ending_version": ("the ending", "stale_ending", "3@2025-11-21T20:15:03.123456+00:00"),
    "final_version": ("the declaration", "stale_final", "2025-11-21T20:15:03.123456+00:00"),
}


def _taken_back_schema(what: str, refusals: str, *, guard: str):
    """The schema of a director's change taken back (DELETE, its reason in the query, and
    optionally the guard `guard`)."""
    change, code, _ = GUARDS[guard]
    return extend_schema(
        request=None,
        parameters=[
            OpenApiParameter(
                "reason",
                str,
                required=True,
                description="why it is taken back (it was done by mistake): kept in the "
                "tournament's audit history with the change; the request takes no body",
            ),
            OpenApiParameter(
                guard,
                str,
                required=False,
                description=f"the tournament's `{guard}` as you last read it: only {change} "
                "you saw is taken back, so a call sent twice (a retry after a lost answer), "
                f"{change} having been made again since, is refused with 409, code `{code}`, "
                "as the director's page refuses its form posted twice, and nothing is "
                "written. Without it the call takes back the change as before.",
            ),
        ],
        responses={
            200: TournamentOutput,
            400: OpenApiResponse(
                ErrorOutput,
                description=f"{what} not taken back, nothing written, "
                f"error.message saying why in words: no reason given; {refusals} A key of "
                "the query other than `reason` (a misspelt `reasn`), or any key in a body, "
                "is refused with error.code `unknown_key`, error.field the key. A malformed "
                f"`{guard}`, error.field `{guard}`.",
            ),
            409: OpenApiResponse(
                ErrorOutput,
                description=f"With `{guard}`: {change} it names was taken back and made "
                f"again since (error.code `{code}`), nothing written; or a lock not granted "
                "in time.",
            ),
        },
    )


def _reason(request, *, guard: str) -> str:
    """A taking back's reason, from the query (a DELETE's body is not read): its service
    refuses it blank, too long or with a control character, in words."""
    NoBodyInput.refuse_any_key(request, query={"reason", guard})
    return request.query_params.get("reason", "")


def _seen(request, guard: str) -> str | None:
    """The taking back's guard from its query (`GUARDS`), written as its version is
    (tournaments.rounds.ending_version, final_version: the moment in UTC, whatever notation
    it was sent in); None when not sent. A malformed one is refused in words naming it."""
    if guard not in request.query_params:
        return None
    sent = request.query_params[guard]
    change, _, example = GUARDS[guard]
    ending = guard == "ending_version"
    round_number, _, moment = sent.rpartition("@") if ending else ("", "", sent)
    try:
        parsed = MomentField(words=guard).run_validation(moment) if moment else None
    except serializers.ValidationError:
        parsed = None
    well_formed = parsed is not None or (ending and not moment)  # an ending of no moment: "3@"
    if ending and not (round_number.isascii() and round_number.isdigit() and int(round_number)):
        well_formed = False
    if not well_formed:
        raise UserError(
            f"{quoted(sent)} is not {change}'s version as the tournament gives it (such as "
            f"{example}): send the tournament's `{guard}` as you read it.",
            field=guard,
        )
    version = moment_version(parsed)
    return f"{int(round_number)}@{version}" if ending else version


class TournamentEndView(APIView):
    """The director ends a progressive after its latest round (one planned without a number
    of rounds, or before its planned last), once every table of that round has its result
    (the director's page: "End the tournament after round N", asked twice). It is then
    over as one whose planned rounds are played out: no further round is seated, entered
    for or sat out, the tables' phones record nothing more, and each table of that round
    may still correct its last deal (law 5, ruling E9) until the results are declared
    final (`.../results-final/`). Taken back, with a reason (DELETE), until the results
    are declared final (tournaments.rounds.tournament_reopen)."""

    @extend_schema(
        request=TournamentEndInput,
        responses={
            200: TournamentOutput,
            400: OpenApiResponse(
                ErrorOutput, description="Not ended, nothing written, error.message saying "
                "why in words (error.field `action`): a ladder; a tournament whose latest "
                "round is its planned last, or ended already; no round seated; a table of "
                "the latest round still playing, named (error.code `round_unfinished`; "
                "ruling P1 when level after its fixed deals). Or a `round` that is not a "
                "whole number.",
            ),
            409: OpenApiResponse(
                ErrorOutput, description="`round` is not the latest round seated (error.code "
                "`stale_round`): one was seated since; or a lock not granted in time.",
            ),
        },
    )  # fmt: skip
    def post(self, request, slug, tslug):
        tournament = _director_tournament(request, slug, tslug, write=True)
        data = TournamentEndInput(data=request.data)
        data.is_valid(raise_exception=True)
        ended = rounds.tournament_end(
            tournament_id=tournament.pk, after_round=data.validated_data.get("round")
        )
        return Response(TournamentOutput(ended).data)

    @_taken_back_schema(
        "The ending",
        "a tournament not ended by its director; its results declared final (take that "
        "back first: `DELETE .../results-final/`).",
        guard="ending_version",
    )
    def delete(self, request, slug, tslug):
        """The director takes back his ending, done by mistake, with a reason (the
        director's page: "Take back the ending"): the tournament goes on, its next round to
        be seated; nothing played changes (rulings P1, P2)."""
        tournament = _director_tournament(request, slug, tslug, write=True)
        reopened = rounds.tournament_reopen(
            tournament_id=tournament.pk,
            reason=_reason(request, guard="ending_version"),
            seen=_seen(request, "ending_version"),
        )
        return Response(TournamentOutput(reopened).data)


class ResultsFinalView(APIView):
    """The director declares a progressive's results final, once its last round (planned,
    or the one he ended it after) is played out at every table (the director's page:
    "Declare the results final"). Until then each table of the last round may still correct
    its last deal from its phone (law 5, ruling E9); after it the director corrects any
    deal, with a reason, on the table's sheet. `results_final_at` says when."""

    @extend_schema(
        request=None,
        responses={
            200: TournamentOutput,
            400: OpenApiResponse(
                ErrorOutput, description="Not declared, nothing written, error.message saying "
                "why in words (error.field `action`): a ladder; declared already; no number "
                "of rounds planned and not ended; its last round not yet seated; a table of "
                "the last round still playing, named. It takes no body and no query: a key "
                "in either is refused with error.code `unknown_key`, error.field the key.",
            ),
        },
    )  # fmt: skip
    def post(self, request, slug, tslug):
        tournament = _director_tournament(request, slug, tslug, write=True)
        NoBodyInput.refuse_any_key(request)
        final = rounds.tournament_results_final(tournament_id=tournament.pk)
        return Response(TournamentOutput(final).data)

    @_taken_back_schema(
        "The declaration",
        "results not declared final; a deal corrected on its table's sheet since they were "
        "(law 5, ruling E9).",
        guard="final_version",
    )
    def delete(self, request, slug, tslug):
        """The director takes back his declaration that the results are final, made by
        mistake, with a reason: the tables of the last round may again correct their last
        deal from their phones until he declares them final again (law 5, ruling E9)."""
        tournament = _director_tournament(request, slug, tslug, write=True)
        undone = rounds.tournament_results_final_undo(
            tournament_id=tournament.pk,
            reason=_reason(request, guard="final_version"),
            seen=_seen(request, "final_version"),
        )
        return Response(TournamentOutput(undone).data)
