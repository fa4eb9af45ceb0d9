"""Who corrects a progressive's deals, and until when (law 5, ruling E9).

Law 5 lets an error in the score be put right "at any time before the trump card is turned
in the next deal"; ruling E9 reads it as until the next hand at that table is recorded, and
after that only the club's referee corrects, with a reason, the original kept beside the
correction. At a progressive:

- **The players at a table**, from its phone (`tournaments.table_links.may_correct`): the
  last deal of the table's rubber in the round in play. No deal follows the last deal of
  the last round, and neither law nor ruling sets a time, so a table of the last round
  may correct its last deal once the tournament is over too, until the director declares
  the results final (`tournaments.rounds.tournament_results_final`), as closing an
  evening ends its tables' corrections.
- **The director** (and the club's secretaries, who may direct), as the club's referee
  (ruling E9), from a table's sheet (tournaments/views_table.py): any deal of any round,
  at any time, the tournament over and its results final or not, with a reason, as the
  secretary corrects an evening's hand on the rubber's page. The standings follow through
  the one recording service (club.recording.hand_correct: scoring's `rubber_changed`, the
  outbox in tournaments.receivers). A correction may change a round's figures and who
  won it, but never leave a decided round undecided (`director_may_correct`): its players
  have moved on to the next round, or risen from the last, as an evening's finished rubber
  stays finished once its table has cut in and out (law 15).
- **The rubber's page** (the secretary's "Take the hand off" and correction there, the
  API): the last deal of a round may be taken off, and a deal corrected, while its
  players are still at the table, but neither may leave undecided a round they have
  moved on from, the next round seated or the tournament over (`reopening_refusal`, from
  tournaments.receivers on scoring's `hand_removed` and `hand_corrected`, whatever the
  door): for the same reason the director's correction keeps it decided.
"""

from __future__ import annotations

from collections.abc import Callable

from club.recording import Authorize
from club.templatetags.words import winners
from core.db import lock_one
from core.errors import UserError
from scoring.models import Rubber
from scoring.rules.games import get_game
from tournaments.models import RoundTable, Tournament
from tournaments.table_links import ended_by, final_when, round_won, unfinished_tables


def director_may_correct(table: RoundTable, *, number: int) -> Authorize:
    """The check of the director's correction of deal `number` at a round's `table`
    (`hand_correct`'s `authorize`, on the rubber locked), and of the rubber once changed:
    a round decided before the correction is decided after it, by either side."""
    game = get_game(table.rubber.ruleset)
    label = f"{game.hand_label} {number}"
    where = f"round {table.round.number} at table {table.number}"

    def check(rubber: Rubber | None) -> Callable[[Rubber], None] | None:
        if rubber is None:
            return None  # hand_correct answers that there is no such rubber
        won = round_won(rubber)
        if won is None:
            return None  # still being played: a correction may decide it, or not

        def stays_decided(changed: Rubber) -> None:
            if round_won(changed) is not None:
                return
            raise UserError(
                f"This correction of {label} would leave {where} undecided "
                f"({winners(rubber.players, won)} won it, {ended_by(rubber)}), but its "
                "players have moved on from it: a decided round stays decided. Correct the "
                "figures so that one side still wins it.",
                field="hand",
                law="ruling E9",
            )

        return stays_decided

    return check


def moved_on(table: RoundTable, *, lock: bool = True) -> str | None:
    """How the players of a round's `table` have moved on from it, in words, or None while
    they have not: a later round seated (from this round's result), or this round the
    tournament's last (`Tournament.last_round`) with every other table of it played out,
    so that the tournament was over with this table's result (its results declared final,
    or not). With `lock` (a change being made), reads the tournament's row locked after
    the rubber's (core/db.py's order), so that a take-off and the director seating the next
    round, ending the tournament or declaring its results final are one before the other,
    never both; without it, as a page shows it."""
    tournaments = Tournament.objects.filter(pk=table.round.tournament_id)
    tournament = lock_one(tournaments, what="tournament") if lock else tournaments.get()
    number = table.round.number
    later = tournament.rounds.filter(number__gt=number).order_by("-number").first()
    if later is not None:
        return f"round {later.number} is seated"
    if tournament.last_round != number or set(unfinished_tables(table.round)) - {table.number}:
        return None
    if tournament.results_final_at is not None:
        return f"the tournament is over, its results declared final {final_when(tournament)}"
    return f"round {number} was the tournament's last, and the tournament is over"


def kept_last_deal(table: RoundTable) -> str:
    """Why the last deal of a decided round its players have moved on from is not taken
    off, in words for the director's table sheet, where it is said in place of the way to
    take it off (`reopening_refusal` refuses it); "" while it may be."""
    rubber = table.rubber
    won = round_won(rubber)
    if won is None or not rubber.hand_count:
        return ""
    why = moved_on(table, lock=False)
    if why is None:
        return ""
    label = get_game(rubber.ruleset).hand_label
    return (
        f"Its last {label} decided round {table.round.number} at this table "
        f"({winners(rubber.players, won)} won it, {ended_by(rubber)}), and its players have "
        f"moved on from it ({why}): a decided round stays decided, so that {label} is not "
        "taken off (ruling E9); correct its figures instead."
    )


def reopening_refusal(
    table: RoundTable, *, number: int, won: str, correction: bool = False
) -> UserError | None:
    """The refusal of taking off deal `number`, the last, of the round at `table` (or, with
    `correction`, of correcting it), won by side `won` before and undecided since, once
    the round's players have moved on from it (`moved_on`): a decided round stays decided
    (ruling E9), as the director's correction keeps it (`director_may_correct`). None
    while they have not (a deal recorded by mistake, taken off before the next round is
    seated), or while a side still wins it."""
    rubber = table.rubber
    if round_won(rubber) is not None:
        return None  # still decided: nothing is reopened
    why = moved_on(table)
    if why is None:
        return None
    game = get_game(rubber.ruleset)
    label = f"{game.hand_label} {number}"
    change = f"This correction of {label}" if correction else f"Taking off {label}"
    instead = (
        "Correct the figures so that one side still wins it."
        if correction
        else f"Correct the {game.hand_label}'s figures instead, so that one side still wins it."
    )
    return UserError(
        f"{change} would leave round {table.round.number} at table {table.number} undecided "
        f"({winners(rubber.players, won)} won it, {ended_by(rubber)}), but its players have "
        f"moved on from it ({why}): a decided round stays decided. {instead}",
        field="hand" if correction else "number",
        law="ruling E9",
    )


def corrected_words(
    table: RoundTable, *, number: int, before: str | None, later_rounds: bool
) -> list[str]:
    """What the table's sheet says once the director corrected deal `number`: that the
    original is kept, the round's result as it now is (`before`, the side that had won it),
    and that the standings follow."""
    rubber = table.rubber
    label = get_game(rubber.ruleset).hand_label.capitalize()
    where = f"Round {table.round.number} at table {table.number}"
    after = round_won(rubber)
    lines = [f"{label} {number} corrected; the original stays beside it (ruling E9)."]
    if after is None:
        lines.append(f"{where} is still being played.")
    elif after == before:
        lines.append(f"{where} is won by {winners(rubber.players, after)}, as before.")
    else:
        was = f", no longer by {winners(rubber.players, before)}" if before else ""
        lines.append(f"{where} is now won by {winners(rubber.players, after)}{was}.")
        if later_rounds:
            lines.append(
                f"The rounds after round {table.round.number} were seated from its result as "
                "it was, and stand as seated."
            )
    lines.append("The standings are recalculated with it.")
    return lines
