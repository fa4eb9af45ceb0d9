"""A room display on the wall (a television of 1280 x 900, Debian's chromium): the set-up
and the checks of the evening's room (tests/club/test_browser_room_wall.py) and a
progressive's (tests/tournaments/test_browser_tournament_room.py), both fitted by
static/js/room-fit.js. Nobody scrolls a wall. The room displays' other browser tests
(tests/club/test_browser_room.py) open them here too, on screens of other sizes."""

WALL = {"width": 1280, "height": 900}
FIRST = ["Ann", "Bob", "Cora", "Dan", "Edith", "Frank", "Grace", "Hugh", "Ida", "Jack"]


def long_names(count: int, start: int = 0) -> list[str]:
    """Players' names as long as a club's may be ("Ann A. Longfellow"), the START-th to
    the COUNT-th, each different."""
    return [f"{FIRST[i % 10]} {'Abcdefghijklm'[i // 10]}. Longfellow" for i in range(start, count)]


def evening_room(live_server, evening) -> str:
    """The address of EVENING's room display."""
    return f"{live_server.url}/clubs/{evening.club.slug}/evenings/{evening.pk}/room/"


def open_room(page, url: str, size: dict = WALL, *, clock: bool = False) -> None:
    """Open the room display at URL on a screen of SIZE (the wall's unless said); with
    CLOCK, on the page's own clock (Playwright's, installed before it loads), which the
    test runs forward by the room's poll instead of waiting it out."""
    page.set_viewport_size(size)
    if clock:
        page.clock.install()
    page.goto(url)


def on_the_wall(page, url: str, tables: int, *, clock: bool = False) -> None:
    """Open the room at URL on the wall, and wait until its table TABLES is shown."""
    open_room(page, url, clock=clock)
    page.wait_for_selector(f"#room .room-table[data-table='{tables}']")


def fits_the_wall(page, tables: int, boxes: str = "#room .room-table") -> None:
    """The room shows TABLES tables and fits the wall: no scrolling either way, each of
    BOXES (a CSS selector) on the screen, and the tables' numbers and points in type read
    across the room (18 px at least)."""
    assert page.locator("#room .room-table").count() == tables
    size = page.evaluate(
        "[document.documentElement.scrollWidth, document.documentElement.scrollHeight]"
    )
    assert size[0] <= WALL["width"] and size[1] <= WALL["height"], size
    for box in page.locator(boxes).all():
        edge = box.bounding_box()
        assert edge["y"] + edge["height"] <= WALL["height"]
    smallest = page.evaluate(
        "Math.min(...[...document.querySelectorAll('#room .room-table h3, #room .room-points')]"
        ".map(e => parseFloat(getComputedStyle(e).fontSize)))"
    )
    assert smallest >= 18  # the tables' numbers and points: read across the room
