"""A progressive tournament's tables' phone links: the card on each physical table, with its
QR code, that the players at that table record their deals with from a phone.

Why a link belongs to the table's number for the whole tournament, not to one round's
table: the card stands on the table while the movement moves the players, and the
movement numbers each round's tables from 1 again, so table 3's link records at whatever
round table 3 is playing now (`table_now`) and the director prints his cards once. A
link for each round's table would mean a new card on every table at every round, handed
out while the players change places.

- **Issued** when a round first seats a table of that number (`table_links_issue`, from
  `tournaments.rounds.round_seat_next`, in its transaction): round 1 gives every table
  its link; a later round with more tables gives the new ones theirs.
- **What it records**: only its own table's rubber (or fixed deals) of the latest round,
  checked on the rubber locked (`may_record`, `club.recording.hand_record`'s
  `authorize`): a deal queued on a phone for the round before is refused, never
  recorded in the next round's rubber, and the rubber of any other table is refused.
- **What it corrects**: the last deal of that same rubber, as an evening's table's phone
  corrects its last hand (law 5, ruling E9), through `club.recording.hand_correct`; a
  round over at the table keeps its result (`may_correct` says why). In the last round no
  deal follows the last, so the table may correct it after the tournament is over too,
  until the director declares the results final (`may_correct`). Anything else is the
  director's to correct, as the club's referee, with a reason, on the table's sheet
  (tournaments.corrections).
- **What it takes back**: that same last deal, recorded by mistake, through
  `club.recording.hand_remove`, while the round is in play at the table
  (`may_take_back`: a round over keeps the deal that decided it).
- **How long it lives**: until the club's `table_link_hours` after the end of the day
  (in the site's time zone) the tournament's latest round was seated on, or after the
  link was issued if that is later (`table_link_expires_at`). A progressive has no date
  of its own; its rounds are its evening. An evening of the default 6 hours whose last
  round was seated at 22:40 leaves the links alive until 06:00 the next morning.
- **Renewed** by the director (`table_link_renew`): the old token dies at once, and a
  phone still holding it is told that the link was replaced.
- **A finished tournament** (`tournament_over`: its planned rounds all seated, or its
  director having ended it after its latest round, and every table of the last played
  out) records nothing more: its links still show the table's last sheet, and refuse a
  deal saying that the tournament is over. Each table of the last
  round still corrects its last deal until the director declares the results final
  (`Tournament.results_final_at`, tournaments.rounds.tournament_results_final); then a
  correction is refused, saying who corrects it and how.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone

from club.recording import Authorize
from club.selectors import TableLinkDead
from club.services import phone_link_renew
from club.templatetags.words import winners
from core.db import lock_one
from core.errors import Conflict, UserError
from core.moments import moment_words
from scoring.models import Rubber
from scoring.rules.games import get_game
from tournaments.models import Round, RoundTable, Tournament, TournamentTable

#: Why a progressive's table link no longer works, in words for the phone.
DEAD_LINK = {
    "link_replaced": "This table's link was replaced by a new one.",
    "link_expired": "This table's link has expired.",
}
ASK_THE_DIRECTOR = "Ask the tournament's director for the table's new card."
#: Who corrects a deal the players at a progressive's table may no longer correct, and how
#: (ruling E9: the club's referee; tournaments.corrections).
ASK_THE_REFEREE = (
    "ask the director: he corrects any deal of the tournament on the table's sheet, with a "
    "reason, as the club's referee, and the original is kept beside the correction"
)


def _dead(code: str) -> TableLinkDead:
    return TableLinkDead(code, reason=DEAD_LINK[code], ask=ASK_THE_DIRECTOR)


def table_links_issue(*, tournament: Tournament, numbers: list[int]) -> None:
    """A link for each of these table numbers that has none yet (a round seated: called
    in its transaction, the tournament's row locked)."""
    have = set(tournament.table_links.filter(number__in=numbers).values_list("number", flat=True))
    TournamentTable.objects.bulk_create(
        TournamentTable(tournament=tournament, number=number)
        for number in sorted(set(numbers) - have)
    )


@transaction.atomic
def table_link_renew(*, link_id: int, user=None, seen: str | None = None) -> TournamentTable:
    """Issue a fresh link for a progressive's table (a card lost or copied): the old token
    dies at once (a phone still holding it is told it was replaced), as an evening's
    table's does (club.services.phone_link_renew). `seen`: the link's version the
    director's page showed; a link renewed since is refused (a form posted twice renews
    once)."""
    link = lock_one(
        TournamentTable.objects.select_related("tournament__club").filter(pk=link_id),
        what="table",
    )
    phone_link_renew(link, user=user, seen=seen)
    return link


def table_link_expires_at(*, link: TournamentTable, latest: Round | None) -> datetime.datetime:
    """When a progressive's table link dies of age: the club's `table_link_hours` after the
    end of the day its tournament's latest round (`latest`) was seated on, in the site's
    time zone, or after the link was issued if that is later."""
    zone = timezone.get_default_timezone()
    start = link.link_issued_at
    if latest is not None:
        day = timezone.localtime(latest.created_at, zone).date()
        try:
            day_ends = datetime.datetime.combine(
                day + datetime.timedelta(days=1), datetime.time(), tzinfo=zone
            )
        except OverflowError:  # seated on the calendar's last day: never of age
            return datetime.datetime.max.replace(tzinfo=datetime.UTC)
        start = max(start, day_ends)
    return start + datetime.timedelta(hours=link.tournament.club.table_link_hours)


def _could_be_token(token: str) -> bool:
    """Whether `token` could be a link at all: not longer than the column, without NUL
    (which PostgreSQL's text cannot hold)."""
    return (
        bool(token)
        and len(token) <= TournamentTable.token.field.max_length
        and ("\x00" not in token)
    )


@dataclass
class AtTable:
    """What a table's link finds at its table now: the tournament's latest round (None
    before the first is seated), that round's table of the link's number (None when the
    round seats fewer tables), and whether the tournament is over."""

    link: TournamentTable
    round: Round | None
    table: RoundTable | None
    over: bool

    @property
    def final(self) -> bool:
        """Whether the director has declared the tournament's results final (as the link
        read its tournament: `results_final` reads it again under the rubber's lock)."""
        return self.link.tournament.results_final_at is not None

    @property
    def last_round(self) -> bool:
        """Whether the round at the table is the tournament's last: its last planned one,
        or the one its director ended it after (`Tournament.last_round`)."""
        last = self.link.tournament.last_round
        return bool(last and self.round is not None and self.round.number >= last)


def table_by_link(*, token: str) -> AtTable:
    """The table a live link opens and what is at it now, or TableLinkDead saying why not
    (`unknown_link`, which the phone's page answers 404; `link_replaced`; `link_expired`)."""
    if not _could_be_token(token):
        raise TableLinkDead("unknown_link")
    link = TournamentTable.objects.select_related("tournament__club").filter(token=token).first()
    if link is None:
        if TournamentTable.objects.filter(replaced_token=token).exists():
            raise _dead("link_replaced")
        raise TableLinkDead("unknown_link")
    at = table_now(link)
    if timezone.now() >= table_link_expires_at(link=link, latest=at.round):
        raise _dead("link_expired")
    return at


def table_now(link: TournamentTable) -> AtTable:
    """The link's table as the tournament stands: its latest round, the round's table of
    the link's number with its rubber, and whether the tournament is over."""
    latest = link.tournament.rounds.order_by("-number").first()
    table = None
    if latest is not None:
        table = (
            latest.tables.select_related("rubber")
            .prefetch_related("rubber__seats")
            .filter(number=link.number)
            .first()
        )
    over = tournament_over(link.tournament, latest)
    return AtTable(link=link, round=latest, table=table, over=over)


def unfinished_tables(played: Round) -> list[int]:
    """The numbers of a round's tables still being played: no seat of the table's rubber
    has won the table yet (its `round_won`, scoring.rollup, which is how
    tournaments.rounds reads a table's winner)."""
    tables = played.tables.exclude(rubber__seats__round_won=True).order_by("number")
    return list(tables.values_list("number", flat=True))


def tournament_over(tournament: Tournament, latest: Round | None) -> bool:
    """Whether a progressive is over: its last round (`Tournament.last_round`: the number
    planned, or the round its director ended it after) is seated (`latest`, its latest
    round), and every table of it has its result (ruling P1 for fixed deals). One with no
    number of rounds planned is over once its director ends it
    (tournaments.rounds.tournament_end); until then its links die of age."""
    last = tournament.last_round
    if not last or latest is None or latest.number < last:
        return False
    return not unfinished_tables(latest)


def final_when(tournament: Tournament) -> str:
    """When the results were declared final, in words, in the site's time zone as every
    public page says a moment (core.moments): "at 23:10 GMT on 21 November 1888"."""
    return moment_words(tournament.results_final_at)


def over_words(at: AtTable) -> str:
    """A finished tournament, in words, for its links' pages and refusals."""
    if at.final:
        return (
            f"The tournament is over: its director declared the results final "
            f"{final_when(at.link.tournament)}, and this table's link records and corrects "
            "nothing more."
        )
    return (
        f"The tournament is over: every table has played its last round, round "
        f"{at.round.number}, and this table's link records nothing more."
    )


#: How long the players at a table of the last round may correct its last deal once the
#: tournament is over: no deal follows it (law 5, ruling E9), so until the director
#: declares the results final, as closing an evening ends its tables' corrections.
CORRECT_UNTIL_FINAL = (
    "No deal follows this table's last, so it may still be corrected here (law 5, ruling "
    "E9) until the director declares the results final."
)


def over_refusal(at: AtTable, *, change: str = "") -> Conflict:
    """The refusal of a deal sent by a finished tournament's link, or of a change to one
    (`change`, in words: "This correction of hand 3", "This take-back of hand 3")."""
    if change:
        return Conflict(
            f"{over_words(at)} {change} was not made; {ASK_THE_REFEREE}.",
            field="rubber",
            code="tournament_over",
            law="ruling E9",
        )
    return Conflict(over_words(at), field="rubber", code="tournament_over")


def results_final(link: TournamentTable) -> bool:
    """Whether the link's tournament has its results declared final, read with its row
    locked after the rubber's (core/db.py's order: rubbers first), so that a correction
    and the director declaring the results final are one before the other, never both."""
    locked = lock_one(Tournament.objects.filter(pk=link.tournament_id), what="tournament")
    link.tournament.results_final_at = locked.results_final_at
    return locked.results_final_at is not None


def _earlier_round(link: TournamentTable, rubber: Rubber) -> RoundTable | None:
    """The round table of the link's number, in an earlier round, that played `rubber`."""
    return (
        RoundTable.objects.select_related("round")
        .filter(round__tournament_id=link.tournament_id, number=link.number, rubber=rubber)
        .first()
    )


def _another_tables(link: TournamentTable, game) -> UserError:
    """The refusal of another table's rubber sent by a table's link."""
    return UserError(
        f"This table's link records only table {link.number}'s own {game.rubber_label} "
        "of the round in play; the one sent is another table's.",
        field="rubber",
        code="permission_denied",
    )


def may_record(link: TournamentTable) -> Callable[[Rubber | None], None]:
    """The check a table's link makes of the rubber it records at (`hand_record`'s
    `authorize`, made on the rubber locked, so a round seated meanwhile is seen): the
    tournament not over, and the rubber its own table's in the latest round. A deal
    entered for the round before (queued on the phone while the round changed) is a
    409 naming that round; another table's rubber is refused. Nothing is written."""

    def check(rubber: Rubber | None) -> None:
        if rubber is None:
            return  # hand_record answers that there is no such rubber
        at = table_now(link)
        game = get_game(rubber.ruleset)
        if at.over:
            raise over_refusal(at)
        if at.table is not None and at.table.rubber_id == rubber.pk:
            return
        earlier = _earlier_round(link, rubber)
        if earlier is not None:
            now = (
                f"if it belongs to round {at.round.number}, now in play at this table, enter "
                "it again."
                if at.table is not None
                else f"table {link.number} is not in play in round {at.round.number}."
            )
            raise Conflict(
                f"This {game.hand_label} was entered for round {earlier.round.number} at this "
                f"table, which is over, so it was not recorded; {now}",
                field="rubber",
                code="rubber_over",
            )
        raise _another_tables(link, game)

    return check


def ended_by(rubber: Rubber) -> str:
    """What decides the round at a table, for the words that cite it: its fixed deals
    (ruling P1) or its rubber's law."""
    return "ruling P1" if rubber.deal_limit is not None else rubber.rules.rubber_law


def round_won(rubber: Rubber) -> str | None:
    """The side that won the round at the table (its seats' `round_won`, scoring.rollup, as
    tournaments.rounds reads a table's winner), or None while it is being played."""
    return rubber.seats.filter(round_won=True).values_list("side", flat=True).first()


def may_correct(link: TournamentTable, *, number: int) -> Authorize:
    """The check a table's link makes of the rubber whose deal `number` its players correct
    (`hand_correct`'s `authorize`, on the rubber locked), and of the correction once made.

    The limits are the evening's table's phone's (club/views_board.py), with what a
    progressive adds:

    - **Which deal**: the last recorded, while no later one is (law 5, ruling E9; the
      Bridge laws' and Call-Ace's own limits): the scoring service refuses an earlier one
      in the words the evening's phone shows, and after that only the club's secretary,
      its referee, corrects it, with a reason.
    - **Which rubber**: the table's own in the round in play (`_own_rubber`). The round
      before at this table is over once the director has seated the next, which he seats
      from its result, and the players have moved: a correction queued for it on a phone
      is refused (409, naming the round), as a deal queued for it is; another table's
      rubber is refused.
    - **A round over at the table** (its rubber won, or its fixed deals decided, ruling
      P1): as at an evening's table, where a correction may change a finished rubber's
      figures but not whether it is finished (`club.recording.hand_correct`, law 15: the
      table has cut in and out on its end), the last deal's figures may be corrected
      while the round is the latest, but not whether it is over (a level round's P1
      deals), nor, before the last round, who won it: the director seats the next round
      from that result, moving winners and losers, and may be seating it now, without
      waiting for any rubber's lock. No round is seated from the last round's result, so
      there a correction may change who won it (the standings follow). Checked once the
      correction is written, on the round's result as scoring wrote it (`round_won`);
      refused with nothing kept.
    - **A finished tournament** (`tournament_over`): no deal follows the last deal of the
      last round, so each of its tables may still correct its last deal (law 5: "before
      the trump card is turned in the next deal"; ruling E9: until the next hand at that
      table is recorded; neither law nor ruling sets a time) until the director declares
      the results final, as closing an evening ends its tables' corrections; read with
      the tournament's row locked (`results_final`). After that the link corrects
      nothing, and the refusal says who does and how.
    """

    def check(rubber: Rubber | None) -> Callable[[Rubber], None] | None:
        if rubber is None:
            return None  # hand_correct answers that there is no such rubber
        at = table_now(link)
        label = f"{get_game(rubber.ruleset).hand_label} {number}"
        _own_rubber(link, at, rubber, change=f"This correction of {label}", until_final=True)
        won = round_won(rubber)
        return None if won is None else _keeps_result(at, rubber, won, label)

    return check


def may_take_back(link: TournamentTable, *, number: int) -> Authorize:
    """The check a table's link makes of the rubber whose last deal, `number`, its players
    take back (`hand_remove`'s `authorize`, on the rubber locked): one entered by mistake
    (never played, entered on the wrong table's phone, the same deal entered twice).

    The limits are a correction's (`may_correct`): the last deal only, while no later one
    is recorded (law 5, ruling E9; `club.recording.hand_remove` refuses another in words,
    409), at the table's own rubber of the round in play (`_own_rubber`), nothing once
    the tournament is over. But a deal is not taken back once the round is over at the
    table (its rubber won, or its fixed deals decided, ruling P1): that deal decided it,
    and taking it back would reopen a round the director seats the next from, as taking
    back the hand that won a rubber at an evening's table would undo the table's cutting
    in and out on its end (law 15). Its figures may still be corrected (`may_correct`).
    """

    def check(rubber: Rubber | None) -> None:
        if rubber is None:
            return  # hand_remove answers that there is no such rubber
        at = table_now(link)
        label = f"{get_game(rubber.ruleset).hand_label} {number}"
        _own_rubber(link, at, rubber, change=f"This take-back of {label}")
        if number != rubber.hand_count:
            return  # not the last (another deal since): club.recording.hand_remove says so
        won = round_won(rubber)
        if won is None and rubber.status == Rubber.Status.IN_PROGRESS:
            return
        raise UserError(round_over_keeps_deals(at, rubber, won), field="number", law="ruling E9")

    return check


def round_over_keeps_deals(at: AtTable, rubber: Rubber, won: str | None) -> str:
    """Why a round over at the table keeps its last deal, in words (`may_take_back`'s
    refusal; the phone says it beside the last deal)."""
    game = get_game(rubber.ruleset)
    by = f" ({winners(rubber.players, won)} won it, {ended_by(rubber)})" if won else ""
    return (
        f"Round {at.round.number} is over at this table{by}, and the director seats the next "
        f"round from that result: its last {game.hand_label} is not taken back. Correct its "
        f"figures if they were wrong, or {ASK_THE_REFEREE}."
    )


def _own_rubber(
    link: TournamentTable, at: AtTable, rubber: Rubber, *, change: str, until_final: bool = False
) -> None:
    """Refuse a change (`change`, in words: "This correction of hand 3") to a rubber that is
    not the link's own table's in the round in play: the tournament over (with
    `until_final`, a correction's: once its results are declared final, `results_final`),
    a round before at this table (over once the director has seated the next from its
    result), or another table's. Nothing is written."""
    if at.over and (not until_final or results_final(link)):
        raise over_refusal(at, change=change)
    if at.table is not None and at.table.rubber_id == rubber.pk:
        return
    earlier = _earlier_round(link, rubber)
    if earlier is not None:
        raise Conflict(
            f"{change} was entered for round {earlier.round.number} at this table, which is "
            "over (the director has seated the next round from its result), so it was not "
            f"made; {ASK_THE_REFEREE}.",
            field="rubber",
            code="rubber_over",
            law="ruling E9",
        )
    raise _another_tables(link, get_game(rubber.ruleset))


def _keeps_result(at: AtTable, rubber: Rubber, won: str, label: str) -> Callable[[Rubber], None]:
    """The check of a correction at a table whose round is over, won by side `won`: the
    round's result stands (see `may_correct`)."""
    last = at.last_round  # no round is seated from its result

    def check(changed: Rubber) -> None:
        now = round_won(changed)
        if now == won or (last and now is not None):
            return
        if last:
            raise UserError(
                f"This correction of {label} would leave round {at.round.number}, the last, "
                f"undecided at this table ({winners(rubber.players, won)} won it, "
                f"{ended_by(rubber)}): its result stands decided; correct the figures so that "
                f"a side still wins it, or {ASK_THE_REFEREE}.",
                field="hand",
                law="ruling E9",
            )
        raise UserError(
            f"This correction of {label} would change who won round {at.round.number} at "
            f"this table ({winners(rubber.players, won)} won it, {ended_by(rubber)}), and the "
            "director seats the next round from that result; correct the figures only, or "
            f"{ASK_THE_REFEREE}.",
            field="hand",
            law="ruling E9",
        )

    return check
