"""Leaving a table, changing tables and breaking up (laws 19-21, rulings T7-T9)."""

from __future__ import annotations

from collections.abc import Sequence

from ..rules import BRIDGE, PARTNERSHIP_PLAYERS
from ..state import PendingCut, Table
from .step import StepBase
from .wording import (
    FORM_CUT,
    count,
    free_candidates,
    names,
    verb,
)


class Leaving(StepBase):
    """Leaving, filling the place, changing tables, breaking a table up."""

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
            self.leave_call_ace_table(table, player)
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
            self.admit_announcer(table, keep=[player, *keep])
            return
        if table.in_rubber:
            raise self.fail(
                self.cite("substitute"),
                f"{player} is playing a rubber at table {table.number}: a substitute may be "
                "appointed with the consent of the other three, or the player leaves when it ends",
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
            + (" after only one of two consecutive rubbers at a full table" if law19 else ""),
        )
        self.fill_place(table, player, law19=law19, keep=keep)
        self.admit_announcer(table, keep=[player, *keep])
        if len(table.playing) == PARTNERSHIP_PLAYERS:
            self.open_first_cut(table)

    def announcer(self, table: Table, *, exclude: Sequence[str]) -> str | None:
        """Ruling T13: the first who announced at ``table`` and is free to take a place."""
        free = free_candidates(self.state)
        return next((p for p in table.announced if p in free and p not in exclude), None)

    def admit_announcer(self, table: Table, *, keep: Sequence[str]) -> None:
        """Ruling T13: a vacancy at a table with announcements goes to the first to announce:
        he takes the empty place at play, else belongs to the table as a waiting member."""
        if len(table.members) >= self.rules.most_members:
            return
        successor = self.announcer(table, exclude=keep)
        if successor is None:
            return
        play = len(table.playing) < PARTNERSHIP_PLAYERS
        self.join(table, successor, play=play)
        self.decide(
            self.cite("announce"),
            f"{successor}, the first to announce the desire to succeed, has the vacancy at "
            f"table {table.number}" + ("" if play else " and belongs to it as a waiting member"),
        )

    def fill_place(self, table: Table, leaver: str, *, law19: bool, keep: Sequence[str]) -> None:
        """Fill a playing place left between rubbers (law 19, ruling T7; ruling T5; law 16)."""
        successor = None
        if law19:
            # Ruling T13 (Bridge): one who announced at this table is next in order.
            successor = self.announcer(table, exclude=[leaver, *keep]) or self.next_candidate(
                exclude=[leaver, *keep]
            )
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
        free = [p for p in free_candidates(self.state) if p not in exclude]
        prior = [p for p in self.state.prior_right if p in free]
        ordered = prior + [p for p in free if p not in prior]
        return ordered[0] if ordered else None

    def leave_call_ace_table(self, table: Table, player: str) -> None:
        """Call-Ace (law 1): a player leaves at once. A sitting is played by the same players
        throughout (ruling C5): one in play ends with his leaving, settled as it stood, and
        the players still there begin a new one, as an arrival's does (claims.lodge_claim).
        The table's first dealer leaving, the deal passes to the player on his left (law 3)."""
        in_play = self.sitting_runs(table)
        seat = table.playing.index(player)
        table.playing.remove(player)
        del table.members[player]
        laws, words = [self.cite("leave")], []
        if in_play:
            laws.append(self.cite("rubber"))
            words.append("the sitting in play there is closed and settled as it stood")
            if self.sitting_runs(table):
                words.append("a new sitting begins with the players still there")
        if table.dealer == player and table.playing:
            table.dealer = table.playing[seat % len(table.playing)]
            laws.append("law 3")
            words.append(f"{table.dealer}, on {player}'s left, deals first")
        said = f"{player} leaves the Call-Ace table {table.number}"
        self.decide(" / ".join(laws), f"{said}: {'; '.join(words)}" if words else said)
        self.call_ace_players_changed(table)

    def call_ace_players_changed(self, table: Table) -> None:
        """Call-Ace: four to seven play (law 1). Throw for the first jack again if it has
        not been thrown; a table with fewer than four waits for players."""
        self.drop_cut_at(table)
        if len(table.playing) < PARTNERSHIP_PLAYERS:
            self.decide(
                self.cite("members"),
                f"table {table.number} has {count(len(table.playing), 'player')}: Call-Ace "
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
                f"{player} belongs to no table: a candidate claims admission at the table wanted "
                "instead",
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
                f"{player} returns to table {table.number} under a right of re-entry; the "
                f"place left at table {current.number} can be filled",
            )
        else:
            lost = state.reentry.pop(player, None)
            self.decide(
                self.cite("change"),
                f"{player} cuts into table {table.number} while belonging to table "
                f"{current.number}: {player} loses the right of re-entry there"
                + (f" and at table {lost}" if lost is not None else "")
                + ", and takes a chance as a fresh candidate",
            )
        # A claim refused here raises, and apply() then discards the leaving too.
        self.lodge_claim(player, table)

    def make_up_fresh_table(self, player: str, current: Table) -> None:
        """Ruling T8, Bridge: a member who enables three candidates to form a fresh table may
        say that he will return (``will_return``), and then keeps his right of re-entry into
        his own; otherwise he gives it up like any player cutting into another table."""
        state = self.state
        law = self.cite("change")
        # Reading T8: exactly three free candidates; the four form a table at once.
        if self.rules.key != BRIDGE:
            raise self.fail(
                law,
                "only the Bridge laws keep the right of re-entry of a player who makes up a "
                f"fresh table; at {self.rules.game}, {player} leaves table {current.number} and "
                "cuts in as a candidate",
                "table",
            )
        if any(cut.id == FORM_CUT for cut in state.pending):
            raise self.fail(self.cite("form"), "a cut to form a table is already under way")
        others = free_candidates(state)
        if len(others) != PARTNERSHIP_PLAYERS - 1:
            home = current.number
            rule = (
                f"{player} keeps the right of re-entry into table {home} only by making up a "
                "fresh table with exactly three free candidates"
            )
            if len(others) < PARTNERSHIP_PLAYERS - 1:
                free = (
                    "no candidate is free"
                    if not others
                    else f"only {verb(others, 'is', 'are')} free"
                )
                what = (
                    f"wait until three are free, or let {player} leave table {home} and cut in "
                    "as a candidate, giving the right up"
                )
            else:
                free = (
                    f"{count(len(others), 'candidate')} are free, enough for a table without "
                    f"{player}"
                )
                what = (
                    f"let them form a fresh table by cutting, or let {player} leave table {home} "
                    "and cut with them, giving the right up"
                )
            raise self.fail(law, f"{free}; {rule}: {what}", "table")
        will_return = self.event.get("will_return", False)
        if not isinstance(will_return, bool):
            raise self.fail(law, f"whether {player} will return is yes or no", "will_return")
        self.leave_table(current, player, keep=others)
        four = [p for p in state.present if p in others or p == player]
        if will_return:
            said = (
                f"signifies the intention of returning to table {current.number}, keeping the "
                "right of re-entry there; the place at the fresh table is filled on the return"
            )
        else:
            said = f"signifies no intention of returning, and gives up table {current.number}"
        self.decide(law, f"{player} enables {names(others)} to form a fresh table and {said}")
        self.create_table(four, [])
        if will_return:
            # After joining the fresh table, which gives up any right of re-entry (join).
            state.reentry[player] = current.number

    def break_up(self) -> None:
        state = self.state
        table = self.field_table()
        broken_by = self.event.get("broken_by")
        if broken_by is not None and not isinstance(broken_by, str):
            raise self.fail(
                self.cite("break_up"),
                self.needs("broken_by", broken_by, "written as text"),
                "broken_by",
            )
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
        for player in table.announced:
            self.decide(
                self.cite("announce"), f"{player}'s announcement at table {table.number} lapses"
            )
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
        text = f"table {table.number} is broken up{by}; {names(list(table.members))} are candidates"
        if not remaining or places <= 0:
            self.decide(self.cite("break_up"), f"{text}; there are no places at other tables")
            return
        if len(remaining) <= places:
            state.prior_right.extend(remaining)
            self.decide(
                self.cite("break_up"),
                f"{text}; {verb(remaining, 'has', 'have')} the prior right"
                + (f" to {broken_by}" if broken_by else "")
                + f" to the {count(places, 'place')} at other tables",
            )
            return
        if not self.rules.partnership:
            # Reading T9-CA: Call-Ace cuts no cards (ruling T1): the first in the room go first.
            state.prior_right.extend(remaining[:places])
            self.decide(
                self.cite("break_up"),
                f"{text}; {count(places, 'place')} for {len(remaining)}: the first in the "
                f"room, {names(remaining[:places])}, "
                f"{'has' if places == 1 else 'have'} the prior right",
            )
            return
        self.decide(
            self.cite("break_up"),
            f"{text}; {count(places, 'place')} at other tables for {len(remaining)}, so "
            f"{names(remaining)} cut for precedence",
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
