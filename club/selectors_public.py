"""Reads for the public pages: a club's home, an evening's results, a player's record.

`hidden`, where a read takes it, is the ids of the club's rubbers the visitor may not
read (club.selectors.rubbers_hidden_from: a private progressive's, to all but the club's
officers), or None when he may read them all: they are left out of every list and
figure. An evening's results take none: an evening's rubbers are the club's, whatever
ladder counts them (tournaments.selectors.rubbers_of_private_progressives).
"""

from django.db.models import Count, Exists, F, OuterRef, Q, QuerySet, Sum

from club.closing import abandon_reasons
from club.history import SUBSTITUTION_ENTRIES, substitutions
from club.models import Club, Evening, Member
from club.selectors import without_hidden
from scoring.models import HandScore, Rubber, RubberPlayer, Settlement

#: A ledger's settlements that count as a rubber (a sitting) played: a Call-Ace sitting
#: ended before any deal was played settles nothing and is not counted (ruling C5).
PLAYED = Q(rubber__hand_count__gt=0)

#: What a player's list of rubbers leaves unread of its rubbers and their evenings.
UNREAD = (
    "rubber__options", "rubber__players", "rubber__summary",
    "rubber__evening__options", "rubber__evening__state",
)  # fmt: skip


def rubbers_in_play(*, club: Club, hidden: QuerySet | None):
    """Rubbers and sittings still being played at the club, with their tables; never one
    of a closed evening (closing settles them, and one left by an older close is not in
    play either), nor a round of fixed deals already decided (ruling P1: its rubber stays
    unfinished, its seats say who won the round)."""
    rubbers = (
        Rubber.objects.filter(club=club, status=Rubber.Status.IN_PROGRESS)
        .exclude(evening__status=Evening.Status.CLOSED)
        .exclude(deal_limit__isnull=False, seats__round_won=True)
        .select_related("evening__club", "table")
        .order_by("-created_at")
    )
    return without_hidden(rubbers, hidden=hidden, field="pk")


def evening_results(*, evening: Evening) -> dict:
    """An evening's rubbers with winners and values, each with its number at its table
    (`number_at_table`) and who sat in for whom (`sat_in`, law 18), and its ledger (ruling
    M1). A rubber
    abandoned when the evening closed carries the secretary's reason (`closed_why`), as
    on the board; any other abandoned rubber was its table's when it broke up."""
    rubbers = list(evening.rubbers.select_related("table").order_by("created_at", "id"))
    # The log's entries both read, in one query: the closing's answers, the substitutions.
    read = evening.events.filter(type__in=("close", *SUBSTITUTION_ENTRIES)).order_by("seq")
    events = list(read.only("seq", "type", "data", "created_at"))
    reasons = abandon_reasons(evening=evening, events=events)
    started_at_table: dict[int, int] = {}
    for rubber in sorted(rubbers, key=lambda r: r.pk):
        # Its number at its table (rubber 2 at table 1), as the board and its sheet's
        # heading count them (scoring.views.rubber_number: by id).
        started_at_table[rubber.table_id] = started_at_table.get(rubber.table_id, 0) + 1
        rubber.number_at_table = started_at_table[rubber.table_id]
    sat_in = substitutions(evening=evening, events=events)  # who played for whom (law 18)
    for rubber in rubbers:
        rubber.closed_why = reasons.get(rubber.pk, "")
        rubber.sat_in = sat_in.get(rubber.pk, [])
    ledger = (
        Settlement.objects.filter(rubber__evening=evening)
        .values("member_id", "member__name")
        .annotate(amount=Sum("amount"), rubbers=Count("rubber", distinct=True, filter=PLAYED))
        .order_by("-amount", "member__name")
    )
    return {"rubbers": rubbers, "ledger": list(ledger)}


def player_record(*, member: Member, hidden: QuerySet | None) -> dict:
    """A player's figures across the club and his last hundred rubbers, newest first; a
    progressive's round of fixed deals decided (`round_decided` on its seat) is counted
    among the rounds finished and won, not the rubbers (ruling P1)."""
    figures = without_hidden(HandScore.objects.filter(member=member), hidden=hidden).aggregate(
        points=Sum("points"), hands=Count("id"), marches=Sum("march"), lone=Sum("lone_made")
    )
    seats_shown = without_hidden(RubberPlayer.objects.filter(member=member), hidden=hidden)
    # A Call-Ace sitting ended before any deal was played settles nothing and is not among
    # those finished (ruling C5, UNPLAYED_SITTING), as the evening's ledger counts them.
    finished = PLAYED & Q(rubber__status=Rubber.Status.COMPLETE)
    # A progressive's rounds of fixed deals, counted apart: their rubbers stay in play while
    # the deals decide the round (ruling P1), so they are not among the rubbers finished; a
    # round is over once a side of it has won it (its seats' `round_won`, scoring.rollup),
    # as `rubbers_in_play` reads it.
    decided = Exists(RubberPlayer.objects.filter(rubber=OuterRef("rubber"), round_won=True))
    round_over = Q(rubber__deal_limit__isnull=False) & Q(decided)
    rubbers = seats_shown.aggregate(
        played=Count("id", filter=finished),
        won=Count("id", filter=finished & ~Q(side="") & Q(side=F("rubber__winner"))),
        rounds=Count("id", filter=round_over),
        rounds_won=Count("id", filter=round_over & Q(round_won=True)),
    )
    # What each of his seats settled, as the standings' stake won and his scorecard read it
    # (scoring.rollup): a rubber's or a sitting's settlement (rulings M1, C5), or a
    # progressive's round of fixed deals at the difference in points once it is over, which
    # no settlement holds (ruling P2).
    money = seats_shown.aggregate(total=Sum("stake_won"))["total"]
    # Without the rubbers' and evenings' JSON (a summary, a formation's state), which no
    # reader of the list uses: decoding them was a good part of the page's time.
    seats = (
        seats_shown.select_related("rubber__evening__club", "rubber__table")
        .annotate(round_decided=decided)
        .defer(*UNREAD)
        .order_by("-rubber__created_at", "-rubber_id")[:100]
    )
    return {
        "figures": {
            **{key: value or 0 for key, value in figures.items()},
            "rubbers": rubbers["played"],
            "rubbers_won": rubbers["won"],
            "rounds": rubbers["rounds"],
            "rounds_won": rubbers["rounds_won"],
            "stake_won": money or 0,
        },
        "seats": seats,
    }
