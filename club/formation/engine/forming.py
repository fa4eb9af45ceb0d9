"""Arriving, departing and forming tables (rulings T2, T3, T14), and Call-Ace's first jack
(law 1)."""

from __future__ import annotations

from ..cards import Card, call_ace_pack, parse_card
from ..rules import PARTNERSHIP_PLAYERS
from ..state import PendingCut, Table
from .step import StepBase
from .wording import (
    FORM_BOUNDARIES,
    FORM_CUT,
    PARTNER_BOUNDARIES,
    count,
    free_candidates,
    names,
    verb,
)


class Forming(StepBase):
    """Arriving and departing, forming a table, and Call-Ace's throw for the first jack."""

    # -- arriving and departing -----------------------------------------------------------

    def arrive(self) -> None:
        player = self.field_player()
        if player in self.state.present:
            raise self.fail(self.cite("candidates"), f"{player} is already in the room", "player")
        self.state.present.append(player)
        later = (
            f"; the cut to form a table has begun without {player}, who waits for the next"
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
                f"{player} belongs to table {table.number}: record first the leaving of table "
                f"{table.number}, then the leaving of the room",
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
        self.drop_announcements(player)
        self.decide(self.cite("candidates"), f"{player} leaves the room")

    # -- forming a table (ruling T3) ----------------------------------------------------------

    def form_table(self) -> None:
        state = self.state
        if any(cut.id == FORM_CUT for cut in state.pending):
            raise self.fail(self.cite("form"), "a cut to form a table is already under way")
        if blocking := [cut for cut in state.pending if cut.purpose == "break-up"]:
            raise self.fail(
                self.cite("break_up"),
                f"{names(blocking[0].cutters)} must first finish their cut for precedence "
                f"after table {blocking[0].context['table']} broke up",
            )
        candidates = free_candidates(state)
        fewest = PARTNERSHIP_PLAYERS
        if len(candidates) < fewest:
            raise self.fail(
                self.cite("form"),
                f"{count(len(candidates), 'candidate')} in the room: a table needs four",
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
                f"{names(candidates)} are four candidates: they form a table without cutting",
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
                f"; {names(fresh)}, who {'has' if len(fresh) == 1 else 'have'} neither "
                "belonged to nor played at another table this evening, "
                f"{'has' if len(fresh) == 1 else 'have'} the prior right of entry "
                f"({self.cite('fresh')})"
            )
        self.decide(
            self.cite("form"),
            f"{count(len(candidates), 'candidate')} for a table: all cut, the four "
            f"{self.rules.favoured} to play, the fifth and sixth to belong to the table as "
            f"waiting members{prior}",
        )

    def form_call_ace(self, ordered: list[str], fresh: list[str], others: list[str]) -> None:
        # Reading T3-CA: Call-Ace cuts no seats (ruling T1), so with more than seven candidates
        # the seven with precedence play: law 17's fresh candidates first, then by arrival.
        most = self.rules.most_members
        players, rest = ordered[:most], ordered[most:]
        text = f"{names(players)} form a Call-Ace table, each playing alone; seats are not cut"
        if rest:
            left = verb(rest, "remains a candidate", "remain candidates")
            text += f"; seven at most play, so {left}"
            if fresh and others:
                text += f" ({names(fresh)} came first, {self.cite('fresh')})"
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
                "throwing a card round for the first jack needs the cards thrown, in the order "
                "thrown: each with the name of the player who received it",
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
            card = parse_card(text, field=f"cards[{turn}]", whose=f"{player}'s thrown card")
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
