"""The secretary's live board for an evening, and the phone page of each table.

The board is one page that polls its own fragment every 1.5 seconds with the
evening's version as ETag (304 while nothing changed), so two secretaries, or a
secretary and a table, see each other's actions without reloading. Every button
posts an action (an event of the evening's log) with the version the page showed:
if someone else acted first, the action is refused with a conflict and the board
shows the evening as it now is.
"""

import functools
import io

import segno
from django.contrib.auth.decorators import login_required
from django.db.models import OuterRef, Subquery
from django.http import Http404, HttpResponse, HttpResponseNotModified
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.http import quote_etag
from django.views.decorators.cache import cache_control, never_cache
from django.views.decorators.http import require_GET, require_POST
from rest_framework.permissions import SAFE_METHODS

from club import closing, confirmations, evenings, phone, phone_links, recording, services
from club.board_refusals import board_refusal, table_words
from club.evening_undo import evening_undo, logged_action
from club.formation import FormationError
from club.formation.cards import card_typed
from club.history import describe, evening_history
from club.models import Evening, Table
from club.selectors import TableLinkDead, clubs_managed_by, table_by_link
from club.selectors_room import rubber_score
from club.views_phone_worker import keep_copy
from config.api import UserError
from config.ratelimit import account_wait, api_rate_wait, too_many
from core.inputs import whole_number
from core.text import clean_name
from scoring.hand_input import hand_input
from scoring.models import Rubber
from scoring.rules import ScoringError, get_ruleset
from scoring.rules.games import get_game
from scoring.selectors import rubber_scoresheet

USER_ERRORS = (UserError, FormationError, ScoringError)


#: When the newest of an evening's tables' phone links was issued, as a subquery.
_newest_link = Subquery(
    Table.objects.filter(evening=OuterRef("pk"))
    .order_by("-link_issued_at")
    .values("link_issued_at")[:1]
)


def _managed_evening(request, pk: int) -> Evening:
    evening = (
        Evening.objects.select_related("club")
        .filter(pk=pk, club__in=clubs_managed_by(user=request.user))
        # In the same query: when its tables' newest link was issued, for the ETag (`_etag`).
        .annotate(links_issued=_newest_link)
        .first()
    )
    if evening is None:
        raise Http404("No such evening.")
    return evening


def _etag(evening: Evening, links_issued) -> str:
    """The board's version for its poll: the evening's, its status, the hands' answers (a
    hand confirmed or disputed moves no version on: club/confirmations.py) and when its
    tables' newest link was issued (`links_issued`): a fresh link is no event of the
    evening's log and moves no version on, yet every board showing the evening must show
    the new link and code at its next poll, not the dead card's (a second device, the
    secretary's phone beside the laptop). A renewal issues the newest link of the evening,
    so its moment changes the ETag; read in the query that finds the evening
    (`_managed_evening`), it costs the poll no query."""
    answers = confirmations.marker(club=evening.club, evening=evening)
    links = f"-l{links_issued.timestamp():.6f}" if links_issued else ""
    return quote_etag(f"evening-{evening.pk}-{evening.version}-{evening.status}{answers}{links}")


def board_context(evening: Evening, *, error=None, notice=None) -> dict:
    """Everything the board shows: the evening as the laws see it, and each table's rubber."""
    summary = evenings.evening_summary(evening=evening)
    tables = {t.number: t for t in evening.tables.all()}
    current = {
        r.table.number: r
        # A rubber at no table (started by the API before it refused to) is not a table's.
        for r in Rubber.objects.filter(
            evening=evening, status=Rubber.Status.IN_PROGRESS, table__isnull=False
        )
        .select_related("table")
        .order_by("pk")
    }
    # A rubber's number is its place among its table's rubbers, as the log, the sittings
    # list and the closing dialog name it: a Call-Ace sitting ended by a player leaving or
    # joining (law 1, ruling C5) is no rubber of the laws of forming tables, so the
    # table's count of rubbers played would call the third sitting the first.
    ordinals = {rubber["id"]: rubber["ordinal"] for rubber in summary["rubbers"]}
    for table in summary["tables"]:
        # Who sits in each place: a substitute in the absent player's (law 18, ruling T6);
        # the others' consent is asked of whoever sits there now.
        subs = table.get("substitutes") or {}
        table["occupants"] = [subs.get(player, player) for player in table["playing"]]
        if table.get("seats"):
            table["seated"] = {
                seat: f"{subs[player]} for {player}" if player in subs else player
                for seat, player in table["seats"].items()
            }
        row = tables.get(table["number"])
        table["token"] = row.token if row else None
        # The link's version, sent back by its "fresh link" form (a second post renews once).
        table["link_version"] = services.phone_link_version(row) if row else None
        rubber = current.get(table["number"])
        table["rubber"] = (
            {
                "id": rubber.pk,
                "number": ordinals[rubber.pk],
                "hands": rubber.hand_count,
                # In words, as the room display says it: each side's games won and its
                # points in the game in play; a Call-Ace player's points (ruling C5).
                "score": rubber_score(rubber),
            }
            if rubber
            else None
        )
    # A rubber abandoned when the evening closed, with its reason; any other abandoned
    # rubber was its table's when it broke up (law 21).
    reasons = closing.abandon_reasons(evening=evening)
    for rubber in summary["rubbers"]:
        rubber["closed_why"] = reasons.get(rubber["id"], "")
    _cut_entries(summary["required"], error)
    return {
        "evening": evening,
        "club": evening.club,
        "summary": summary,
        "unfinished": _unfinished(evening, error),
        # The links as this board shows them (its tables read just above).
        "etag": _etag(evening, max((t.link_issued_at for t in tables.values()), default=None)),
        "error": error,
        "notice": notice,
        "rules": get_ruleset(evening.ruleset),
        "game": get_game(evening.ruleset),  # what a rubber and a hand are called (C5)
        "disputes": confirmations.disputes_of_evening(evening=evening),
        "history": evening_history(evening=evening),
    }


def _unfinished(evening: Evening, error: dict | None) -> list[dict]:
    """The rubbers still in play, for the closing dialog; the one whose answer was refused
    is marked (its field ``reason-<id>``)."""
    if evening.status != "open":
        return []
    field = (error or {}).get("field") or ""
    return [
        {**rubber, "bad_reason": field == f"reason-{rubber['id']}"}
        for rubber in closing.unfinished_rubbers(evening=evening)
    ]


def _cut_entries(required: list[dict], error: dict | None) -> None:
    """Each cut's form rows: a refused cut keeps every card typed, and marks the one at
    fault (its field is ``cards.<player>`` or ``exposed.<player>``) rather than clearing
    them all."""
    typed = (error or {}).get("typed") or {}
    field = (error or {}).get("field") or ""
    # A cut refused for several cards at once (a bad one, others blank) marks each of them.
    bad = {field, *((error or {}).get("fields") or {})}
    for item in required:
        if item["kind"] != "cut":
            continue
        item["entries"] = [
            {
                "player": player,
                "card": typed.get("cards", {}).get(player, ""),
                "exposed": typed.get("exposed", {}).get(player, ""),
                "bad_card": f"cards.{player}" in bad,
                "bad_exposed": field.startswith(f"exposed.{player}"),
            }
            for player in item["players"]
        ]


def _typed_cut(post) -> dict:
    """The cards (and exposed cards) as typed on the cut form, to show again if refused."""
    return {
        kind: {
            key[len(prefix) :]: value.strip()[:40]
            for key, value in post.items()
            if key.startswith(prefix) and value.strip()
        }
        for kind, prefix in (("cards", "card-"), ("exposed", "exposed-"))
    }


def _close_answers(evening: Evening, post) -> list[dict]:
    """The closing dialog's answers: for each rubber still in play, what happened to it."""
    answers = []
    for rubber in closing.unfinished_rubbers(evening=evening):
        outcome = post.get(f"outcome-{rubber['id']}", "")
        kind = "sitting" if rubber["sitting"] else "rubber"
        if outcome not in {"", "finished", "abandoned"}:
            # Only a crafted or stale post: the dialog's two choices send one or the other.
            raise UserError(
                f"Table {rubber['table']}'s {kind} {rubber['rubber']} ({rubber['players']}): "
                "choose what happened to it, finished as played or abandoned with the "
                "reason beside it (law 21).",
                field=f"outcome-{rubber['id']}",
                law="law 21",
            )
        if outcome == "abandoned" and not post.get(f"reason-{rubber['id']}", "").strip():
            raise UserError(
                f"Table {rubber['table']}'s {kind} {rubber['rubber']} ({rubber['players']}) "
                "was abandoned: say why, in the box beside it.",
                field=f"reason-{rubber['id']}",
                law="law 21",
            )
        if outcome:
            answers.append(
                {
                    "table": rubber["table"],
                    "rubber": rubber["rubber"],
                    "outcome": outcome,
                    "reason": post.get(f"reason-{rubber['id']}", ""),
                }
            )
    return answers


# The board, its live part, the table cards and the QR codes show every table's phone
# link, a bearer secret: never kept in a cache, so that on a shared laptop the Back
# button after logging out (a browser's back-forward or HTTP cache) cannot show them.
@login_required
@never_cache
def board(request, pk: int):
    """The secretary's board for one evening."""
    evening = _managed_evening(request, pk)
    context = board_context(evening)
    context["reach"] = phone_links.board_reach(request)  # can phones open the QR codes?
    # The printed board's note names the evening's sheet at the service's public address
    # (PUBLIC_BASE_URL when set, as the cards and codes do), not the address this
    # board was opened at, which behind a proxy may be an internal one.
    context["public_base"] = phone_links.phone_base_url(request)
    return render(request, "club/board.html", context)


@login_required
@require_GET
@cache_control(no_cache=True, no_store=True, private=True)  # the tables' links (see `board`)
def board_fragment(request, pk: int):
    """The board's live part, for polling: 304 while the evening is unchanged."""
    evening = _managed_evening(request, pk)
    etag = _etag(evening, evening.links_issued)
    if request.headers.get("If-None-Match") == etag:
        response = HttpResponseNotModified()
        response["ETag"] = etag
        return response
    response = render(request, "club/_board.html", board_context(evening))
    response["ETag"] = etag
    return response


def _event_from_form(post) -> dict:
    """Turn a board form into an event of the log (docs/evening-log.md)."""
    kind = post.get("type", "")
    event: dict = {"type": kind}
    for field in ("player", "substitute", "broken_by"):
        if post.get(field):
            event[field] = post[field].strip()
    if post.get("table") == "new" and kind == "change_table":
        event["table"] = "new"  # ruling T8: a fresh table (Bridge)
        if post.get("will_return"):
            event["will_return"] = True  # he says that he will return (ruling T8)
    elif post.get("table") and kind not in {"depart", "withdraw", "cut"}:
        # The candidates' form sends its table (chosen for him when there is one) whatever
        # the action: leaving the room and withdrawing a claim name none. A cut's form sends
        # its table only for a refusal to name it (club.board_refusals): the cut is named by
        # its cut_id.
        event["table"] = whole_number(post, "table")
    if kind == "arrive" and post.get("new_player"):
        event["new_player"] = True  # confirmed: not the member whose name looks like it
    if kind == "substitute":
        if not event.get("substitute"):
            raise UserError(
                "Write the name of the player who sits in for the absent one (law 18).",
                field="substitute",
            )
        # His own box is hidden once he is chosen as the absent one (_board.html), but may
        # have been ticked before: only the other three consent (law 18), so it is dropped.
        event["consent"] = [name for name in post.getlist("consent") if name != event.get("player")]
    if kind == "dealer_choice":
        # Ruling T12: the dealer's choice of seat, and of cards and counters if said.
        for field in ("seat", "cards", "counters"):
            if post.get(field, "").strip():
                event[field] = post[field].strip()
    if kind in {"cut", "deal_jack"}:
        if post.get("draw"):
            event["draw"] = True
            if kind == "cut" and post.get("cut_id"):
                event["cut_id"] = post["cut_id"]  # the cut whose button was pressed
        elif kind == "cut":
            # "Q♥", "q♥" and "qh" are the queen of hearts: the log keeps "QH" (cards.py).
            event["cards"] = {
                key[len("card-") :]: card_typed(value)
                for key, value in post.items()
                if key.startswith("card-") and value.strip()
            }
            # Ruling T12: a player who exposed more than one card cut again; the cards he
            # exposed, "JH JD", are recorded with the cut.
            exposed = {
                key[len("exposed-") :]: [card_typed(c) for c in value.replace(",", " ").split()]
                for key, value in post.items()
                if key.startswith("exposed-") and value.strip()
            }
            if exposed:
                event["exposed"] = exposed
            if not event["cards"]:
                raise UserError(
                    "No card was written: write the card each player cut, rank then suit "
                    '(e.g. J♠ or JS, 10♥ or 10H), or press "Draw for them" (ruling T10).',
                    field="cards",
                )
        else:  # the cards thrown round in order: "Ann 9S, Bob JD"
            throws = [part.split() for part in post.get("throws", "").split(",") if part.strip()]
            if not throws:
                raise UserError(
                    'No card was written: write the cards thrown round, in order, as "Ann 9♠, '
                    'Bob J♦", or press "Throw for them" (law 1).',
                    field="throws",
                )
            if any(len(throw) != 2 for throw in throws):
                raise UserError(
                    "Write the throws in order, each a name then a card (9♠ or 9S), as "
                    '"Ann 9♠, Bob J♦".',
                    field="throws",
                )
            event["cards"] = [[name, card_typed(card)] for name, card in throws]
    return event


def _table_number(evening: Evening, post) -> int:
    number = whole_number(post, "table")
    if number is None:
        raise UserError(table_words(evening, post), field="table")
    return number


def _board_table(evening: Evening, post) -> Table:
    table = evening.tables.filter(number=_table_number(evening, post)).first()
    if table is None:
        raise UserError(table_words(evening, post), field="table")
    return table


def board_throttled(view):
    """A board's post (a button, the settle form) counted as the API's requests are
    (config.ratelimit.api_rate_wait: per account, THROTTLE_USER, in the same windows as
    the secretary's API calls and a table's phone's posts): a stuck key or a script
    posting thousands is refused past the rate with 429 and Retry-After, nothing done,
    the board shown with the refusal in words and the forms as typed (static/js/live.js
    swaps a board's 429 in, marked X-Live-Refusal). Reading the board is not counted."""

    @functools.wraps(view)
    def wrapped(request, pk: int, *args, **kwargs):
        wait = api_rate_wait(request, view)
        if wait is None:
            return view(request, pk, *args, **kwargs)
        evening = _managed_evening(request, pk)
        error = {
            "message": account_wait(wait),
            "field": None,
            "law": None,
            "label": None,
        }
        response = render(request, "club/_board.html", board_context(evening, error=error))
        return live_refusal(response, wait)

    return wrapped


def live_refusal(response: HttpResponse, wait: int) -> HttpResponse:
    """A live page's answer to a post refused past its rate (a board's, a director's):
    429 with Retry-After, swapped in all the same (static/js/live.js reads X-Live-Refusal)
    with the forms as typed."""
    response.status_code = 429
    response["Retry-After"] = str(wait)
    response["X-Live-Refusal"] = "1"
    return live_board(response, done=False)


@login_required
@require_POST
@board_throttled
@never_cache  # the board again, with the tables' links (see `board`)
def board_action(request, pk: int):
    """Carry out one button of the board, then show the board as it now is."""
    evening = _managed_evening(request, pk)
    error = notice = None
    kind = request.POST.get("type", "")
    try:
        expected = whole_number(request.POST, "version")
        if kind == "close":
            evenings.evening_close(
                evening_id=evening.pk,
                user=request.user,
                expected_version=expected,
                rubbers=_close_answers(evening, request.POST),
            )
        elif kind == "reopen":
            evenings.evening_reopen(
                evening_id=evening.pk,
                reason=request.POST.get("reason", ""),
                user=request.user,
                expected_version=expected,
            )
        elif kind == "new_link":
            table = _board_table(evening, request.POST)
            # The link as the board showed it, not the evening's version: a hand recorded
            # at another table leaves this table's card as it was.
            services.table_renew_link(
                table_id=table.pk, user=request.user, seen=request.POST.get("link", "")[:64] or None
            )
            notice = [
                f"Table {table.number} has a fresh link: print its new QR code; "
                "the old card no longer works."
            ]
        elif kind == "undo":
            logged = evening_undo(
                evening_id=evening.pk,
                user=request.user,
                reason=request.POST.get("reason", ""),
                expected_version=expected,
            )
            notice = [f"Undone: {describe(logged_action(logged), game=get_game(evening.ruleset))}."]
        elif kind == "close_sitting":
            evenings.evening_close_sitting(
                evening_id=evening.pk,
                table_number=_table_number(evening, request.POST),
                user=request.user,
                expected_version=expected,
            )
        else:
            logged = evenings.evening_act(
                evening_id=evening.pk,
                event=_event_from_form(request.POST),
                user=request.user,
                expected_version=expected,
            )
            # Each decision's text names its law already ("ruling T2: Ann arrives ...").
            notice = [d["text"] for d in logged.decisions]
    except USER_ERRORS as exc:
        evening.refresh_from_db()  # as the refusal finds it: what moved it on, its tables
        error = board_refusal(exc, evening=evening, post=request.POST, user=request.user)
        if kind == "cut" and not request.POST.get("draw"):
            error["typed"] = _typed_cut(request.POST)
            error["fields"] = getattr(exc, "fields", None) or {}
        if kind == "close":
            error["closing"] = True
        if getattr(exc, "code", None) == "near_duplicate":
            # The arrivals form asks again, the name kept (it was clean and short enough),
            # with the box that says it is a new player.
            error["arrival"] = clean_name(
                request.POST.get("player", ""), field="player", label=evenings.EVENT_WORDS["player"]
            )
            error["member"] = exc.details.get("member")
    evening.refresh_from_db()
    response = render(
        request, "club/_board.html", board_context(evening, error=error, notice=notice)
    )
    return live_board(response, done=error is None)


def live_board(response: HttpResponse, *, done: bool) -> HttpResponse:
    """The board a button answered, morphed in rather than replacing the page's (idiomorph,
    static/js/live.js): fields typed in elsewhere keep their text and focus. A form that
    was carried out is marked done, and the page clears its fields; a refused one keeps
    what was typed, to be put right."""
    response["HX-Reswap"] = "morph"
    if done:
        response["X-Live-Done"] = "1"
    return response


@login_required
@never_cache  # the table's link (see `board`)
def table_qr(request, pk: int, number: int):
    """The QR code of a table's phone link, as SVG, to print or show on the board."""
    evening = _managed_evening(request, pk)
    table = get_object_or_404(Table, evening=evening, number=number)
    link = phone_links.table_link(request, table)  # an address phones reach
    buffer = io.BytesIO()
    segno.make(link, error="m").save(buffer, kind="svg", scale=5, border=2)
    return HttpResponse(buffer.getvalue(), content_type="image/svg+xml")


@login_required
def evening_sheet(request, pk: int):
    """A printable evening sheet: tables, rubbers, every hand, and the ledger."""
    evening = _managed_evening(request, pk)
    from club.exports import sheet_rubbers

    summary = evenings.evening_summary(evening=evening)
    game = get_game(evening.ruleset)
    for table in summary["tables"]:
        # An abandoned rubber (law 21, closing) settles nothing and is no rubber played:
        # the sheet says so beside the count, which read "0 rubbers played" alone.
        table["abandoned"] = sum(
            1
            for rubber in summary["rubbers"]
            if rubber["table"] == table["number"] and rubber["status"] == Rubber.Status.ABANDONED
        )
        # A Call-Ace sitting is no rubber of the laws of forming tables: it is counted from
        # the sittings ended at the table (ruling C5).
        table["played"] = (
            table["rubbers_played"]
            if game.partnership
            else sum(
                1
                for rubber in summary["rubbers"]
                if rubber["table"] == table["number"] and rubber["status"] == Rubber.Status.COMPLETE
            )
        )
    return render(
        request,
        "club/evening_sheet.html",
        {
            "evening": evening,
            "club": evening.club,
            "summary": summary,
            "rubbers": sheet_rubbers(evening=evening),
            "game": game,
            "closed": evening.status == Evening.Status.CLOSED,
        },
    )


# --- the phone at the table ---------------------------------------------------------------


def _table(token: str) -> Table:
    """The table a live link opens (club.selectors.table_by_link, as for the API); a dead
    link's TableLinkDead is answered by `phone_link`, a token that never was one is 404."""
    try:
        return table_by_link(token=token)
    except TableLinkDead as exc:
        if exc.code == "unknown_link":
            raise Http404("No such table.") from exc
        raise


def _dead_link(request, refusal: TableLinkDead) -> HttpResponse:
    """A dead link's page: why it no longer works, and whom to ask (403 on every route
    under /t/<token>/). A polling phone reloads the whole page to show it."""
    response = render(
        request,
        "club/table_dead.html",
        {"reason": refusal.reason, "ask": refusal.ask, "results_url": refusal.results_url},
        status=403,
    )
    if request.headers.get("HX-Request"):
        response["HX-Refresh"] = "true"
    return response


def _too_many_posts(request, back: str, wait: int) -> HttpResponse:
    """Too many posts from the table's phone: nothing was done. 429 with Retry-After, which
    the Idempotency-Key's record does not keep and on which the phone's queue keeps the hand
    and sends it again once the wait is over (static/js/phone-queue.js)."""
    seconds = f"{wait} second{'s' if wait != 1 else ''}"
    return too_many(
        request,
        f"Too many requests from this table; wait {seconds} and try again.",
        wait,
        heading="Too many requests",
        back=back,
        back_text="Back to the table's page",
    )


def phone_link(view, *, page: str = "table-phone"):
    """Every page under a table's link (/t/<token>/; a progressive's table's, /p/<token>/,
    its `page` the link's own) opens only with a live link, and its posts (a hand, a
    correction, the other side's answer) are counted as the API's requests are, in the
    same windows (config.ratelimit.api_rate_wait: per address, or per account when logged
    in): past the rate, 429. Reading the page and its polls is not counted."""

    @functools.wraps(view)
    def wrapped(request, token: str, *args, **kwargs):
        if request.method not in SAFE_METHODS:  # a read changes nothing: never counted
            wait = api_rate_wait(request, view)
            if wait is not None:
                return _too_many_posts(request, reverse(page, args=[token]), wait)
        try:
            response = view(request, token, *args, **kwargs)
        except TableLinkDead as exc:
            response = _dead_link(request, exc)
        # One address, two answers: the whole page, and its live part to the phone's poll
        # and queue (HX-Request, with an ETag). Said in Vary, or a cache (the browser's Back
        # button, a proxy) served the part, a bare fragment, for the page; and private: a
        # page of a table's link is its bearer secret's (tests/test_attack2_caches.py).
        patch_vary_headers(response, ["HX-Request"])
        patch_cache_control(response, private=True, no_cache=True)
        return response

    return wrapped


def table_context(
    table: Table, *, error=None, notice=None, entered=None, correcting=None, taking_back=None
) -> dict:
    """The phone page: the table's seats and dealer, the entry form for the next hand,
    the last hand with its correction form (the entry form, prefilled) and its take-back
    (or why a finished rubber's is not taken back, law 15), and the sheet. `entered` holds
    a refused form's values to show again (`correcting` the hand it was correcting,
    `taking_back` the hand it was taking back, or neither for a new hand)."""
    from scoring.views import scoresheet_display

    rubber = Rubber.objects.filter(table=table).order_by("-pk").first()
    if rubber is not None:
        rubber.table = table
    scoresheet = None
    if rubber is not None:  # its hands with the other side's word, where the club asks
        scoresheet = confirmations.with_confirmations(
            rubber_scoresheet(rubber=rubber), rubber=rubber, club=table.club
        )
    hands = phone.rubber_hands(scoresheet)
    finished = rubber is not None and rubber.is_complete
    # A finished rubber's table: whether it has cut in and out since (law 15), read once
    # (a replay of the evening) for the page's words and the take-back's refusal.
    cut_since = finished and rubber.rules.partnership and recording.table_cut_since(rubber)
    return {
        "table": table,
        "evening": table.evening,
        "rules": get_ruleset(table.evening.ruleset),
        "rubber": rubber,
        "sheet": scoresheet_display(scoresheet) if scoresheet else None,
        "waiting": confirmations.waiting_at_table(table=table, rubber=rubber),
        "players": rubber.players if rubber and isinstance(rubber.players, list) else [],
        "error": error,
        "notice": notice,
        **phone.table_seats(table=table, rubber=rubber, hands=hands),
        **phone.words(table=table, rubber=rubber),
        "next_number": phone.next_hand_number(rubber),
        "record_url": reverse("table-record", args=[table.token]),
        **phone.hand_forms(
            rubber,
            hands,
            error=error,
            entered=entered,
            correcting=correcting,
            taking_back=taking_back,
        ),
        "no_take_back": (
            recording.finished_keeps_hands(rubber, cut_since=cut_since).message if finished else ""
        ),
        "cut_since": cut_since,
        "etag": quote_etag(
            f"table-{table.pk}-{table.evening.version}"
            + confirmations.marker(club=table.club, evening=table.evening, rubber=rubber)
        ),
    }


@phone_link
def table_phone(request, token: str):
    """The page a player at the table uses to record and correct that table's hands."""
    table = _table(token)
    if request.headers.get("HX-Request") and request.method == "GET":
        context = table_context(table)
        if request.headers.get("If-None-Match") == context["etag"]:
            return HttpResponseNotModified()
        response = render(request, "club/_table.html", context)
        response["ETag"] = context["etag"]
        return response
    return keep_copy(request, render(request, "club/table.html", table_context(table)))


@require_POST
@phone_link
def table_record(request, token: str):
    """Record a hand from the table's phone, or correct or take back its last.

    The phone sends `expected_number`, the number it means the new hand to have: a second
    phone (or tap) sending the same number gets 409 and the page says which hand is
    already recorded. A take-back (`take_back`, the hand's number, and when it was
    recorded, `recorded_at`) takes the last hand off the sheet (law 5, ruling E9;
    `club.recording.hand_remove`): one no longer the last (another phone recorded after
    it, or took it back already) is refused with 409 in words, nothing taken off. A
    refused form comes back filled as it was sent. A lock not granted in time answers 409
    with Retry-After, not kept by the Idempotency-Key, so the phone's queue sends it
    again. A refusal answers 400 (409 for a conflict), as the API's and the progressive's
    table's phone's do, the form as it was typed and the refusal naming its field in
    words (club.phone.refused_form). The phone's queue (an htmx request) gets the live
    part; a form posted without JavaScript, the whole page (`phone_answer`)."""
    table = _table(token)
    error = notice = typed = None
    status = 200
    correct = retry_after = taking_back = None
    stale = False  # a change to a rubber the table has moved on from
    names = phone.words(table=table, rubber=None)
    try:
        # The rule set's input object turns the form into the API's hand; the service
        # validates it by the same laws as a hand posted to the API.
        phone.check_once(request.POST, ruleset=table.evening.ruleset)
        correct = whole_number(request.POST, "correct")
        taking_back = whole_number(request.POST, "take_back")
        take_back = phone.take_back_form(request.POST, ruleset=table.evening.ruleset)
        if take_back is not None:
            rubber, stale = _rubber_changed(table, request.POST)
            recording.hand_remove(
                evening_id=table.evening_id,
                table_number=table.number,
                rubber_id=rubber.pk,
                number=take_back.number,
                reason=take_back.reason,
                table=table,
                recorded_at=take_back.recorded_at,
            )
            recorded = None
        elif correct is not None:
            hand = hand_input(table.evening.ruleset).from_form(request.POST)
            rubber, stale = _rubber_changed(table, request.POST)
            recorded = recording.hand_correct(
                evening_id=table.evening_id,
                table_number=table.number,
                rubber_id=rubber.pk,
                number=correct,
                data=hand,
                table=table,
                changed_at=phone.correction_seen(
                    request.POST, ruleset=table.evening.ruleset, number=correct
                ),
            )
        else:
            hand = hand_input(table.evening.ruleset).from_form(request.POST)
            recorded = recording.hand_record(
                evening_id=table.evening_id,
                table_number=table.number,
                data=hand,
                table=table,
                expected_number=whole_number(request.POST, "expected_number"),
                # A hand queued for a rubber since won is refused under the rubber's lock.
                meant_rubber=whole_number(request.POST, "rubber"),
            )
        notice = phone.done_words(
            label=names["hand_label"], hand=recorded, correcting=correct, taking_back=taking_back
        )
    except USER_ERRORS as exc:
        # A refused form comes back as it was sent (each field cut to ECHO_MAX characters);
        # not a stale rubber's change, which would be offered as one of the present
        # rubber's hand of that number.
        refused = phone.refused_form(
            exc, request.POST, ruleset=table.evening.ruleset, echo=not stale
        )
        typed, error = refused.typed, refused.error
        status, retry_after = refused.status, refused.retry_after
        if stale:  # say which rubber the refused change was of, then why
            label = error.pop("label")
            why = f"{label} {error['message']}" if label else error["message"]
            change = "take-back" if taking_back is not None else "correction"
            error["message"] = (
                f"This {change} was of {names['hand_label']} {taking_back or correct} of the "
                f"{names['rubber_label']} before this one, which is over: {why}"
            )
    table.evening.refresh_from_db(fields=evenings.CHANGING)
    context = table_context(
        table,
        error=error,
        notice=notice,
        entered=typed.values if typed else None,
        correcting=None if stale or taking_back is not None else correct,
        taking_back=None if stale else taking_back,
    )
    response = phone_answer(request, context, status=status)
    if retry_after:
        response["Retry-After"] = retry_after
    return response


def _rubber_changed(table: Table, post) -> tuple[Rubber, bool]:
    """The rubber a correction or take-back from the phone was made on (the form's
    `rubber`: a queued one may arrive once the next rubber has a hand of that number),
    never the latest in its stead; and whether the table has moved on from it."""
    rubbers = Rubber.objects.filter(table=table).order_by("-pk")
    meant = whole_number(post, "rubber")
    rubber = (rubbers.filter(pk=meant) if meant is not None else rubbers).first()
    if rubber is None:
        raise UserError("No hand has been recorded at this table.")
    return rubber, rubber != rubbers.first()


def phone_answer(request, context: dict, *, status: int) -> HttpResponse:
    """The answer to a form posted from the table's phone: its live part to the phone's
    queue (static/js/phone-queue.js, which sends HX-Request and swaps the part in), the
    whole page to a form posted without JavaScript (switched off, or its script not
    loaded), which a bare fragment would leave unstyled, as a progressive's table's phone
    answers (tournaments/views_phone.py)."""
    page = "club/_table.html" if request.headers.get("HX-Request") else "club/table.html"
    return render(request, page, context, status=status)
