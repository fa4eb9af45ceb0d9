"""API views for tournaments and their standings."""

from django.utils.http import quote_etag
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from club.permissions import club_for_director, club_for_request
from config.api import Pagination, paginated
from core.text import NameField, TextField
from scoring.models import RULESET_CHOICES
from tournaments import rounds, selectors, services
from tournaments.metrics import METRICS
from tournaments.models import Tournament


class TournamentOutput(serializers.ModelSerializer):
    evenings = serializers.PrimaryKeyRelatedField(many=True, read_only=True)

    class Meta:
        model = Tournament
        fields = [
            "slug", "name", "kind", "ruleset", "is_public", "precedence", "evenings",
            "movement", "rounds_planned", "deals_per_round", "standings_round",
            "standings_version",
        ]  # fmt: skip


def _precedence_field() -> serializers.ListField:
    """The director's precedence list: metric keys from the registry, each described in the
    schema as the registry describes it."""
    described = "; ".join(
        f"`{m.key}`: {m.title}, {m.description} ({'more' if m.higher_is_better else 'fewer'} "
        "is better)"
        for m in METRICS.values()
    )
    return serializers.ListField(
        child=serializers.ChoiceField(choices=[(m.key, m.title) for m in METRICS.values()]),
        required=False,
        help_text=f"Metrics in order of precedence, the first deciding most. {described}.",
    )


class TournamentInput(serializers.Serializer):
    name = TextField()
    slug = serializers.SlugField(max_length=60)
    kind = serializers.ChoiceField(choices=Tournament.Kind.choices)
    ruleset = serializers.ChoiceField(choices=RULESET_CHOICES, required=False, default="")
    is_public = serializers.BooleanField(default=True)
    precedence = _precedence_field()
    evenings = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=2**63 - 1), required=False
    )
    movement = serializers.CharField(required=False, default="")
    rounds_planned = serializers.IntegerField(min_value=1, max_value=100, required=False)
    deals_per_round = serializers.IntegerField(min_value=1, max_value=100, required=False)


class TournamentUpdateInput(serializers.Serializer):
    name = TextField(required=False)
    is_public = serializers.BooleanField(required=False)
    precedence = _precedence_field()
    evenings = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=2**63 - 1), required=False
    )
    standings_round = serializers.IntegerField(min_value=0, required=False)


class StandingRowOutput(serializers.Serializer):
    member = serializers.IntegerField()
    name = serializers.CharField()
    rank = serializers.IntegerField()
    tied = serializers.BooleanField()
    display_rank = serializers.CharField()
    metrics = serializers.JSONField()


class MetricOutput(serializers.Serializer):
    key = serializers.CharField()
    title = serializers.CharField()
    description = serializers.CharField()
    higher_is_better = serializers.BooleanField()


class StandingsOutput(serializers.Serializer):
    tournament = serializers.CharField()
    version = serializers.IntegerField()
    computed_at = serializers.DateTimeField(allow_null=True)
    precedence = MetricOutput(many=True)
    rows = StandingRowOutput(many=True)


class ProgressOutput(serializers.Serializer):
    state = serializers.CharField()
    percent = serializers.IntegerField()
    version = serializers.IntegerField(required=False)


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


class StandingsView(APIView):
    """The latest published standings; `If-None-Match` with the version's ETag gets 304."""

    @extend_schema(responses=StandingsOutput)
    def get(self, request, slug, tslug):
        club = club_for_request(request, slug)
        tournament = selectors.tournament_for(club=club, slug=tslug, user=request.user)
        number = selectors.standings_version_number(tournament_id=tournament.pk)
        etag = quote_etag(f"standings-{tournament.pk}-{number}")
        if request.headers.get("If-None-Match") == etag:
            return Response(status=status.HTTP_304_NOT_MODIFIED, headers={"ETag": etag})
        body = selectors.standings_published(tournament=tournament, number=number)
        return Response(body, headers={"ETag": etag, "Cache-Control": "no-cache"})


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
        services.standings_request_full(tournament_id=tournament.pk)
        return Response(
            services.standings_progress(tournament_id=tournament.pk),
            status=status.HTTP_202_ACCEPTED,
        )


class EntryInput(serializers.Serializer):
    name = NameField()
    new_player = serializers.BooleanField(
        default=False,
        help_text="the name looks like a member's, and this is a new player all the same",
    )


class EntryOutput(serializers.Serializer):
    member = serializers.IntegerField(source="member_id")
    name = serializers.CharField(source="member.name")
    joined_round = serializers.IntegerField()
    left_round = serializers.IntegerField(allow_null=True)
    bye_rounds = serializers.ListField(child=serializers.IntegerField())


class RoundOutput(serializers.Serializer):
    number = serializers.IntegerField()
    tables = serializers.ListField(child=serializers.JSONField())
    byes = serializers.ListField(child=serializers.CharField())
    requested_byes = serializers.ListField(child=serializers.CharField())
    relaxations = serializers.ListField(child=serializers.JSONField())


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
        entry = rounds.tournament_withdraw(tournament=tournament, member_id=member)
        return Response(EntryOutput(entry).data)


class TournamentPlayerByeView(APIView):
    """A player sits out the next round at his own request: the movement seats the others,
    and the round lists him under `requested_byes` (the director's page: "Sits out")."""

    @extend_schema(request=None, responses=EntryOutput)
    def post(self, request, slug, tslug, member):
        tournament = _director_tournament(request, slug, tslug, write=True)
        entry = rounds.tournament_bye(tournament=tournament, member_id=member)
        return Response(EntryOutput(entry).data)


class RoundsView(APIView):
    """The rounds seated so far; the director seats the next one with the movement.

    Each round's `relaxations` are the movement's report of what it could not honour
    that round; the director's page shows them in words under the round."""

    @extend_schema(responses=RoundOutput(many=True))
    def get(self, request, slug, tslug):
        tournament = _director_tournament(request, slug, tslug)
        return Response([rounds.round_as_dict(r) for r in tournament.rounds.order_by("number")])

    @extend_schema(request=None, responses={201: RoundOutput})
    def post(self, request, slug, tslug):
        tournament = _director_tournament(request, slug, tslug, write=True)
        played = rounds.round_seat_next(tournament_id=tournament.pk, user=request.user)
        return Response(rounds.round_as_dict(played), status=status.HTTP_201_CREATED)
