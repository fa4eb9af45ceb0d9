"""The season itself: evenings planned, tables sat down, rubbers and hands played and scored,
tournaments run, every row what the scoring service would have written."""

from __future__ import annotations

import datetime as dt
import logging
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from types import SimpleNamespace
from typing import Any

from club.models import Club, Evening, Member, Table, new_table_token
from scoring.models import (
    Game,
    Hand,
    HandCorrection,
    HandScore,
    Rubber,
    RubberPlayer,
    Settlement,
)
from scoring.rules import BRIDGE, CALL_ACE, EUCHRE, RuleSet

# The service's own functions, so that a generated hand's rows are exactly the rows
# recording it through the API would write.
from scoring.services import player_scores, players_of, tricks_column
from tournaments.metrics import DEFAULT_PRECEDENCE
from tournaments.models import Round, RoundTable, Tournament, TournamentPlayer

from .bulk import CopySink, JSONText, Sink, json_text
from .hands import bridge_hand, call_ace_deal, euchre_hand, mistaken
from .mix import (
    CALL_ACE_TABLE,
    CHUNK_HANDS,
    EVENING_MIX,
    EVENING_WEIGHT,
    FIRST_EVENING,
    FIRST_NAMES,
    FREE_CORRECTION,
    HAND_MINUTES,
    PROGRESSIVE_EVERY,
    PROGRESSIVE_ROUNDS,
    PROGRESSIVE_TABLES,
    REFEREE_CORRECTION,
    STAKES,
    SURNAMES,
    TABLE_HANDS,
    SeasonReport,
)

logger = logging.getLogger(__name__)

# --- the season ----------------------------------------------------------------------------


@dataclass
class _EveningPlan:
    id: int
    date: dt.date
    rules: RuleSet
    stake: Decimal
    hands: int  # planned; the last table of the season makes the total exact
    tables: int
    is_last: bool
    progressive: int | None = None  # the progressive tournament played on it


def _utc(day: dt.date, seconds: float) -> dt.datetime:
    """`seconds` after 19:30 UTC on the day (the club's evenings start at half past seven)."""
    return dt.datetime.combine(day, dt.time(19, 30), tzinfo=dt.UTC) + dt.timedelta(
        seconds=round(seconds)
    )


class Season:
    """Plays a season through the rule sets and hands its rows to a sink."""

    def __init__(
        self,
        *,
        sink: Sink,
        club: Club,
        players: int,
        evenings: int,
        hands: int,
        seed: int,
        lines: bool,
        report: SeasonReport,
        progress: Callable[[int], None] | None = None,
    ):
        self.sink = sink
        self.progress = progress
        self.progressed = 0  # hands already told to `progress`
        self.club = club
        self.rng = random.Random(seed)
        self.players = players
        self.evening_count = evenings
        self.hands_wanted = hands
        self.lines = lines
        self.report = report
        self.produced = 0
        self.planned = 0  # hands planned for the tables played so far
        self.buffered = 0
        self.chunk = CHUNK_HANDS if isinstance(sink, CopySink) else 2_000
        self.started = time.monotonic()
        self.next_progress = 100_000
        self.hand_json: dict[Any, tuple[dict, JSONText, int]] = {}
        self.points_json: dict[tuple, JSONText] = {}

    # members, evenings, tournaments

    def members(self) -> None:
        """The roster: names unique in the club, a few guests, ordered by how often
        they come (regulars first, after a seeded shuffle)."""
        rng = self.rng
        names = [f"{first} {last}" for last in SURNAMES for first in FIRST_NAMES]
        rng.shuffle(names)
        roster = []
        for i in range(self.players):
            base = names[i % len(names)]
            roster.append(base if i < len(names) else f"{base} {i // len(names) + 1}")
        joined = _utc(FIRST_EVENING - dt.timedelta(days=30), 0)
        self.member_ids: dict[str, int] = {}
        for name in roster:
            member_id = self.sink.new_id(Member)
            self.member_ids[name] = member_id
            is_guest = rng.random() < 0.05
            self.sink.add(Member, (member_id, self.club.pk, name, is_guest, joined))
        self.roster = roster
        # Popularity: a regular comes most weeks, the tail now and then.
        self.weights = [1.0 / (1.0 + i / 40.0) for i in range(len(roster))]
        self.report.members = len(roster)

    def plan(self) -> list[_EveningPlan]:
        """The evenings, weekly: each one's rule set, stake, planned hands and tables."""
        rng = self.rng
        keys = [rules for rules, _ in EVENING_MIX]
        shares = [share for _, share in EVENING_MIX]
        chosen = [rng.choices(keys, weights=shares)[0] for _ in range(self.evening_count)]
        chosen[0] = EUCHRE
        weights = [EVENING_WEIGHT[r.key] * rng.uniform(0.85, 1.15) for r in chosen]
        total = sum(weights)
        plans, cumulative, planned = [], 0.0, 0
        for i, (rules, weight) in enumerate(zip(chosen, weights, strict=True)):
            cumulative += weight
            hands = round(self.hands_wanted * cumulative / total) - planned
            planned += hands
            tables = max(1, round(hands / TABLE_HANDS[rules.key]))
            tables = min(tables, self.players // (7 if rules is CALL_ACE else 4))
            plans.append(
                _EveningPlan(
                    id=self.sink.new_id(Evening),
                    date=FIRST_EVENING + dt.timedelta(weeks=i),
                    rules=rules,
                    stake=STAKES[rules.key],
                    hands=hands,
                    tables=max(1, tables),
                    is_last=i == self.evening_count - 1,
                )
            )
        for plan in plans:
            status = Evening.Status.OPEN if plan.is_last else Evening.Status.CLOSED
            self.sink.add(
                Evening,
                (
                    plan.id,
                    self.club.pk,
                    "",
                    plan.date,
                    plan.rules.key,
                    {},
                    plan.stake,
                    status,
                    _utc(plan.date, -3600),
                ),
            )
        self.report.evenings = len(plans)
        return plans

    def tournaments(self, plans: list[_EveningPlan]) -> None:
        """The season's ladder over every evening, a ladder for each year, and the
        progressive tournaments of a few Euchre evenings."""
        self.tournament_list: list[tuple[int, str]] = []
        self._tournament("Season ladder", "season", "ladder", "", plans, plans[0].date)
        years = sorted({p.date.year for p in plans})
        for year in years:
            evenings = [p for p in plans if p.date.year == year]
            self._tournament(
                f"Ladder {year}", f"ladder-{year}", "ladder", "", evenings, evenings[0].date
            )
        candidates = [p for p in plans[:-1] if p.rules is EUCHRE and p.tables >= 2]
        count = min(len(candidates), max(1, len(plans) // PROGRESSIVE_EVERY))
        for k in range(count):
            plan = candidates[(2 * k + 1) * len(candidates) // (2 * count)]
            plan.progressive = self._tournament(
                f"Progressive Euchre, {plan.date:%d %B %Y}",
                f"progressive-{plan.date:%Y-%m-%d}",
                "progressive",
                EUCHRE.key,
                [],
                plan.date,
            )

    def _tournament(self, name, slug, kind, ruleset, evenings, day) -> int:
        tournament_id = self.sink.new_id(Tournament)
        progressive = kind == "progressive"
        precedence = (
            ["rubbers_won", "points", "head_to_head"] if progressive else list(DEFAULT_PRECEDENCE)
        )
        self.sink.add(
            Tournament,
            (
                tournament_id,
                self.club.pk,
                name,
                slug,
                kind,
                ruleset,
                True,
                precedence,
                "rotation" if progressive else "",  # a key of tournaments.movements
                PROGRESSIVE_ROUNDS if progressive else None,
                None,
                None,
                0,
                _utc(day, -86400 * 7),
                0,  # no stake of its own (ruling P2)
            ),
        )
        through = Tournament.evenings.through
        for plan in evenings:
            self.sink.add(through, (self.sink.new_id(through), tournament_id, plan.id))
        self.tournament_list.append((tournament_id, slug))
        return tournament_id

    # evenings and tables

    def play(self, plans: list[_EveningPlan]) -> None:
        for plan in plans:
            self.evening(plan)
        self.report.hands = self.produced

    def _attendance(self, seats: int) -> list[str]:
        """Who comes tonight: weighted by popularity, without repeats (Efraimidis-Spirakis)."""
        rng = self.rng
        keys = [(rng.random() ** (1.0 / w), i) for i, w in enumerate(self.weights)]
        keys.sort(reverse=True)
        return [self.roster[i] for _, i in keys[:seats]]

    def evening(self, plan: _EveningPlan) -> None:
        rng = self.rng
        kinds = []
        for _ in range(plan.tables):
            if plan.rules is EUCHRE and rng.random() < CALL_ACE_TABLE:
                kinds.append((CALL_ACE, rng.randint(4, 7)))
            else:
                kinds.append((plan.rules, rng.randint(4, 7) if plan.rules is CALL_ACE else 4))
        while sum(n for _, n in kinds) > self.players:
            kinds.pop()
        people = self._attendance(sum(n for _, n in kinds))
        rng.shuffle(people)
        tables = []
        for number, (rules, n) in enumerate(kinds, 1):
            table_id = self.sink.new_id(Table)
            self.sink.add(
                Table,
                (
                    table_id,
                    self.club.pk,
                    plan.id,
                    number,
                    new_table_token(),
                    _utc(plan.date, -1800),
                    _utc(plan.date, -1800),  # the link, issued with its table
                ),
            )
            tables.append((table_id, rules, people[:n], rng.uniform(0, 900)))
            people = people[n:]
            self.report.tables += 1
        budgets = self._split(plan.hands, len(tables))
        first = 0
        if plan.progressive is not None:
            first = self.progressive(plan, tables[:PROGRESSIVE_TABLES])
            self.planned += sum(budgets[:first])
        for i in range(first, len(tables)):
            table_id, rules, seated, clock = tables[i]
            self.planned += budgets[i]
            final = plan.is_last and i == len(tables) - 1
            self.table(plan, table_id, rules, seated, clock, final=final)

    def _split(self, hands: int, tables: int) -> list[int]:
        weights = [self.rng.uniform(0.8, 1.2) for _ in range(tables)]
        total, out, cumulative, given = sum(weights), [], 0.0, 0
        for w in weights:
            cumulative += w
            share = round(hands * cumulative / total) - given
            given += share
            out.append(share)
        return out

    def table(
        self,
        plan: _EveningPlan,
        table_id: int,
        rules: RuleSet,
        seated: list[str],
        clock: float,
        *,
        final: bool,
    ) -> None:
        """One table's evening: rubbers (or one Call-Ace sitting) until its share of the
        season's hands is played. The season's very last table stops at the exact total,
        its rubber still in progress (the open evening is still being played)."""
        rng = self.rng
        if rules is CALL_ACE:
            deals = max(8, self.planned - self.produced)
            if final:
                deals = self.hands_wanted - self.produced
            if deals > 0:
                self.rubber(
                    plan, table_id, rules, list(seated), clock, deals=deals, close=not final
                )
            return
        while True:
            left = (self.hands_wanted if final else self.planned) - self.produced
            if left <= 0:
                return
            order = list(seated)
            rng.shuffle(order)  # cutting for partners (ruling T4)
            players = {"NS": order[:2], "EW": order[2:]}
            _, clock = self.rubber(
                plan, table_id, rules, players, clock, stop_after=left if final else None
            )
            clock += 180

    def progressive(self, plan: _EveningPlan, tables: list) -> int:
        """A progressive tournament on the evening's first tables: every round each table
        plays a rubber, and the entrants are seated afresh (the movement's rotation)."""
        rng = self.rng
        tournament_id = plan.progressive
        entrants = [name for _, _, seated, _ in tables for name in seated]
        for name in sorted(entrants):
            self.sink.add(
                TournamentPlayer,
                (self.sink.new_id(TournamentPlayer), tournament_id, self.member_ids[name], 1, None),
            )
        clock = 0.0
        for number in range(1, PROGRESSIVE_ROUNDS + 1):
            order = list(entrants)
            rng.shuffle(order)
            # Seated by a seeded shuffle, stored in the movements' seating format
            # (RoundSeating.to_dict): North-South against East-West at each table.
            seats = [
                dict(zip("NESW", order[4 * t : 4 * t + 4], strict=True)) for t in range(len(tables))
            ]
            seating = {
                "round_number": number,
                "tables": [{"number": t + 1, "seats": s} for t, s in enumerate(seats)],
                "byes": [],
                "cuts": [],
                "relaxations": [],
            }
            round_id = self.sink.new_id(Round)
            self.sink.add(Round, (round_id, tournament_id, number, seating, _utc(plan.date, clock)))
            ends = []
            for t, (table_id, _, _, _) in enumerate(tables):
                players = {
                    "NS": [seats[t]["N"], seats[t]["S"]],
                    "EW": [seats[t]["E"], seats[t]["W"]],
                }
                rubber_id, end = self.rubber(plan, table_id, EUCHRE, players, clock)
                ends.append(end)
                self.sink.add(
                    RoundTable, (self.sink.new_id(RoundTable), round_id, t + 1, rubber_id)
                )
            clock = max(ends) + 300
        return len(tables)

    # rubbers and hands

    def rubber(
        self,
        plan: _EveningPlan,
        table_id: int,
        rules: RuleSet,
        players: Any,
        clock: float,
        *,
        deals: int | None = None,
        close: bool = True,
        stop_after: int | None = None,
    ) -> tuple[int, float]:
        """Play one rubber (Call-Ace: a sitting of `deals` deals) hand by hand through the
        rule set, and write it as the scoring service would: (its id, the table's clock)."""
        rng = self.rng
        sink = self.sink
        rubber_id = sink.new_id(Rubber)
        options = rules.validate_options(None)
        state = rules.start(options, players)
        seats = players_of(rules, players)
        members = self.member_ids
        names = list(players) if rules is CALL_ACE else None
        holder = SimpleNamespace(players=players)
        started = clock
        evening_start = _utc(plan.date, 0)
        minutes = HAND_MINUTES[rules.key] * 60
        flat_points = rules is not BRIDGE  # {side or name: int}: a tuple of items is a key
        number = 0
        # Each seat's roll-up (scoring.rollup), summed as the hands are made.
        tally = {name: [0, 0, 0, 0, 0, 0] for name, _ in seats}
        while True:
            if rules is CALL_ACE:
                if number == deals:
                    break
            elif rules.is_complete(state):
                break
            if stop_after is not None and number == stop_after:
                break
            if rules is EUCHRE:
                raw = euchre_hand(rng)
            elif rules is BRIDGE:
                raw = bridge_hand(rng)
            else:
                raw = call_ace_deal(rng, names)
            number += 1
            clock += minutes * rng.uniform(0.6, 1.5)
            hand = rules.validate_hand(state, raw, field_prefix="hand")
            before = state
            state, result = rules.apply(state, hand)
            hand_id = sink.new_id(Hand)
            canonical, data_json, tricks = self._encoded_hand(rules, hand)
            points = result.points
            if flat_points:
                key = (rules.key, *points.items())
                points_json = self.points_json.get(key)
                if points_json is None:
                    points_json = self.points_json[key] = JSONText(json_text(points))
            else:
                points_json = points
            at = evening_start + dt.timedelta(seconds=round(clock))
            corrected = 0
            r = rng.random()
            if r < FREE_CORRECTION + REFEREE_CORRECTION:
                wrong = mistaken(rules, raw, rng)
                if wrong is not None:
                    corrected = 1
                    self._correction(
                        rules, before, wrong, canonical, hand_id, at, free=r < FREE_CORRECTION
                    )
            sink.add(
                Hand,
                (
                    hand_id,
                    rubber_id,
                    number,
                    data_json,
                    tricks,
                    points_json,
                    [str(line) for line in result.lines] if self.lines else [],
                    result.facts,
                    result.game_won or "",
                    None,
                    True,
                    at,
                    corrected,
                ),
            )
            for name, score in player_scores(rules, holder, result).items():
                sink.add(
                    HandScore,
                    (
                        sink.new_id(HandScore),
                        hand_id,
                        rubber_id,
                        members[name],
                        score["side"],
                        score["points"],
                        score["march"],
                        score["lone_made"],
                        score["euchred"],
                        score["honours"],
                    ),
                )
                sums = tally[name]
                sums[0] += score["points"]
                sums[1] += score["march"]
                sums[2] += score["lone_made"]
                sums[3] += score["euchred"]
                sums[4] += score["honours"]
                sums[5] += 1
                self.report.hand_scores += 1
            self.produced += 1
            self.buffered += 1
        if rules is CALL_ACE and close:
            state = rules.close(state)
        summary, ledger = self._finish_rubber(
            plan, table_id, rules, rubber_id, players, options, state, number, started, clock
        )
        self._seats(rubber_id, plan.id, seats, tally, summary, ledger)
        if self.progress is not None:
            self.progress(self.produced - self.progressed)
            self.progressed = self.produced
        if self.buffered >= self.chunk:
            sink.flush()
            self.buffered = 0
            if self.produced >= self.next_progress:
                rate = self.produced / (time.monotonic() - self.started)
                logger.info("season: %s hands (%.0f a second)", f"{self.produced:,}", rate)
                self.next_progress += 100_000
        return rubber_id, clock

    def _encoded_hand(self, rules: RuleSet, hand) -> tuple[dict, JSONText, int]:
        """A checked hand's canonical data, as JSON, and its trick count: worked out once
        for every hand recorded alike (most Euchre hands are one of a few hundred)."""
        known = self.hand_json.get((rules.key, hand))
        if known is None:
            if len(self.hand_json) > 100_000:
                self.hand_json.clear()
            canonical = hand.as_dict()
            known = (canonical, JSONText(json_text(canonical)), tricks_column(rules, canonical))
            self.hand_json[rules.key, hand] = known
        return known

    def _correction(
        self,
        rules,
        before,
        wrong: dict,
        canonical: dict,
        hand_id: int,
        at: dt.datetime,
        *,
        free: bool,
    ) -> None:
        """The hand was first recorded wrongly and corrected: by the players before the
        next hand (law 5), or later by the secretary as referee (ruling E9)."""
        first = rules.validate_hand(before, wrong, field_prefix="hand")
        _, first_result = rules.apply(before, first)
        law = rules.correction_law or "ruling E9"
        if free:
            kind, reason, when = HandCorrection.Kind.FREE, "", at + dt.timedelta(seconds=40)
        else:
            kind = HandCorrection.Kind.REFEREE
            reason = "The table's sheet showed a different count of tricks."
            when = at + dt.timedelta(minutes=25)
        self.sink.add(
            HandCorrection,
            (
                self.sink.new_id(HandCorrection),
                hand_id,
                first.as_dict(),
                first_result.points,
                canonical,
                kind,
                reason,
                law,
                None,
                free,
                when,
            ),
        )
        self.report.corrections += 1

    def _seats(self, rubber_id, evening_id, seats, tally, summary, ledger) -> None:
        """The rubber's seats with their roll-up, as `scoring.rollup` computes it: the
        hand scores' sums, the games won by the seat's side, the settlement, and the
        rubber's evening, end and value to the seat. `ledger` is None while unfinished."""
        games = [game["winner"] for game in summary.get("games", [])]
        finished = ledger is not None
        money = ledger or {}
        winner, value = summary["rubber"].get("winner") or "", summary["rubber"].get("value") or 0
        for position, (name, side) in enumerate(seats):
            won = finished and side != "" and side == winner
            points = (value if won else -value) if finished and side else 0
            self.sink.add(
                RubberPlayer,
                (
                    self.sink.new_id(RubberPlayer),
                    rubber_id,
                    self.member_ids[name],
                    side,
                    position,
                    *tally[name],
                    games.count(side),
                    money.get(name, 0),
                    evening_id,
                    finished,
                    won,
                    points,
                    won,  # its table: every generated round is a rubber
                ),
            )

    def _finish_rubber(
        self, plan, table_id, rules, rubber_id, players, options, state, hand_count, started, clock
    ) -> tuple[dict, dict | None]:
        """The rubber's row, its games and its money, as `_write_rubber` writes them:
        (its summary, its settlement or None while it is unfinished)."""
        sink = self.sink
        summary = rules.summary(state)
        complete = rules.is_complete(state)
        stake = plan.stake
        sink.add(
            Rubber,
            (
                rubber_id,
                self.club.pk,
                plan.id,
                table_id,
                rules.key,
                options,
                players,
                stake,
                Rubber.Status.COMPLETE if complete else Rubber.Status.IN_PROGRESS,
                summary["rubber"].get("winner") or "",
                summary["rubber"].get("value"),
                summary,
                hand_count,
                None,
                _utc(plan.date, started),
                _utc(plan.date, clock) if complete else None,
            ),
        )
        for game in summary.get("games", []):
            sink.add(
                Game,
                (
                    sink.new_id(Game),
                    rubber_id,
                    game["number"],
                    game["winner"],
                    game.get("value"),
                    game.get("lap") or 0,
                    game.get("scores") or {},
                    game,
                ),
            )
        ledger = rules.settle(state, stake, players) if complete else None
        for name, amount in (ledger or {}).items():
            sink.add(
                Settlement, (sink.new_id(Settlement), rubber_id, self.member_ids[name], amount)
            )
        self.report.rubbers += 1
        return summary, ledger


# The seat's roll-up, in the order `Season._seats` gives it (scoring.rollup).
