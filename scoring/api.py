"""API views for rule sets, stateless scoresheets, rubbers and hands.

The laws validate hands (scoring.rules); the serializers here describe the
shapes for the OpenAPI schema and check only what is not a matter of law.
"""

from collections.abc import Callable

from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
)
from rest_framework import exceptions, serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from club import confirmations, recording
from club.api_confirm import ConfirmationOutput
from club.models import Club, Evening, Table
from club.permissions import club_for_request, manages_club, recorder_check, table_of_request
from club.selectors import rubbers_hidden_from
from config.api import Pagination, UserError, paginated
from config.schema import ErrorOutput
from config.throttles import (
    PUBLIC_READ_THROTTLES,
    AnonRateThrottle,
    ScopedRateThrottle,
    UserRateThrottle,
)
from core.compiled import Compiled
from core.inputs import BodyInput, MomentField, NoBodyInput, WholeNumberField
from core.text import REASON_MAX, TextField, clean_name
from scoring import selectors, services
from scoring.hand_input import HandField, HandRecordInput
from scoring.models import RULESET_CHOICES, Rubber
from scoring.rules import RULESETS
from scoring.sheet import MAX_SHEET_HANDS, score_sheet


class ScoresheetInput(BodyInput):
    ruleset = serializers.ChoiceField(choices=RULESET_CHOICES)
    options = serializers.DictField(required=False)
    players = serializers.JSONField(required=False)
    stake = serializers.CharField(required=False, help_text='a decimal string, e.g. "0.25"')
    hands = serializers.ListField(
        child=serializers.DictField(),
        required=False,
        max_length=MAX_SHEET_HANDS,
        help_text=f"Euchre and Bridge: the hands in order, at most {MAX_SHEET_HANDS}",
    )
    deals = serializers.ListField(
        child=serializers.DictField(),
        required=False,
        max_length=MAX_SHEET_HANDS,
        help_text=f"Call-Ace: the deals in order, at most {MAX_SHEET_HANDS}",
    )
    closed = serializers.BooleanField(
        required=False,
        help_text="Call-Ace only: whether the sitting is over (default true); a partnership "
        "rubber refuses it",
    )


class HandOutput(serializers.Serializer):
    """A scored hand: its points per side (Bridge: below and above the line) or per
    player (Call-Ace), and the explanation, one line per law or ruling applied."""

    number = WholeNumberField()
    hand = serializers.JSONField(required=False, help_text="the hand as recorded (stored)")
    points = serializers.JSONField()
    lines = serializers.ListField(child=serializers.CharField())
    game_won = serializers.CharField(allow_null=True)
    rubber_complete = serializers.BooleanField()
    facts = serializers.JSONField()
    recorded_at = serializers.DateTimeField(required=False)
    corrected = serializers.BooleanField(required=False)
    changed_at = serializers.DateTimeField(
        required=False,
        help_text=(
            "when the hand was last changed: its last correction's moment, else recorded_at; "
            "a correction may name it (changed_at) to correct only this version of the hand"
        ),
    )
    corrections = serializers.ListField(child=serializers.JSONField(), required=False)
    confirmation = ConfirmationOutput(
        allow_null=True,
        required=False,
        help_text="the other side's word on the hand, where the club asks for it",
    )


class RubberResultOutput(serializers.Serializer):
    complete = serializers.BooleanField()
    winner = serializers.CharField(allow_null=True)
    totals = serializers.JSONField()
    value = WholeNumberField(allow_null=True)


class ScoresheetOutput(serializers.Serializer):
    """A scored sheet (docs/scoresheet.md); stored rubbers add id, status and corrections."""

    id = WholeNumberField(required=False)
    ruleset = serializers.CharField()
    title = serializers.CharField(required=False)
    options = serializers.JSONField()
    players = serializers.JSONField(allow_null=True)
    stake = serializers.CharField(allow_null=True)
    status = serializers.CharField(required=False)
    evening = WholeNumberField(allow_null=True, required=False)
    table = WholeNumberField(allow_null=True, required=False)
    hands = HandOutput(many=True, required=False)
    deals = HandOutput(many=True, required=False)
    games = serializers.ListField(child=serializers.JSONField())
    current = serializers.JSONField(allow_null=True, required=False)
    rubber = RubberResultOutput()
    played = WholeNumberField()
    totals = serializers.JSONField(required=False)
    settlement = serializers.JSONField(required=False)
    ledger = serializers.DictField(
        child=serializers.CharField(),
        allow_null=True,
        help_text=(
            "each player's money once the rubber is over (ruling M1), null before; empty "
            "for a Call-Ace sitting ended before any deal, which settles nothing (ruling C5)"
        ),
    )


class RecordedHandOutput(HandOutput):
    rubber = serializers.JSONField(help_text="the rubber's status and summary after the hand")


class RulesetOutput(serializers.Serializer):
    key = serializers.CharField()
    title = serializers.CharField()
    partnership = serializers.BooleanField()
    players = serializers.ListField(child=WholeNumberField())
    options = serializers.JSONField()
    hands_key = serializers.CharField()
    correction_law = serializers.CharField(allow_null=True)
    correction = serializers.CharField()


class RulesetsView(APIView):
    """The rule sets the service scores by, with their options and correction limits."""

    @extend_schema(responses=RulesetOutput(many=True))
    def get(self, request):
        return Response(
            [
                {
                    "key": rules.key,
                    "title": rules.title,
                    "partnership": rules.partnership,
                    "players": [rules.min_players, rules.max_players],
                    "options": rules.validate_options(None),
                    "hands_key": rules.hands_key,
                    "correction_law": rules.correction_law,
                    "correction": rules.correction_text,
                }
                for rules in RULESETS.values()
            ]
        )


class ScoresheetScoreView(APIView):
    """Score a whole scoresheet without storing anything (docs/scoresheet.md)."""

    # Open to anyone: besides the API's own throttles, its own rate (THROTTLE_SCORESHEET)
    # and the sheet's bound on hands keep one caller from holding the workers.
    throttle_classes = [AnonRateThrottle, UserRateThrottle, ScopedRateThrottle]
    throttle_scope = "scoresheet"

    @extend_schema(
        description=(
            "Score a whole scoresheet without storing anything (docs/scoresheet.md). A sheet "
            f"holds at most {MAX_SHEET_HANDS} hands (Call-Ace: deals), whatever its rule set; "
            "past that it is refused (400, field `hands` or `deals`). Rate limited per caller "
            "(setting THROTTLE_SCORESHEET; 429 past it)."
        ),
        request=ScoresheetInput,
        responses={
            200: ScoresheetOutput,
            400: OpenApiResponse(description="error"),
            429: OpenApiResponse(description="too many sheets from this caller; try later"),
        },
    )
    def post(self, request):
        if not isinstance(request.data, dict):
            raise exceptions.ValidationError({"non_field_errors": ["Send a JSON object."]})
        # The laws check the sheet (scoring.sheet); a key it does not take is named with
        # the keys it does (core.inputs.BodyInput).
        ScoresheetInput.check_keys(request.data)
        return Response(score_sheet(request.data))


class RubberInput(BodyInput):
    ruleset = serializers.ChoiceField(choices=RULESET_CHOICES)
    players = serializers.JSONField(
        help_text='{"NS": [a, b], "EW": [c, d]}, or a list of 4-7 names for Call-Ace'
    )
    options = serializers.DictField(required=False)
    stake = serializers.CharField(required=False, help_text="default: the evening's stake")
    evening = WholeNumberField(required=False)
    table = WholeNumberField(required=False, help_text="the table's number")

    def validate_players(self, value):
        """Each name cleaned as every name is (core.text.clean_name); the shape is the
        service's to check."""

        def clean(names, path):
            if not isinstance(names, list):
                return names
            return [
                clean_name(n, field=f"{path}[{i}]", label="The player's name")
                if isinstance(n, str)
                else n
                for i, n in enumerate(names)
            ]

        try:
            if isinstance(value, dict):
                return {side: clean(names, f"players.{side}") for side, names in value.items()}
            return clean(value, "players")
        except UserError as exc:
            raise serializers.ValidationError(exc.message) from exc


class RubberSummaryOutput(serializers.ModelSerializer):
    class Meta:
        model = Rubber
        fields = [
            "id", "ruleset", "players", "stake", "status", "winner", "value", "hand_count",
            "evening", "created_at", "completed_at",
        ]  # fmt: skip


# What a write needs to decide who may make it (its id, club and table), read by every
# write but a hand's (which checks the rubber it locks): compiled once (core/compiled.py).
_TO_WRITE = Compiled(
    lambda club_id, pk: Rubber.objects.filter(club_id=club_id, pk=pk).only(
        "id", "club_id", "table_id"
    ),
    int,
    int,
)


def _rubber(request, slug: str, pk: int, *, to_write: bool = False) -> Rubber:
    """The club's rubber the request names (404 when it may not see it). `to_write`: only
    what deciding who may write to it needs (its id, club and table), as a write reads
    the rubber again under its lock (club.recording); and the caller must be one who
    may write to it (`write_access`)."""
    if to_write:
        club, check = write_access(request, slug)
        rubber = _TO_WRITE.first(club.pk, pk)
        check(rubber)
        rubber.club = club  # the club read once for the request
        return rubber
    club = club_for_request(request, slug, for_table=True)
    table = table_of_request(request)
    rubbers = Rubber.objects.filter(club=club).select_related("evening", "table")
    # A table's link reads only its own table's rubbers when the club is private.
    if table is not None and not club.is_public and not manages_club(request, club):
        rubbers = rubbers.filter(table=table)
    # Nor does anyone but its officers read a rubber whose play is not public (a round of
    # a progressive whose standings are not).
    if (hidden := rubbers_hidden_from(club=club, user=request.user)) is not None:
        rubbers = rubbers.exclude(pk__in=hidden)
    rubber = get_object_or_404(rubbers, pk=pk)
    rubber.club = club  # the club read once for the request
    return rubber


#: A write to a rubber the caller cannot see, in words: one the table no longer has (a
#: rubber is taken back when the secretary undoes the cut that began it, while no hand has
#: been played in it) is told what to do, and is not told apart from another club's.
NO_SUCH_RUBBER = (
    "This club has no such rubber (a rubber is taken back when the secretary undoes the "
    "cut that began it), so nothing was recorded or changed; ask the secretary which "
    "rubber the table plays now."
)


def write_access(request, slug: str) -> tuple[Club, Callable[[Rubber | None], None]]:
    """Who may write to one of the club's rubbers: the club's secretary, the phone at the
    rubber's own table, or a club's director at a progressive's table (a recorder the
    tournaments registered: club.permissions.recorder_check). Decided here as far as it
    can be without the rubber (401 or 403 for anyone else), and by the check returned for
    the rubber itself: 404 when the caller may not see it (another club's; in a private
    club, another table's; one whose play is not public, a private progressive's), 403
    for another table's, or for a director a rubber not at a tournament's table.
    Recording a hand makes that check on the rubber it locks
    (`club.recording.hand_record(authorize=...)`): the hand reads the rubber once."""
    club = club_for_request(request, slug, for_table=True)
    table = table_of_request(request)
    secretary = manages_club(request, club)
    referee = None  # a director's check of a rubber (club.permissions.recorder_check)
    if not secretary and table is None:
        if not request.user.is_authenticated and request.auth is None:
            raise exceptions.NotAuthenticated()
        referee = recorder_check(request.user, club)
        if referee is None:
            raise exceptions.PermissionDenied(
                "Only the club's secretary or the table may record hands."
            )

    def check(rubber: Rubber | None) -> None:
        if rubber is None or rubber.club_id != club.pk:
            raise exceptions.NotFound(NO_SUCH_RUBBER)
        if referee is not None:
            if not referee(rubber):
                raise exceptions.PermissionDenied(
                    "A tournament director records hands only at his tournaments' tables; "
                    "this rubber is the secretary's or its table's."
                )
            return
        own_table = table is not None and rubber.table_id == table.pk
        if not secretary and not own_table:
            # A table's link sees only its own table's rubbers when the club is private,
            # and none whose play is not public (a private progressive's) when it is.
            if not club.is_public or _hidden(club, rubber, request.user):
                raise exceptions.NotFound(NO_SUCH_RUBBER)
            raise exceptions.PermissionDenied("This table's link opens only its own hands.")

    return club, check


def _hidden(club: Club, rubber: Rubber, user) -> bool:
    """Whether the club keeps this rubber's play from this caller (club.selectors)."""
    hidden = rubbers_hidden_from(club=club, user=user)
    return hidden is not None and Rubber.objects.filter(pk=rubber.pk, pk__in=hidden).exists()


def _change(request, rubber: Rubber, *, number: int, reason: str) -> dict:
    """Who changes a recorded hand: the secretary (the club's referee, ruling E9), or
    the phone at the rubber's table (only within law 5's limits)."""
    is_secretary = manages_club(request, rubber.club)
    return {
        "number": number,
        "reason": reason,
        "user": request.user,
        "table": None if is_secretary else table_of_request(request),
        "is_secretary": is_secretary,
    }


class RubberListQuery(serializers.Serializer):
    status = serializers.ChoiceField(
        choices=Rubber.Status.choices,
        required=False,
        allow_blank=True,
        help_text="only the rubbers in this state",
    )


class RubberListView(APIView):
    """A club's rubbers and Call-Ace sittings; the secretary starts one. Not at a closed
    evening, nor at a table the evening formed: those get their rubbers from the evening,
    its players cutting for partners and deal on the board (ruling T4); and at an evening
    only at one of its tables."""

    pagination_class = Pagination  # documents the paginated shape in the schema

    @extend_schema(
        parameters=[RubberListQuery],
        responses={
            200: RubberSummaryOutput(many=True),
            400: OpenApiResponse(
                ErrorOutput, description="A `status` a rubber cannot have: named in error.field."
            ),
        },
    )
    def get(self, request, slug):
        club = club_for_request(request, slug, for_table=True)
        table = table_of_request(request)
        if club.is_public or manages_club(request, club):
            table = None
        hidden = rubbers_hidden_from(club=club, user=request.user)
        rubbers = selectors.rubbers_of(club=club, hidden=hidden, table=table)
        # Only a status a rubber can have is asked of the database; any other is refused
        # (a NUL in it was a 500 on PostgreSQL).
        query = RubberListQuery(data=request.query_params)
        query.is_valid(raise_exception=True)
        if status_filter := query.validated_data.get("status"):
            rubbers = rubbers.filter(status=status_filter)
        return paginated(request, self, rubbers, RubberSummaryOutput)

    @extend_schema(request=RubberInput, responses={201: ScoresheetOutput})
    def post(self, request, slug):
        club = club_for_request(request, slug, write=True)
        data = RubberInput(data=request.data)
        data.is_valid(raise_exception=True)
        values = dict(data.validated_data)
        evening = table = None
        if "evening" in values:
            evening = get_object_or_404(Evening, club=club, pk=values.pop("evening"))
            if evening.status == Evening.Status.CLOSED:
                # No hand could be recorded in it: it would stay in progress, unplayable.
                raise UserError(
                    "The evening is closed; a secretary must reopen it first.",
                    field="evening",
                    code="closed",
                )
        if evening is not None and "table" not in values:
            # The evening's board, its closing and its room know rubbers by their tables:
            # one at no table broke the board (a 500) and could not be answered for at
            # closing.
            raise UserError(
                "A rubber at an evening is played at one of its tables: name the table.",
                field="table",
            )
        if "table" in values:
            number = values.pop("table")
            if evening is None:
                raise exceptions.ValidationError({"table": ["Name the evening of the table."]})
            table = get_object_or_404(Table, evening=evening, number=number)
            if evening.state:
                # A table the evening formed gets its rubbers from the evening, each logged:
                # one started here became the table's rubber in progress beside it.
                raise UserError(
                    f"Table {number}'s rubbers are started by the evening: its players cut "
                    "for partners and deal on the board, and its hands are recorded there.",
                    field="table",
                    law="ruling T4",
                )
        rubber = services.rubber_start(
            club=club, evening=evening, table=table, user=request.user, **values
        )
        return Response(selectors.rubber_scoresheet(rubber=rubber), status=status.HTTP_201_CREATED)


class RubberDetailView(APIView):
    """A rubber's scoresheet: hands with explanations, games, laps, values, ledger."""

    throttle_classes = PUBLIC_READ_THROTTLES  # made afresh: THROTTLE_PUBLIC too

    @extend_schema(responses=ScoresheetOutput)
    def get(self, request, slug, pk):
        rubber = _rubber(request, slug, pk)
        sheet = selectors.rubber_scoresheet(rubber=rubber)
        return Response(confirmations.with_confirmations(sheet, rubber=rubber, club=rubber.club))


class ExpectedNumberQuery(serializers.Serializer):
    expected_number = WholeNumberField(required=False, min_value=1)


class RubberHandsView(APIView):
    """Record the next hand (Call-Ace: deal) of a rubber: the secretary or the table.

    The body is the same as at a table's endpoint: `{"hand": {...}, "expected_number": n}`.
    Deprecated, still accepted: the bare hand as the body, with `?expected_number=` in the
    query.
    """

    @extend_schema(
        request=HandRecordInput,
        parameters=[
            OpenApiParameter(
                "expected_number", int, deprecated=True,
                description="deprecated: send expected_number in the body, beside the hand",
            )
        ],
        responses={201: RecordedHandOutput},
    )  # fmt: skip
    def post(self, request, slug, pk):
        club, check = write_access(request, slug)
        if isinstance(request.data, dict) and "hand" in request.data:
            body = HandRecordInput(data=request.data)
        else:  # the deprecated shape: no hand has a key "hand"
            query = ExpectedNumberQuery(data=request.query_params)
            query.is_valid(raise_exception=True)
            body = HandRecordInput(data={"hand": request.data, **query.validated_data})
        body.is_valid(raise_exception=True)
        table = None if manages_club(request, club) else table_of_request(request)
        # At an evening's table the evening logs the hand and, when it ends the rubber,
        # cuts players in and out (law 15); it refuses a rubber that is no longer the
        # table's current one (club.recording). Whether this caller may write to the
        # rubber is checked on the rubber it locks.
        hand = recording.hand_record(
            rubber_id=pk,
            authorize=check,
            data=body.validated_data["hand"],
            user=request.user,
            table=table,
            expected_number=body.validated_data.get("expected_number"),
        )
        rubber = hand.rubber  # as the service left it, locked and written: no reload
        body = selectors.hand_as_dict(hand, rubber=rubber, corrections=[])  # none yet
        body["confirmation"] = confirmations.confirmation_as_dict(
            confirmations.of_hand(hand)  # written by the receiver, if the club asks
        )
        body["rubber"] = {"status": rubber.status, **rubber.summary}
        return Response(body, status=status.HTTP_201_CREATED)


#: `changed_at` beside a correction: which version of the hand the caller saw, as the
#: phones send it.
CHANGED_AT_HELP = (
    "optional: the hand's changed_at as the API gave it (ISO 8601 with its offset: its last "
    "correction's moment, else its recorded_at), naming the very version of the hand the "
    "caller corrects; then a hand changed since is refused with 409 in words "
    "(hand_corrected, corrected since; hand_taken_back; hand_replaced, taken back and entered "
    "again; hand_not_recorded) and nothing is written. Without it, the correction is made "
    "to the hand as it is (law 5, ruling E9)"
)

#: The 409 a correction naming `changed_at` answers besides those of every write, in the
#: error shape (given with its body, config.schema keeps its words).
CORRECT_CONFLICT = OpenApiResponse(
    ErrorOutput,
    description=(
        "Conflict: with changed_at, the hand was changed since the caller saw it (error.code: "
        "hand_corrected, corrected since; hand_taken_back, taken back; hand_replaced, taken "
        "back and entered again; hand_not_recorded), with the hand as it now reads in "
        "error.details, nothing written; or, as for every write, a lock not granted in time "
        "(Retry-After) or the same Idempotency-Key still running."
    ),
)


class CorrectionInput(BodyInput):
    hand = HandField(help_text="the corrected hand, in the scoresheet's shape")
    reason = TextField(
        max_length=REASON_MAX, multiline=True, required=False, allow_blank=True, default=""
    )
    changed_at = MomentField(
        words="The changed_at (when the hand was last changed)",
        required=False,
        help_text=CHANGED_AT_HELP,
    )


class RubberHandDetailView(APIView):
    """One hand with its corrections; correcting it re-scores every hand after it."""

    @extend_schema(responses=HandOutput)
    def get(self, request, slug, pk, number):
        rubber = _rubber(request, slug, pk)
        hand = get_object_or_404(
            rubber.hands.prefetch_related("corrections").select_related("confirmation"),
            number=number,
        )
        body = selectors.hand_as_dict(hand, rubber=rubber)
        body["confirmation"] = confirmations.confirmation_as_dict(confirmations.of_hand(hand))
        return Response(body)

    @extend_schema(
        request=CorrectionInput, responses={200: ScoresheetOutput, 409: CORRECT_CONFLICT}
    )
    def put(self, request, slug, pk, number):
        rubber = _rubber(request, slug, pk, to_write=True)
        data = CorrectionInput(data=request.data)
        data.is_valid(raise_exception=True)
        change = _change(request, rubber, number=number, reason=data.validated_data["reason"])
        # At an evening's table, logged in the evening's record (club.recording).
        hand = recording.hand_correct(
            rubber_id=rubber.pk,
            **change,
            data=data.validated_data["hand"],
            changed_at=data.validated_data.get("changed_at"),
        )
        club = rubber.club  # as read for the request
        rubber = hand.rubber  # as the service left it: no reload
        sheet = selectors.rubber_scoresheet(rubber=rubber)
        return Response(confirmations.with_confirmations(sheet, rubber=rubber, club=club))


#: `recorded_at` beside a removal: which hand the caller saw, as the phones send it.
REMOVED_AT_HELP = (
    "optional: the hand's recorded_at as the API gave it (ISO 8601 with its offset), naming "
    "the very hand the caller saw; then a hand that is not it is refused with 409 in words "
    "(hand_not_last, hand_taken_back, hand_replaced, hand_not_recorded) and nothing is taken "
    "off. Without it, the number alone: 400 for a hand that is not the last (law 5, ruling "
    "E9)"
)

#: The 409 a removal naming `recorded_at` answers besides those of every write, in the
#: error shape (given with its body, config.schema keeps its words).
REMOVE_CONFLICT = OpenApiResponse(
    ErrorOutput,
    description=(
        "Conflict: with recorded_at, the hand named is not the one the caller saw (error.code: "
        "hand_not_last, a later hand recorded since; hand_taken_back, taken back already; "
        "hand_replaced, taken back and entered again since; hand_not_recorded), nothing "
        "taken off (law 5, ruling E9); or, as for every write, a lock not granted in time "
        "(Retry-After) or the same Idempotency-Key still running."
    ),
)


class RemoveInput(BodyInput):
    reason = TextField(
        max_length=REASON_MAX, multiline=True, required=False, allow_blank=True, default=""
    )
    recorded_at = MomentField(
        words="The recorded_at (when the hand was recorded)",
        required=False,
        help_text=REMOVED_AT_HELP,
    )


class RubberHandRemoveView(APIView):
    """Take the last recorded hand off a rubber (same limits as a correction, law 5).
    With `recorded_at`, only the very hand the caller saw (club.recording.hand_remove)."""

    @extend_schema(request=RemoveInput, responses={200: ScoresheetOutput, 409: REMOVE_CONFLICT})
    def post(self, request, slug, pk, number):
        rubber = _rubber(request, slug, pk, to_write=True)
        data = RemoveInput(data=request.data)
        data.is_valid(raise_exception=True)
        change = _change(request, rubber, number=number, reason=data.validated_data["reason"])
        # At an evening's table, logged in the evening's record (club.recording).
        removed = recording.hand_remove(
            rubber_id=rubber.pk, **change, recorded_at=data.validated_data.get("recorded_at")
        )
        # The rubber as the service left it, locked and written: no reload.
        return Response(selectors.rubber_scoresheet(rubber=removed.rubber))


class HandHistoryView(APIView):
    """A hand's audit history, for the club's secretary: every change with who and why."""

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request, slug, pk, number):
        rubber = _rubber(request, slug, pk)
        if not manages_club(request, rubber.club):
            if not request.user.is_authenticated and request.auth is None:
                raise exceptions.NotAuthenticated()
            raise exceptions.PermissionDenied("A hand's history is for the club's secretary.")
        hand = get_object_or_404(rubber.hands, number=number)
        return Response(
            {
                "history": selectors.hand_history(hand=hand),
                "corrections": selectors.hand_as_dict(hand, rubber=rubber)["corrections"],
            }
        )


class RubberCloseView(APIView):
    """End a Call-Ace sitting and settle it (ruling C5)."""

    @extend_schema(request=None, responses=ScoresheetOutput)
    def post(self, request, slug, pk):
        rubber = _rubber(request, slug, pk, to_write=True)
        NoBodyInput.refuse_any_key(request)
        rubber = recording.sitting_close(rubber_id=rubber.pk)
        return Response(selectors.rubber_scoresheet(rubber=rubber))
