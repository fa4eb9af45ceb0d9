"""How the secretary's board words a refusal: its field named in words, as every other
refusal of the service is (club.phone.named_refusal at the tables' phones), never only by
the key a script reads (kept in `data-field`, templates/_refusal.html).

Two of the board's fields are not typed by the secretary, so a refusal of them cannot
lean on what he sees in a box:

- **The board's version of the evening** (`version`, a hidden field: the evening's
  version when the page was drawn). Another device that acted meanwhile (a table's phone
  recording a hand, a second secretary) moved the evening on, and the action is refused
  (409, club.evenings, nothing written): the board says that it was out of date, what
  happened since it was loaded, in words and by whom, and that nothing was done.
- **The table** (`table`, chosen from the board's lists or a table's own card): a table
  not chosen, or one the evening does not have (broken up meanwhile, or a number sent by
  hand), is named by its number beside the evening's tables.
"""

from django.utils.text import capfirst

from club.evenings import evening_state
from club.formation.cards import cards_shown
from club.history import changes_since
from club.models import Evening
from core.echo import after_label, refusal
from core.errors import UserError
from core.inputs import NOT_DIGITS, whole_number

#: The board's fields in words, said before a refusal whose message does not name them.
FIELD_WORDS = {"table": "the table", "version": "the board's version of the evening"}

#: The most of the changes since the board was loaded that its refusal lists.
CHANGES_SHOWN = 3


def _listed(items: list[str]) -> str:
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def stale_words(evening: Evening, *, seen: int | None, you=None) -> str:
    """A board out of date, in words: what was done since it was loaded (the evening's
    version it showed, `seen`), by whom, and that nothing was done. What `you` (the user
    whose form it was) did himself is said to be his, "from this board or another device":
    his own first tap of the same form (its answer lost, or pressed twice) is no other
    device, and his phone beside the laptop may be."""
    changes = changes_since(evening=evening, version=seen, you=you) if seen is not None else []
    if changes:
        shown = changes[-CHANGES_SHOWN:]
        earlier = len(changes) - len(shown)
        yours = sum(1 for _, mine in changes if mine)
        if yours == len(changes):  # all his own: his name is said once, in the lead
            shown = [words.removesuffix(", by you") for words, _ in shown]
        else:
            shown = [words for words, _ in shown]
        # People read the cards by their suits (club.formation.cards), as on the board.
        said = "; ".join(cards_shown(change) for change in shown) + (
            f"; and {earlier} before them" if earlier else ""
        )
        times = "" if len(changes) == 1 else f" {len(changes)} times"
        if yours == len(changes):
            since = (
                f"since you loaded it, you changed the evening{times} yourself, from this "
                f"board or another device ({said})"
            )
        elif yours:
            since = (
                f"since you loaded it, the evening was changed{times}, by you (from this "
                f"board or another device) and by others ({said})"
            )
        elif len(changes) == 1:
            since = f"since you loaded it, another device changed the evening ({said})"
        else:
            since = f"since you loaded it, other devices changed the evening{times} ({said})"
    else:
        since = "the evening has changed since you loaded it"
    return (
        f"The board was out of date: {since}. Nothing was done: the board now shows the "
        "evening as it is; look again, and do it again if it is still wanted."
    )


def table_words(evening: Evening, post) -> str | None:
    """The refusal of a table not chosen, or not one of the evening's standing tables,
    naming the tables it has (said after "The table:"); None when the table sent is one of
    them (its refusal names it already) or is not written as a number."""
    try:
        number = whole_number(post, "table")
    except UserError:
        return None  # not a number: its own refusal says so
    numbers = [table.number for table in evening_state(evening).tables]
    if number is not None and number in numbers:
        return None
    tables = (
        f"this evening's tables are {_listed([str(n) for n in numbers])}"
        if len(numbers) > 1
        else f"this evening's one table is table {numbers[0]}"
        if numbers
        else "this evening has no table yet"
    )
    if number is None:
        return f"choose one by its number; {tables}."
    return f"there is no table {number} this evening; {tables}."


def board_refusal(
    exc: Exception,
    *,
    evening: Evening,
    post,
    note: str = "",
    words: dict | None = None,
    user=None,
) -> dict:
    """A refusal of a board's form as the board shows it (core.echo's `refusal`): a stale
    board said as such (`stale_words`), a table not the evening's named by its number, and
    the field in words before a message that does not name it (`label`), the message going
    on after it as one sentence ("The table: give a whole number ...", core.echo.after_label).
    `words`: a form's own fields in words (the settle form's hidden ones), named before a
    number refused for not being written in digits, whose refusal does not name them.
    `user`: whose form it was, his own changes since said "by you" (`stale_words`)."""
    fields = {**FIELD_WORDS, **(words or {})}
    error = refusal(exc, note=note)
    field = error["field"]
    code = getattr(exc, "code", None)
    label = None
    # With two tables waiting to cut (or throw for the first jack, law 1), a refusal of one
    # table's cut names its table, as the cut's heading does ("... (table 2)"), or the
    # secretary cannot tell whose form it answers: "At table 2: ...".
    at = _cut_table(evening, post)
    if code == "stale":
        error["message"] = stale_words(evening, seen=_seen(post), you=user)
        error["field"] = "version"
        label = f"at table {at}" if at else None
    elif field == "table" and (words := table_words(evening, post)) is not None:
        error["message"], label = words, FIELD_WORDS["table"]
    elif code == NOT_DIGITS and field in fields:
        label = fields[field]
    elif at and f"table {at}" not in error["message"]:
        label = f"at table {at}"
    # A card refused reads as people read cards, by its suit (Q♥), as on the board.
    error["message"] = cards_shown(error["message"])
    if error["message"][-1:] not in {"", ".", "?", "!", "…"}:
        # The evening's laws word a refusal without its full stop ("Ruling T2: Ann is not
        # in the room"), as the API says it; the board ends the sentence.
        error["message"] += "."
    if label:
        # After its field's name and a colon, the refusal goes on as one sentence.
        error["label"], error["message"] = f"{capfirst(label)}:", after_label(error["message"])
    else:
        error["label"] = None
    return error


def _cut_table(evening: Evening, post) -> int | None:
    """The table whose cut (its cards, or "Draw for them") or throws for the first jack
    ("Throw for them") were refused, as its form sends it, when the evening has more than
    one table (with one, there is no asking which)."""
    if post.get("type") not in {"cut", "deal_jack"} or len(evening_state(evening).tables) < 2:
        return None
    try:
        return whole_number(post, "table")
    except UserError:
        return None


def _seen(post) -> int | None:
    try:
        return whole_number(post, "version")
    except UserError:
        return None
