"""Writes for rubbers and hands: record, correct, remove the last hand, close a sitting.

Every write locks the rubber's row, replays the recorded hands through the pure
rule set to rebuild the rubber's state, validates the new hand against that
state, and only then writes: the hand, its points per player (denormalised for
standings), the games, the rubber's summary and, when it is over, the money.
A rejected request raises before the first write and so changes nothing.

Every write works on a rubber whose row the caller has locked in its transaction (the
one way in is club.recording, which takes the locks in their fixed order, core/db.py)
and asserts that a transaction is open. What follows a write is not called from here:
it is announced by the signals of scoring/signals.py, sent inside the transaction (the
evening logs the hand and moves on; the standings note the change in their outbox).
"""

from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.db import connection, transaction
from django.db.models import BigIntegerField, JSONField, Model, QuerySet
from django.db.models.expressions import RawSQL
from django.db.models.functions import Lower
from django.utils import timezone

from core import compiled
from core.audit import audit_context
from core.compiled import Compiled
from core.errors import UserError
from scoring.models import (
    Game,
    Hand,
    HandCorrection,
    HandScore,
    RemovedHand,
    Rubber,
    RubberPlayer,
    Settlement,
)
from scoring.rollup import rollup_rubber
from scoring.rules import RuleSet, ScoringError, get_ruleset
from scoring.rules.base import SIDES, UNKNOWN_KEY, parse_stake
from scoring.rules.bridge import honours_scored
from scoring.rules.fixed_deals import deal_past_the_end, fixed_deals_ledger, fixed_deals_over
from scoring.rules.games import get_game
from scoring.signals import (
    hand_corrected,
    hand_recorded,
    hand_removed,
    rubber_changed,
    rubber_finished,
    rubber_started,
)


class PermissionDeniedByLaw(UserError):
    """The caller may not do this now under the laws (e.g. a late correction by a table)."""

    status_code = 403
    default_code = "permission_denied"


def players_of(rules: RuleSet, players: Any) -> list[tuple[str, str]]:
    """(name, side) pairs in seat order: sides for partnership games, "" for Call-Ace."""
    if rules.partnership:
        return [(name, side) for side in ("NS", "EW") for name in players[side]]
    return [(name, "") for name in players]


def _roster_members(club: Model, names: list[str]) -> dict[str, Model]:
    """The club's members under these names, by the casefolded name (a name on the
    roster matches whatever its case). The named members are read, not the roster: a
    club keeps thousands. A name the database's case-insensitive match misses but
    casefolding would find (German ß against "ss") is looked for in the whole roster."""
    # LOWER(name), as the roster's unique index has it (club.Member), so that index finds
    # them: `iexact` (UPPER) read the whole roster, 4 ms a rubber started in a season's.
    lowered = sorted({name.lower() for name in names})
    members = {
        m.name.casefold(): m
        for m in club.members.alias(lowered=Lower("name")).filter(lowered__in=lowered)
    }
    if not {name.casefold() for name in names} <= members.keys():
        members = {m.name.casefold(): m for m in club.members.all()}
    return members


def _rubber_terms(rules: RuleSet, options: Any, players: Any) -> tuple[dict, Any]:
    """A rubber's options and players as its rule set checks and normalises them: its
    players named (a rubber is played by members of the club, not by a number)."""
    options = rules.validate_options(options)
    if players is None or isinstance(players, int):
        raise ScoringError("name the players of the rubber", field="players")
    return options, rules.validate_players(players)


@transaction.atomic
def rubber_start(
    *,
    club: Model,
    ruleset: str,
    players: Any,
    options: dict | None = None,
    stake: Decimal | str | None = None,
    evening: Model | None = None,
    table: Model | None = None,
    user=None,
    deal_limit: int | None = None,
    first_dealer: str = "",
) -> Rubber:
    """Start a rubber (Call-Ace: a sitting) for named members of the club.

    Players are given as the scoresheet has them (`{"NS": [a, b], "EW": [c, d]}`, or a
    list of four to seven names for Call-Ace); each must be on the club's roster.
    The stake defaults to the evening's (ruling M1). `club`, `evening` and `table` are
    the club's rows (club.models), which scoring refers to by foreign key only.
    """
    rules = get_ruleset(ruleset)
    options, players = _rubber_terms(rules, options, players)
    if stake is None:
        stake = evening.stake if evening is not None else Decimal("0")
    stake = parse_stake(str(stake) if isinstance(stake, Decimal) else stake)
    if stake != stake.quantize(Decimal("0.01")):
        raise ScoringError(
            "a stake is kept in the currency's minor units: at most two decimal places",
            field="stake",
            law="ruling M1",
        )
    if evening is not None and evening.club_id != club.pk:
        raise UserError("That evening belongs to another club.", field="evening")
    if table is not None and (evening is None or table.evening_id != evening.pk):
        raise UserError("That table is not one of the evening's tables.", field="table")

    seats = players_of(rules, players)
    members = _roster_members(club, [name for name, _ in seats])
    missing = [name for name, _ in seats if name.casefold() not in members]
    if missing:
        raise UserError(
            f"Not on the club's roster: {', '.join(missing)}. Add them as members or guests.",
            field="players",
        )
    # The roster's spelling of each name is the one the rubber keeps.
    canonical = {name: members[name.casefold()].name for name, _ in seats}
    if rules.partnership:
        players = {side: [canonical[n] for n in players[side]] for side in ("NS", "EW")}
    else:
        players = [canonical[n] for n in players]

    state = rules.start(options, players)
    rubber = Rubber.objects.create(
        club=club,
        evening=evening,
        table=table,
        ruleset=rules.key,
        options=options,
        players=players,
        stake=stake,
        summary=rules.summary(state),
        deal_limit=deal_limit,
        first_dealer=first_dealer,
        created_by=user if user is not None and user.is_authenticated else None,
    )
    RubberPlayer.objects.bulk_create(
        RubberPlayer(rubber=rubber, member=members[name.casefold()], side=side, position=i)
        for i, (name, side) in enumerate(seats)
    )
    rubber_started.send(
        sender=Rubber, rubber=rubber, member_ids=[members[n.casefold()].pk for n, _ in seats]
    )
    return rubber


def _replay(rules: RuleSet, rubber: Rubber, raw_hands: Iterable[dict]):
    """Fold recorded hands through the rule set: (state, [(validated hand, result), ...]).

    Every hand is validated again against the state before it, so a correction that
    makes a later hand impossible is caught, naming that hand. A Call-Ace sitting
    that was closed is closed again after its deals (ruling C5).
    """
    state = rules.start(rubber.options, rubber.players)
    scored = []
    for i, raw in enumerate(raw_hands):
        hand = rules.validate_hand(state, raw, field_prefix=f"hands[{i}]")
        state, result = rules.apply(state, hand)
        scored.append((hand, result))
    if rubber.is_complete and not rules.partnership and not rules.is_complete(state):
        state = rules.close(state)
    return state, scored


def _round_over(rubber: Rubber, *, field: str) -> ScoringError:
    """The refusal of a deal after a round of fixed deals was decided (ruling P1)."""
    deals = "its one deal has" if rubber.deal_limit == 1 else f"its {rubber.deal_limit} deals have"
    return ScoringError(
        f"the round is over: {deals} been played and one side is ahead (a round that "
        "ends level goes on one deal at a time)",
        field=field,
        law="ruling P1",
    )


def tricks_column(rules: RuleSet, canonical: dict) -> int:
    """The trick count kept in its own column (checked by a constraint): the makers'
    (Euchre, Call-Ace) or North-South's (Bridge)."""
    tricks = canonical["tricks"]
    return tricks["NS"] if isinstance(tricks, dict) else tricks


# What a hand's row keeps of the rule set's scoring of it (`hand_columns`).
HAND_COLUMNS = ["data", "tricks", "points", "lines", "facts", "game_won"]


def hand_columns(rules: RuleSet, hand, result) -> dict[str, Any]:
    """A hand's columns (`HAND_COLUMNS`) from the rule set's checked hand and its result:
    the hand as the rule set writes it (its canonical data), the tricks, the points, the
    explanation, the facts and the game it won."""
    canonical = hand.as_dict()
    return {
        "data": canonical,
        "tricks": tricks_column(rules, canonical),
        "points": result.points,
        "lines": [str(line) for line in result.lines],
        "facts": result.facts,
        "game_won": result.game_won or "",
    }


def player_scores(rules: RuleSet, rubber: Rubber, result) -> dict[str, dict]:
    """What one hand gave each named player: his points (his side's, or his own in
    Call-Ace) and the countable facts standings use (march, lone hand made, euchred,
    honours)."""
    points, facts = result.points, result.facts
    out = {}
    for name, side in players_of(rules, rubber.players):
        if side:  # Euchre, Bridge: the player shares his side's score
            value = points[side]
            is_bridge = isinstance(value, dict)
            out[name] = {
                "side": side,
                "points": value["below"] + value["above"] if is_bridge else value,
                "march": int(facts.get("march") == side),
                "lone_made": int(facts.get("lone") == side and bool(facts.get("lone_made"))),
                "euchred": int(facts.get("euchred") == side),
                "honours": honours_scored(facts)[side] if is_bridge else 0,  # with chicane, B4
            }
        else:  # Call-Ace: each for himself; the maker's side is the maker and his partner
            makers = {facts.get("maker"), facts.get("partner")} - {None}
            among = name in makers
            out[name] = {
                "side": "",
                "points": points[name],
                "march": int(among and bool(facts.get("march"))),
                # A lone hand made is one that scored (laws 44, 45): not when euchred
                # (law 46), void (law 42), his side revoked (law 38, ruling C3) or he
                # scores nothing under laws 20 and 27 (ruling C4).
                "lone_made": int(
                    name == facts.get("maker") and bool(facts.get("alone")) and points[name] > 0
                ),
                "euchred": int(among and bool(facts.get("euchred"))),
                "honours": 0,
            }
    return out


def _read_beside(rubbers: QuerySet[Rubber], name: str, sql: str, field) -> QuerySet[Rubber]:
    """These rubbers, each read with `sql` as `name`: a subquery over the rubber's own row
    (`{rubber}` in it: the rubbers' table, never aliased here; `{seat}`, `{hand}`: the
    seats' and hands' tables). On PostgreSQL, in the same query; elsewhere the rubbers as
    they are, and the reader of `name` reads it apart. Raw SQL, not an ORM Subquery: on
    the hand's path, compiling an ORM subquery costs more than the query itself."""
    if connection.vendor != "postgresql":
        return rubbers
    quote = connection.ops.quote_name
    tables = {"rubber": Rubber, "seat": RubberPlayer, "hand": Hand}
    sql = sql.format(**{key: quote(model._meta.db_table) for key, model in tables.items()})
    return rubbers.annotate(**{name: RawSQL(sql, [], output_field=field())})


SEAT_MEMBER_IDS = "seat_member_ids"


def with_seat_member_ids(rubbers: QuerySet[Rubber]) -> QuerySet[Rubber]:
    """These rubbers, each read with its seats' member ids in seat order (PostgreSQL: in
    the same query, so that the hand's path need not read the seats again; elsewhere
    `_member_ids` reads them). A locking read sees the seats as they were when it began:
    club.evenings reads a rubber again when its row changed while the lock was awaited."""

    def ids():
        from django.contrib.postgres.fields import ArrayField

        return ArrayField(BigIntegerField())

    sql = (
        "ARRAY(SELECT s.member_id FROM {seat} s "
        "WHERE s.rubber_id = {rubber}.id ORDER BY s.position)"
    )
    return _read_beside(rubbers, SEAT_MEMBER_IDS, sql, ids)


HAND_DATA = "hand_data"


def with_hand_data(rubbers: QuerySet[Rubber]) -> QuerySet[Rubber]:
    """These rubbers, each read with its hands' data in order, all that recording the
    next hand replays (PostgreSQL: in the same query, one JSON document; elsewhere
    `rubber_record_hand` reads them). Read with the rubber's lock, the hands are those of
    the rubber's row as locked: every write of a hand writes the rubber's row too, and a
    rubber changed while its lock was awaited is read again (club.evenings)."""
    sql = (
        "SELECT COALESCE(jsonb_agg(h.data ORDER BY h.number), '[]') "
        "FROM {hand} h WHERE h.rubber_id = {rubber}.id"
    )
    return _read_beside(rubbers, HAND_DATA, sql, JSONField)


def _member_ids(rules: RuleSet, rubber: Rubber) -> dict[str, int]:
    """Each player's member id under the name the rubber keeps for him: the seats were
    written in the players' order (`rubber_start`); read with the rubber when it was
    read `with_seat_member_ids`."""
    ids = getattr(rubber, SEAT_MEMBER_IDS, None)
    if ids is None:
        ids = rubber.seats.order_by("position").values_list("member_id", flat=True)
    names = [name for name, _ in players_of(rules, rubber.players)]
    return dict(zip(names, ids, strict=True))


def _write_from(*, rubber: Rubber, rules: RuleSet, state, scored: list, rows: list[Hand]) -> None:
    """Write what the rule set made of `rows`, the hands from the first changed one on
    (in order, unsaved for new ones), the games, the rubber and its money. The hands
    before them are unchanged by construction (their results depend only on the hands
    before them), and are not passed."""
    first = rows[0].number - 1  # the hands before them
    member_ids = _member_ids(rules, rubber)
    changed = [row for row in rows if row.pk is not None]
    if changed:  # a correction: the hands re-scored lose their old scores
        HandScore.objects.filter(rubber=rubber, hand__number__gt=first).delete()
    for (hand, result), row in zip(scored[first:], rows, strict=True):
        for name, value in hand_columns(rules, hand, result).items():
            setattr(row, name, value)
    # A correction re-scores every later hand: one UPDATE for them all, not one each.
    Hand.objects.bulk_update(changed, HAND_COLUMNS)
    # The rows every hand writes, sent with the rubber's summary in one statement
    # (core/compiled.py: a new hand's scores take its key from its insert).
    writes = compiled.Writes()
    writes.insert([row for row in rows if row.pk is None])
    writes.insert([
        HandScore(hand=row, rubber=rubber, member_id=member_ids[name], **score)
        for (_, result), row in zip(scored[first:], rows, strict=True)
        for name, score in player_scores(rules, rubber, result).items()
    ])  # fmt: skip
    _write_rubber(
        rubber=rubber, rules=rules, state=state, hand_count=len(scored), member_ids=member_ids,
        writes=writes, points=[result.points for _, result in scored],
    )  # fmt: skip


WRITTEN_FROM_STATE = ["summary", "hand_count", "winner", "value", "status", "completed_at"]


def rubber_from_state(*, rubber: Rubber, rules: RuleSet, state, hand_count: int) -> bool:
    """Set the rubber's columns the rule set's state decides (`WRITTEN_FROM_STATE`), and
    say whether it is complete, and so settles its money. An abandoned rubber stays
    abandoned: a correction does not revive it, it keeps no winner and settles nothing
    (see `rubber_abandon`), even when its corrected hands would have won it."""
    summary = rules.summary(state)
    complete = rules.is_complete(state)
    rubber.summary = summary
    rubber.hand_count = hand_count
    if rubber.status == Rubber.Status.ABANDONED:
        rubber.winner, rubber.value = "", None
        return False
    rubber.winner = summary["rubber"].get("winner") or ""
    rubber.value = summary["rubber"].get("value")
    rubber.status = Rubber.Status.COMPLETE if complete else Rubber.Status.IN_PROGRESS
    rubber.completed_at = (rubber.completed_at or timezone.now()) if complete else None
    return complete


def game_columns(summary: dict) -> list[dict]:
    """The columns of each finished game's row, from the rule set's summary."""
    return [
        {
            "number": game["number"],
            "winner": game["winner"],
            "value": game.get("value"),
            "lap": game.get("lap") or 0,
            "scores": game.get("scores") or {},
            "detail": game,
        }
        for game in summary.get("games", [])
    ]


@dataclass(frozen=True, slots=True)
class Rescored:
    """What the rule set makes of a rubber's hands (`rubber_rescored`), beside the rubber."""

    hands: list[dict]  # each hand's columns (`hand_columns`), in order
    games: list[dict]  # each finished game's columns (`game_columns`)
    settlement: list[Decimal] | None  # each seat's money, by position, once it is complete


def rubber_rescored(*, rubber: Rubber, hands: list) -> Rescored:
    """A rubber scored again from its hands' data (`hands`, in order), as recording them
    one by one writes it, without reading or writing the database: the rubber's options
    and players are set as its rule set normalises them and its `WRITTEN_FROM_STATE`
    columns as the hands leave it; its hands' columns, games and money are returned.
    The points each player scored on a hand are `player_scores` of the hand.

    Raises ScoringError naming the rubber's field (`ruleset`, `options.…`, `players`) or
    a hand's (`hands[3].tricks`: the fourth hand) where the rule set refuses it: a hand
    it would not have accepted where it stands (a hand after the rubber was over, a
    deal after a round of fixed deals was decided, ruling P1). For a restored backup
    (club/backup_scoring.py)."""
    rules = get_ruleset(rubber.ruleset)
    rubber.options, rubber.players = _rubber_terms(rules, rubber.options, rubber.players)
    state, scored = _replay(rules, rubber, hands)
    if rubber.deal_limit is not None:
        past = deal_past_the_end(rubber.deal_limit, [result.points for _, result in scored])
        if past is not None:
            raise _round_over(rubber, field=f"hands[{past - 1}]")
    complete = rubber_from_state(rubber=rubber, rules=rules, state=state, hand_count=len(scored))
    settlement = None
    if complete and scored:  # a Call-Ace sitting with no deal settles nothing (ruling C5)
        ledger = _settle(rules, rubber, state, [result.points for _, result in scored])
        settlement = [ledger[name] for name, _ in players_of(rules, rubber.players)]
    return Rescored(
        hands=[hand_columns(rules, hand, result) for hand, result in scored],
        games=game_columns(rubber.summary),
        settlement=settlement,
    )


def _settle(rules: RuleSet, rubber: Rubber, state, points: list | None) -> dict[str, Decimal]:
    """A finished rubber's money by player: ruling M1, the rubber's value times the stake;
    a round of fixed deals at the difference of its deals' points (ruling P2,
    `fixed_deals_ledger`), as the seats' `stake_won` has it (scoring/rollup.py), even when
    its rubber was won first. `points`, its hands' points in order (read when not given)."""
    if rubber.deal_limit is None:
        return rules.settle(state, rubber.stake, rubber.players)
    if points is None:
        points = list(rubber.hands.order_by("number").values_list("points", flat=True))
    return fixed_deals_ledger(points, rubber.stake, rubber.players)


def _write_rubber(
    *,
    rubber: Rubber,
    rules: RuleSet,
    state,
    hand_count: int,
    member_ids: dict[str, int],
    writes: compiled.Writes | None = None,
    points: list | None = None,
) -> None:
    """Write the rubber's games, summary, status and money from the rule set's state, and
    note the change for the standings.

    Every write of a rubber ends here (a hand recorded, corrected or removed, a sitting
    closed, a rubber abandoned), after its hands and their scores are final, so what
    comes last sees all of the rubber's rows as they will be committed. Rows that
    cannot have changed are not rewritten: the games while the finished games are those
    stored with the summary (a hand that ends no game and does not end the rubber), the
    money while the rubber was in progress (an unfinished rubber holds none).

    `writes`, the hand rows the caller has queued, go in the rubber's own statement.
    """
    stored_games = (rubber.summary or {}).get("games", [])
    may_hold_money = rubber.status != Rubber.Status.IN_PROGRESS
    complete = rubber_from_state(rubber=rubber, rules=rules, state=state, hand_count=hand_count)
    if rubber.summary.get("games", []) != stored_games:
        Game.objects.filter(rubber=rubber).delete()
        Game.objects.bulk_create(
            Game(rubber=rubber, **columns) for columns in game_columns(rubber.summary)
        )
    # What the rules' state makes of the rubber, and nothing else (its players and options
    # are written by their own services).
    writes = writes or compiled.Writes()
    writes.update(rubber, WRITTEN_FROM_STATE)
    writes.send()  # before the roll-up, which reads the scores
    if may_hold_money:
        Settlement.objects.filter(rubber=rubber).delete()
    # A Call-Ace sitting ended before any deal was played settles nothing (ruling C5,
    # UNPLAYED_SITTING): no row at all, where a row of 0.00 for each player listed it in
    # the ledgers as a sitting settled.
    if complete and hand_count:
        ledger = _settle(rules, rubber, state, points)
        Settlement.objects.bulk_create(
            Settlement(rubber=rubber, member_id=member_ids[name], amount=amount)
            for name, amount in ledger.items()
        )
    rollup_rubber(rubber)  # the seats' totals, for standings (scoring/rollup.py)
    # The standings' outbox row is written by tournaments' receiver, in this transaction.
    rubber_changed.send(sender=Rubber, rubber=rubber, member_ids=list(member_ids.values()))


# A rubber's hands in order, read by every write of the rubber: compiled once
# (core/compiled.py).
_HANDS_OF = Compiled(
    lambda rubber_id: Hand.objects.filter(rubber_id=rubber_id).order_by("number"), int
)


# What recording a hand reads of the hands before it: their data alone, all the replay
# needs (one JSON column, where the rows decode four and build a model each).
_HAND_DATA_OF = Compiled(
    lambda rubber_id: (
        Hand.objects.filter(rubber_id=rubber_id).order_by("number").values_list("data")
    ),
    int,
)


def _hands_of(rubber: Rubber) -> list[Hand]:
    """The rubber's hands in order, each knowing its rubber (as `rubber.hands` gives)."""
    hands = _HANDS_OF.all(rubber.pk)
    for hand in hands:
        hand.rubber = rubber
    return hands


def _check_held(rubber: Rubber) -> None:
    """The caller holds the rubber's row lock: inside its transaction (club.recording)."""
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError(
            f"Rubber {rubber.pk} is written outside a transaction: lock it first "
            "(club.recording takes the locks in their order, core/db.py)."
        )


def _check_table(rubber: Rubber, table: Model | None) -> None:
    """A table token opens only its own table's rubbers."""
    if table is not None and rubber.table_id != table.pk:
        raise PermissionDeniedByLaw("This table's link cannot record another table's hands.")


def _check_evening_open(rubber: Rubber) -> None:
    if rubber.evening_id and rubber.evening.status == rubber.evening.Status.CLOSED:
        raise UserError("The evening is closed; a secretary must reopen it first.", code="closed")


def rubber_record_hand(*, rubber: Rubber, data: dict, user=None, table=None, via=None) -> Hand:
    """Record the next hand of a rubber (Call-Ace: the next deal of a sitting) and score it.

    `rubber` is locked by the caller in its transaction (club.recording.hand_record);
    `table`, a table's phone link, may record only its own table's hands. Sends
    `hand_recorded` (and `rubber_finished` when the hand wins the rubber) with `via`.
    """
    _check_held(rubber)
    _check_table(rubber, table)
    rules = rubber.rules
    _check_evening_open(rubber)
    if rubber.status == Rubber.Status.ABANDONED:
        raise UserError(
            "This rubber was abandoned when its table broke up; no hand is added to it.",
            field="hand",
            law="law 21",
        )
    earlier = vars(rubber).pop(HAND_DATA, None)  # read with the lock (`with_hand_data`)
    if earlier is None or len(earlier) != rubber.hand_count:
        earlier = [data for (data,) in _HAND_DATA_OF.rows(rubber.pk)]
    state, scored = _replay(rules, rubber, earlier)
    if rules.is_complete(state):
        raise ScoringError(
            "the rubber is over; no further hand may be recorded in it",
            field="hand",
            law=rules.rubber_law,
        )
    if rubber.deal_limit is not None and fixed_deals_over(
        rubber.deal_limit, [result.points for _, result in scored]
    ):
        raise _round_over(rubber, field="hand")
    hand = rules.validate_hand(state, data, field_prefix="hand")
    state, result = rules.apply(state, hand)
    scored.append((hand, result))
    row = Hand(
        rubber=rubber,
        number=len(earlier) + 1,
        recorded_by=user if user is not None and user.is_authenticated else None,
        recorded_at_table=table is not None,
    )
    _write_from(rubber=rubber, rules=rules, state=state, scored=scored, rows=[row])
    hand_recorded.send(sender=Rubber, rubber=rubber, hand=row, data=data, via=via)
    if rubber.is_complete:
        rubber_finished.send(sender=Rubber, rubber=rubber, via=via)
    return row


def _later_hand_at_table(hand: Hand) -> bool:
    """Has a hand been recorded after this one at the same table (or in the same rubber)?
    One recorded and taken back since counts: ruling E9 frees a hand "until the next hand
    at that table is recorded", and taking the next one back does not free it again (else
    a phone could take a sheet back hand by hand)."""
    rubber = hand.rubber
    if rubber.table_id is None:
        later = rubber.hands.filter(number__gt=hand.number).exists()
    else:
        later = (
            Hand.objects.filter(rubber__table_id=rubber.table_id, recorded_at__gt=hand.recorded_at)
            .exclude(pk=hand.pk)
            .exists()
            or rubber.hands.filter(number__gt=hand.number).exists()
        )
    return later or taken_back_since(rubber_id=rubber.pk, hand=hand)


def taken_back_since(*, rubber_id: int, hand) -> bool:
    """Was a later hand of the rubber recorded after `hand` (a Hand, or its number and
    when it was recorded as the score sheet gives them) and taken back since (ruling E9)?"""
    number, recorded_at = (
        (hand.number, hand.recorded_at)
        if isinstance(hand, Hand)
        else (hand["number"], hand["recorded_at"])
    )
    return RemovedHand.objects.filter(
        rubber_id=rubber_id, number__gt=number, at__gt=recorded_at
    ).exists()


def _check_may_change(
    rules: RuleSet, rubber: Rubber, hands: list[Hand], row: Hand, *, reason: str, is_secretary: bool
) -> tuple[bool, str]:
    """Law 5 / ruling E9 (and the Bridge and Call-Ace limits through `may_correct`):
    (free, law). Free while the players may still put it right themselves; after that
    only the secretary, with a reason."""
    state_now, _ = _replay(rules, rubber, [h.data for h in hands])
    free = not _later_hand_at_table(row) and rules.may_correct(state_now, row.number)
    law = rules.correction_law or "ruling E9"
    if not free:
        game = get_game(rules.key)
        hand = f"{game.hand_label} {row.number}"
        # A Call-Ace sitting is complete only once closed and settled (ruling C5): then
        # none of its deals is the players' to change, later deal or not.
        settled = not rules.partnership and rubber.status == Rubber.Status.COMPLETE
        if not is_secretary:
            if settled:
                raise PermissionDeniedByLaw(
                    f"Too late for the players to change {hand}: the {game.rubber_label} was"
                    " closed and settled. Only the secretary, as the club's referee, may"
                    " change it now.",
                    field="number",
                    law=rules.rubber_law,
                )
            raise PermissionDeniedByLaw(
                f"Too late for the players to change this {game.hand_label}: a later"
                f" {game.hand_label} has been recorded. Only the secretary, as the club's"
                " referee, may change it now.",
                field="number",
                law=f"{law}, ruling E9" if law != "ruling E9" else law,
            )
        if not reason.strip():
            raise UserError(
                f"A change to {hand} after the {game.rubber_label} was closed and settled"
                " needs a reason."
                if settled
                else f"A change after the next {game.hand_label} was recorded needs a reason.",
                field="reason",
                law=rules.rubber_law if settled else "ruling E9",
            )
    return free, law


def rubber_correct_hand(
    *,
    rubber: Rubber,
    number: int,
    data: dict,
    reason: str = "",
    user=None,
    table=None,
    is_secretary: bool = False,
    via=None,
) -> Hand:
    """Correct a recorded hand and re-score every hand after it.

    Law 5 and ruling E9 (Euchre; the Bridge laws' own limits, and Call-Ace's, through
    the rule set's `may_correct`): the players may correct a hand until the next hand
    at that table is recorded. After that only the secretary, the club's referee, may
    correct it, and must say why. The original always stays beside the correction.

    `rubber` is locked by the caller (club.recording.hand_correct). Sends
    `hand_corrected`, with the side that had won the table before (`_round_won_by`), and
    `rubber_finished` when the correction wins the rubber.
    """
    _check_held(rubber)
    was_complete = rubber.is_complete
    won_before = _round_won_by(rubber)
    with audit_context(reason=reason.strip() or "correction"):
        row = _hand_correct(
            rubber=rubber, number=number, data=data, reason=reason, user=user,
            table=table, is_secretary=is_secretary,
        )  # fmt: skip
    hand_corrected.send(
        sender=Rubber, rubber=rubber, hand=row, number=number, data=data, reason=reason,
        was_complete=was_complete, won_before=won_before, via=via,
    )  # fmt: skip
    if rubber.is_complete and not was_complete:
        rubber_finished.send(sender=Rubber, rubber=rubber, via=via)
    return row


def _name_the_body_s_key(error: ScoringError, replayed: str) -> None:
    """A key the corrected hand does not take named as the body sent it (`hand.trickz`),
    as every door names a body's unknown key (core.inputs.BodyInput), not by the hand's
    place in the replay (`hands[2].trickz`). A value the laws refuse keeps its place in
    the replay: the phone reads the hand's number from it (scoring.hand_input)."""
    field = error.field or ""
    if error.code == UNKNOWN_KEY and field.startswith(f"{replayed}."):
        error.field = f"hand{field[len(replayed) :]}"


def _hand_correct(*, rubber, number, data, reason, user, table, is_secretary) -> Hand:
    _check_table(rubber, table)
    rules = rubber.rules
    hands = _hands_of(rubber)
    if not 1 <= number <= len(hands):
        raise UserError(f"This rubber has no hand {number}.", field="number", code="not_found")
    row = hands[number - 1]
    _check_evening_open(rubber)

    free, law = _check_may_change(
        rules, rubber, hands, row, reason=reason, is_secretary=is_secretary
    )

    corrected = [h.data for h in hands]
    corrected[number - 1] = data
    try:
        state, scored = _replay(rules, rubber, corrected)
    except ScoringError as error:
        _name_the_body_s_key(error, f"hands[{number - 1}]")
        raise
    if rubber.deal_limit is not None:
        past = deal_past_the_end(rubber.deal_limit, [result.points for _, result in scored])
        if past is not None:
            raise ScoringError(
                f"with this correction the round was over before deal {past} (one side ahead "
                "after its deals): remove the deals after it first",
                field="hand",
                law="ruling P1",
            )
    previous = (row.data, row.points)
    _write_from(rubber=rubber, rules=rules, state=state, scored=scored, rows=hands[number - 1 :])
    row.correction_count += 1
    row.save(update_fields=["correction_count"])
    HandCorrection.objects.create(
        hand=row,
        previous_data=previous[0],
        previous_points=previous[1],
        data=row.data,
        # Ruling E9: the referee's correction, with his reason, is his, even of a hand the
        # players could still correct themselves (a tournament's director correcting its
        # last deal, which no deal follows).
        kind=HandCorrection.Kind.REFEREE
        if not free or (is_secretary and reason.strip())
        else HandCorrection.Kind.FREE,
        reason=reason.strip(),
        law=law,
        by_user=user if user is not None and user.is_authenticated else None,
        at_table=table is not None,
    )
    return row


def rubber_remove_last_hand(
    *,
    rubber: Rubber,
    number: int,
    reason: str = "",
    user=None,
    table=None,
    is_secretary: bool = False,
    via=None,
) -> RemovedHand:
    """Take the last recorded hand off a rubber (one entered by mistake), under the same
    limits as a correction (law 5, ruling E9); it stays on record as a RemovedHand.

    `rubber` is locked by the caller (club.recording.hand_remove). Sends `hand_removed`,
    with the side that had won the table before (`round_won`, scoring.rollup), which the
    hand taken off may have decided.
    """
    _check_held(rubber)
    _check_table(rubber, table)
    rules = rubber.rules
    hands = _hands_of(rubber)
    if not hands or number != len(hands):
        raise UserError(
            "Only the last hand recorded can be removed; correct an earlier one instead.",
            field="number",
        )
    _check_evening_open(rubber)
    row = hands[-1]
    _check_may_change(rules, rubber, hands, row, reason=reason, is_secretary=is_secretary)
    won_before = _round_won_by(rubber)
    removed = RemovedHand.objects.create(
        rubber=rubber,
        number=row.number,
        data=row.data,
        points=row.points,
        reason=reason.strip(),
        by_user=user if user is not None and user.is_authenticated else None,
        at_table=table is not None,
    )
    row.delete()
    state, scored = _replay(rules, rubber, [h.data for h in hands[:-1]])
    _write_rubber(
        rubber=rubber, rules=rules, state=state, hand_count=len(scored),
        member_ids=_member_ids(rules, rubber),
    )  # fmt: skip
    hand_removed.send(
        sender=Rubber, rubber=rubber, removed=removed, number=number, reason=reason, via=via,
        won_before=won_before,
    )  # fmt: skip
    return removed


def _round_won_by(rubber: Rubber) -> str | None:
    """The side that has won the table (its seats' `round_won`, as scoring.rollup writes
    it): a rubber's winners, read from its row; a round of fixed deals' from its seats."""
    if rubber.deal_limit is None:
        won = rubber.status == Rubber.Status.COMPLETE and rubber.winner in SIDES
        return rubber.winner if won else None
    return rubber.seats.filter(round_won=True).values_list("side", flat=True).first()


def rubber_abandon(*, rubber: Rubber) -> Rubber:
    """A rubber whose table broke up before it was won (law 21): its hands stand and
    count, but it has no winner and settles nothing. `rubber` is locked by the caller."""
    _check_held(rubber)
    if rubber.status == Rubber.Status.IN_PROGRESS:
        rubber.status = Rubber.Status.ABANDONED
        rubber.completed_at = timezone.now()
        rules = rubber.rules
        # Its hands stand (law 21): the figures are those of the hands as recorded.
        state, scored = _replay(rules, rubber, rubber.hands.order_by("number").values_list(
            "data", flat=True))  # fmt: skip
        _write_rubber(
            rubber=rubber, rules=rules, state=state, hand_count=len(scored),
            member_ids=_member_ids(rules, rubber),
        )  # fmt: skip
    return rubber


def rubber_resume(*, rubber: Rubber) -> Rubber:
    """An abandoned rubber back in play (its evening reopened after closing had abandoned
    it, club.closing): its hands stand, and it goes on from them. `rubber` is locked by
    the caller."""
    _check_held(rubber)
    if rubber.status == Rubber.Status.ABANDONED:
        rubber.status = Rubber.Status.IN_PROGRESS
        rubber.completed_at = None
        rules = rubber.rules
        state, scored = _replay(rules, rubber, rubber.hands.order_by("number").values_list(
            "data", flat=True))  # fmt: skip
        _write_rubber(
            rubber=rubber, rules=rules, state=state, hand_count=len(scored),
            member_ids=_member_ids(rules, rubber),
        )  # fmt: skip
    return rubber


def rubber_close(*, rubber: Rubber) -> Rubber:
    """End a Call-Ace sitting and settle it (ruling C5). Partnership rubbers end when won.
    `rubber` is locked by the caller (club.recording.sitting_close, or an evening's action)."""
    _check_held(rubber)
    rules = rubber.rules
    raw_hands = rubber.hands.order_by("number").values_list("data", flat=True)
    state, scored = _replay(rules, rubber, raw_hands)
    if rules.is_complete(state):
        raise UserError("It is over already.", code="complete", law=rules.rubber_law)
    state = rules.close(state)
    _write_rubber(
        rubber=rubber, rules=rules, state=state, hand_count=len(scored),
        member_ids=_member_ids(rules, rubber),
    )  # fmt: skip
    return rubber
