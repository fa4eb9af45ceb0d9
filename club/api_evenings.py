"""API views for running an evening: its state, actions, hands from the table, the log,
closing and reopening, the ledger."""

from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import exceptions, serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from club import evening_log, evenings, exports, phone_links, recording, services
from club.evening_undo import evening_undo, logged_action
from club.formation.cards import cards_shown
from club.history import describe
from club.models import Evening, Table
from club.permissions import club_for_request, manages_club, table_of_request
from config.api import Pagination, paginated
from config.csvexport import csv_response
from config.schema import ErrorOutput
from config.throttles import PUBLIC_READ_THROTTLES
from core.inputs import AmountField, BodyInput, MomentField, WholeNumberField
from core.moments import moment_version
from core.text import REASON_MAX, TextField
from scoring.api import CORRECT_CONFLICT, REMOVE_CONFLICT, CorrectionInput, RemoveInput
from scoring.hand_input import HandRecordInput
from scoring.models import RULESET_CHOICES


class EveningOutput(serializers.ModelSerializer):
    class Meta:
        model = Evening
        fields = ["id", "title", "date", "ruleset", "options", "stake", "status", "version"]


class EveningInput(BodyInput):
    title = TextField(required=False, default="", allow_blank=True, words="The evening's title")
    date = serializers.DateField()
    ruleset = serializers.ChoiceField(choices=RULESET_CHOICES)
    options = serializers.DictField(required=False, default=dict)
    stake = AmountField(
        max_digits=12, decimal_places=2, min_value=0, help_text="per point (ruling M1)"
    )


class EventInput(BodyInput):
    """An action: an event of the evening's log (docs/evening-log.md). Each type takes only
    its documented keys (the service checks them, and cleans the names in them)."""

    other_keys_checked_by = "club.evenings, by the action's type (docs/evening-log.md)"

    type = serializers.ChoiceField(choices=sorted(evenings.SECRETARY_EVENTS))
    expected_version = WholeNumberField(
        required=False, help_text="the evening's version the device saw; stale gets 409"
    )


class TableHandInput(HandRecordInput):
    """A hand for a table's rubber in progress, with the evening's version the device saw
    and, as the table's phone sends it, the rubber the hand was entered for."""

    expected_version = WholeNumberField(required=False)
    rubber = WholeNumberField(
        required=False,
        help_text=(
            "the id of the rubber the hand was entered for (one kept on a device to send "
            "later): a hand for a rubber that is over is refused with 409 (code rubber_over), "
            "and one for a rubber the table no longer has, its cut undone, with 409 (code "
            "rubber_gone); never recorded in the rubber in play"
        ),
    )


class HandCorrectInput(CorrectionInput):
    """The rubber door's correction input (scoring.api.CorrectionInput, its `changed_at`
    included), with the evening's version as the device saw it."""

    expected_version = WholeNumberField(required=False)


class UndoInput(BodyInput):
    """Undo the evening's last action (club.evening_undo)."""

    reason = TextField(
        max_length=REASON_MAX, multiline=True, required=False, allow_blank=True, default="",
        help_text="kept in the log and shown in the evening's history",
    )  # fmt: skip
    expected_version = WholeNumberField(
        required=False, help_text="the evening's version the device saw; stale gets 409"
    )
    undoes = WholeNumberField(
        required=False,
        help_text="the log entry (its `seq`) the client means to undo: refused unless it is "
        "the last",
    )


#: The evening's version a one-off action (a reopen, a sitting ended) carries, as the
#: board's forms carry it: a call retried after a lost answer acts once.
def _version_guard(what: str) -> WholeNumberField:
    return WholeNumberField(
        required=False,
        min_value=0,
        help_text=f"the evening's version as you last read it (`version`): {what} once, so a "
        "call sent twice (a retry after a lost answer) is refused with 409, code `stale`, "
        "as the board refuses its form posted twice, and nothing is done. Without it the "
        "action runs as before.",
    )


#: The 409 of an action that carried the evening's version.
STALE = OpenApiResponse(
    ErrorOutput,
    description="With `expected_version`: the evening has moved on since that version "
    "(error.code `stale`, error.details.version the version now), nothing done; or a lock "
    "not granted in time.",
)


class ReopenInput(BodyInput):
    reason = TextField(max_length=REASON_MAX, multiline=True)
    expected_version = _version_guard("the evening is reopened")


class CloseSittingInput(BodyInput):
    """End the sitting at a table (no other key)."""

    expected_version = _version_guard("the sitting is ended and settled")


class CloseRubberInput(BodyInput):
    """What happened to one rubber still in play (club.closing)."""

    table = WholeNumberField(allow_null=True, help_text="null for a rubber at no table")
    rubber = WholeNumberField(help_text="its number at the table this evening: 1, 2, ...")
    outcome = serializers.ChoiceField(choices=["finished", "abandoned"])
    reason = serializers.CharField(required=False, help_text="why it was abandoned")


class CloseInput(BodyInput):
    rubbers = CloseRubberInput(many=True, required=False)


def _evening(
    request, slug: str, pk: int, *, write: bool = False, for_table: bool = False
) -> Evening:
    """The evening in the URL as this request may see it. `for_table`: the view keeps a
    table's link to its own table (club.permissions), so the link sees its own evening."""
    table = table_of_request(request)
    if table is not None and for_table and not write:
        if table.evening_id == pk and table.club.slug == slug:
            evening = table.evening  # a table's link sees its own evening, read with it
            evening.club = table.club
            return evening
        for_table = False  # another evening: the link sees what the public sees
    club = club_for_request(request, slug, write=write, for_table=for_table)
    return get_object_or_404(Evening.objects.select_related("club"), club=club, pk=pk)


def _rubber_links(request, evening: Evening, rubber: dict) -> dict:
    """Where a client reads a rubber of the evening and changes its hands: the rubber by
    id and, at a table, where the table records a hand and where this rubber's hands are
    corrected or removed (by its ordinal at the table)."""
    slug = evening.club.slug
    links = {"rubber": request.build_absolute_uri(f"/api/v1/clubs/{slug}/rubbers/{rubber['id']}/")}
    if rubber["table"] is not None:
        base = f"/api/v1/clubs/{slug}/evenings/{evening.pk}/tables/{rubber['table']}/"
        links["record"] = request.build_absolute_uri(f"{base}hands/")
        # A hand N of the rubber is at hands/N/ (PUT corrects it, hands/N/remove/ removes).
        links["hands"] = request.build_absolute_uri(f"{base}rubbers/{rubber['ordinal']}/hands/")
    return links


def _summary(request, evening: Evening) -> dict:
    """The evening's summary as the caller may read it: whole for the secretary and, at a
    public club, for anyone; for a private club's table link, only its own table (its
    seats, its pending cut, its rubbers), not the other tables nor the ledger."""
    summary = evenings.evening_summary(evening=evening)
    for rubber in summary["rubbers"]:
        rubber["links"] = _rubber_links(request, evening, rubber)
    table = table_of_request(request)
    if table is None or evening.club.is_public or manages_club(request, evening.club):
        return summary
    mine = table.number
    return {
        "evening": summary["evening"],
        "tables": [t for t in summary["tables"] if t["number"] == mine],
        "pending_cuts": [c for c in summary["pending_cuts"] if c.get("table") == mine],
        "rubbers": [r for r in summary["rubbers"] if r["table"] == mine],
    }


def _table_may_act(request, evening: Evening, number: int) -> Table | None:
    """The secretary acts for any table; a table's phone only for its own (None: secretary)."""
    if manages_club(request, evening.club):
        return None
    table = table_of_request(request)
    if table is None:
        if not request.user.is_authenticated:
            raise exceptions.NotAuthenticated()
        raise exceptions.PermissionDenied("Only the club's secretary or the table may do this.")
    if table.evening_id != evening.pk or table.number != number:
        raise exceptions.PermissionDenied("This table's link opens only its own hands.")
    return table


def _decisions_in_words(decisions: list[dict]) -> list[dict]:
    """What the laws decided, each card named as the board names it, by its suit ("cards
    cut ...: Ann J♠, Dan 10♣", ruling T1); the event's data and the log keep the code."""
    return [{**decision, "text": cards_shown(decision["text"])} for decision in decisions]


class EveningListView(APIView):
    """A club's evenings; the secretary opens a new one."""

    pagination_class = Pagination  # documents the paginated shape in the schema

    @extend_schema(responses=EveningOutput(many=True))
    def get(self, request, slug):
        club = club_for_request(request, slug)
        return paginated(request, self, club.evenings.order_by("-date", "-id"), EveningOutput)

    @extend_schema(request=EveningInput, responses={201: EveningOutput})
    def post(self, request, slug):
        club = club_for_request(request, slug, write=True)
        data = EveningInput(data=request.data)
        data.is_valid(raise_exception=True)
        evening = evenings.evening_open(club=club, **data.validated_data)
        return Response(EveningOutput(evening).data, status=status.HTTP_201_CREATED)


class EveningDetailView(APIView):
    """The evening as the laws see it now: tables, seats, waiting members, candidates,
    pending cuts, what the laws require next, rubbers and the ledger."""

    throttle_classes = PUBLIC_READ_THROTTLES  # made afresh: THROTTLE_PUBLIC too

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request, slug, pk):
        evening = _evening(request, slug, pk, for_table=True)
        return Response(_summary(request, evening))


class EveningEventsView(APIView):
    """Log an action; the answer is the evening afterwards and what the laws decided."""

    @extend_schema(request=EventInput, responses={201: OpenApiTypes.OBJECT})
    def post(self, request, slug, pk):
        evening = _evening(request, slug, pk, write=True)
        data = EventInput(data=request.data)
        data.is_valid(raise_exception=True)
        event = {k: v for k, v in request.data.items() if k != "expected_version"}
        logged = evenings.evening_act(
            evening_id=evening.pk,
            event=event,
            user=request.user,
            expected_version=data.validated_data.get("expected_version"),
        )
        evening.refresh_from_db(fields=evenings.CHANGING)
        return Response(
            {"event": logged.data, "decisions": _decisions_in_words(logged.decisions),
             "evening": evenings.evening_summary(evening=evening)},
            status=status.HTTP_201_CREATED,
        )  # fmt: skip


class EveningUndoView(APIView):
    """Undo the evening's last action, as the board's Undo does (docs/evening-log.md): a
    board action only (an arrival, a cut, a table formed or broken up ...), never a hand
    (a hand is corrected or taken off with a reason, law 5, ruling E9). The log keeps
    both entries; a refusal says why."""

    @extend_schema(request=UndoInput, responses={201: OpenApiTypes.OBJECT})
    def post(self, request, slug, pk):
        evening = _evening(request, slug, pk, write=True)
        data = UndoInput(data=request.data)
        data.is_valid(raise_exception=True)
        logged = evening_undo(evening_id=evening.pk, user=request.user, **data.validated_data)
        evening.refresh_from_db(fields=evenings.CHANGING)
        return Response(
            {"event": logged.data, "undone": cards_shown(describe(logged_action(logged))),
             "evening": evenings.evening_summary(evening=evening)},
            status=status.HTTP_201_CREATED,
        )  # fmt: skip


class EveningLogView(APIView):
    """The evening's log, for `manage.py replay_evening` (docs/evening-log.md)."""

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request, slug, pk):
        return Response(evening_log.evening_export(evening=_evening(request, slug, pk, write=True)))


class TableHandsView(APIView):
    """Record a hand of the rubber in progress at a table (the secretary or the table)."""

    @extend_schema(request=TableHandInput, responses={201: OpenApiTypes.OBJECT})
    def post(self, request, slug, pk, number):
        evening = _evening(request, slug, pk, for_table=True)
        table = _table_may_act(request, evening, number)
        data = TableHandInput(data=request.data)
        data.is_valid(raise_exception=True)
        hand = recording.hand_record(
            evening_id=evening.pk,
            table_number=number,
            data=data.validated_data["hand"],
            user=request.user,
            table=table,
            expected_version=data.validated_data.get("expected_version"),
            expected_number=data.validated_data.get("expected_number"),
            meant_rubber=data.validated_data.get("rubber"),
        )
        evening.refresh_from_db(fields=evenings.CHANGING)
        return Response(
            {"hand": {"number": hand.number, "points": hand.points, "lines": hand.lines},
             "evening": _summary(request, evening)},
            status=status.HTTP_201_CREATED,
        )  # fmt: skip


class TableHandCorrectView(APIView):
    """Correct a hand at a table: freely until the next hand (law 5), then only the
    secretary with a reason (ruling E9)."""

    @extend_schema(
        request=HandCorrectInput, responses={200: OpenApiTypes.OBJECT, 409: CORRECT_CONFLICT}
    )
    def put(self, request, slug, pk, number, rubber, hand):
        evening = _evening(request, slug, pk, for_table=True)
        table = _table_may_act(request, evening, number)
        data = HandCorrectInput(data=request.data)
        data.is_valid(raise_exception=True)
        recording.hand_correct(
            evening_id=evening.pk,
            table_number=number,
            rubber_number=rubber,
            number=hand,
            data=data.validated_data["hand"],
            reason=data.validated_data["reason"],
            user=request.user,
            table=table,
            is_secretary=table is None,
            expected_version=data.validated_data.get("expected_version"),
            changed_at=data.validated_data.get("changed_at"),
        )
        evening.refresh_from_db(fields=evenings.CHANGING)
        return Response(_summary(request, evening))


class TableHandRemoveInput(RemoveInput):
    """The rubber door's removal input (scoring.api.RemoveInput), under the name the
    schema has always given the table's door."""


class TableHandRemoveView(APIView):
    """Take the last hand off a table's rubber, within the limits of a correction: freely
    until the next hand (law 5), then only the secretary with a reason (ruling E9); a
    finished rubber keeps its hands (law 15). With `recorded_at`, only the very hand the
    caller saw (club.recording.hand_remove)."""

    @extend_schema(
        request=TableHandRemoveInput,
        responses={200: OpenApiTypes.OBJECT, 409: REMOVE_CONFLICT},
    )
    def post(self, request, slug, pk, number, rubber, hand):
        evening = _evening(request, slug, pk, for_table=True)
        table = _table_may_act(request, evening, number)
        data = TableHandRemoveInput(data=request.data)
        data.is_valid(raise_exception=True)
        recording.hand_remove(
            evening_id=evening.pk,
            table_number=number,
            rubber_number=rubber,
            number=hand,
            reason=data.validated_data["reason"],
            user=request.user,
            table=table,
            is_secretary=table is None,
            recorded_at=data.validated_data.get("recorded_at"),
        )
        evening.refresh_from_db(fields=evenings.CHANGING)
        return Response(_summary(request, evening))


class TableCloseSittingView(APIView):
    """End the Call-Ace sitting at a table and settle it (ruling C5)."""

    @extend_schema(request=CloseSittingInput, responses={200: OpenApiTypes.OBJECT, 409: STALE})
    def post(self, request, slug, pk, number):
        evening = _evening(request, slug, pk, for_table=True)
        _table_may_act(request, evening, number)
        data = CloseSittingInput(data=request.data)
        data.is_valid(raise_exception=True)
        evenings.evening_close_sitting(
            evening_id=evening.pk,
            table_number=number,
            user=request.user,
            expected_version=data.validated_data.get("expected_version"),
        )
        evening.refresh_from_db(fields=evenings.CHANGING)
        return Response(_summary(request, evening))


class EveningCloseView(APIView):
    """Close the evening: it is frozen until reopened."""

    @extend_schema(request=CloseInput, responses=EveningOutput)
    def post(self, request, slug, pk):
        evening = _evening(request, slug, pk, write=True)
        # The answers are checked by the service (club.closing), field by field; a key
        # neither the body nor an answer takes is refused here (core.inputs.BodyInput).
        CloseInput.check_keys(request.data)
        rubbers = request.data.get("rubbers") if isinstance(request.data, dict) else None
        closed = evenings.evening_close(evening_id=evening.pk, user=request.user, rubbers=rubbers)
        return Response(EveningOutput(closed).data)


class EveningReopenView(APIView):
    """Reopen a closed evening, with a reason kept in the log."""

    @extend_schema(request=ReopenInput, responses={200: EveningOutput, 409: STALE})
    def post(self, request, slug, pk):
        evening = _evening(request, slug, pk, write=True)
        data = ReopenInput(data=request.data)
        data.is_valid(raise_exception=True)
        evening = evenings.evening_reopen(
            evening_id=evening.pk,
            reason=data.validated_data["reason"],
            user=request.user,
            expected_version=data.validated_data.get("expected_version"),
        )
        return Response(EveningOutput(evening).data)


# The tables' links are bearer secrets: an answer holding them is kept in no cache.
NO_STORE = {"Cache-Control": "no-store, private"}


class TableLinkOutput(serializers.Serializer):
    number = WholeNumberField()
    link = serializers.CharField()
    link_version = serializers.CharField(
        help_text="when the link was issued (club.services.phone_link_version): send it "
        "back as a fresh link's `link_version`"
    )


class NewLinkInput(BodyInput):
    """A fresh link for a table (no other key)."""

    link_version = MomentField(
        words="The link_version",
        required=False,
        help_text="the table's `link_version` as you last read it: the link is renewed "
        "only if it is still that one, so a call sent twice (a retry after a lost answer) "
        "does not kill the card just printed for the first: it is refused with 409, code "
        "`link_renewed`, as the board refuses its form posted twice, and nothing is written. "
        "Without it the link is renewed as before.",
    )


#: A fresh link refused (`NewLinkInput`'s guard), for an evening's table and a progressive's.
LINK_RENEWED = OpenApiResponse(
    ErrorOutput,
    description="With `link_version`: the link was renewed since it was read (error.code "
    "`link_renewed`, the words saying when), nothing written; or a lock not granted in time.",
)


def link_version_seen(request) -> str | None:
    """A fresh link's body (`NewLinkInput`, refused in words if malformed): the link's
    version the caller read (club.services.phone_link_version), or None without a guard."""
    data = NewLinkInput(data=request.data)
    data.is_valid(raise_exception=True)
    seen = data.validated_data.get("link_version")
    return moment_version(seen) if seen else None


def link_output(request, link, page: str = "table-phone") -> dict:
    """`TableLinkOutput`'s figures of a table's phone link: an evening's `Table`, or a
    progressive's `TournamentTable` with `page` "tournament-phone" (tournaments.api)."""
    return {
        "number": link.number,
        "link": phone_links.phone_url(request, page, link.token),
        "link_version": services.phone_link_version(link),
    }


class EveningTablesView(APIView):
    """The evening's tables with the links their phones use (the secretary's eyes only), at
    the address the cards print (club.phone_links: PUBLIC_BASE_URL when set), not at the
    one this request came to."""

    @extend_schema(responses=TableLinkOutput(many=True))
    def get(self, request, slug, pk):
        evening = _evening(request, slug, pk, write=True)
        return Response(
            [link_output(request, t) for t in evening.tables.order_by("number")],
            headers=NO_STORE,
        )


class TableNewLinkView(APIView):
    """Issue a fresh phone link for a table (the secretary): the old link dies at once."""

    @extend_schema(
        request=NewLinkInput,
        responses={
            200: TableLinkOutput,
            409: LINK_RENEWED,
        },
    )
    def post(self, request, slug, pk, number):
        evening = _evening(request, slug, pk, write=True)
        table = get_object_or_404(Table, evening=evening, number=number)
        table = services.table_renew_link(
            table_id=table.pk, user=request.user, seen=link_version_seen(request)
        )
        return Response(link_output(request, table), headers=NO_STORE)


#: An evening's summary and exports are made afresh for every caller (an evening of eighty
#: rubbers' hands: a third of a second of a core), and a public club's are anyone's: counted
#: as the public pages rendered afresh are, per client address (THROTTLE_PUBLIC), besides
#: the API's own rates (THROTTLE_ANON allowed one address some three cores' worth).
EXPORT_THROTTLES = PUBLIC_READ_THROTTLES


class EveningLedgerCsvView(APIView):
    """The evening's ledger as CSV for a treasurer: date, evening, player, rubbers settled,
    amount (ruling M1); see club.exports.ledger_rows."""

    throttle_classes = EXPORT_THROTTLES

    @extend_schema(responses={(200, "text/csv"): OpenApiTypes.STR})
    def get(self, request, slug, pk):
        evening = _evening(request, slug, pk)
        return csv_response(
            exports.ledger_rows(evening=evening), f"evening-{evening.pk}-ledger.csv"
        )


class EveningHandsCsvView(APIView):
    """Every hand of the evening as CSV: table, rubber at the table, players by name, one
    column per figure recorded and per side's points, the explanation citing the laws
    (club.exports.hands_rows)."""

    throttle_classes = EXPORT_THROTTLES

    @extend_schema(responses={(200, "text/csv"): OpenApiTypes.STR})
    def get(self, request, slug, pk):
        evening = _evening(request, slug, pk)
        return csv_response(exports.hands_rows(evening=evening), f"evening-{evening.pk}-hands.csv")
