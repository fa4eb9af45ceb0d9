"""The director's pages: a new tournament, and a tournament as its director runs it.

Open to the club's secretaries and its tournament directors (`clubs_directed_by`);
anyone else gets 404. Every button calls the same service the API calls
(`tournaments.services`, `tournaments.rounds`); a refusal is shown in words next
to the button or field it concerns, and changes nothing. The buttons post with htmx
and get the page's live part back; without JavaScript they post the ordinary way and
get the whole page.
"""

import io

import segno
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import Http404, HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from club import phone_links
from club.formation.cards import card_typed
from club.models import Club
from club.selectors import clubs_directed_by
from club.services import phone_link_version
from club.views_board import live_board, live_refusal
from club.views_cards import (
    HOW_TO,
    HOW_TO_ANY,
    PER_PAGE,
    PER_PAGE_WORDS,
    SCAN,
    cards_per_page,
)
from config.ratelimit import account_wait, api_rate_wait
from core.echo import capped, refusal, typed_in
from core.errors import UserError
from core.inputs import whole_number
from core.quoted import quoted
from tournaments import rounds, selectors, services, table_links
from tournaments.forms import TournamentForm, evening_words, metric_choices, precedence_from
from tournaments.metrics import METRICS, no_longer_ranks, precedence_of
from tournaments.models import Tournament, TournamentTable
from tournaments.movements import Guarantee, MovementError

# What a movement promises, in the director's words, for its report of what it could
# not honour in a round (docs/movements.md).
GUARANTEES = {
    Guarantee.CHART.value: "Every table from the chart",
    Guarantee.PROGRESSION.value: "Winners up, losers down",
    Guarantee.NEW_PARTNER.value: "A new partner every round",
    Guarantee.BALANCED_BYES.value: "Byes balanced",
}


# The buttons each kind of tournament shows; a refusal is shown beside its button, or at
# the top for a button the page does not show.
ACTIONS = {
    Tournament.Kind.LADDER: {"recalculate", "precedence", "attach", "detach"},
    Tournament.Kind.PROGRESSIVE: {
        "recalculate",
        "precedence",
        "seat",
        "enter",
        "leave",
        "bye",
        "unbye",
        "new_link",
        "end",
        "final",
        "reopen",
        "unfinal",
    },
}

#: The director's changes taken back, each asked again first and with a reason: the
#: check that refuses it, in words, before anything is written.
TAKEN_BACK = {
    "reopen": rounds.tournament_reopen_refusal,
    "unfinal": rounds.tournament_results_final_undo_refusal,
}


#: What a reason is asked for, by the action taken back.
TAKE_BACK_WHY = {
    "reopen": "the tournament is reopened",
    "unfinal": "the results are no longer final",
}

#: The director's fields typed in that a refusal shows again, in words.
TYPED_WORDS = {
    "cards": "the cards cut",
    "name": "the name of the player arriving",
    "reason": "the reason",
}


def _cut_cards(post) -> dict[str, list[str]] | None:
    """The cards the players actually cut, typed as "Ann: J♠, Bob: A♠ q♥, ..." (a player
    who tied and cut again names his cards in order; ruling T10); None when left blank,
    and the service draws them."""
    typed = post.get("cards", "").strip()
    if not typed:
        return None
    cards = {}
    for pair in typed.split(","):
        name, colon, card = pair.partition(":")
        if not colon or not name.strip() or not card.strip():
            raise UserError(
                f"Write each player's card as 'Ann: J♠' (or 'Ann: JS'), separated by commas; "
                f"{quoted(pair.strip())} is not.",
                field="cards",
                law="ruling T10",
            )
        # "Q♥", "q♥" and "qh" are the queen of hearts, as in the board's cut boxes (ruling T1).
        cards[name.strip()] = [card_typed(one) for one in card.split()]
    return cards


def _directed(request, pk: int, *, lock: bool = False) -> Tournament:
    tournaments = Tournament.objects.select_related("club").filter(
        pk=pk, club__in=clubs_directed_by(user=request.user)
    )
    tournament = (tournaments.select_for_update(of=("self",)) if lock else tournaments).first()
    if tournament is None:
        raise Http404("No such tournament.")
    return tournament


def _directed_club(request, slug: str) -> Club:
    club = clubs_directed_by(user=request.user).filter(slug=slug).first()
    if club is None:
        raise Http404("No such club.")
    return club


def _rounds(tournament: Tournament) -> list[dict]:
    seated = [rounds.round_as_dict(r) for r in tournament.rounds.order_by("number")]
    for played in seated:
        played["report"] = [
            {"guarantee": GUARANTEES.get(r["guarantee"], r["guarantee"]), "detail": r["detail"]}
            for r in played["relaxations"]
        ]
    return seated


def _phones(request, tournament: Tournament) -> list[dict]:
    """Each table's phone link (tournaments.table_links), for the director to hand out:
    its number, token, the link whole at an address phones open, and whether the latest
    round seats the table."""
    if tournament.kind != Tournament.Kind.PROGRESSIVE:
        return []
    latest = tournament.rounds.order_by("-number").first()
    seated = set(latest.tables.values_list("number", flat=True)) if latest else set()
    return [
        {
            "number": link.number,
            "token": link.token,
            "version": phone_link_version(link),  # sent back by its "fresh link" form
            "link": phone_links.phone_url(request, "tournament-phone", link.token),
            "in_play": link.number in seated,
        }
        for link in tournament.table_links.order_by("number")
    ]


def _context(request, tournament: Tournament, *, errors=None, notice=None) -> dict:
    next_round = _next_round_number(tournament)
    players = list(tournament.players.select_related("member").order_by("pk"))
    seated = _rounds_in(tournament)
    for entry in players:
        entry.playing = rounds.plays_in(entry, next_round)
        entry.sits_out_next = entry.playing and next_round in entry.bye_rounds
        # One who left and was entered again plays "from" his return: the rounds he was in
        # before it are said too, or the page (and its print) reads as if he missed them.
        entry.rounds_before = [
            n for n in seated.get(entry.member.name, []) if n < entry.joined_round
        ]
    precedence = precedence_of(tournament)
    offered = metric_choices(tournament)
    titles = dict(offered)  # of the metrics that can rank it
    counted = list(tournament.evenings.order_by("-date", "-id"))
    uncounted = tournament.club.evenings.exclude(pk__in=[e.pk for e in counted])
    if tournament.ruleset:  # a ladder of one rule set counts only its evenings (services)
        uncounted = uncounted.filter(ruleset=tournament.ruleset)
    uncounted = list(uncounted.order_by("-date", "-id"))
    for evening in [*counted, *uncounted]:
        evening.words = evening_words(evening)
    last = tournament.last_round
    round_left = not last or next_round <= last
    latest = tournament.rounds.order_by("-number").first()
    over = not round_left and table_links.tournament_over(tournament, latest)
    return {
        "tournament": tournament,
        "club": tournament.club,
        "progress": services.standings_progress(tournament_id=tournament.pk),
        "rounds": _rounds(tournament),
        "next_round": next_round,
        # With its planned rounds all seated, no round is left to seat, enter or excuse for.
        "round_left": round_left,
        # Played out: its results may be declared final (tournaments.rounds).
        "over": over,
        # No number of rounds planned, and its latest round played out: the director may end
        # it after that round (tournaments.rounds.tournament_end).
        "may_end": _may_end(tournament, latest),
        "latest_round": latest.number if latest else 0,
        "seat_by_cut": _seated_by_cut(tournament, next_round),
        "players": players,
        "standings": selectors.standings_published(tournament=tournament),
        "precedence": [(key, titles[key]) for key in precedence if key in titles],
        # The lists hold what can rank it; a saved metric that no longer can is said in
        # words (it decides no place, and the next save leaves it out), not a blank list.
        "precedence_rows": _precedence_rows([k for k in precedence if k in titles], len(offered)),
        "metrics": offered,
        "left_out": no_longer_ranks(tournament, tournament.precedence or []),
        "counted": counted,
        "uncounted": uncounted,
        "errors": errors or {},
        "notice": notice,
        "phones": _phones(request, tournament),
        "final_when": table_links.final_when(tournament) if tournament.results_final_at else "",
        # What the take-back forms send back, the ending and the declaration as shown.
        "ending_version": rounds.ending_version(tournament),
        "final_version": rounds.final_version(tournament),
        "reach": phone_links.board_reach(request),  # can phones open the links' codes?
    }


def _rounds_in(tournament: Tournament) -> dict[str, list[int]]:
    """The rounds each player was in, at a table or sitting out, by name, in order (a
    round's seating names its players: tournaments.movements)."""
    seen: dict[str, list[int]] = {}
    for number, seating in tournament.rounds.order_by("number").values_list("number", "seating"):
        names = [name for table in seating.get("tables", []) for name in table["seats"].values()]
        names += seating.get("byes", []) + seating.get("requested_byes", [])
        for name in dict.fromkeys(names):
            seen.setdefault(name, []).append(number)
    return seen


def _may_end(tournament: Tournament, latest) -> bool:
    """Whether the page offers "End the tournament after round N": a progressive not
    ended, whose latest round is not its planned last, and has every table's result."""
    return (
        tournament.kind == Tournament.Kind.PROGRESSIVE
        and not tournament.ended_after_round
        and latest is not None
        and (not tournament.rounds_planned or latest.number < tournament.rounds_planned)
        and not table_links.unfinished_tables(latest)
    )


def _next_round_number(tournament: Tournament) -> int:
    return (tournament.rounds.order_by("-number").values_list("number", flat=True).first() or 0) + 1


def _seated_by_cut(tournament: Tournament, number: int) -> bool:
    """Whether round `number` is seated by a cut, whose cards the director may type (ruling
    T10): every round of the cut movement, round 1 of the others (docs/movements.md); a
    round seated from the chart or the progression has no cards to enter."""
    return tournament.movement == "cut" or number == 1


def _precedence_rows(chosen: list[str], offered: int = len(METRICS)) -> list[str]:
    """One numbered list per metric offered, the chosen ones first in their order, then
    blanks."""
    return [*chosen, *[""] * (offered - len(chosen))]


@login_required
@never_cache  # its tables' phone links, bearer secrets (as an evening's board: club.views_board)
def director(request, pk: int):
    """A tournament as its director runs it."""
    return render(request, "tournaments/director.html", _context(request, _directed(request, pk)))


@login_required
def progress(request, pk: int):
    """The progress bar alone, for polling while a full recalculation runs."""
    tournament = _directed(request, pk)
    return render(
        request,
        "tournaments/_progress.html",
        {"tournament": tournament, "progress": services.standings_progress(tournament_id=pk)},
    )


#: What the page sends by number for each field a button posts, in words, for the refusal
#: of a number it never sends (a crafted post, a page from another tournament).
CHOSEN_WORDS = {
    "member": "The player is chosen from the tournament's list of players",
    "evening": "The evening is chosen from the club's list of evenings",
    "table": "The table is chosen from the tournament's tables by its number",
    "round": "The round to end the tournament after is the latest seated, by its number",
    "seating": "The round to seat is the next one, by its number",
}


def _chosen(request, name: str) -> int | None:
    """The number the page sends for `name`; anything else refused in words naming the
    field (CHOSEN_WORDS), never as a bare "give a whole number"."""
    try:
        return whole_number(request.POST, name)
    except UserError as exc:
        # The value quoted short (core.quoted): a value of 10,000 characters, quoted whole,
        # was cut by the page's own limit (ECHO_MAX) and took the words saying what to do.
        typed = quoted(str(request.POST.get(name, "")))
        raise UserError(
            f"{CHOSEN_WORDS[name]}, and {typed} is none of them: reload the page and choose again.",
            field=name,
        ) from exc


def _member_id(request) -> int:
    number = _chosen(request, "member")
    if number is None:
        raise UserError("Choose a player.", field="member")
    return number


def _evening_id(request) -> int:
    number = _chosen(request, "evening")
    if number is None:
        raise UserError("Choose an evening.", field="evening")
    return number


def _seen(request) -> str | None:
    """The version of the change being taken back as the page showed it (the ending's, the
    declaration's: `rounds.ending_version`, `rounds.final_version`), sent by its take-back
    forms: posted again from a page drawn before another ending or declaration, it is
    refused. None from a form that sends none (a page drawn before it was sent)."""
    if "version" not in request.POST:
        return None
    return request.POST.get("version", "")[:64]


def _do(request, tournament: Tournament, action: str) -> str | None:
    """Carry out one button of the director's page; return what to tell him."""
    if action == "recalculate":
        services.standings_request_full(tournament_id=tournament.pk)
        # No notice of its own: the progress part below the button says, live, that it is
        # asked for, running, then done (a notice "asked for" stayed on once it was done).
        return None
    if action == "seat":
        try:
            played = rounds.round_seat_next(
                tournament_id=tournament.pk,
                user=request.user,
                cards=_cut_cards(request.POST),
                # The round the page offered: pressed twice, the second finds it seated.
                seating=_chosen(request, "seating"),
            )
        except MovementError as exc:  # the movement's refusal, in its words
            raise UserError(str(exc), field="players") from exc
        return f"Round {played.number} is seated."
    if action == "enter":
        entry = rounds.tournament_enter(
            tournament=tournament,
            name=request.POST.get("name", ""),
            new_player=bool(request.POST.get("new_player")),
        )
        plays = f"{entry.member.name} plays from round {entry.plays_from}."
        if entry.entered_again:  # he left before; he plays again from the next round
            plays = f"{entry.member.name} is entered again and plays from round {entry.plays_from}."
        if entry.added_to_roster:
            return (
                f"{entry.member.name} is new to the club: added to its players as a guest. " + plays
            )
        return plays
    if action == "leave":
        entry = rounds.tournament_withdraw(tournament=tournament, member_id=_member_id(request))
        return (
            f"{entry.member.name} leaves: seated in no round from round {entry.left_round} on. "
            f"Enter {entry.member.name} again as arriving to play on from the next round seated."
        )
    if action == "bye":
        entry = rounds.tournament_bye(tournament=tournament, member_id=_member_id(request))
        return f"{entry.member.name} sits out round {entry.bye_rounds[-1]}."
    if action == "unbye":
        entry = rounds.tournament_bye_cancel(tournament=tournament, member_id=_member_id(request))
        return f"{entry.member.name} plays round {_next_round_number(tournament)} after all."
    if action == "precedence":
        services.tournament_update(tournament=tournament, precedence=precedence_from(request.POST))
        return "The standings are ranked anew by the metrics in this order."
    if action == "new_link":
        number = _chosen(request, "table")
        link = tournament.table_links.filter(number=number).first() if number else None
        if link is None:
            raise UserError("Choose one of the tournament's tables by its number.", field="table")
        table_links.table_link_renew(
            link_id=link.pk, user=request.user, seen=request.POST.get("link", "")[:64] or None
        )
        return (
            f"Table {link.number} has a fresh link: print its new card; the old one no longer "
            "works."
        )
    if action == "end":
        ended = rounds.tournament_end(
            tournament_id=tournament.pk, after_round=_chosen(request, "round")
        )
        number = ended.ended_after_round
        waiting = rounds.waiting_for_no_round(ended)
        return (
            f"The tournament is over after round {number}: no further round is seated, and the "
            f"tables' phones record nothing more. Each table of round {number} may still "
            "correct its last deal from its phone until you declare the results final (law 5, "
            "ruling E9)."
            + (
                f" Entered for round {number + 1}, which is not played: {', '.join(waiting)}."
                if waiting
                else ""
            )
        )
    if action == "final":
        rounds.tournament_results_final(tournament_id=tournament.pk)
        return (
            "The results are final: the tables' phones correct nothing more. A deal is "
            "corrected on its table's sheet, with a reason (ruling E9)."
        )
    if action == "reopen":
        rounds.tournament_reopen(
            tournament_id=tournament.pk, reason=request.POST.get("reason"), seen=_seen(request)
        )
        return (
            "The ending is taken back: the tournament goes on, its next round to be seated. "
            "The reason is kept in its history."
        )
    if action == "unfinal":
        rounds.tournament_results_final_undo(
            tournament_id=tournament.pk, reason=request.POST.get("reason"), seen=_seen(request)
        )
        return (
            "The results are no longer final: each table of the last round may again correct "
            "its last deal from its phone until you declare them final (law 5, ruling E9). "
            "The reason is kept in the tournament's history."
        )
    if action in ("attach", "detach"):
        if tournament.kind != Tournament.Kind.LADDER:
            raise UserError("Only a ladder counts whole evenings.", field="evening")
        evening_id = _evening_id(request)
        counted = set(tournament.evenings.values_list("pk", flat=True))
        if action == "detach" and evening_id not in counted:
            raise UserError("That evening is not counted in this ladder.", field="evening")
        if action == "attach" and evening_id in counted:
            raise UserError("That evening is counted already.", field="evening")
        wanted = counted - {evening_id} if action == "detach" else counted | {evening_id}
        services.tournament_update(tournament=tournament, evening_ids=sorted(wanted))
        return (
            "The evening is counted." if action == "attach" else "The evening is no longer counted."
        )
    raise UserError("Unknown button.", field="action")


@login_required
@require_POST
@never_cache  # the director's page again, its tables' links in it
def act(request, pk: int):
    """The director's buttons: recalculate, seat the next round, a player's arrival,
    departure or bye (and the bye taken back), end a progressive with no planned number of
    rounds (asked again first), declare its results final, take either back (with a reason,
    asked again first), the metrics' order, and a ladder's evenings."""
    action = request.POST.get("action", "")
    errors, notice, typed, ask_end, ask_back = {}, None, None, False, ""
    # Counted as the board's posts are (THROTTLE_USER, per account, in the API's windows):
    # a script entering players by the thousand (each new name a guest on the roster) or
    # pressing any button is refused past the rate, nothing done.
    wait = api_rate_wait(request, act)
    if wait is not None:
        tournament = _directed(request, pk)
        context = _context(
            request, tournament, errors={"action": account_wait(wait, "Nothing was changed.")}
        )
        context["typed"] = typed_in(request.POST, TYPED_WORDS).values
        if request.headers.get("HX-Request"):
            return live_refusal(render(request, "tournaments/_director.html", context), wait)
        response = render(request, "tournaments/director.html", context, status=429)
        response["Retry-After"] = str(wait)
        return response
    try:
        with transaction.atomic():
            # One director's change at a time (the evenings' list is read, then written).
            tournament = _directed(request, pk, lock=True)
            if action == "end" and not request.POST.get("confirm"):
                # Ending is not undone: the first tap asks (refused now if it would be then).
                rounds.tournament_end_refusal(tournament, after_round=_chosen(request, "round"))
                ask_end = True
            elif action in TAKEN_BACK and not request.POST.get("confirm"):
                # Taking back is asked again too, its reason given first (refused now if it
                # would be then: nothing written).
                TAKEN_BACK[action](tournament, seen=_seen(request))
                rounds.taken_back_reason(
                    request.POST.get("reason"), field=action, what=TAKE_BACK_WHY[action]
                )
                ask_back = action
                typed = typed_in(request.POST, TYPED_WORDS)
            else:
                notice = _do(request, tournament, action)
    except UserError as exc:
        tournament = _directed(request, pk)
        # A refused form comes back as it was typed, each field cut to ECHO_MAX characters.
        typed = typed_in(request.POST, TYPED_WORDS)
        shown = action if action in ACTIONS[tournament.kind] else "action"
        errors[shown] = refusal(exc, note=typed.note)["message"]
    else:
        tournament.refresh_from_db()
    context = _context(request, tournament, errors=errors, notice=notice)
    context["ask_end"] = ask_end and not errors
    context["ask_back"] = "" if errors else ask_back
    if typed is not None:
        context["typed"] = typed.values
    if request.headers.get("HX-Request"):
        # Morphed in (static/js/live.js): fields typed in other forms keep their text.
        return live_board(render(request, "tournaments/_director.html", context), done=not errors)
    return render(request, "tournaments/director.html", context, status=400 if errors else 200)


def _table_link(request, tournament: Tournament, number: int) -> str:
    link = get_object_or_404(TournamentTable, tournament=tournament, number=number)
    return phone_links.phone_url(request, "tournament-phone", link.token)


@login_required
@require_GET
@never_cache  # the table's link
def table_qr(request, pk: int, number: int):
    """The QR code of a progressive's table's phone link, as SVG, to print or show."""
    link = _table_link(request, _directed(request, pk), number)
    buffer = io.BytesIO()
    segno.make(link, error="m").save(buffer, kind="svg", scale=5, border=2)
    return HttpResponse(buffer.getvalue(), content_type="image/svg+xml")


#: The cards' last line: a progressive's card stays on its table, and its phone corrects
#: the last hand as an evening's does (tournaments.table_links).
STAYS = (
    "The card stays on this table when the players move. A slip? Correct it before the "
    "next hand is recorded."
)


@login_required
@require_GET
@never_cache  # every table's link
def table_cards(request, pk: int):
    """A progressive's table cards, to print: one a table the rounds have seated, for the
    whole tournament (tournaments.table_links), two or four to an A4 page."""
    tournament = _directed(request, pk)
    size = cards_per_page(request)
    if isinstance(size, HttpResponseBadRequest):
        return size
    cards = [
        {"number": phone["number"], "link": phone["link"], "qr": phone_links.qr_svg(phone["link"])}
        for phone in _phones(request, tournament)
    ]
    game = HOW_TO.get(tournament.ruleset, HOW_TO_ANY)
    latest = tournament.rounds.order_by("-number").first()
    return render(
        request,
        "tournaments/table_cards.html",
        {
            "tournament": tournament,
            "club": tournament.club,
            "how_to": [SCAN, game[1], STAYS],
            "per_page": size,
            "per_page_words": PER_PAGE_WORDS,
            "choices": PER_PAGE,
            "sheets": [cards[i : i + size] for i in range(0, len(cards), size)],
            "reach": phone_links.board_reach(request),
            "over": table_links.tournament_over(tournament, latest),
        },
    )


@login_required
def tournament_new(request, slug: str):
    """A new ladder or progressive tournament for one of the director's clubs. Its posts
    are counted as the board's and the director's buttons are (THROTTLE_USER, per account,
    in the API's windows): past the rate (a script making tournaments by the thousand) the
    form comes back as typed, 429 with Retry-After and the wait in words, nothing made."""
    wait = api_rate_wait(request, tournament_new) if request.method == "POST" else None
    club = _directed_club(request, slug)
    if request.method == "POST":
        data = request.POST.copy()
        data.setlist("precedence", precedence_from(request.POST))
        form = TournamentForm(data, club=club)
        status = 400
        if wait is not None:
            # Checked as any post is, so what is shown again is cut as a refusal's is
            # (core.echo.CutWhenRefused); the wait is said first, above the form.
            form.is_valid()
            form.add_error(None, account_wait(wait, "No tournament was created."))
            status = 429
        elif form.is_valid():
            values = form.cleaned_data
            try:
                tournament = services.tournament_create(
                    club=club,
                    name=values["name"],
                    slug=values["slug"],
                    kind=values["kind"],
                    ruleset=values["ruleset"],
                    is_public=values["is_public"],
                    precedence=values["precedence"],
                    evening_ids=[e.pk for e in values["evenings"]] or None,
                    movement=values["movement"],
                    rounds_planned=values["rounds_planned"],
                    deals_per_round=values["deals_per_round"],
                    stake=values["stake"],
                )
            except UserError as exc:
                form.add_error(exc.field if exc.field in form.fields else None, capped(exc.message))
            else:
                return redirect("tournament-director", pk=tournament.pk)
        chosen = precedence_from(request.POST)
    else:
        form = TournamentForm(club=club, initial={"kind": Tournament.Kind.LADDER})
        # Blank: the tournament's kind chooses (its help text says how; metrics.default_precedence).
        chosen, status = [], 200
    response = render(
        request,
        "tournaments/new.html",
        {
            "club": club,
            "form": form,
            "metrics": metric_choices(),
            "precedence_rows": _precedence_rows(chosen),
            # Each field refused, by its label, in the form's order: named at the top.
            "refused": [(f.name, f.label) for f in form if f.errors],
        },
        status=status,
    )
    if status == 429:
        response["Retry-After"] = str(wait)
    return response
