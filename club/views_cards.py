"""Printable table cards: one card per standing table of an evening, to stand on the table.

Each card carries the table's number, the QR code of its phone link, the link in words (for
a phone without a camera) and three lines on recording a hand. Two or four cards to an A4
page (`?per_page=2` or `4`), each page a sheet of its own so no card is split by the printer.
The link is the table's current one: a fresh link (issued from the board) means printing
its card again.
"""

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponseBadRequest
from django.shortcuts import render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from club import phone_links
from club.evenings import evening_state
from club.models import Evening
from club.selectors import clubs_managed_by
from core.quoted import quoted
from scoring.rules.games import GAMES

PER_PAGE = (4, 2)
#: The page size in words, as the cards pages (an evening's, a progressive's) ask for it.
PER_PAGE_WORDS = "Cards to an A4 page"

SCAN = "Scan the code with a phone's camera, or type the link above."
#: Until when the players may correct a recorded hand themselves, by game: each rule set's
#: ``may_correct`` and ``correction_text`` in one line of the card.
CORRECT = {
    # Law 5, ruling E9: only the latest hand recorded.
    "euchre-somerset-1888": (
        "A slip? Correct it before the next hand is recorded (law 5, ruling E9)."
    ),
    # The laws of scoring (erroneous score): tricks until the game is concluded by the next
    # deal; honours, chicane and slam until the rubber's score is agreed.
    "bridge-elwell-1907": (
        "A slip? Correct the tricks before a hand of the next game is recorded, honours until "
        "the rubber's score is agreed (laws of scoring, erroneous score)."
    ),
    # No law limits it: any deal until the sitting is closed and settled (ruling C5).
    "call-ace-foster-1905": (
        "A slip? Correct any deal until the sitting is closed and settled (ruling C5)."
    ),
}
#: What to fill in after each hand, by game (the phone page's own fields).
AFTER = {
    "euchre-somerset-1888": "After each hand: the makers, 'played alone' if so, and their tricks.",
    "bridge-elwell-1907": (
        "After each hand: declarer's side, trump, doubles, N-S's tricks, honours."
    ),
    "call-ace-foster-1905": (
        "After each deal: the maker, the partner called, alone or not, the tricks."
    ),
}


def _record(game) -> str:
    """The line naming the phone's button as the phone shows it (its `hand_label`, the
    table phone's `phone.words`) and the game's limit on correcting."""
    return f"Press 'Record the {game.hand_label}'. {CORRECT[game.key]}"


#: Three lines on recording a hand, by game (the phone page's own words).
HOW_TO = {key: [SCAN, AFTER[key], _record(game)] for key, game in GAMES.items()}
#: For a game not listed above: the same three steps in general words.
HOW_TO_ANY = [
    SCAN,
    "After each hand, fill in what the phone page asks.",
    "Press the phone's button to record it.",
]


def cards_per_page(request) -> int | HttpResponseBadRequest:
    """The cards to an A4 page asked for (`?per_page=`, four unless asked), or the 400
    refusing it in the pages' words (`PER_PAGE_WORDS`), for every table cards page."""
    asked = request.GET.get("per_page", str(PER_PAGE[0]))
    if asked not in {str(n) for n in PER_PAGE}:
        choices = " or ".join(str(n) for n in sorted(PER_PAGE))
        return HttpResponseBadRequest(
            f"{PER_PAGE_WORDS}: {quoted(asked)} is not a choice; print {choices}.",
            content_type="text/plain; charset=utf-8",
        )
    return int(asked)


def _chunks(items: list, size: int) -> list[list]:
    return [items[i : i + size] for i in range(0, len(items), size)]


@login_required
@require_GET
@never_cache  # every table's link, a bearer secret (club.views_board.board)
def table_cards(request, pk: int):
    """The evening's table cards, to print: two or four to an A4 page."""
    evening = (
        Evening.objects.select_related("club")
        .filter(pk=pk, club__in=clubs_managed_by(user=request.user))
        .first()
    )
    if evening is None:  # not one of this secretary's clubs: as if it did not exist
        raise Http404("No such evening.")
    per_page = cards_per_page(request)
    if isinstance(per_page, HttpResponseBadRequest):
        return per_page
    standing = {t.number for t in evening_state(evening).tables}
    cards = []
    for table in evening.tables.filter(number__in=standing).order_by("number"):
        link = phone_links.table_link(request, table)
        cards.append({"number": table.number, "link": link, "qr": phone_links.qr_svg(link)})
    return render(
        request,
        "club/table_cards.html",
        {
            "evening": evening,
            "club": evening.club,
            "how_to": HOW_TO.get(evening.ruleset, HOW_TO_ANY),
            "per_page": per_page,
            "per_page_words": PER_PAGE_WORDS,
            "choices": PER_PAGE,
            "sheets": _chunks(cards, per_page),
            "reach": phone_links.board_reach(request),
        },
    )
