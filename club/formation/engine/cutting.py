"""Cuts and their outcomes: forming, partners and deal, cutting in and out at a rubber's end
(laws 8-15, rulings T1, T3-T5, T11)."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any

from core.quoted import quoted

from .. import ranking
from ..cards import Card, not_a_card, pack_for, parse_card, precedence
from ..errors import FormationError
from ..rules import EUCHRE
from ..state import SEATS, PendingCut, Table
from .step import StepBase
from .wording import (
    CHOICE_MAX,
    PURPOSE_TEXT,
    cards_text,
    count,
    cut_text,
    names,
    purpose_cite,
    verb,
)


class Cutting(StepBase):
    """The cut, what each cut decides, and cutting in and out at a rubber's end."""

    # -- the cut --------------------------------------------------------------------------------

    def cut(self) -> None:
        state = self.state
        cards = self.event.get("cards")
        if not isinstance(cards, Mapping) or not cards:
            raise self.fail(
                None,
                "a cut needs each player's name with the card cut, the card written rank then "
                "suit (e.g. JS, 10H)",
                "cards",
            )
        cut = self.find_cut(cards)
        law = purpose_cite(self.rules, cut.purpose)
        parsed = self.parse_cards(cut, cards, pack_for(state.rule_set))
        exposed = self.parse_exposed(cards, pack_for(state.rule_set))
        record = {player: str(parsed[player]) for player in cards}
        cut.rounds.append(record)
        table = state.table(cut.table) if cut.table is not None else None
        if table is not None:
            table.cut_begun = True
        what = PURPOSE_TEXT[cut.purpose] + (f" at table {cut.table}" if cut.table else "")
        for player, shown in exposed.items():
            # Ruling T12 (Euchre law 10, Bridge Cutting): he cuts again; the cards he exposed
            # are recorded with the cut, and the card of his new cut is the one that counts.
            self.decide(
                self.cite("expose"),
                f"{player} exposed more than one card ({', '.join(shown)}) and cut again: "
                f"{record[player]}",
            )
        self.decide(self.cite("record"), f"cards cut {what}: {cards_text(record)}")
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
        if cut_id is not None and not isinstance(cut_id, str):
            raise self.fail(
                None, f"the name of the cut is written as text: {self.cuts_waiting()}", "cut_id"
            )
        if cut_id is not None:
            cut = next((c for c in state.pending if c.id == cut_id), None)
            if cut is None or cut.purpose == "first-jack":
                raise self.fail(
                    None,
                    f"no cut called {quoted(cut_id)} is waiting to be made: {self.cuts_waiting()}",
                    "cut_id",
                )
        else:
            cuts = [c for c in state.pending if c.purpose != "first-jack"]
            cut = next(
                (c for c in cuts if set(c.cutters) == players),
                None,
            )
            # Some cards left blank: the one cut waiting whose cutters include all named.
            within = [c for c in cuts if players <= set(c.cutters)]
            if cut is None and len(within) == 1:
                cut = within[0]
            if cut is None:
                if len(cuts) != 1:
                    raise self.fail(
                        self.cite("record"),
                        f"these cards match no cut waiting to be made: {self.cuts_waiting()}",
                        "cards",
                    )
                cut = cuts[0]
        return cut

    def parse_cards(
        self, cut: PendingCut, cards: Mapping[str, Any], pack: Sequence[Card]
    ) -> dict[str, Card]:
        """The card each cutter cut, {player: card}; or the cut refused naming every problem
        at once, each with its field: a card that is no card (ruling T1), not in the pack
        or cut twice, a cutter whose card is missing, a card for one who does not cut. A
        secretary who typed one bad card and left the others blank is told of the bad card
        too, not only of the blanks."""
        problems: list[tuple[str, str, str | None]] = []  # (field, words, law)
        seen: dict[Card, str] = {}
        for player, text in cards.items():
            field = f"cards.{player}"
            if player not in cut.cutters:
                continue  # said below, with the others who do not cut
            try:
                card = parse_card(text, field=field)
            except FormationError:
                problems.append((field, not_a_card(text, whose=f"{player}'s card"), "ruling T1"))
                continue
            if card not in pack:
                problems.append(
                    (
                        field,
                        f"{player}'s {card} is not in the {len(pack)}-card {self.rules.game} pack",
                        self.cite("cards"),
                    )
                )
            elif card in seen:
                problems.append(
                    (
                        field,
                        f"{seen[card]} and {player} cannot both cut {card}: every one cuts from "
                        "the same pack",
                        self.cite("same_pack"),
                    )
                )
            else:
                seen[card] = player
        purpose = purpose_cite(self.rules, cut.purpose)
        what = PURPOSE_TEXT[cut.purpose]
        missing = [player for player in cut.cutters if player not in cards]
        extra = [player for player in cards if player not in cut.cutters]
        # Each card's problem in words with its own law; then the cards missing, and the
        # cards of players who do not cut, under the cut's law.
        said = [words if law == purpose else f"{words} ({law})" for _, words, law in problems]
        if missing:
            said.append(f"no card is written for {names(missing)}, who must cut {what} too")
        if extra:
            said.append(
                f"{names(extra)} {'does' if len(extra) == 1 else 'do'} not cut {what}: only "
                f"{names(cut.cutters)} do"
            )
        problems += [
            (f"cards.{player}", f"no card is written for {player}, who must cut {what}", purpose)
            for player in missing
        ]
        problems += [
            (f"cards.{player}", f"{player} does not cut {what}", purpose) for player in extra
        ]
        if not problems:
            return {player: card for card, player in seen.items()}
        if len(problems) == 1:
            field, words, law = problems[0]
            if missing or extra:  # said as one of the cut's cutters
                words = said[0]
            raise self.fail(law, words, field)
        fields: dict[str, list[str]] = {}
        for field, words, law in problems:
            fields.setdefault(field, []).append(f"{law}: {words}" if law else words)
        error = self.fail(purpose, "; ".join(said), problems[0][0])
        error.fields = fields
        raise error

    def cuts_waiting(self) -> str:
        """The cuts waiting to be made, in words: "Ann and Bob cut for partners and deal
        (table 1)"."""
        cuts = [c for c in self.state.pending if c.purpose != "first-jack"]
        if not cuts:
            return "none is"
        return "; ".join(cut_text(c) for c in cuts)

    def parse_exposed(self, cards: Mapping[str, Any], pack: Sequence[Card]) -> dict[str, list[str]]:
        """The cut's ``exposed`` field, {player: [card, card, ...]}: players who exposed more
        than one card and cut again (ruling T12); ``cards`` holds the card each cut again."""
        exposed = self.event.get("exposed")
        if exposed is None:
            return {}
        law = self.cite("expose")
        if not isinstance(exposed, Mapping):
            raise self.fail(
                law,
                "the cards exposed are given for each player who exposed more than one card "
                "and cut again: the player's name, with the cards exposed (e.g. JH JD)",
                "exposed",
            )
        shown: dict[str, list[str]] = {}
        for player, texts in exposed.items():
            field = f"exposed.{player}"
            if player not in cards:
                raise self.fail(
                    law, f"{player} does not cut in this cut: only a cutter can expose cards", field
                )
            if not isinstance(texts, list) or len(texts) < 2:
                raise self.fail(
                    law,
                    f"{player} must cut again only for exposing more than one card: list the "
                    "cards exposed, two or more",
                    field,
                )
            seen: list[Card] = []
            for index, text in enumerate(texts):
                card = parse_card(text, field=f"{field}[{index}]", whose=f"{player}'s exposed card")
                if card not in pack or card in seen:
                    why = "is not in the pack" if card not in pack else "is listed twice"
                    raise self.fail(law, f"{player}'s exposed {card} {why}", f"{field}[{index}]")
                seen.append(card)
            shown[player] = [str(card) for card in seen]
        return shown

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
            "a tie of the two highest is cut again only for the deal, the partners standing "
            f"either way ({self.cite('ties_nothing')})"
            if only_deal
            else "the tie matters, so they cut again, and only they"
        )
        return f"{names(tier)} cut equal cards ({cards}): {why}"

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
                # Ruling T11: a tie that cannot change who plays or who partners whom is
                # not cut again.
                self.decide(
                    self.cite("ties_nothing"),
                    f"{names(tier)} cut equal cards ({cards}), but the tie decides nothing "
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
                f"table {number}: {names(playing)} play first, those who have not belonged to "
                f"a table this evening ranking before the others whatever their cards "
                f"({self.cite('fresh')})"
            )
            wait = f"{verb(waiting, 'is', 'are')} {places}"
        else:
            text = f"table {number}: {names(playing)} cut {self.rules.favoured} and play first"
            wait = f"{verb(waiting, 'cuts', 'cut')} {places}"
        if waiting:
            text += (
                f"; {wait} and {'belongs' if one else 'belong'} to the table as "
                f"{'a waiting member' if one else 'waiting members'} ({self.cite('members')})"
            )
        if rest:
            text += f"; {verb(rest, 'remains a candidate', 'remain candidates')}"
        self.decide(self.cite("form"), text)
        self.create_table(playing, waiting)

    def finish_partners(self, table: Table, order: list[str]) -> None:
        # Ruling T12: the dealer has the choice of seats (law 11); until the secretary records
        # his choice (dealer_choice) he sits North, his partner South, the better cut of the
        # other side East.
        dealer, partner, first_adversary, second_adversary = order
        table.playing = [dealer, first_adversary, partner, second_adversary]
        table.seated = True
        table.dealer = dealer
        table.in_rubber = True
        table.cut_begun = False
        table.choice = {}
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
            f"{verb(keep, 'cuts', 'cut')} {self.rules.favoured} and "
            f"{'has' if len(keep) == 1 else 'have'} the prior right to the "
            f"{count(places, 'place')} at other tables; {verb(lose, 'cuts', 'cut')} "
            f"{self.rules.disfavoured}, without it",
        )

    def dealer_choice(self) -> None:
        """Ruling T12: the secretary records the dealer's choice of seat (and of cards, and at
        Euchre of counters) for the rubber just begun; having chosen, he abides by it."""
        table = self.field_table()
        law = self.cite("choice")
        if not self.rules.partnership:
            raise self.fail(
                law, "Call-Ace seats are not cut and the dealer has no choice of seats", "type"
            )
        if not table.in_rubber or not table.seated:
            raise self.fail(
                law,
                f"table {table.number} has no dealer yet: the four cut for partners and deal first",
                "table",
            )
        if table.choice:
            raise self.fail(
                law,
                f"{table.dealer}, the dealer, has chosen at table {table.number} and must abide "
                "by it",
                "seat",
            )
        seat = self.event.get("seat", SEATS[0])
        if seat not in SEATS:
            raise self.fail(
                law, "the dealer's seat is north, east, south or west: N, E, S or W", "seat"
            )
        choice = {"seat": seat}
        for key in ("cards", "counters"):
            value = self.event.get(key)
            if value is None:
                continue
            if key == "counters" and self.rules.key != EUCHRE:
                raise self.fail(law, "only at Euchre does the dealer choose the counters", key)
            if not isinstance(value, str) or not value.strip() or len(value) > CHOICE_MAX:
                raise self.fail(
                    law,
                    f"the {key} the dealer chose are said in a few words, "
                    f"{CHOICE_MAX} characters at most",
                    key,
                )
            choice[key] = value.strip()
        # The four keep their places round the table; the dealer's seat decides the rest:
        # his partner opposite him, the other side on his left and right.
        shift = SEATS.index(seat)
        table.playing = table.playing[-shift:] + table.playing[:-shift] if shift else table.playing
        table.choice = choice
        seats = ", ".join(f"{s} {p}" for s, p in zip(SEATS, table.playing, strict=True))
        extra = "".join(f"; {key}: {choice[key]}" for key in ("cards", "counters") if key in choice)
        self.decide(law, f"{table.dealer}, the dealer, chooses a seat: {seats}{extra}")

    # -- rubbers and cutting out (law 15, rulings T4-T5) ---------------------------------

    def rubber_end(self) -> None:
        table = self.field_table()
        if not self.rules.partnership:
            raise self.fail(
                self.cite("rubber"),
                "Call-Ace has no rubbers: the players each keep their own score and settle at the "
                "end of the sitting",
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
                f"the rubber is booked to {absent} although {sub} played it, and does not "
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
            f"{verb(labels, 'claims', 'claim')} admission at table {table.number}, so "
            f"{count(out_count, 'player')} must go out; consecutive rubbers: {counts}",
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
            alike = f"each played {count(played, 'consecutive rubber')}"
        reason = (f"{verb(settled_out, 'goes', 'go')} out first; " if settled_out else "") + (
            f"{names(cutters)} have {alike}, so they cut, the {self.rules.disfavoured} going out"
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
                why = f"has played {count(member.consecutive, 'consecutive rubber')}"
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
            f"{verb(entrants, 'enters', 'enter')} at table "
            f"{table.number}; waiting members now: {names(table.waiting)}",
        )
        self.open_first_cut(table)

    def clear_flags(self, table: Table) -> None:
        """Law 19's one rubber has been played: the flag has done its work."""
        for player in table.playing:
            self.member(table, player).one_rubber = False
