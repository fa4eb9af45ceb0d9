"""What an attacker tries on every route at once, so that a new page or button cannot
quietly open a way in (docs/security.md):

- a post from another site: every route that takes a post refuses one without the
  page's CSRF token, for a logged-in secretary, pages and the API (by his session) alike;
- stored script: names, titles, reasons and a club's name written as markup are shown
  as text on every page, public and the secretary's;
- a login or logout that leads off the site (`next`);
- a table's page, whose address is its bearer secret, sent to no other site (Referer)
  and shown in no other site's frame;
- ids and page numbers no row has (thirty digits, negative, not numbers): never a 500.

Who may read or write what, route by route, is tests/test_permissions.py's.
"""

import datetime
import re
from decimal import Decimal

import pytest
from django.test import Client
from rest_framework.test import APIClient

from club import evenings, recording
from club.evening_undo import evening_undo
from tests.factories import ClubFactory, UserFactory
from tests.routes import url_patterns
from tests.worlds import club_in_play
from tournaments import rounds
from tournaments.services import tournament_create

# Routes left out, each for its reason.
NO_CSRF = {
    "api/v1/auth/token/": "a login, holding no session: it answers a token to its caller",
    "api/docs/": "a page to read, GET and HEAD only (its refusal has no words of its own)",
}


@pytest.fixture
def played(db, django_capture_on_commit_callbacks):
    """tests/worlds.py's private club in play, its ids as the routes name them."""
    world = club_in_play(django_capture_on_commit_callbacks)
    ids = {"s": world.club.slug, "e": world.evening.pk, "tok": world.table.token}
    return world.secretary, ids


def _concrete(route: str, ids: dict) -> str | None:
    """A route's pattern with the world's ids in it; None for one that names no page."""
    url = "/" + route
    for pattern, value in [
        (r"<int:pk>", ids["e"]), (r"<int:[^>]+>", 1), (r"<slug:slug>", ids["s"]),
        (r"<slug:tslug>", "winter"), (r"<str:token>", ids["tok"]),
    ]:  # fmt: skip
        url = re.sub(pattern, str(value), url)
    return None if "<" in url or "^" in url else url


def test_every_post_is_refused_without_the_pages_csrf_token(played):
    secretary, ids = played
    page = Client(enforce_csrf_checks=True)
    page.force_login(secretary)
    api = APIClient(enforce_csrf_checks=True)
    api.force_login(secretary)
    routes = [r for r in url_patterns() if r not in NO_CSRF]
    refused = []
    for route in routes:
        url = _concrete(route, ids)
        if url is None:
            continue
        client = api if url.startswith("/api/") else page
        response = client.post(url, {"type": "arrive", "player": "Zed"})
        refused.append((url, response.status_code, b"CSRF" in response.content))
    assert refused and all(status == 403 and said for _, status, said in refused), [
        r for r in refused if r[1] != 403 or not r[2]
    ]


HUGE = "9" * 30  # past any id a row has, and past what PostgreSQL's bigint holds
PAGING = ["page=-1", "page=0", "page=abc", f"page={HUGE}", "page_size=-5", f"page_size={HUGE}"]


def test_ids_and_pages_no_row_has_answer_no_server_error(played):
    """Every route with ids of thirty digits (read, and posted to), and the paged lists with
    page numbers and sizes negative, huge or not numbers: a 4xx or the nearest page, never
    a 500 (an id past bigint reaching PostgreSQL would be one)."""
    secretary, ids = played
    page = Client(raise_request_exception=False)
    page.force_login(secretary)
    failed = []
    for route in url_patterns():
        url = _concrete(re.sub(r"<int:[^>]+>", HUGE, route), ids)
        if url is None or url.startswith("/admin/"):
            continue
        for method in ("get", "post"):
            if getattr(page, method)(url).status_code >= 500:
                failed.append((method, url))
    slug = ids["s"]
    lists = [f"/api/v1/clubs/{slug}/{name}/" for name in ("members", "rubbers", "evenings")]
    lists += [f"/api/v1/clubs/{slug}/tournaments/winter/standings/"]
    lists += [f"/clubs/{slug}/tournaments/winter/", f"/clubs/{slug}/tournaments/winter/standings/"]
    for url in lists:
        for query in PAGING:
            if page.get(f"{url}?{query}").status_code >= 500:
                failed.append(("get", f"{url}?{query}"))
    assert failed == []


P1 = "<script>alert(1)</script>"
P2 = '"><img src=x onerror=alert(2)>'
P3 = "</script><svg onload=alert(3)>"
P4 = "'><b onmouseover=alert(4)>x"
NAMES = [f"Ann{P1}", f"Bob{P2}", f"Cora{P3}", f"Dan{P4}"]
MARKUP = re.compile(r"<script>alert|<img src=x|<svg onload|<b onmouseover")


@pytest.fixture
def hostile(db, django_capture_on_commit_callbacks):
    """A public club whose every text a visitor reads is written as markup: its name, an
    evening's title, its members, a ladder's and a progressive's names, the reasons of a
    correction, an undo, a removal, an abandoned rubber and a reopening; and the full name
    of its secretary."""
    secretary = UserFactory(username="secretary", first_name=P1, last_name=P2)
    club = ClubFactory(slug="somerset", name=f"Somerset{P2}", secretaries=[secretary])
    evening = evenings.evening_open(
        club=club, date=datetime.date(1888, 11, 21), ruleset="euchre-somerset-1888",
        stake=Decimal("0.25"), title=f"Evening{P3}",
    )  # fmt: skip

    def act(**event):
        evenings.evening_act(evening_id=evening.pk, event=event)

    with django_capture_on_commit_callbacks(execute=True):
        ladder = tournament_create(
            club=club, name=f"Winter{P4}", slug="winter", kind="ladder", evening_ids=[evening.pk]
        )
        for name in NAMES:
            act(type="arrive", player=name)
        act(type="form_table")
        act(type="cut", cards=dict(zip(NAMES, ["JS", "AS", "KS", "QS"], strict=True)))
        for makers in ("NS", "EW"):
            recording.hand_record(
                evening_id=evening.pk, table_number=1, data={"makers": makers, "tricks": 3}
            )
        rubber = evening.rubbers.get()
        recording.hand_correct(
            rubber_id=rubber.pk, number=1, data={"makers": "NS", "tricks": 5},
            reason=f"Recounted{P1}", user=secretary, is_secretary=True,
        )  # fmt: skip
        act(type="arrive", player=f"Zed{P1}")
        evening_undo(evening_id=evening.pk, user=secretary, reason=f"Undone{P2}")
        recording.hand_remove(
            rubber_id=rubber.pk, number=2, reason=f"Removed{P3}", user=secretary,
            is_secretary=True,
        )  # fmt: skip
        abandoned = {"table": 1, "rubber": 1, "outcome": "abandoned", "reason": f"Gone{P4}"}
        evenings.evening_close(evening_id=evening.pk, user=secretary, rubbers=[abandoned])
        evenings.evening_reopen(evening_id=evening.pk, reason=f"Reopened{P1}", user=secretary)
        progressive = tournament_create(
            club=club, name=f"Spring{P2}", slug="spring", kind="progressive",
            ruleset="euchre-somerset-1888", movement="rotation", rounds_planned=7,
        )  # fmt: skip
        for name in [*NAMES, "Edith", "Frank", "Grace", "Hugh"]:
            rounds.tournament_enter(tournament=progressive, name=name)
        rounds.round_seat_next(tournament_id=progressive.pk)
    member = club.members.get(name=NAMES[0])
    e, r, m = evening.pk, rubber.pk, member.pk
    public = [
        "/", "/clubs/somerset/", f"/clubs/somerset/evenings/{e}/",
        f"/clubs/somerset/evenings/{e}/room/", f"/clubs/somerset/evenings/{e}/room/live/",
        "/clubs/somerset/players/", "/clubs/somerset/players/?name=ann",
        f"/clubs/somerset/players/{m}/", f"/clubs/somerset/rubbers/{r}/",
        "/clubs/somerset/tournaments/winter/", "/clubs/somerset/tournaments/winter/standings/",
        "/clubs/somerset/tournaments/spring/", "/clubs/somerset/tournaments/spring/room/",
        "/clubs/somerset/tournaments/spring/room/live/",
        f"/t/{evening.tables.get(number=1).token}/",
    ]  # fmt: skip
    secretary_pages = [
        "/secretary/", f"/secretary/evenings/{e}/", f"/secretary/evenings/{e}/board/",
        f"/secretary/evenings/{e}/sheet/", f"/secretary/evenings/{e}/table-cards/",
        f"/secretary/tournaments/{ladder.pk}/", f"/secretary/tournaments/{progressive.pk}/",
        f"/secretary/tournaments/{progressive.pk}/rounds/1/tables/1/",
        "/secretary/clubs/somerset/people/", "/secretary/clubs/somerset/tournaments/new/",
        f"/api/v1/clubs/somerset/evenings/{e}/?format=api",
    ]  # fmt: skip
    return secretary, public, secretary_pages


def test_markup_in_every_text_is_shown_as_text_on_every_page(hostile, client):
    secretary, public, secretary_pages = hostile
    shown = []
    for url in public:
        shown.append((url, client.get(url)))
    client.force_login(secretary)
    for url in public + secretary_pages:
        shown.append((url, client.get(url)))
    for url, response in shown:
        assert response.status_code == 200, url
        assert not MARKUP.search(response.content.decode()), url
    # The texts are there, as text.
    board = dict(shown)[secretary_pages[1]].content.decode()
    assert "Undone&quot;&gt;&lt;img src=x onerror=alert(2)&gt;" in board


@pytest.mark.parametrize(
    "there",
    ["https://evil.example/", "//evil.example/", "/\\evil.example/", "https:evil.example",
     "http://testserver@evil.example/", "javascript:alert(1)"],
)  # fmt: skip
def test_logging_in_or_out_never_leads_off_the_site(db, client, there):
    UserFactory(username="secretary")
    login = {"username": "secretary", "password": "correct horse battery"}
    went = client.post(f"/accounts/login/?next={there}", login)
    assert went.status_code == 302 and went["Location"] == "/secretary/"
    left = client.post(f"/accounts/logout/?next={there}")
    assert left.status_code == 302 and left["Location"] == "/"
    assert client.get("/accounts/logout/").status_code == 405  # no logging out by a link


def test_a_tables_page_is_sent_to_no_other_site_nor_framed(played, client):
    """The address of a table's page is its bearer secret: a browser leaving it for another
    site must not send it in Referer, and no other site may show the page in a frame (to
    have a player tap in it)."""
    _, ids = played
    response = client.get(f"/t/{ids['tok']}/")
    assert response.status_code == 200
    assert response["Referrer-Policy"] == "same-origin"
    assert response["X-Frame-Options"] == "DENY"
    assert response["X-Content-Type-Options"] == "nosniff"
