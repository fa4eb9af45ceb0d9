"""Words, not labels, on the secretary's pages: a game's name from the game registry
(scoring/rules/games.py), a rubber's or an evening's status, a movement's title.

    {% load words %}  {{ evening.ruleset|game_name }}  {{ rubber.status|rubber_status }}
"""

import re

from django import template
from django.utils.html import escape
from django.utils.safestring import mark_safe

from club.formation.cards import cards_shown
from club.selectors_room import money_words
from scoring.rules.base import side_name as rules_side_name
from scoring.rules.call_ace import UNPLAYED_SITTING
from scoring.rules.games import GAMES

register = template.Library()

# How the secretary says where a rubber stands (Rubber.Status, by value).
RUBBER_STATUS = {
    "in_progress": "in play",
    "complete": "finished",
    "abandoned": "abandoned: its table broke up (law 21)",
    # Not a status of its own: a Call-Ace sitting "complete" with no deal (`rubber_result`).
    "unplayed": UNPLAYED_SITTING,
}
EVENING_STATUS = {"open": "open", "closed": "closed"}


@register.filter
def game_name(key: str) -> str:
    """ "euchre-somerset-1888" -> "Euchre (Somerset Club laws, 1888)"; an unknown key as is."""
    game = GAMES.get(key)
    return game.title if game is not None else key


@register.filter
def rubber_word(key: str) -> str:
    """What a game's table plays, by its rule set's key: "rubber", or "sitting" at
    Call-Ace (ruling C5)."""
    from scoring.rules import GAMES

    game = GAMES.get(key)
    return game.rubber_label if game is not None else "rubber"


@register.filter
def rubber_status(value: str, ruleset: str = "") -> str:
    """ "in_progress" -> "in play", "complete" -> "finished", ...; given the rubber's rule
    set, an abandoned rubber cites that game's law for a table breaking up (Euchre's law
    21 is Call-Ace's law on calling for a partner):
    ``{{ rubber.status|rubber_status:rubber.ruleset }}``."""
    game = GAMES.get(ruleset)
    if value == "abandoned" and game is not None:
        return f"abandoned: its table broke up ({game.tables.cite('break_up')})"
    return RUBBER_STATUS.get(value, str(value).replace("_", " "))


@register.filter
def rubber_result(rubber, ruleset: str = "") -> str:
    """Where a rubber or sitting stands, as the board and the public results say it: one
    abandoned when the evening closed, with the secretary's reason (`closed_why`); a
    Call-Ace sitting ended before any deal was played, which settles nothing (ruling C5);
    else its `rubber_status`. `rubber` is a Rubber (its `hand_count`) or the evening
    summary's dict of one (its `hands`): ``{{ rubber|rubber_result:rubber.ruleset }}``."""
    if isinstance(rubber, dict):
        status, hands, why = rubber.get("status"), rubber.get("hands"), rubber.get("closed_why")
    else:
        status, hands = rubber.status, rubber.hand_count
        why = getattr(rubber, "closed_why", "")
    if status == "abandoned" and why:
        return f"abandoned when the evening closed: {why}"
    if status == "complete" and hands == 0:
        return RUBBER_STATUS["unplayed"]
    return rubber_status(status, ruleset)


@register.filter
def cards(text) -> str:
    """ "Ann QH, Bob 10C" -> "Ann Q♥, Bob 10♣": a sentence's cards as people read them."""
    return cards_shown(str(text))


@register.filter
def evening_status(value: str) -> str:
    """ "open" -> "open", "closed" -> "closed" (never a raw value with an underscore)."""
    return EVENING_STATUS.get(value, str(value).replace("_", " "))


@register.filter
def movement_name(key: str) -> str:
    """A progressive tournament's movement by its title (tournaments/movements)."""
    from tournaments.movements import MOVEMENTS

    movement = MOVEMENTS.get(key)
    return movement.title if movement is not None else str(key).replace("_", " ")


@register.filter
def side_name(side: str) -> str:
    """A partnership as the score sheet names it: "NS" -> "N-S", "EW" -> "E-W"; a
    Call-Ace player's name as is."""
    return rules_side_name(side)


@register.filter
def winners(players, side: str | None) -> str:
    """A side named by its players, from a rubber's players ({"NS": [...], "EW": [...]}):
    "Ann & Bob (N-S)"; the side alone where its players are not known; "" for none."""
    if not side:
        return ""
    names = players.get(side) if isinstance(players, dict) else None
    return f"{' & '.join(names)} ({side_name(side)})" if names else side_name(side)


@register.filter
def sitting_points(players, totals) -> str:
    """A Call-Ace sitting's points, highest first (its players' order between equals), as
    they settle it, every player with every other (ruling C5): "Ann 12, Cora 7, Bob 3";
    "" before any deal is played. ``{{ rubber.players|sitting_points:rubber.summary.totals }}``."""
    if not totals or not isinstance(players, list):
        return ""
    ranked = sorted(players, key=lambda name: -totals.get(name, 0))
    return ", ".join(f"{name} {totals.get(name, 0)}" for name in ranked)


@register.filter
def when(moment) -> str:
    """A moment (or its ISO text) in the site's time zone, the zone named (core.moments):
    "at 23:10 GMT on 21 November 1888"."""
    from core.moments import moment_words

    return moment_words(moment)


@register.filter
def money(amount) -> str:
    """An amount won with its plus, one lost with a true minus (U+2212), to two places:
    "+1.50", "\u22121.50", as the room display shows them."""
    return money_words(amount)


_HYPHEN_AND_NEIGHBOURS = re.compile(r"[^-]?-+[^-]?")


@register.filter
def unbroken_at_hyphens(link: str) -> str:
    """A link to be printed (a table card's): each hyphen held on one line with the
    characters either side of it (`span.keep`, static/css/cards.css), so that a line
    never ends at a hyphen of the link, which a player typing it takes for a word broken
    by the printer and leaves out. The text copied is the link unchanged."""
    pieces, at = [], 0
    for found in _HYPHEN_AND_NEIGHBOURS.finditer(link):
        kept = f'<span class="keep">{escape(found[0])}</span>'
        pieces += [escape(link[at : found.start()]), kept]
        at = found.end()
    pieces.append(escape(link[at:]))
    return mark_safe("".join(pieces))
