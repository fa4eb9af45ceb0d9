"""Claims to a place at a table and substitutes (laws 15-18, rulings T2, T6, T13)."""

from __future__ import annotations

from ..rules import BRIDGE, PARTNERSHIP_PLAYERS
from ..state import Table
from .step import StepBase
from .wording import (
    count,
    names,
)

_ORDINAL = {1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth"}


class Claims(StepBase):
    """Claims to a place, withdrawing them, and substitutes sitting in for a rubber."""

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

    def announce(self) -> None:
        """Ruling T13 (Bridge, Forming Tables): at a table of six members a further candidate
        announces the desire to succeed any player who retires; the first to announce has
        the first vacancy, ahead of candidates who did not."""
        player = self.present_player()
        table = self.field_table()
        law = self.cite("announce")
        if self.rules.key != BRIDGE:
            raise self.fail(
                law,
                f"only the Bridge laws give a right to succeed by announcing; at "
                f"{self.rules.game} a candidate claims admission at the table instead",
                "type",
            )
        if player in table.members:
            raise self.fail(law, f"{player} already belongs to table {table.number}", "player")
        if len(table.members) < self.rules.most_members:
            raise self.fail(
                law,
                f"table {table.number} has {count(len(table.members), 'member')}, not six: "
                f"{player} may claim admission at it instead",
                "table",
            )
        if player in table.announced:
            raise self.fail(
                law, f"{player} has already announced at table {table.number}", "player"
            )
        self.free_for_a_seat(player, "player")
        table.announced.append(player)
        place = len(table.announced)
        self.decide(
            law,
            f"{player} announces the desire to succeed any player who retires from table "
            f"{table.number}; {player} is {_ORDINAL.get(place, f'number {place}')} in line for "
            "a vacancy there",
        )

    def withdraw(self) -> None:
        player = self.present_player()
        table = self.state.claim_of(player)
        announced = [t for t in self.state.tables if player in t.announced]
        if table is None and announced:
            for other in announced:
                other.announced.remove(player)
                self.decide(
                    self.cite("announce"),
                    f"{player} withdraws the announcement at table {other.number}",
                )
            return
        if table is None:
            raise self.fail(self.cite("claim"), f"{player} has no claim to withdraw", "player")
        self.free_for_a_seat(player, "player", claim_at=table)
        table.claims.remove(player)
        self.decide(self.cite("claim"), f"{player} withdraws the claim at table {table.number}")

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
            # admitted at once. A sitting is played by the same players throughout (ruling
            # C5): one in play ends with his arrival, settled as it stood, and he plays from
            # the first deal of the next (club.evenings._sync_sittings does so).
            in_play = self.sitting_runs(table)
            self.join(table, player, play=True)
            if in_play:
                self.decide(
                    f"{self.cite('claim')} / {self.cite('rubber')}",
                    f"{player} joins table {table.number}: the sitting in play there is closed "
                    f"and settled as it stood, and a new sitting begins with {player} from its "
                    "first deal",
                )
            elif self.sitting_runs(table):  # he makes the four
                self.decide(
                    self.cite("claim"),
                    f"{player} joins table {table.number}, now of four: a sitting begins with "
                    f"{player} from its first deal",
                )
            else:
                self.decide(self.cite("claim"), f"{player} joins table {table.number}")
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
                f"cut: a claim must be declared before any of them cuts a card; {player} may "
                "claim once the rubber is under way",
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
                    else f"{count(len(table.members), 'member')} and "
                    f"{count(len(table.claims), 'claim')} for the other places"
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
        if isinstance(consent, list) and not all(isinstance(name, str) for name in consent):
            raise self.fail(
                law,
                f"each consent is the name of one of the other three players, {names(others)}",
                "consent",
            )
        if (
            not isinstance(consent, list)
            or len(consent) != len(others)
            or set(consent) != set(others)
        ):
            given = consent if isinstance(consent, list) else []
            missing = [p for p in others if p not in given]
            strangers = [p for p in given if p not in others]
            why = (
                f"{names(strangers)} {'is' if len(strangers) == 1 else 'are'} not one of them"
                if strangers
                else "none of them has consented"
                if len(missing) == len(others)
                else f"the consent of {names(missing)} is not given"
                if missing
                else "each must consent once"
            )
            raise self.fail(
                law,
                f"{player} may appoint a substitute only with the consent of the other three "
                f"players, {names(others)}: {why}",
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
            f"with the consent of {names(others)}; the rubber is booked to {player}{note}",
        )
