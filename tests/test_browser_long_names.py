"""Names as long as the models allow, each one word with nowhere to break a line (a
member's 80 letters, a club's, an evening's and a tournament's 120), on every page a
person meets: the secretary's (his home, the boards of the three games, the evening's
sheet, its table cards, the club's people), the tables' phones (Euchre, Call-Ace at seven,
Bridge, a progressive's), the score sheets, the public pages (the club, its players, a
player's record, an evening's results and settlement, the standings), the director's
pages (a ladder's, a progressive's with its rounds, a table's sheet, a round's sheets, the
table cards), and the room displays.

On a phone's screen (360 px) and on a laptop's (1280 px) nothing is wider than the
screen, no box runs past its parent's right edge (but inside a table that scrolls
sideways in its own box), no text spills out of its box or is cut off by it, and no
ordinary word is broken to make room for the names; at 360 px no list cuts off a choice,
and every button is at least 44 px tall (a finger's tap) and nothing covers it. Printed
(the print rules, at the width of an A4 page inside its margins) nothing runs past the
paper or is cut. Screenshots in artifacts/screenshots/long-names-*.png.

The world is made once for the module and committed (the live server reads it), and the
database emptied after the module's last test (tests.conftest.committed_for_the_module).
"""

import datetime
from decimal import Decimal
from types import SimpleNamespace

import pytest

from club import evenings, recording
from tests.browser import PHONE, shot
from tests.club.rooms import SWEEP, draw_cuts, record
from tests.conftest import browser_context, committed_for_the_module
from tests.factories import ClubFactory, MemberFactory, UserFactory
from tests.tournaments.round_sheets import as_printed
from tests.worlds import call_ace_first_deal
from tournaments import rounds, services

pytestmark = [pytest.mark.browser]

FIRST = ["Ann", "Bob", "Cora", "Dan", "Edith", "Frank", "Grace", "Hugh"]
#: The members' names: 80 letters each, the most a name may have, with no space in them
#: ("AnnWWW...W"; W, the widest letter, leaves the least room).
NAMES = [first + "W" * (80 - len(first)) for first in FIRST]
CLUB = "Somerset" + "W" * 112  # 120, the most a club's name may have
SLUG = ("somerset" * 8)[:60]  # 60, the most a club's address may have
TITLE = {
    game: (game + "Evening" + "W" * 120)[:120]
    for game in ("Euchre", "CallAce", "Bridge")  # 120, the most an evening's title may have
}
LADDER = ("Ladder" + "W" * 120)[:120]  # 120, the most a tournament's name may have
PROGRESSIVE = ("Progressive" + "W" * 120)[:120]


def _act(evening, **event) -> None:
    evenings.evening_act(evening_id=evening.pk, event=event)


def _open(club, game: str, ruleset: str, date: datetime.date):
    return evenings.evening_open(
        club=club, date=date, ruleset=ruleset, stake=Decimal("0.25"), title=TITLE[game]
    )


def build() -> SimpleNamespace:
    """A public club of eight long-named members. A Euchre evening where six arrive (four
    play, two wait, law 12): a rubber swept by N-S and settled (ruling M1), the cuts in
    and out drawn (law 15), a hand of the next rubber. A Call-Ace evening of seven at one
    table with a hand recorded; a Bridge evening with a hand. A ladder over the Euchre
    evening; a progressive of one deal a round at two tables with a stake (ruling P2), its
    round 1 played and round 2 seated with a deal recorded."""
    secretary = UserFactory(username="secretary")
    club = ClubFactory(name=CLUB, slug=SLUG, secretaries=[secretary])
    for name in NAMES:
        MemberFactory(club=club, name=name)

    euchre = _open(club, "Euchre", "euchre-somerset-1888", datetime.date(1888, 11, 21))
    for name in NAMES[:6]:
        _act(euchre, type="arrive", player=name)
    _act(euchre, type="form_table")
    draw_cuts(euchre)
    for tricks in SWEEP:
        record(euchre, "NS", tricks)
    draw_cuts(euchre)
    record(euchre, "EW", 3)

    call_ace = _open(club, "CallAce", "call-ace-foster-1905", datetime.date(1905, 3, 1))
    call_ace_first_deal(call_ace, NAMES[:7])

    bridge = _open(club, "Bridge", "bridge-elwell-1907", datetime.date(1907, 3, 1))
    for name in NAMES[:4]:
        _act(bridge, type="arrive", player=name)
    _act(bridge, type="form_table")
    _act(bridge, type="cut", cards=dict(zip(NAMES[:4], ["AH", "2H", "3H", "4H"], strict=True)))
    recording.hand_record(
        evening_id=bridge.pk, table_number=1,
        data={"declarer": "NS", "trump": "NT", "tricks": {"NS": 7, "EW": 6}},
    )  # fmt: skip

    ladder = services.tournament_create(
        club=club, name=LADDER, slug="ladder", kind="ladder", evening_ids=[euchre.pk]
    )
    progressive = services.tournament_create(
        club=club, name=PROGRESSIVE, slug="progressive", kind="progressive",
        ruleset="euchre-somerset-1888", movement="rotation", deals_per_round=1,
        stake=Decimal("0.10"),
    )  # fmt: skip
    for name in NAMES:
        rounds.tournament_enter(tournament=progressive, name=name)
    first = rounds.round_seat_next(tournament_id=progressive.pk, user=secretary)
    for table in first.tables.all():
        recording.hand_record(rubber_id=table.rubber_id, data={"makers": "NS", "tricks": 3})
    second = rounds.round_seat_next(tournament_id=progressive.pk, user=secretary)
    recording.hand_record(
        rubber_id=second.tables.get(number=1).rubber_id, data={"makers": "EW", "tricks": 5}
    )

    ids = {
        "slug": SLUG,
        "euchre": euchre.pk, "call_ace": call_ace.pk, "bridge": bridge.pk,
        "swept": euchre.rubbers.order_by("pk").first().pk,
        "sitting": call_ace.rubbers.get().pk, "bridge_rubber": bridge.rubbers.get().pk,
        "member": club.members.get(name=NAMES[0]).pk,
        "ladder": ladder.pk, "progressive": progressive.pk,
        "progressive_link": progressive.table_links.get(number=1).token,
        **{f"{e}_link": evening.tables.get(number=1).token
           for e, evening in (("euchre", euchre), ("call_ace", call_ace), ("bridge", bridge))},
    }  # fmt: skip
    return SimpleNamespace(secretary=secretary, ids=ids)


world, _live_server_helper = committed_for_the_module(build)

#: Every page a person meets, by its name: its address, filled from the world's ids.
PAGES = {
    "secretary's home": "/secretary/",
    "Euchre board": "/secretary/evenings/{euchre}/",
    "Call-Ace board": "/secretary/evenings/{call_ace}/",
    "Bridge board": "/secretary/evenings/{bridge}/",
    "evening's sheet": "/secretary/evenings/{euchre}/sheet/",
    "table cards": "/secretary/evenings/{euchre}/table-cards/",
    "club's people": "/secretary/clubs/{slug}/people/",
    "new tournament": "/secretary/clubs/{slug}/tournaments/new/",
    "Euchre phone": "/t/{euchre_link}/",
    "Call-Ace phone (seven players)": "/t/{call_ace_link}/",
    "Bridge phone": "/t/{bridge_link}/",
    "Euchre score sheet (settled)": "/clubs/{slug}/rubbers/{swept}/",
    "Call-Ace score sheet": "/clubs/{slug}/rubbers/{sitting}/",
    "Bridge score sheet": "/clubs/{slug}/rubbers/{bridge_rubber}/",
    "club's home": "/clubs/{slug}/",
    "players found": "/clubs/{slug}/players/?name=W",
    "player's record": "/clubs/{slug}/players/{member}/",
    "evening's results and settlement": "/clubs/{slug}/evenings/{euchre}/",
    "Call-Ace evening's results": "/clubs/{slug}/evenings/{call_ace}/",
    "ladder's standings": "/clubs/{slug}/tournaments/ladder/",
    "progressive's standings": "/clubs/{slug}/tournaments/progressive/",
    "director's ladder": "/secretary/tournaments/{ladder}/",
    "director's progressive": "/secretary/tournaments/{progressive}/",
    "progressive's table sheet": "/secretary/tournaments/{progressive}/rounds/2/tables/1/",
    "round's sheets": "/secretary/tournaments/{progressive}/rounds/1/sheets/",
    "progressive's table cards": "/secretary/tournaments/{progressive}/table-cards/",
    "progressive's phone": "/p/{progressive_link}/",
    "evening's room": "/clubs/{slug}/evenings/{euchre}/room/",
    "tournament's room": "/clubs/{slug}/tournaments/progressive/room/",
}
#: Pages nobody prints: the phones' and the secretary's forms.
NOT_PRINTED = {
    "Euchre phone", "Call-Ace phone (seven players)", "Bridge phone", "progressive's phone",
    "club's people", "new tournament", "secretary's home",
}  # fmt: skip

#: What on the page is wider than its place: each element shown (not hidden, nor clipped
#: to nothing for screen readers) whose box runs past the screen's right edge, or past its
#: parent's (an element positioned absolutely, past the screen's only); and each block
#: whose content is wider than its box (spilling out of it, or cut off by it). Inside an
#: element that scrolls sideways (a wide score sheet's box) nothing is asked but that
#: the box itself keeps its place. Form fields scroll their own text and are left out.
WIDER_THAN_ITS_PLACE = """() => {
  const screen = document.documentElement.clientWidth + 0.5;
  const style = (el) => getComputedStyle(el);
  const scrolls = (el) => ['auto', 'scroll'].includes(style(el).overflowX);
  const hidden = (el) => {
    for (let a = el; a && a !== document.body; a = a.parentElement) {
      const s = style(a);
      if (s.clip !== 'auto' || s.clipPath !== 'none') return true;
    }
    return false;
  };
  const scrolled = (el) => {
    for (let a = el.parentElement; a && a !== document.body; a = a.parentElement)
      if (scrolls(a)) return true;
    return false;
  };
  const label = (el) => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '')
    + (typeof el.className === 'string' && el.className.trim()
       ? '.' + el.className.trim().split(/\\s+/).join('.') : '')
    + (el.dataset && el.dataset.testid ? `[data-testid=${el.dataset.testid}]` : '');
  const found = [];
  for (const el of document.querySelectorAll('body *')) {
    const box = el.getBoundingClientRect();
    const s = style(el);
    if (box.width === 0 || box.height === 0 || s.visibility === 'hidden') continue;
    if (hidden(el) || scrolled(el)) continue;
    const text = (el.textContent || '').trim().replace(/\\s+/g, ' ').slice(0, 30);
    if (box.right > screen) {
      found.push(`${label(el)} ends at ${Math.round(box.right)} px, past the screen: ${text}`);
      continue;
    }
    const parent = el.parentElement.getBoundingClientRect();
    if (!['absolute', 'fixed'].includes(s.position) && box.right > parent.right + 0.5) {
      found.push(`${label(el)} ends past its parent ${label(el.parentElement)}: ${text}`);
      continue;
    }
    if (!(el instanceof HTMLElement) || s.display === 'inline' || scrolls(el)) continue;
    if (['INPUT', 'TEXTAREA'].includes(el.tagName)) continue;
    if (el.scrollWidth > el.clientWidth + 1 && el.clientWidth > 0)
      found.push(`${label(el)} holds ${el.scrollWidth} px in ${el.clientWidth}: ${text}`);
  }
  return found;
}"""

#: Each button shown on the page (scrolled to the middle of the screen) less than 44 px
#: tall, or covered by something else where a finger would tap it.
BUTTONS_TOO_SMALL_OR_COVERED = """() => {
  const found = [];
  const buttons = 'button, input[type=submit], input[type=button], [role=button]';
  for (const b of document.querySelectorAll(buttons)) {
    if (!b.checkVisibility({visibilityProperty: true})) continue;  // e.g. in a closed <details>
    b.scrollIntoView({block: 'center', inline: 'center'});
    const box = b.getBoundingClientRect();
    const top = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    const words = (b.textContent || b.value || '').trim().slice(0, 40);
    if (box.height < 44) found.push(`"${words}" is ${Math.round(box.height)} px tall`);
    if (!top || !(top === b || b.contains(top)))
      found.push(`"${words}" is covered by ${top ? top.tagName + '.' + top.className : '?'}`);
  }
  window.scrollTo(0, 0);
  return found;
}"""

#: Each ordinary word (30 letters at most, no hyphen or dash to break at) broken across
#: two lines: the long names wrap anywhere, and nothing else may be made to ("Ha-nd" at
#: the head of a score sheet's column, "+2.0-0" in a ledger, squeezed beside a name).
WORDS_BROKEN = """() => {
  const broken = new Set();
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    // A printed link wraps anywhere, its hyphens held in spans (club/templatetags/words.py):
    // its pieces between them are no words.
    if (node.parentElement.closest('.link-words')) continue;
    for (const match of node.data.matchAll(/\\S+/g)) {
      const word = match[0];
      if (word.length > 30 || /[-\\/\u2013\u2014\u00b7]/.test(word)) continue;
      const range = document.createRange();
      range.setStart(node, match.index);
      range.setEnd(node, match.index + word.length);
      const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0)
        .map((r) => Math.round(r.top)));
      if (lines.size > 1) broken.add(`"${word}" is broken in ${node.parentElement.tagName}`);
    }
  }
  return [...broken];
}"""

#: Each list (a <select>) narrower than its longest choice, which is cut off once chosen
#: ("AnnWWWWWWWWW" of an 80-letter name); a list the browser lays out as the page's own
#: (appearance: base-select) wraps its choice, as the page does.
CHOICES_CUT_OFF = """() => {
  const found = [];
  for (const list of document.querySelectorAll('select')) {
    if (list.getBoundingClientRect().width === 0) continue;
    if (getComputedStyle(list).appearance === 'base-select') continue;
    const shown = list.offsetWidth;
    list.style.setProperty('max-width', 'none', 'important');
    const whole = list.offsetWidth;  // as wide as its longest choice, unless held narrower
    list.style.removeProperty('max-width');
    if (whole > shown + 1) {
      const longest = [...list.options].map((o) => o.text).sort((a, b) => b.length - a.length)[0];
      found.push(`the list ${list.name} cuts off "${longest.slice(0, 30)}"`);
    }
  }
  return found;
}"""

LONG_WORDS = [*NAMES, CLUB, *TITLE.values(), LADDER, PROGRESSIVE]


@pytest.fixture
def page(chromium, live_server, world, monkeypatch):
    """A page of Debian's chromium in a context of its own, logged in as the club's
    secretary by his session's cookie (what the login form would set)."""
    from django.test import Client

    client = Client()
    client.force_login(world.secretary)
    with browser_context(chromium, monkeypatch) as context:
        context.add_cookies(
            [{"name": "sessionid", "value": client.cookies["sessionid"].value,
              "url": live_server.url}]
        )  # fmt: skip
        page = context.new_page()
        page.set_default_timeout(10_000)
        yield page


def slug(name: str) -> str:
    """A page's name as a test id and a screenshot's ("euchre-score-sheet-settled")."""
    words = "".join(c if c.isalnum() else " " for c in name.lower().replace("'", ""))
    return "-".join(words.split())


def shows_a_long_word(page) -> bool:
    said = page.locator("body").inner_text()
    return any(word in said for word in LONG_WORDS)


def laid_out(page) -> list[str]:
    """What is wider than its place on the page as it is laid out now (the page itself
    wider than the screen among them), and each ordinary word broken."""
    wide, screen = page.evaluate("document.documentElement.scrollWidth"), page.viewport_size
    found = [f"the page is {wide} px wide"] if wide > screen["width"] else []
    return found + page.evaluate(WIDER_THAN_ITS_PLACE) + page.evaluate(WORDS_BROKEN)


@pytest.mark.parametrize("name", PAGES, ids=slug)
def test_long_names_fit_the_screen_and_the_paper(page, live_server, world, name):
    page.set_viewport_size(PHONE)
    response = page.goto(live_server.url + PAGES[name].format(**world.ids))
    assert response.status == 200, (name, response.status)
    # The page is about the long-named: a name, a title in full, on one line or many.
    assert shows_a_long_word(page), name
    shot(page, f"long-names-{slug(name)}-360")
    found = {
        "360 px": laid_out(page) + page.evaluate(CHOICES_CUT_OFF),
        "360 px, buttons": page.evaluate(BUTTONS_TOO_SMALL_OR_COVERED),
    }
    page.set_viewport_size({"width": 1280, "height": 900})
    found["1280 px"] = laid_out(page)
    if name not in NOT_PRINTED:
        as_printed(page)
        assert shows_a_long_word(page), name
        found["printed on A4"] = laid_out(page)
        shot(page, f"long-names-{slug(name)}-printed")
    said = [f"{where}: {line}" for where, lines in found.items() for line in lines]
    assert not said, "\n".join([name, *said])
