"""A progressive tournament's players and rounds: players entered, rounds seated by a movement,
results read.

A round is seated by the director's movement (`tournaments.movements`) from the players
present at that round, so late arrivals and departures change nothing already played.
Each table of a round plays a rubber, or a fixed number of deals, stored as a scoring
Rubber; its result is that rubber's winner (or, for fixed deals, the side that scored
more). A round is seated only when every table of the round before has its result.
"""

import secrets

from django.db import transaction
from django.utils import timezone

from club.models import Member
from club.selectors import club_is_directed_by
from core.audit import add_to_audit_context
from core.db import lock_one
from core.errors import Conflict, UserError
from core.moments import moment_version, moment_words
from core.text import clean_reason, name_key
from scoring import services as scoring
from scoring.models import HandCorrection, Rubber
from tournaments.models import Round, RoundTable, Tournament, TournamentPlayer
from tournaments.movements import CardsError, MovementError, RoundResult, RoundSeating, movement_for
from tournaments.services import standings_request_full
from tournaments.table_links import final_when, table_links_issue, unfinished_tables


def directors_at_round_tables(user, club):
    """For club.permissions.recorder_check: a club's director (not its secretary) records
    hands at the tables of its progressives' rounds, and at no other rubber."""
    if not club_is_directed_by(club=club, user=user):
        return None
    return lambda rubber: RoundTable.objects.filter(rubber_id=rubber.pk).exists()


def _progressive(tournament: Tournament) -> None:
    if tournament.kind != Tournament.Kind.PROGRESSIVE:
        raise UserError("Only a progressive tournament has players entered and rounds.")


def _next_round(tournament: Tournament) -> int:
    last = tournament.rounds.order_by("-number").values_list("number", flat=True).first()
    return (last or 0) + 1


def _round_left(tournament: Tournament, *, field: str, who: str) -> int:
    """The next round to be seated, refused when the tournament's planned rounds are all
    seated: a player entered, or excused, for a round that will never be played."""
    number = _next_round(tournament)
    last = tournament.last_round
    if last and number > last:
        raise UserError(
            f"The tournament has no round {number} for {who}: {_no_more_rounds(tournament)}.",
            field=field,
        )
    return number


def _no_more_rounds(tournament: Tournament) -> str:
    """Why no further round is seated, in words: its planned rounds all seated, or its
    director ended it (`tournament_end`)."""
    if tournament.ended_after_round:
        return f"its director ended it after round {tournament.ended_after_round}"
    planned = tournament.rounds_planned
    return "its only round is seated" if planned == 1 else f"all {planned} of its rounds are seated"


@transaction.atomic
def tournament_enter(
    *, tournament: Tournament, name: str, new_player: bool = False
) -> TournamentPlayer:
    """Enter a member (a guest is added to the roster) from the next round to be seated;
    refused once the planned rounds are all seated.

    The name is matched to the roster as an evening's arrival is ("ann" is Ann; a name
    that only looks like a member's needs `new_player`: club.services.member_named). One
    who left is entered again from the next round; if that is the round he left before,
    his leaving is simply undone. `plays_from` on the entry returned: the round he plays
    from now."""
    from club.services import member_named
    from core.text import clean_name

    _progressive(tournament)
    name = clean_name(name, label="The player's name")
    number = _round_left(tournament, field="name", who=name)
    member = member_named(club=tournament.club, name=name, new_player=new_player)
    added = member is None
    if added:
        member = Member.objects.create(club=tournament.club, name=name, is_guest=True)
    entry, created = TournamentPlayer.objects.get_or_create(
        tournament=tournament, member=member, defaults={"joined_round": number}
    )
    # The director's page says so: a name misspelt is a new guest, not a member entered.
    entry.added_to_roster = added
    entry.entered_again = not created
    entry.plays_from = number
    if not created:
        if entry.left_round is None:
            raise UserError(f"{member.name} is entered already.", field="name")
        if entry.left_round < number:
            # He comes back from the next round, not from the round he first joined: the
            # rounds he played before are in their seatings, his leaving in the entry's
            # history.
            entry.joined_round = number
        # Else he left for the round not seated yet (a tap on the wrong line, or he stays
        # after all): no round went by without him, and he plays on from when he joined.
        entry.left_round = None
        entry.save(update_fields=["joined_round", "left_round"])
    return entry


@transaction.atomic
def tournament_withdraw(*, tournament: Tournament, member_id: int) -> TournamentPlayer:
    """A player leaves: he is seated in no round from the next one on."""
    _progressive(tournament)
    entry = TournamentPlayer.objects.filter(tournament=tournament, member_id=member_id).first()
    if entry is None or entry.left_round is not None:
        raise UserError("That player is not playing in the tournament.", field="member")
    entry.left_round = _next_round(tournament)
    entry.save(update_fields=["left_round"])
    return entry


def _entry_locked(tournament: Tournament, member_id: int, unknown: str) -> TournamentPlayer:
    """The progressive's entry of the player, locked with his name: refused in the words
    `unknown` (on the member field) when he has none."""
    _progressive(tournament)
    entry = (
        TournamentPlayer.objects.select_for_update()
        .select_related("member")
        .filter(tournament=tournament, member_id=member_id)
        .first()
    )
    if entry is None:
        raise UserError(unknown, field="member")
    return entry


@transaction.atomic
def tournament_bye(*, tournament: Tournament, member_id: int) -> TournamentPlayer:
    """A player sits out the next round to be seated, at his own request: the movement
    seats the others, and he is back from the round after (a bye out of turn). Refused
    once the planned rounds are all seated."""
    entry = _entry_locked(tournament, member_id, "That player is not playing in the next round.")
    number = _round_left(tournament, field="member", who=entry.member.name)
    if not plays_in(entry, number):
        raise UserError("That player is not playing in the next round.", field="member")
    if number in entry.bye_rounds:
        raise UserError(f"{entry.member.name} sits out round {number} already.", field="member")
    entry.bye_rounds = sorted([*entry.bye_rounds, number])
    entry.save(update_fields=["bye_rounds"])
    return entry


@transaction.atomic
def tournament_bye_cancel(*, tournament: Tournament, member_id: int) -> TournamentPlayer:
    """A bye asked for the next round taken back before that round is seated (a tap on
    the wrong player's button, or a player who stays after all): he is seated in it as the
    others are. Refused in words when he has no such bye; a round seated stands as seated."""
    entry = _entry_locked(tournament, member_id, "That player is not entered in the tournament.")
    number = _next_round(tournament)
    if number not in entry.bye_rounds:
        raise UserError(
            f"{entry.member.name} has no bye asked for round {number}, the next to be seated: "
            "a round seated already stands as seated.",
            field="member",
        )
    entry.bye_rounds = [n for n in entry.bye_rounds if n != number]
    entry.save(update_fields=["bye_rounds"])
    return entry


def plays_in(entry: TournamentPlayer, round_number: int) -> bool:
    """Whether the player is in the tournament at that round: entered by then and not
    gone before it (a bye he asked for does not count against it)."""
    return entry.joined_round <= round_number and (
        entry.left_round is None or entry.left_round > round_number
    )


def present_at(*, tournament: Tournament, round_number: int) -> list[str]:
    """The players present at a round, in the order they were entered (those sitting it
    out at their own request are not)."""
    entries = tournament.players.select_related("member").order_by("pk")
    return [
        e.member.name
        for e in entries
        if plays_in(e, round_number) and round_number not in e.bye_rounds
    ]


def requested_byes(*, tournament: Tournament, round_number: int) -> list[str]:
    """The players sitting out a round at their own request, in the order they were entered."""
    entries = tournament.players.select_related("member").order_by("pk")
    return [
        e.member.name for e in entries if plays_in(e, round_number) and round_number in e.bye_rounds
    ]


def _table_winner(rubber: Rubber) -> str | None:
    """The side that won the table, as the rubber's roll-up reads it (scoring.rollup,
    `round_won`, written with every write of the rubber): the rubber's winner, or with
    fixed deals the side ahead once they are all played (None while it is being played; a
    round level after its deals goes on one deal at a time until one side is ahead, P1);
    a round of fixed deals whose rubber is won before they run out is over then, for no
    deal may follow (rulings E1-E4): won by the side ahead, or level, the rubber's winner.
    Reads the rubber's seats: prefetch them (`rubber__seats`) for many tables."""
    return next((seat.side for seat in rubber.seats.all() if seat.round_won), None)


def _is_level(rubber: Rubber, winner: str | None) -> bool:
    """A round of fixed deals played out level: it wants one more deal (ruling P1)."""
    return rubber.deal_limit is not None and rubber.hand_count >= rubber.deal_limit and not winner


def round_results(*, tournament: Tournament) -> list[RoundResult]:
    """Every round seated so far with the winners known at each table."""
    results = []
    rounds = tournament.rounds.order_by("number").prefetch_related("tables__rubber__seats")
    for played in rounds:
        winners = {}
        for table in played.tables.all():
            side = _table_winner(table.rubber)
            if side:
                winners[table.number] = side
        results.append(RoundResult(seating=RoundSeating.from_dict(played.seating), winners=winners))
    return results


@transaction.atomic
def round_seat_next(
    *, tournament_id: int, user=None, cards: dict | None = None, seating: int | None = None
) -> Round:
    """Seat the next round with the tournament's movement and start a rubber at each table.

    A round seated by a cut (round 1 of every movement, never the order players were
    entered in; every round of the cut movement) is cut with cards the service draws from
    a cryptographic source, or with `cards`, those the players actually cut: each
    player's, in the order he cut them (for tables, then for partners). Either way every
    card is kept with the round (ruling T10). Refused while a table of the last round
    has no result ("only confirmed results"). A table number seated for the first time
    is given its phone link (tournaments.table_links). `seating`, the round the director's
    page offered to seat (the API may send none): one seated since, "Seat" pressed twice
    or the form posted again, is refused as seated already (`_seated_already`), not as a
    round still being played, and nothing is seated.
    """
    tournament = lock_one(Tournament.objects.filter(pk=tournament_id), what="tournament")
    _progressive(tournament)
    previous = round_results(tournament=tournament)
    if seating is not None and seating <= len(previous):
        raise _seated_already(tournament, seating, latest=len(previous))
    if previous:
        last = previous[-1]
        unfinished = [t.number for t in last.seating.tables if t.number not in last.winners]
        if unfinished:
            words, law = _still_playing(tournament, last.round_number, unfinished)
            raise UserError(words, code="round_unfinished", law=law)
    number = len(previous) + 1
    if tournament.last_round and number > tournament.last_round:
        raise UserError(
            f"The tournament has no round {number}: {_no_more_rounds(tournament)}.", field="round"
        )
    movement = movement_for(tournament.movement, rule_set=tournament.ruleset)
    players = present_at(tournament=tournament, round_number=number)
    if len(players) < 4:
        raise UserError(_too_few(tournament, number, players), field="players")
    if cards is not None:
        cards = cards_by_player(cards, players=players)
    try:
        seating = movement.seat_round(
            round_number=number, players=players, previous=previous, rng=secrets.SystemRandom(),
            cards=cards,
        )  # fmt: skip
    except MovementError as exc:
        entered = isinstance(exc, CardsError)
        raise UserError(
            str(exc),
            field="cards" if entered else "players",
            law="ruling T10" if entered else None,
        ) from exc
    stored = seating.to_dict()
    stored["requested_byes"] = requested_byes(tournament=tournament, round_number=number)
    if seating.cuts:
        stored["drawn_by_service"] = cards is None
    played = Round.objects.create(tournament=tournament, number=number, seating=stored)
    for table in seating.tables:
        seats = table.seats
        rubber = scoring.rubber_start(
            club=tournament.club,
            ruleset=tournament.ruleset,
            players={"NS": [seats["N"], seats["S"]], "EW": [seats["E"], seats["W"]]},
            user=user,
            deal_limit=tournament.deals_per_round,
            stake=tournament.stake,  # ruling P2: 0 settles nothing
        )
        RoundTable.objects.create(round=played, number=table.number, rubber=rubber)
    # Each table's phone link, for the whole tournament (tournaments.table_links): a table
    # number seated for the first time gets its card now; the others keep theirs.
    table_links_issue(tournament=tournament, numbers=[table.number for table in seating.tables])
    return played


def _seated_already(tournament: Tournament, seating: int, *, latest: int) -> Conflict:
    """The refusal of a round the page offered to seat that was seated since it was drawn
    (the same "Seat" pressed twice, its first answer lost or slow; another director's)."""
    seated = tournament.rounds.filter(number=seating).first()
    since = (
        f" Round {latest} is the latest seated." if latest > seating else " Its tables are shown."
    )
    return Conflict(
        f"Round {seating} was seated already, {moment_words(seated.created_at)}, after this "
        "page showed it still to be seated: it is not seated again." + since,
        field="seating",
        code="round_seated",
    )


def _too_few(tournament: Tournament, number: int, players: list[str]) -> str:
    """Why round `number` is not seated with fewer than four players present, and what
    the director may do about it: enter a player, let one sitting it out at his request
    play, or end the tournament after the round before."""
    present = f": {', '.join(players)}" if players else ""
    count = len(players)
    words = (
        f"Round {number} cannot be seated: a table needs four players, and {count} "
        f"{'is' if count == 1 else 'are'} present for it{present}."
    )
    ways = ["enter another player"]
    asked = requested_byes(tournament=tournament, round_number=number)
    if asked:
        ways.append(f"let {' or '.join(asked)} play it after all (a bye asked for)")
    if number > 1:
        ways.append(f"end the tournament after round {number - 1}")
    return f"{words} To go on, {', or '.join(ways)}."


def cards_by_player(cards: dict, *, players: list[str]) -> dict:
    """The cards cut, each under the name of the present player it means: a name typed
    in other case or spacing ("ann", "ANN") is the player's, as an arrival's name is
    (core.text.name_key; club.services.member_named), where it means one player alone. A
    name that means nobody present, or one player typed twice, is left as typed, for the
    movement to refuse in words (ruling T10)."""
    present = {}
    for player in players:
        present.setdefault(name_key(player), []).append(player)
    meant = {}
    for typed in cards:
        found = present.get(name_key(typed), [])
        meant[typed] = found[0] if typed not in players and len(found) == 1 else typed
    if len(set(meant.values())) < len(meant):  # "Ann" and "ann" both typed
        return dict(cards)
    return {meant[typed]: value for typed, value in cards.items()}


def _still_playing(
    tournament: Tournament, round_number: int, unfinished: list[int]
) -> tuple[str, str | None]:
    """A round still being played at the tables `unfinished`, in words, and the ruling
    behind them: those level after their fixed deals play one more deal at a time (P1)."""
    level = [
        table.number
        for table in RoundTable.objects.filter(
            round__tournament=tournament, round__number=round_number, number__in=unfinished
        ).select_related("rubber")
        if _is_level(table.rubber, None)
    ]
    words = (
        f"Round {round_number} is still being played at table"
        f"{'s' if len(unfinished) > 1 else ''} {', '.join(map(str, unfinished))}."
    )
    if level:
        words += (
            f" Level after its deals at {', '.join(map(str, level))}: one more deal at a time "
            "until one side is ahead (ruling P1)."
        )
    return words, "ruling P1" if level else None


def tournament_end_refusal(tournament: Tournament, *, after_round: int | None = None) -> None:
    """Refuse, in words, to end this progressive after its latest round (`tournament_end`);
    nothing is written. `after_round`, the round the director means: a round seated since
    he looked is a conflict, not the round he ends after."""
    _progressive(tournament)
    if tournament.ended_after_round:
        raise UserError(
            f"The tournament was ended after round {tournament.ended_after_round} already.",
            field="action",
        )
    latest = tournament.rounds.order_by("-number").first()
    planned = tournament.rounds_planned
    if planned and latest is not None and latest.number >= planned:
        which = "the only round" if planned == 1 else f"the last of the {planned} rounds"
        raise UserError(
            f"Round {planned} is {which} planned: the tournament is over once it has been "
            "played out at every table, with nothing to end.",
            field="action",
        )
    if latest is None:
        raise UserError(
            "No round is seated yet: a tournament is ended after a round played out.",
            field="action",
        )
    if after_round is not None and after_round != latest.number:
        raise Conflict(
            f"Round {latest.number} is the latest seated, not round {after_round}: nothing was "
            f"ended. End the tournament after round {latest.number} once it is played out.",
            field="round",
            code="stale_round",
        )
    playing = unfinished_tables(latest)
    if playing:
        words, law = _still_playing(tournament, latest.number, playing)
        raise UserError(
            f"{words} The tournament is ended once every table of its latest round has its result.",
            field="action",
            code="round_unfinished",
            law=law,
        )


@transaction.atomic
def tournament_end(*, tournament_id: int, after_round: int | None = None) -> Tournament:
    """The director ends a progressive after its latest round, once every table of it has
    its result: one planned without a number of rounds, or one whose planned rounds will
    not all be played (players gone, the hall closing: it could otherwise never be over,
    nor its results declared final) (`table_links.unfinished_tables`, the test
    `tournament_over` makes of a planned tournament's last round). It is then over exactly as
    one whose planned rounds are all played out (`Tournament.last_round`): no further round
    is seated, entered for or sat out; the tables' phones record nothing more, and each
    table of that round may still correct its last deal (law 5, ruling E9) until the
    director declares the results final (`tournament_results_final`). Taken back by
    `tournament_reopen`, with a reason, until then. Refused in words
    (`tournament_end_refusal`), nothing written."""
    tournament = lock_one(Tournament.objects.filter(pk=tournament_id), what="tournament")
    tournament_end_refusal(tournament, after_round=after_round)
    tournament.ended_after_round = tournament.rounds.order_by("-number").first().number
    tournament.ended_at = timezone.now()  # the ending's version (`ending_version`)
    tournament.save(update_fields=["ended_after_round", "ended_at"])
    # The public standings say it is over: a version of their own, for the crowd's copies
    # and an open page's poll are kept by version (tournaments.pagecache).
    standings_request_full(tournament_id=tournament.pk)
    return tournament


def ending_version(tournament: Tournament) -> str:
    """The version of a progressive's ending as the director's page shows it, sent back by
    its "Reopen" form: the round it was ended after and when ("" while not ended). An
    ending taken back and made again after the same round is another ending."""
    if not tournament.ended_after_round:
        return ""
    return f"{tournament.ended_after_round}@{moment_version(tournament.ended_at)}"


def final_version(tournament: Tournament) -> str:
    """The version of a progressive's declaration that its results are final, as the
    director's page shows it, sent back by its "results not final" form ("" while none)."""
    return moment_version(tournament.results_final_at)


def tournament_reopen_refusal(tournament: Tournament, *, seen: str | None = None) -> None:
    """Refuse, in words, to take back the director's ending of a progressive
    (`tournament_reopen`); nothing is written. `seen`, the ending as his page showed it
    (`ending_version`; the API may send none): an ending taken back since and made again
    (the confirmed form posted again from a page drawn before) is not the one he meant."""
    _progressive(tournament)
    if not tournament.ended_after_round:
        raise UserError(
            "The tournament was not ended by its director: there is no ending to take back.",
            field="reopen",
        )
    if seen is not None and seen != ending_version(tournament):
        when = f" {moment_words(tournament.ended_at)}" if tournament.ended_at else ""
        raise Conflict(
            "The ending this page showed was taken back already, and the tournament was "
            f"ended again{when}, after round {tournament.ended_after_round}, since the page "
            "was drawn: nothing was reopened. The page now shows the tournament as it is; "
            "take this ending back too, with its reason, if it also was a mistake.",
            field="reopen",
            code="stale_ending",
        )
    if tournament.results_final_at is not None:
        raise UserError(
            f"The results were declared final {final_when(tournament)}: take that back "
            "first (with its reason), then the ending.",
            field="reopen",
            code="results_final",
        )


@transaction.atomic
def tournament_reopen(*, tournament_id: int, reason: str, seen: str | None = None) -> Tournament:
    """The director takes back his ending of a progressive (`tournament_end`), ended by
    mistake: it goes on as before it was ended, the next round to be seated (its planned
    rounds, if any, planned again), its players entered for it playing it. Nothing played
    is changed: the round it was ended after was played out at every table, its results
    stand (ruling P1: a round of fixed deals is won on points, and none ended level), and
    with a stake nothing is settled but its rubbers (ruling P2). Refused once the results
    are declared final (`tournament_results_final_undo` first). The reason is said, and
    kept in the audit history with the change (core.audit). `seen`: the ending as the
    director's page showed it (`tournament_reopen_refusal`)."""
    reason = taken_back_reason(reason, field="reopen", what="the tournament is reopened")
    tournament = lock_one(Tournament.objects.filter(pk=tournament_id), what="tournament")
    tournament_reopen_refusal(tournament, seen=seen)
    add_to_audit_context(reason=reason, undone=f"ended after round {tournament.ended_after_round}")
    tournament.ended_after_round = None
    tournament.ended_at = None
    tournament.save(update_fields=["ended_after_round", "ended_at"])
    # The public standings no longer say it is over: a version of their own.
    standings_request_full(tournament_id=tournament.pk)
    return tournament


def taken_back_reason(reason, *, field: str, what: str) -> str:
    """A reason as every reason is kept (core.text), or refused in words when none is given."""
    reason = clean_reason(reason, field=field)
    if not reason:
        raise UserError(f"Say why {what}: the reason is kept with the change.", field=field)
    return reason


def tournament_results_final_undo_refusal(
    tournament: Tournament, *, seen: str | None = None
) -> None:
    """Refuse, in words, to take back the declaration that the results are final
    (`tournament_results_final_undo`); nothing is written. `seen`, the declaration as the
    director's page showed it (`final_version`; the API may send none): one taken back
    since and made again is not the one he meant."""
    _progressive(tournament)
    if tournament.results_final_at is None:
        raise UserError("The results have not been declared final.", field="unfinal")
    if seen is not None and seen != final_version(tournament):
        raise Conflict(
            "The declaration this page showed was taken back already, and the results were "
            f"declared final again {final_when(tournament)}, since the page was drawn: "
            "nothing was taken back. The page now shows the tournament as it is; take this "
            "declaration back too, with its reason, if it also was a mistake.",
            field="unfinal",
            code="stale_final",
        )
    corrected = (
        HandCorrection.objects.filter(
            hand__rubber__round_table__round__tournament=tournament,
            at__gte=tournament.results_final_at,
        )
        .order_by("at")
        .first()
    )
    if corrected is not None:
        raise UserError(
            f"A deal was corrected on its table's sheet {moment_words(corrected.at)}, after "
            "the results were declared final: the correction was made, as the club's referee, "
            "on results declared final (ruling E9), and declaring them not final would let "
            "the tables' phones correct their last deals again over it (law 5). The results "
            "stay final; correct any deal on its table's sheet, with a reason.",
            field="unfinal",
            law="law 5, ruling E9",
        )


@transaction.atomic
def tournament_results_final_undo(
    *, tournament_id: int, reason: str, seen: str | None = None
) -> Tournament:
    """The director takes back his declaration that the results are final
    (`tournament_results_final`), made by mistake: the standings no longer say they are
    final, and each table of the last round may again correct its last deal from its
    phone until he declares them final again (law 5, ruling E9). Refused once a deal was
    corrected on its table's sheet after the declaration (the referee corrected final
    results: ruling E9). With a stake, the money stands as the rubbers settled it either
    way (ruling P2). The reason is said, and kept in the audit history (core.audit)."""
    reason = taken_back_reason(reason, field="unfinal", what="the results are no longer final")
    tournament = lock_one(Tournament.objects.filter(pk=tournament_id), what="tournament")
    tournament_results_final_undo_refusal(tournament, seen=seen)
    add_to_audit_context(reason=reason, undone=f"results declared final {final_when(tournament)}")
    tournament.results_final_at = None
    tournament.save(update_fields=["results_final_at"])
    # The public standings no longer say final: a version of their own (tournaments.pagecache).
    standings_request_full(tournament_id=tournament.pk)
    return tournament


def waiting_for_no_round(tournament: Tournament) -> list[str]:
    """The players entered to play from a round after the tournament's last, who play no
    round (entered before the director ended it), in the order they were entered."""
    last = tournament.last_round
    if not last:
        return []
    entries = tournament.players.select_related("member").order_by("pk")
    return [e.member.name for e in entries if e.joined_round > last and e.left_round is None]


@transaction.atomic
def tournament_results_final(*, tournament_id: int) -> Tournament:
    """The director declares a progressive's results final, once its planned rounds are all
    played out (`table_links.tournament_over`): as closing ends an evening, it ends what the
    tables' phones may correct. Until then each table of the last round may correct its
    last deal, no deal following it (law 5, ruling E9); after it the director (or the
    club's secretary) corrects any deal, with a reason, on the table's sheet
    (tournaments.corrections). Refused in words while a round is still to be played."""
    tournament = lock_one(Tournament.objects.filter(pk=tournament_id), what="tournament")
    _progressive(tournament)
    if tournament.results_final_at is not None:
        raise UserError(
            f"The results were declared final already, {final_when(tournament)}.",
            field="action",
        )
    latest = tournament.rounds.order_by("-number").first()
    if not tournament.last_round:
        ended = (
            f" End it after round {latest.number} first, once every table of it has its result."
            if latest is not None
            else " No round is seated yet."
        )
        raise UserError(
            "The results are declared final once the tournament's last round is played out, "
            "and this one has no number of rounds planned and has not been ended." + ended,
            field="action",
        )
    if tournament.ended_after_round is None and (
        latest is None or latest.number < tournament.rounds_planned
    ):
        seated = f"round {latest.number} is" if latest else "no round is"
        raise UserError(
            f"The tournament has {tournament.rounds_planned} rounds and {seated} seated so "
            "far: the results are declared final once the last has been played out.",
            field="action",
        )
    playing = unfinished_tables(latest)
    if playing:
        raise UserError(
            f"Round {latest.number}, the last, is still being played at table"
            f"{'s' if len(playing) > 1 else ''} {', '.join(map(str, playing))}: the results "
            "are declared final once every table has its result.",
            field="action",
        )
    tournament.results_final_at = timezone.now()
    tournament.save(update_fields=["results_final_at"])
    # The public standings say their results are final: a version of their own, for the
    # crowd's copies are kept by version (tournaments.pagecache).
    standings_request_full(tournament_id=tournament.pk)
    return tournament


def sides_of(seats: dict) -> dict[str, str]:
    """A table's partnerships in words from its seats: {"NS": "Ann & Bob", "EW": ...}."""
    return {
        "NS": f"{seats.get('N', '')} & {seats.get('S', '')}",
        "EW": f"{seats.get('E', '')} & {seats.get('W', '')}",
    }


def table_as_dict(played: Round, table: RoundTable) -> dict:
    """One table of a round as the API and pages show it: seats, rubber and result."""
    seats = next(t["seats"] for t in played.seating["tables"] if t["number"] == table.number)
    winner = _table_winner(table.rubber)
    return {
        "number": table.number,
        "seats": seats,
        "rubber": table.rubber_id,
        "hands": table.rubber.hand_count,
        "deals": table.rubber.deal_limit,
        "winner": winner,
        # Ruling P1: played out level, it goes on one deal at a time.
        "level": _is_level(table.rubber, winner),
    }


def round_as_dict(played: Round) -> dict:
    """A round as the API and pages show it: tables, seats, byes, rubbers and results."""
    rows = played.tables.select_related("rubber").prefetch_related("rubber__seats")
    return {
        "number": played.number,
        "tables": [table_as_dict(played, table) for table in rows.order_by("number")],
        "byes": played.seating.get("byes", []),
        "requested_byes": played.seating.get("requested_byes", []),
        "relaxations": played.seating.get("relaxations", []),
        # Every card cut to seat the round, and whether the service drew them (T10).
        "cuts": played.seating.get("cuts", []),
        "drawn_by_service": played.seating.get("drawn_by_service"),
    }
