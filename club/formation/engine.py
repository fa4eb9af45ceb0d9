"""The table-formation engine: an evening's event log in, tables, cuts and decisions out.

``apply(state, event)`` is pure: it works on a copy of the state and either returns the new
state with the decisions the event led to, or raises FormationError and changes nothing. Every
decision names the law and ruling behind it. The events are documented in docs/evening-log.md,
and the readings of the laws taken here in docs/laws-tables.md (each named "Reading ..." in the
code where it applies).
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from . import ranking
from .cards import Card, call_ace_pack, draw_cut, pack_for, parse_card, precedence, throw_for_jack
from .errors import FormationError
from .rules import BRIDGE, PARTNERSHIP_PLAYERS, RuleSet, get_rule_set
from .state import Decision, EveningState, Member, PendingCut, Table

#: Event types the DB layer owns; the engine counts them in the log and passes them by.
PASS_THROUGH = frozenset({"hand", "correction", "hand_removed", "close_sitting", "close", "reopen"})

FORM_CUT = "form-table"

# Boundaries a cut must decide (see ranking): the deal (1) and partners (2) at the start of a
# rubber (ruling T4); who plays (4) and who belongs to the table (6) when one is formed (T3).
PARTNER_BOUNDARIES = [1, 2]
FORM_BOUNDARIES = (4, 6)


def new_evening(rule_set: str) -> EveningState:
    """An empty evening played under ``rule_set`` (``euchre-somerset-1888``,
    ``bridge-elwell-1907`` or ``call-ace-foster-1905``)."""
    return EveningState(rule_set=get_rule_set(rule_set).key)


def apply(state: EveningState, event: Mapping[str, Any]) -> tuple[EveningState, list[Decision]]:
    """Apply one event of the evening's log; return the new state and the decisions it led to.

    Raises FormationError for an illegal or malformed event; ``state`` is never changed.
    """
    if not isinstance(event, Mapping):
        raise FormationError("an event is a JSON object with a 'type'", field="type")
    kind = event.get("type")
    if kind in PASS_THROUGH:
        return replace(state, events_applied=state.events_applied + 1), []
    handler = _HANDLERS.get(kind) if isinstance(kind, str) else None
    if handler is None:
        known = ", ".join(sorted([*_HANDLERS, *PASS_THROUGH]))
        raise FormationError(f"unknown event type {kind!r}: use one of {known}", field="type")
    step = _Step(copy.deepcopy(state), event)
    handler(step)
    step.state.events_applied += 1
    step.state.decisions = (*step.state.decisions, *step.decisions)
    return step.state, step.decisions


def replay(rule_set: str, events: Iterable[Mapping[str, Any]]) -> EveningState:
    """Project a whole event log onto an empty evening."""
    state = new_evening(rule_set)
    for event in events:
        state, _ = apply(state, event)
    return state


def required(state: EveningState) -> list[dict[str, Any]]:
    """What the laws require next, for the secretary's board: cuts to make and by whom,
    rubbers to finish, places to fill, candidates enough to form a table."""
    rules = get_rule_set(state.rule_set)
    board: list[dict[str, Any]] = []
    for cut in sorted(state.pending, key=lambda c: (c.table is None, c.table or 0, c.id)):
        if cut.purpose == "first-jack":
            board.append(
                {
                    "kind": "deal_jack",
                    "table": cut.table,
                    "players": list(cut.cutters),
                    "law": rules.cite("first_jack"),
                    "text": f"throw a card round table {cut.table} face up; the first jack deals",
                }
            )
            continue
        board.append(
            {
                "kind": "cut",
                "cut_id": cut.id,
                "purpose": cut.purpose,
                "table": cut.table,
                "players": list(cut.cutters),
                "round": cut.round,
                "law": _purpose_cite(rules, cut.purpose),
                "text": f"{_names(cut.cutters)} cut {_PURPOSE_TEXT[cut.purpose]}"
                + (f" (table {cut.table})" if cut.table else "")
                + (" again" if cut.round > 1 else ""),
            }
        )
    fewest = PARTNERSHIP_PLAYERS
    for table in state.tables:
        if table.in_rubber:
            board.append(
                {
                    "kind": "rubber",
                    "table": table.number,
                    "players": [table.occupant(player) for player in table.playing],
                    "law": rules.cite("rubber"),
                    "text": f"rubber {table.rubbers_played + 1} in progress at table "
                    f"{table.number}",
                }
            )
        elif len(table.playing) < fewest:
            short = fewest - len(table.playing)
            board.append(
                {
                    "kind": "seat",
                    "table": table.number,
                    "places": short,
                    "law": rules.cite("claim"),
                    "text": f"table {table.number} is {_count(short, 'player')} short: "
                    "a candidate may claim the place",
                }
            )
    free = _free_candidates(state)
    if len(free) >= fewest and not any(cut.id == FORM_CUT for cut in state.pending):
        board.append(
            {
                "kind": "form_table",
                "candidates": free,
                "law": rules.cite("form"),
                "text": f"{_count(len(free), 'candidate')} may form a fresh table",
            }
        )
    return board


def draw_event(state: EveningState, rng: random.Random) -> dict[str, Any] | None:
    """The ``cut`` or ``deal_jack`` event for the first pending cut, its cards drawn from
    ``rng`` (ruling T10); None when no cut is pending."""
    if not state.pending:
        return None
    cut = state.pending[0]
    if cut.purpose == "first-jack":
        return {"type": "deal_jack", "table": cut.table, "cards": throw_for_jack(cut.cutters, rng)}
    cards = draw_cut(cut.cutters, rng, rule_set=state.rule_set)
    return {"type": "cut", "cut_id": cut.id, "cards": cards}


# -- wording ---------------------------------------------------------------------------------

_PURPOSE_TEXT = {
    "form-table": "to form a table",
    "partners-and-deal": "for partners and deal",
    "cut-out": "to decide who goes out",
    "break-up": "for precedence among the players of a broken-up table",
}


def _purpose_cite(rules: RuleSet, purpose: str) -> str:
    topic = {
        "form-table": "form",
        "partners-and-deal": "partners",
        "cut-out": "cut_out",
        "break-up": "break_up",
        "first-jack": "first_jack",
    }[purpose]
    return rules.cite(topic)


def _names(players: Sequence[str]) -> str:
    players = list(players)
    if not players:
        return "nobody"
    if len(players) == 1:
        return players[0]
    return f"{', '.join(players[:-1])} and {players[-1]}"


def _verb(players: Sequence[str], singular: str, plural: str) -> str:
    """``players`` named, with the verb agreeing: "Gus remains", "Gus and Hal remain"."""
    return f"{_names(players)} {singular if len(players) == 1 else plural}"


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _cards_text(cards: Mapping[str, str]) -> str:
    return ", ".join(f"{player} {card}" for player, card in cards.items())


def _free_candidates(state: EveningState) -> list[str]:
    """Candidates free to cut for a fresh table: not in a pending cut, and not waiting on a
    claim at a table (reading T2-claims: a candidate who has declared for a table waits for
    it, until he withdraws the claim)."""
    return [
        player
        for player in state.candidates
        if state.cut_of(player) is None and state.claim_of(player) is None
    ]


# -- one event -------------------------------------------------------------------------------


class _Step:
    """Applies one event to a working copy of the state, collecting its decisions."""

    def __init__(self, state: EveningState, event: Mapping[str, Any]):
        self.state = state
        self.event = event
        self.rules = get_rule_set(state.rule_set)
        self.decisions: list[Decision] = []

    # -- helpers -----------------------------------------------------------------------------

    def cite(self, topic: str) -> str:
        return self.rules.cite(topic)

    def decide(self, law: str, text: str) -> None:
        self.decisions.append(Decision(self.state.events_applied, law, f"{law}: {text}"))

    def fail(self, law: str | None, text: str, field: str | None = None) -> FormationError:
        message = f"{law}: {text}" if law else text
        return FormationError(message, law=law, field=field)

    def field_player(self, name: str = "player") -> str:
        value = self.event.get(name)
        if not isinstance(value, str) or not value.strip():
            kind = self.event.get("type")
            raise self.fail(None, f"'{kind}' needs '{name}': a player's name", name)
        return value

    def present_player(self, name: str = "player") -> str:
        player = self.field_player(name)
        if player not in self.state.present:
            raise self.fail(self.cite("candidates"), f"{player} is not in the room", name)
        return player

    def field_table(self, name: str = "table") -> Table:
        number = self.event.get(name)
        if isinstance(number, bool) or not isinstance(number, int):
            kind = self.event.get("type")
            raise self.fail(None, f"'{kind}' needs '{name}': a table number", name)
        table = self.state.table(number)
        if table is None:
            raise self.fail(None, f"there is no table {number} this evening", name)
        return table

    def member(self, table: Table, player: str) -> Member:
        return table.members[player]

    def free_for_a_seat(self, player: str, field: str, *, claim_at: Table | None = None) -> None:
        """Refuse a player who is busy elsewhere: at a table, sitting in, in a cut, or waiting
        on a claim at a table other than ``claim_at``."""
        state = self.state
        if (table := state.table_of(player)) is not None:
            raise self.fail(
                self.cite("change"),
                f"{player} belongs to table {table.number}; a player belongs to one table at a "
                "time, and cutting into another gives up his place (change_table)",
                field,
            )
        if (table := state.substituting_at(player)) is not None:
            raise self.fail(
                self.cite("substitute"),
                f"{player} is sitting in as a substitute at table {table.number} until its "
                "rubber ends",
                field,
            )
        if (cut := state.cut_of(player)) is not None:
            raise self.fail(
                _purpose_cite(self.rules, cut.purpose),
                f"{player} is in the cut {_PURPOSE_TEXT[cut.purpose]}, which must be finished "
                "first",
                field,
            )
        if (table := state.claim_of(player)) is not None and table is not claim_at:
            raise self.fail(
                self.cite("claim"),
                f"{player} has claimed admission at table {table.number} and waits for it "
                "(withdraw the claim first)",
                field,
            )

    def open_cut(self, cut: PendingCut) -> None:
        self.state.pending = [c for c in self.state.pending if c.id != cut.id]
        self.state.pending.append(cut)

    def drop_cut_at(self, table: Table) -> PendingCut | None:
        cut = self.state.cut_at(table.number)
        if cut is not None:
            self.state.pending.remove(cut)
        return cut

    def join(self, table: Table, player: str, *, play: bool, one_rubber: bool = False) -> None:
        """Make ``player`` a member of ``table``: he has now belonged to a table (law 17)."""
        state = self.state
        table.members[player] = Member(player, one_rubber=one_rubber)
        (table.playing if play else table.waiting).append(player)
        if player not in state.belonged:
            state.belonged.append(player)
        # Only a free candidate joins (reading T2-claims), so his one claim, if any, is here.
        if player in table.claims:
            table.claims.remove(player)
        if player in state.prior_right:
            state.prior_right.remove(player)
        if state.reentry.get(player) == table.number:
            del state.reentry[player]

    # -- arriving and departing -----------------------------------------------------------

    def arrive(self) -> None:
        player = self.field_player()
        if player in self.state.present:
            raise self.fail(self.cite("candidates"), f"{player} is already in the room", "player")
        self.state.present.append(player)
        later = (
            "; the cut to form a table has begun without him and he waits for the next"
            if any(cut.id == FORM_CUT for cut in self.state.pending)
            else ""
        )
        self.decide(
            self.cite("candidates"),
            f"{player} arrives and is a candidate, number {len(self.state.present)} in order "
            f"of arrival{later}",
        )

    def depart(self) -> None:
        state = self.state
        player = self.present_player()
        if (table := state.table_of(player)) is not None:
            raise self.fail(
                self.cite("leave"),
                f"{player} belongs to table {table.number}: he leaves the table first (leave)",
                "player",
            )
        claimed = state.claim_of(player)
        self.free_for_a_seat(player, "player", claim_at=claimed)
        state.present.remove(player)
        if claimed is not None:
            claimed.claims.remove(player)
            self.decide(self.cite("claim"), f"{player}'s claim at table {claimed.number} lapses")
        if player in state.prior_right:
            state.prior_right.remove(player)
        state.reentry.pop(player, None)
        self.decide(self.cite("candidates"), f"{player} leaves the room")

    # -- forming a table (ruling T3) ----------------------------------------------------------

    def form_table(self) -> None:
        state = self.state
        if any(cut.id == FORM_CUT for cut in state.pending):
            raise self.fail(self.cite("form"), "a cut to form a table is already under way")
        if blocking := [cut for cut in state.pending if cut.purpose == "break-up"]:
            raise self.fail(
                self.cite("break_up"),
                f"{_names(blocking[0].cutters)} must first finish their cut for precedence "
                f"after table {blocking[0].context['table']} broke up",
            )
        candidates = _free_candidates(state)
        fewest = PARTNERSHIP_PLAYERS
        if len(candidates) < fewest:
            raise self.fail(
                self.cite("form"),
                f"{_count(len(candidates), 'candidate')} in the room: a table needs four",
            )
        # Law 17: those who have neither belonged to nor played at a table come first
        # (reading "T3 all cut, law 17 as precedence": all cut, the fresh rank first).
        fresh = [p for p in candidates if p not in state.belonged]
        others = [p for p in candidates if p in state.belonged]
        if not self.rules.partnership:
            self.form_call_ace(fresh + others, fresh, others)
            return
        if len(candidates) == fewest:
            self.decide(
                self.cite("form"),
                f"{_names(candidates)} are four candidates: they form a table without cutting",
            )
            self.create_table(candidates, [])
            return
        tiers = [tier for tier in (fresh, others) if tier]
        boundaries = [b for b in FORM_BOUNDARIES if b < len(candidates)]
        self.open_cut(
            PendingCut(
                FORM_CUT,
                "form-table",
                None,
                list(candidates),
                tiers,
                boundaries,
                context={"fresh": fresh} if fresh and others else {},
            )
        )
        prior = ""
        if fresh and others:
            prior = (
                f"; {_names(fresh)}, who {'has' if len(fresh) == 1 else 'have'} neither "
                "belonged to nor played at another table this evening, "
                f"{'has' if len(fresh) == 1 else 'have'} the prior right of entry "
                f"({self.cite('fresh')})"
            )
        self.decide(
            self.cite("form"),
            f"{_count(len(candidates), 'candidate')} for a table: all cut, the four "
            f"{self.rules.favoured} to play, the fifth and sixth to belong to the table as "
            f"waiting members{prior}",
        )

    def form_call_ace(self, ordered: list[str], fresh: list[str], others: list[str]) -> None:
        # Reading T3-CA: Call-Ace cuts no seats (ruling T1), so with more than seven candidates
        # the seven with precedence play: law 17's fresh candidates first, then by arrival.
        most = self.rules.most_members
        players, rest = ordered[:most], ordered[most:]
        text = f"{_names(players)} form a Call-Ace table, each for himself; seats are not cut"
        if rest:
            left = _verb(rest, "remains a candidate", "remain candidates")
            text += f"; seven at most play, so {left}"
            if fresh and others:
                text += f" ({_names(fresh)} came first, {self.cite('fresh')})"
        self.decide(self.cite("form"), text)
        self.create_table(players, [])

    def create_table(self, playing: list[str], waiting: list[str]) -> Table:
        state = self.state
        table = Table(number=state.next_table)
        state.next_table += 1
        state.tables.append(table)
        for player in playing:
            self.join(table, player, play=True)
        for player in waiting:
            self.join(table, player, play=False)
        self.open_first_cut(table)
        return table

    def open_first_cut(self, table: Table) -> None:
        """The cut that starts play: partners and deal (T4), or Call-Ace's first jack (law 1)."""
        table.seated = False
        table.dealer = None
        if self.rules.partnership:
            four = sorted(table.playing, key=self.state.present.index)
            self.open_cut(
                PendingCut(
                    f"table-{table.number}",
                    "partners-and-deal",
                    table.number,
                    four,
                    [list(four)],
                    list(PARTNER_BOUNDARIES),
                )
            )
        else:
            self.open_cut(
                PendingCut(f"table-{table.number}", "first-jack", table.number, list(table.playing))
            )

    # -- the cut --------------------------------------------------------------------------------

    def cut(self) -> None:
        state = self.state
        cards = self.event.get("cards")
        if not isinstance(cards, Mapping) or not cards:
            raise self.fail(None, "'cut' needs 'cards': {player: card, ...}", "cards")
        cut = self.find_cut(cards)
        law = _purpose_cite(self.rules, cut.purpose)
        parsed = self.parse_cards(cards, pack_for(state.rule_set))
        record = {player: str(parsed[player]) for player in cards}
        cut.rounds.append(record)
        table = state.table(cut.table) if cut.table is not None else None
        if table is not None:
            table.cut_begun = True
        what = _PURPOSE_TEXT[cut.purpose] + (f" at table {cut.table}" if cut.table else "")
        self.decide(self.cite("record"), f"cards cut {what}: {_cards_text(record)}")
        strength = {player: precedence(card, state.rule_set) for player, card in parsed.items()}
        tiers = ranking.refine(cut.tiers, strength)
        self.note_ties_that_do_not_matter(tiers, cut, record, law)
        still = ranking.undecided(tiers, cut.boundaries)
        if still:
            cut.tiers = tiers
            cut.cutters = ranking.flatten(still)
            cut.round += 1
            for tier in still:
                self.decide(self.tie_law(tier, law), self.tie_text(tier, tiers, cut, record))
            return
        state.pending.remove(cut)
        order = ranking.flatten(tiers)
        if cut.purpose == "form-table":
            self.finish_form(order, cut.context.get("fresh", []))
        elif cut.purpose == "partners-and-deal":
            self.finish_partners(table, order)
        elif cut.purpose == "cut-out":
            self.finish_cut_out(
                table,
                tiers,
                cut.boundaries[0],
                cut.context["entrants"],
                cut.context["use_flags"],
                cut_by={player for cards in cut.rounds for player in cards},
            )
        else:
            self.finish_break_up(order, cut.boundaries[0])

    def find_cut(self, cards: Mapping[str, Any]) -> PendingCut:
        state = self.state
        players = set(cards)
        cut_id = self.event.get("cut_id")
        if cut_id is not None:
            cut = next((c for c in state.pending if c.id == cut_id), None)
            if cut is None or cut.purpose == "first-jack":
                raise self.fail(None, f"no cut {cut_id!r} is pending", "cut_id")
        else:
            cuts = [c for c in state.pending if c.purpose != "first-jack"]
            cut = next(
                (c for c in cuts if set(c.cutters) == players),
                None,
            )
            if cut is None:
                if len(cuts) != 1:
                    must = "; ".join(f"{c.id}: {_names(c.cutters)}" for c in cuts) or "none"
                    raise self.fail(
                        self.cite("record"),
                        f"these cards match no pending cut (pending: {must})",
                        "cards",
                    )
                cut = cuts[0]
        if set(cut.cutters) != players or len(cut.cutters) != len(cards):
            raise self.fail(
                _purpose_cite(self.rules, cut.purpose),
                f"{_names(cut.cutters)} must cut {_PURPOSE_TEXT[cut.purpose]}, and only they: "
                f"cards were given for {_names(list(cards))}",
                "cards",
            )
        return cut

    def parse_cards(self, cards: Mapping[str, Any], pack: Sequence[Card]) -> dict[str, Card]:
        parsed: dict[str, Card] = {}
        for player, text in cards.items():
            card = parse_card(text, field=f"cards.{player}")
            if card not in pack:
                raise self.fail(
                    self.cite("cards"),
                    f"{player}'s {card} is not in the {len(pack)}-card {self.rules.game} pack",
                    f"cards.{player}",
                )
            if card in parsed.values():
                holder = next(p for p, c in parsed.items() if c == card)
                raise self.fail(
                    self.cite("same_pack"),
                    f"{holder} and {player} cannot both cut {card}: every one cuts from the "
                    "same pack",
                    f"cards.{player}",
                )
            parsed[player] = card
        return parsed

    def tie_law(self, tier: Sequence[str], law: str) -> str:
        """Law 13 for two equal cards, law 14 for three, with the ruling of the cut's purpose."""
        if not self.rules.highest_plays:
            return law  # never reached: a Bridge cut cannot tie
        ties = {2: "law 13", 3: "law 14"}.get(len(tier), "laws 13-14")
        ruling = law.split(" / ")[-1]
        return f"{ties} / {ruling}" if ruling.startswith("ruling") else ties

    def tie_text(
        self,
        tier: Sequence[str],
        tiers: Sequence[Sequence[str]],
        cut: PendingCut,
        record: Mapping[str, str],
    ) -> str:
        cards = ", ".join(record[p] for p in tier)
        start = ranking.flatten(tiers).index(tier[0])
        only_deal = cut.purpose == "partners-and-deal" and start == 0 and len(tier) == 2
        why = (
            "a tie of the two highest is cut again only for the deal"
            if only_deal
            else "the tie matters, so they cut again, and only they"
        )
        return f"{_names(tier)} cut equal cards ({cards}): {why}"

    def note_ties_that_do_not_matter(
        self,
        tiers: Sequence[Sequence[str]],
        cut: PendingCut,
        record: Mapping[str, str],
        law: str,
    ) -> None:
        still = ranking.undecided(tiers, cut.boundaries)
        for tier in tiers:
            if len(tier) > 1 and tier[0] in record and list(tier) not in still:
                cards = ", ".join(record[p] for p in tier)
                self.decide(
                    self.tie_law(tier, law),
                    f"{_names(tier)} cut equal cards ({cards}), but the tie decides nothing "
                    "here, so they do not cut again",
                )

    # -- outcomes of cuts ------------------------------------------------------------------

    def finish_form(self, order: list[str], fresh: Collection[str]) -> None:
        number = self.state.next_table
        playing, waiting, rest = order[:4], order[4:6], order[6:]
        places = "fifth" if len(waiting) == 1 else "fifth and sixth"
        one = len(waiting) == 1
        if fresh:
            text = (
                f"table {number}: {_names(playing)} play first, those who have not belonged to "
                f"a table this evening ranking before the others whatever their cards "
                f"({self.cite('fresh')})"
            )
            wait = f"{_verb(waiting, 'is', 'are')} {places}"
        else:
            text = f"table {number}: {_names(playing)} cut {self.rules.favoured} and play first"
            wait = f"{_verb(waiting, 'cuts', 'cut')} {places}"
        if waiting:
            text += (
                f"; {wait} and {'belongs' if one else 'belong'} to the table as "
                f"{'a waiting member' if one else 'waiting members'} ({self.cite('members')})"
            )
        if rest:
            text += f"; {_verb(rest, 'remains a candidate', 'remain candidates')}"
        self.decide(self.cite("form"), text)
        self.create_table(playing, waiting)

    def finish_partners(self, table: Table, order: list[str]) -> None:
        # Reading T4 seats: the dealer, who has the choice of seats (law 11), sits North, his
        # partner South, the better cut of the other side East.
        dealer, partner, first_adversary, second_adversary = order
        table.playing = [dealer, first_adversary, partner, second_adversary]
        table.seated = True
        table.dealer = dealer
        table.in_rubber = True
        table.cut_begun = False
        favoured = self.rules.favoured
        self.decide(
            self.cite("partners"),
            f"{dealer} and {partner} cut {favoured} and play against {first_adversary} and "
            f"{second_adversary}; {dealer}, {favoured}, deals and has the choice of seats: N "
            f"{dealer}, E {first_adversary}, S {partner}, W {second_adversary}. Rubber "
            f"{table.rubbers_played + 1} at table {table.number} begins",
        )

    def finish_break_up(self, order: list[str], places: int) -> None:
        keep, lose = order[:places], order[places:]
        self.state.prior_right.extend(keep)
        self.decide(
            self.cite("break_up"),
            f"{_verb(keep, 'cuts', 'cut')} {self.rules.favoured} and "
            f"{'has' if len(keep) == 1 else 'have'} the prior right to the "
            f"{_count(places, 'place')} at other tables; {_verb(lose, 'cuts', 'cut')} "
            f"{self.rules.disfavoured}, without it",
        )

    # -- rubbers and cutting out (law 15, rulings T4-T5) ---------------------------------

    def rubber_end(self) -> None:
        table = self.field_table()
        if not self.rules.partnership:
            raise self.fail(
                self.cite("rubber"),
                "Call-Ace has no rubbers: each player keeps his own score and settles at the end "
                "of the sitting",
                "type",
            )
        if not table.in_rubber:
            raise self.fail(
                self.cite("rubber"),
                f"table {table.number} has no rubber in progress: a rubber begins when its four "
                "have cut for partners and deal",
                "table",
            )
        for player in table.playing:
            member = self.member(table, player)
            member.consecutive += 1
            member.rubbers += 1
        table.in_rubber = False
        table.seated = False
        table.rubbers_played += 1
        table.cut_begun = False
        counts = ", ".join(
            f"{player} {self.member(table, player).consecutive}" for player in table.playing
        )
        self.decide(
            self.cite("rubber"),
            f"rubber {table.rubbers_played} at table {table.number} ends; consecutive rubbers: "
            f"{counts}",
        )
        if table.substitutes:
            booked = "; ".join(
                f"{absent}'s rubber is booked to him although {sub} played it, and does not "
                f"count toward {sub}'s consecutive rubbers"
                for absent, sub in table.substitutes.items()
            )
            self.decide(self.cite("substitute"), f"{booked}; the substitution ends")
            table.substitutes = {}
        # Ruling T5: the waiting members claim first, in the order they began waiting
        # (reading T5 standing claims: without declaring it again).
        self.settle(table, [*table.waiting, *table.claims], use_flags=True)

    def settle(self, table: Table, entrants: list[str], *, use_flags: bool) -> None:
        """Law 15 / ruling T5: admit ``entrants``, putting out as many of the four: law 19's
        replacements first, then those who have played the most consecutive rubbers; a tie
        is cut, Euchre's lowest (Bridge's highest) going out."""
        if not entrants:
            if use_flags:
                self.clear_flags(table)
            self.open_first_cut(table)
            return
        due = {p for p in table.playing if use_flags and self.member(table, p).one_rubber}
        out_count = len(entrants)
        stay = len(table.playing) - out_count

        def going_out(player: str) -> tuple[bool, int]:
            return player in due, self.member(table, player).consecutive

        by_arrival = sorted(table.playing, key=self.state.present.index)
        tiers = ranking.group(by_arrival, going_out)
        counts = ", ".join(f"{p} {self.member(table, p).consecutive}" for p in table.playing)
        labels = [
            f"{p} ({'waiting member' if p in table.waiting else 'candidate'})" for p in entrants
        ]
        self.decide(
            self.cite("cut_out"),
            f"{_verb(labels, 'claims', 'claim')} admission at table {table.number}, so "
            f"{_count(out_count, 'player')} must go out; consecutive rubbers: {counts}",
        )
        straddling = ranking.undecided(tiers, [stay])
        if not straddling:
            self.finish_cut_out(table, tiers, stay, entrants, use_flags)
            return
        cutters = ranking.flatten(straddling)
        settled_out = [p for p in ranking.flatten(tiers)[stay:] if p not in cutters]
        if cutters[0] in due:
            alike = "each took a place under law 19"
        else:
            played = self.member(table, cutters[0]).consecutive
            alike = f"each played {_count(played, 'consecutive rubber')}"
        reason = (f"{_verb(settled_out, 'goes', 'go')} out first; " if settled_out else "") + (
            f"{_names(cutters)} have {alike}, so they cut, the {self.rules.disfavoured} going out"
        )
        self.decide(self.cite("cut_out"), reason)
        self.open_cut(
            PendingCut(
                f"table-{table.number}",
                "cut-out",
                table.number,
                cutters,
                tiers,
                [stay],
                context={"entrants": list(entrants), "use_flags": use_flags},
            )
        )

    def finish_cut_out(
        self,
        table: Table,
        tiers: Sequence[Sequence[str]],
        stay: int,
        entrants: list[str],
        use_flags: bool,
        cut_by: Collection[str] = (),
    ) -> None:
        going = set(ranking.flatten(tiers)[stay:])
        # Reading T5-order: those put out together wait in the order they were put out: law
        # 19's replacement, then the longest playing, then the worst cut; equal and uncut, in
        # order of arrival.
        out = [p for tier in reversed(tiers) for p in tier if p in going]
        for player in entrants:
            if player in table.waiting:
                table.waiting.remove(player)
                table.playing.append(player)
            else:
                self.join(table, player, play=True)
        for player in out:
            member = self.member(table, player)
            if use_flags and member.one_rubber:
                why = "took a place under law 19 and goes out at the end of one rubber"
            else:
                why = f"has played {_count(member.consecutive, 'consecutive rubber')}"
                if player in cut_by:
                    why += f" and cut {self.rules.disfavoured}"
            table.playing.remove(player)
            member.consecutive = 0
            member.one_rubber = False
            table.waiting.append(player)
            self.decide(
                self.cite("cut_out"),
                f"{player} {why}, goes out, and becomes a waiting member at the back",
            )
        if use_flags:
            self.clear_flags(table)
        self.decide(
            self.cite("cut_out"),
            f"{_verb(entrants, 'enters', 'enter')} at table "
            f"{table.number}; waiting members now: {_names(table.waiting)}",
        )
        self.open_first_cut(table)

    def clear_flags(self, table: Table) -> None:
        """Law 19's one rubber has been played: the flag has done its work."""
        for player in table.playing:
            self.member(table, player).one_rubber = False

    # -- claims (laws 15-16) -----------------------------------------------------------------

    def claim(self) -> None:
        player = self.present_player()
        table = self.field_table()
        if player in table.members:
            raise self.fail(
                self.cite("claim"), f"{player} already belongs to table {table.number}", "player"
            )
        if (other := self.state.claim_of(player)) is not None:
            raise self.fail(
                self.cite("claim"),
                f"{player} has already claimed admission at table {other.number}",
                "player",
            )
        self.free_for_a_seat(player, "player")
        self.lodge_claim(player, table)

    def withdraw(self) -> None:
        player = self.present_player()
        table = self.state.claim_of(player)
        if table is None:
            raise self.fail(self.cite("claim"), f"{player} has no claim to withdraw", "player")
        self.free_for_a_seat(player, "player", claim_at=table)
        table.claims.remove(player)
        self.decide(self.cite("claim"), f"{player} withdraws his claim at table {table.number}")

    def has_prior_right(self, player: str, table: Table) -> bool:
        """Law 21's players of a broken-up table, and (T8, Bridge) a player returning to the
        table he left to make up a fresh one."""
        return player in self.state.prior_right or self.state.reentry.get(player) == table.number

    def lodge_claim(self, player: str, table: Table) -> None:
        if not self.rules.partnership:
            if len(table.members) >= self.rules.most_members:
                raise self.fail(
                    self.cite("members"),
                    f"table {table.number} has seven players, the most Call-Ace allows",
                    "table",
                )
            # Reading T2-CA: positions at Call-Ace are unimportant (law 1), so a player is
            # admitted at once and plays from the next deal.
            self.join(table, player, play=True)
            self.decide(
                self.cite("claim"),
                f"{player} joins the Call-Ace table {table.number} and plays from the next deal",
            )
            self.call_ace_players_changed(table)
            return
        if not table.in_rubber and len(table.playing) < PARTNERSHIP_PLAYERS:
            self.join(table, player, play=True)
            self.decide(
                self.cite("claim"), f"{player} takes the empty place at table {table.number}"
            )
            if len(table.playing) == PARTNERSHIP_PLAYERS:
                self.open_first_cut(table)
            return
        if table.cut_begun:  # reading "law 16 window"
            raise self.fail(
                self.cite("claim"),
                f"{player} claims admission at table {table.number} after its players began to "
                "cut: a claim must be declared before any of them cuts a card; he may claim "
                "once the rubber is under way",
                "table",
            )
        prior = self.has_prior_right(player, table)
        # Reading "law 12 at a full table": a seventh member is refused, not queued.
        if len(table.members) + len(table.claims) >= self.rules.most_members:
            ordinary = [p for p in table.claims if not self.has_prior_right(p, table)]
            if not prior or not ordinary or len(table.members) >= self.rules.most_members:
                held = (
                    "six members"
                    if len(table.members) >= self.rules.most_members
                    else f"{_count(len(table.members), 'member')} and "
                    f"{_count(len(table.claims), 'claim')} for the other places"
                )
                raise self.fail(
                    self.cite("members"),
                    f"table {table.number} has {held}, and a table never has more than six: "
                    f"{player} cannot be a seventh",
                    "table",
                )
            bumped = ordinary[-1]
            table.claims.remove(bumped)
            law = self.cite("break_up" if player in self.state.prior_right else "change")
            self.decide(
                law,
                f"{bumped}'s claim at table {table.number} gives way to {player}, who has the "
                "prior right",
            )
        if prior:
            ahead = [p for p in table.claims if self.has_prior_right(p, table)]
            table.claims.insert(len(ahead), player)
        else:
            table.claims.append(player)
        if table.in_rubber:
            when = "at the end of the rubber in progress"
        elif table.rubbers_played == 0:
            when = "at the end of the table's first rubber"
        else:
            when = "now: no card has been cut since the rubber ended"
        self.decide(
            self.cite("claim"),
            f"{player} claims admission at table {table.number}"
            + (" with the prior right" if prior else "")
            + f"; the claim is settled {when}",
        )
        if table.in_rubber or table.rubbers_played == 0:
            return
        # Law 16: declared after the rubber ended but before any card was cut -- in time, so
        # cutting out is settled again with this claim.
        pending = self.drop_cut_at(table)
        if pending is not None and pending.purpose == "cut-out":
            # The cut-out not yet cut is counted again: its waiting members, and the claims as
            # they now stand (a prior right may have displaced one).
            waiting = [p for p in pending.context["entrants"] if p in table.waiting]
            self.settle(table, [*waiting, *table.claims], use_flags=True)
        else:
            self.settle(table, [player], use_flags=False)

    # -- substitutes (law 18 / ruling T6) ------------------------------------------------------

    def substitute(self) -> None:
        state = self.state
        table = self.field_table()
        law = self.cite("substitute")
        if not self.rules.partnership:
            raise self.fail(
                law,
                "a substitute sits in for the rest of a rubber, and Call-Ace has no rubbers: "
                "a player who quits simply leaves the table",
                "type",
            )
        if not table.in_rubber:
            raise self.fail(
                law,
                f"no rubber is in progress at table {table.number}: a substitute sits in only "
                "for the rest of a rubber",
                "table",
            )
        player = self.field_player()
        if player not in table.playing:
            raise self.fail(
                law, f"{player} is not playing the rubber at table {table.number}", "player"
            )
        if player in table.substitutes:
            raise self.fail(
                law,
                f"{table.substitutes[player]} already sits in for {player} this rubber",
                "player",
            )
        sub = self.present_player("substitute")
        if sub in table.playing or sub in table.substitutes.values():
            raise self.fail(law, f"{sub} is already playing at table {table.number}", "substitute")
        if sub not in table.waiting:
            # A waiting member of this table may sit in: it does not touch his place.
            self.free_for_a_seat(sub, "substitute", claim_at=table)
        consent = self.event.get("consent")
        others = [table.occupant(p) for p in table.playing if p != player]
        if (
            not isinstance(consent, list)
            or len(consent) != len(others)
            or set(consent) != set(others)
        ):
            raise self.fail(
                law,
                f"{player} may appoint a substitute only with the consent of the other three "
                f"players, {_names(others)}: 'consent' must name exactly them",
                "consent",
            )
        table.substitutes[player] = sub
        note = ""
        if self.rules.highest_plays and sub not in state.belonged:
            # Reading T6-17: Euchre's law 17 counts any one who has "played at" a table; the
            # Bridge law says the appointment "shall not in any way affect the substitute's
            # rights", so at Bridge he keeps his prior right at fresh tables.
            state.belonged.append(sub)
            note = f"; {sub} has now played at a table (law 17)"
        self.decide(
            law,
            f"{sub} sits in for {player} for the rest of the rubber at table {table.number}, "
            f"with the consent of {_names(others)}; the rubber is booked to {player}{note}",
        )

    # -- leaving, changing tables, breaking up (laws 19-21) ----------------------------------

    def leave(self) -> None:
        table = self.field_table()
        player = self.field_player()
        if player not in table.members:
            raise self.fail(
                self.cite("leave"), f"{player} does not belong to table {table.number}", "player"
            )
        self.leave_table(table, player)

    def leave_table(self, table: Table, player: str, *, keep: Sequence[str] = ()) -> None:
        """Take ``player`` out of ``table`` (he stays in the room, a candidate) and fill his
        place; ``keep`` are candidates not to be called on to fill it."""
        if not self.rules.partnership:
            table.playing.remove(player)
            del table.members[player]
            self.decide(self.cite("leave"), f"{player} leaves the Call-Ace table {table.number}")
            self.call_ace_players_changed(table)
            return
        pending = self.state.cut_at(table.number)
        if pending is not None and pending.purpose == "cut-out":
            # Reading T5-leave: the cut-out counts every member; it is finished first.
            raise self.fail(
                self.cite("cut_out"),
                f"the cut to decide who goes out at table {table.number} must be finished "
                f"before {player} leaves",
                "player",
            )
        if player in table.waiting:
            table.waiting.remove(player)
            del table.members[player]
            self.decide(
                self.cite("leave"), f"{player}, a waiting member, leaves table {table.number}"
            )
            return
        if table.in_rubber:
            raise self.fail(
                self.cite("substitute"),
                f"{player} is playing a rubber at table {table.number}: he may appoint a "
                "substitute with the consent of the other three, or leave when it ends",
                "player",
            )
        # Reading T7: law 19 when a table of six loses, between rubbers, a player who has
        # played exactly one consecutive rubber.
        full = len(table.members) == self.rules.most_members
        law19 = full and self.member(table, player).consecutive == 1
        table.playing.remove(player)
        del table.members[player]
        self.drop_cut_at(table)
        self.decide(
            self.cite("leave"),
            f"{player} leaves table {table.number}"
            + (" after only one of his two consecutive rubbers at a full table" if law19 else ""),
        )
        self.fill_place(table, player, law19=law19, keep=keep)
        if len(table.playing) == PARTNERSHIP_PLAYERS:
            self.open_first_cut(table)

    def fill_place(self, table: Table, leaver: str, *, law19: bool, keep: Sequence[str]) -> None:
        """Fill a playing place left between rubbers (law 19, ruling T7; ruling T5; law 16)."""
        successor = self.next_candidate(exclude=[leaver, *keep]) if law19 else None
        if successor is not None:
            self.join(table, successor, play=True, one_rubber=True)
            self.decide(
                self.cite("leave"),
                f"{successor}, the candidate next in order, takes {leaver}'s place at table "
                f"{table.number}, and goes out at the end of one rubber, as {leaver} would "
                "have done",
            )
        elif table.waiting:
            # Reading T7-waiting: otherwise the first waiting member, next for entrance.
            successor = table.waiting.pop(0)
            table.playing.append(successor)
            self.decide(
                self.cite("cut_out"),
                f"{successor}, first of the waiting members, takes {leaver}'s place",
            )
        elif table.claims:
            successor = table.claims[0]
            self.join(table, successor, play=True)
            self.decide(
                self.cite("claim"),
                f"{successor}, first to claim admission, takes {leaver}'s place",
            )
        else:
            self.decide(
                self.cite("claim"),
                f"table {table.number} is a player short: a candidate may claim the place",
            )

    def next_candidate(self, *, exclude: Sequence[str]) -> str | None:
        """Law 19's "candidate next in order for entrance": the players of a broken-up table
        with the prior right first (law 21), then candidates in order of arrival; not those
        busy in a cut or waiting on a claim at another table."""
        free = [p for p in _free_candidates(self.state) if p not in exclude]
        prior = [p for p in self.state.prior_right if p in free]
        ordered = prior + [p for p in free if p not in prior]
        return ordered[0] if ordered else None

    def call_ace_players_changed(self, table: Table) -> None:
        """Call-Ace: four to seven play (law 1). Throw for the first jack again if it has
        not been thrown; a table with fewer than four waits for players."""
        self.drop_cut_at(table)
        if len(table.playing) < PARTNERSHIP_PLAYERS:
            self.decide(
                self.cite("members"),
                f"table {table.number} has {_count(len(table.playing), 'player')}: Call-Ace "
                "needs four to seven; a candidate may claim a place",
            )
            return
        if table.dealer is None:
            self.open_first_cut(table)

    def change_table(self) -> None:
        state = self.state
        player = self.present_player()
        current = state.table_of(player)
        if current is None:
            raise self.fail(
                self.cite("change"),
                f"{player} belongs to no table: a candidate claims admission (claim)",
                "player",
            )
        if self.event.get("table") == "new":
            self.make_up_fresh_table(player, current)
            return
        table = self.field_table()
        if table is current:
            raise self.fail(
                self.cite("change"), f"{player} already belongs to table {table.number}", "table"
            )
        self.leave_table(current, player)
        if state.reentry.get(player) == table.number:
            self.decide(
                self.cite("change"),
                f"{player} returns to table {table.number} under his right of re-entry; his "
                f"place at table {current.number} can be filled",
            )
        else:
            lost = state.reentry.pop(player, None)
            self.decide(
                self.cite("change"),
                f"{player} cuts into table {table.number} while belonging to table "
                f"{current.number}: he loses his right of re-entry there"
                + (f" and at table {lost}" if lost is not None else "")
                + ", and takes his chance as a fresh candidate",
            )
        # A claim refused here raises, and apply() then discards the leaving too.
        self.lodge_claim(player, table)

    def make_up_fresh_table(self, player: str, current: Table) -> None:
        """Ruling T8, Bridge: a member who enables three candidates to form a fresh table keeps
        his right of re-entry into his own."""
        state = self.state
        law = self.cite("change")
        # Reading T8: exactly three free candidates; the four form a table at once.
        if self.rules.key != BRIDGE:
            raise self.fail(
                law,
                "only the Bridge laws keep the right of re-entry of a player who makes up a "
                f"fresh table; at {self.rules.game}, {player} leaves his table (leave) and cuts "
                "in as a candidate",
                "table",
            )
        if any(cut.id == FORM_CUT for cut in state.pending):
            raise self.fail(self.cite("form"), "a cut to form a table is already under way")
        others = _free_candidates(state)
        if len(others) != PARTNERSHIP_PLAYERS - 1:
            raise self.fail(
                law,
                f"{_count(len(others), 'candidate')} free: {player} keeps his right of re-entry "
                "only when he enables three candidates to form a fresh table",
                "table",
            )
        self.leave_table(current, player, keep=others)
        state.reentry[player] = current.number
        four = [p for p in state.present if p in others or p == player]
        self.decide(
            law,
            f"{player} enables {_names(others)} to form a fresh table and keeps his right of "
            f"re-entry into table {current.number}",
        )
        self.create_table(four, [])

    def break_up(self) -> None:
        state = self.state
        table = self.field_table()
        broken_by = self.event.get("broken_by")
        if broken_by is not None and broken_by not in table.members:
            raise self.fail(
                self.cite("break_up"),
                f"{broken_by} does not belong to table {table.number}",
                "broken_by",
            )
        self.drop_cut_at(table)
        state.tables.remove(table)
        if table.in_rubber:
            self.decide(
                self.cite("break_up"),
                f"the rubber in progress at table {table.number} is not finished",
            )
        for player in table.claims:
            self.decide(self.cite("claim"), f"{player}'s claim at table {table.number} lapses")
        for player, number in list(state.reentry.items()):
            if number == table.number:
                del state.reentry[player]
                self.decide(
                    self.cite("change"),
                    f"{player}'s right of re-entry into table {table.number} lapses",
                )
        remaining = [p for p in state.present if p in table.members and p != broken_by]
        # Reading T9: the places are the other tables' free memberships, less the prior
        # rights already held.
        places = sum(self.rules.most_members - len(other.members) for other in state.tables) - len(
            state.prior_right
        )
        by = f" by {broken_by}" if broken_by else ""
        text = (
            f"table {table.number} is broken up{by}; {_names(list(table.members))} are candidates"
        )
        if not remaining or places <= 0:
            self.decide(self.cite("break_up"), f"{text}; there are no places at other tables")
            return
        if len(remaining) <= places:
            state.prior_right.extend(remaining)
            self.decide(
                self.cite("break_up"),
                f"{text}; {_verb(remaining, 'has', 'have')} the prior right"
                + (f" to {broken_by}" if broken_by else "")
                + f" to the {_count(places, 'place')} at other tables",
            )
            return
        if not self.rules.partnership:
            # Reading T9-CA: Call-Ace cuts no cards (ruling T1): the first in the room go first.
            state.prior_right.extend(remaining[:places])
            self.decide(
                self.cite("break_up"),
                f"{text}; {_count(places, 'place')} for {len(remaining)}: the first in the "
                f"room, {_names(remaining[:places])}, "
                f"{'has' if places == 1 else 'have'} the prior right",
            )
            return
        self.decide(
            self.cite("break_up"),
            f"{text}; {_count(places, 'place')} at other tables for {len(remaining)}, so "
            f"{_names(remaining)} cut for precedence",
        )
        self.open_cut(
            PendingCut(
                f"break-up-{table.number}",
                "break-up",
                None,
                list(remaining),
                [list(remaining)],
                [places],
                context={"table": table.number},
            )
        )

    # -- Call-Ace: the first jack deals (law 1) ----------------------------------------------

    def deal_jack(self) -> None:
        table = self.field_table()
        law = self.cite("first_jack") if not self.rules.partnership else self.cite("partners")
        cut = self.state.cut_at(table.number)
        if cut is None or cut.purpose != "first-jack":
            raise self.fail(
                law,
                f"no card is to be thrown round at table {table.number}: "
                + (
                    "at Euchre and Bridge the players cut for partners and deal"
                    if self.rules.partnership
                    else "its first dealer is already known"
                ),
                "type",
            )
        throws = self.event.get("cards")
        if (
            not isinstance(throws, list)
            or not throws
            or not all(
                isinstance(t, list | tuple) and len(t) == 2 and all(isinstance(x, str) for x in t)
                for t in throws
            )
        ):
            raise self.fail(
                None,
                "'deal_jack' needs 'cards': [[player, card], ...] in the order thrown",
                "cards",
            )
        players = cut.cutters
        first = throws[0][0]
        if first not in players:
            raise self.fail(law, f"{first} does not play at table {table.number}", "cards")
        start = players.index(first)
        for turn, (player, _) in enumerate(throws):
            expected = players[(start + turn) % len(players)]
            if player != expected:
                raise self.fail(
                    law,
                    f"the cards go round the table in turn: card {turn + 1} goes to "
                    f"{expected}, not {player}",
                    f"cards[{turn}]",
                )
        pack = call_ace_pack(len(players))
        parsed: list[Card] = []
        for turn, (player, text) in enumerate(throws):
            card = parse_card(text, field=f"cards[{turn}]")
            if card not in pack:
                raise self.fail(
                    self.cite("cards"),
                    f"{card} is not in the {len(pack)}-card pack for {len(players)} players",
                    f"cards[{turn}]",
                )
            if card in parsed:
                raise self.fail(self.cite("same_pack"), f"{card} is thrown twice", f"cards[{turn}]")
            if card.rank == "J" and turn != len(throws) - 1:
                raise self.fail(
                    law,
                    f"{player} received the first jack ({card}): the throw stops there",
                    f"cards[{turn}]",
                )
            parsed.append(card)
        if parsed[-1].rank != "J":
            raise self.fail(law, "the cards go round until a jack falls", "cards")
        dealer = throws[-1][0]
        self.state.pending.remove(cut)
        cut.rounds.append({f"{turn + 1}. {p}": c for turn, (p, c) in enumerate(throws)})
        table.dealer = dealer
        thrown = ", ".join(f"{p} {c}" for p, c in throws)
        self.decide(
            law,
            f"a card thrown round table {table.number} face up: {thrown}; {dealer} receives "
            "the first jack and deals the first hand",
        )


_HANDLERS: dict[str, Callable[[_Step], None]] = {
    "arrive": _Step.arrive,
    "depart": _Step.depart,
    "form_table": _Step.form_table,
    "cut": _Step.cut,
    "deal_jack": _Step.deal_jack,
    "claim": _Step.claim,
    "withdraw": _Step.withdraw,
    "rubber_end": _Step.rubber_end,
    "substitute": _Step.substitute,
    "leave": _Step.leave,
    "change_table": _Step.change_table,
    "break_up": _Step.break_up,
}
