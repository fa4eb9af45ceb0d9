"""Attacks, round three: the public pages' costs.

A public page rendered afresh costs the service a first reader's work: a player's page some
70 ms of a core for a member of six hundred rubbers, a standings page found by a player's
name (`?player=`) or past the end (`?page=9`), an evening's results, none of them kept.
Anyone could ask for every member's every season, every name, every evening, from one
address, as fast as he liked (docs/security.md: "A throttle on public pages ... is not
written").

Now a page rendered afresh is counted per client address (THROTTLE_PUBLIC,
config.ratelimit.public_render) and refused past the rate with 429, Retry-After and a page
in words; a copy already kept is served to anyone, the refused reader too, and costs no
round trip to Redis (the crowd's standings page: BENCHMARKS.md).
"""

import html
import re

import pytest
from django.test import Client
from rest_framework.settings import api_settings

from config.throttles import PublicPageThrottle
from core import redisops
from tests.conftest import rows_for_the_module
from tests.worlds import club_in_play

pytestmark = pytest.mark.django_db


def _public_club_in_play(capture_on_commit):
    """`club_in_play` (four players, a ladder "winter" counting its evening) made public."""
    played = club_in_play(capture_on_commit)
    played.club.is_public = True
    played.club.save()
    return played


_played = rows_for_the_module(_public_club_in_play)


@pytest.fixture
def played(_played, db, redis):
    return _played


@pytest.fixture
def three_a_minute(monkeypatch):
    """A public rate small enough to reach in a test (DRF reads the rates when the class
    is made)."""
    small = {**api_settings.DEFAULT_THROTTLE_RATES, "public": "3/min"}
    monkeypatch.setattr(PublicPageThrottle, "THROTTLE_RATES", small)


def text(response) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", response.content.decode())).split())


def counted(address: str) -> int:
    """The fresh renders the public window holds for `address` (its sorted set in Redis)."""
    client = redisops.redis_cache().client
    return client.get_client().zcard(client.make_key(f"rate:throttle_public_{address}"))


def player(played, name: str) -> str:
    return f"/clubs/somerset/players/{played.members[name].pk}/"


def assert_refused_in_words(answer, *, back: str = "/clubs/somerset/") -> None:
    assert answer.status_code == 429
    wait = int(answer["Retry-After"])
    assert 1 <= wait <= 60
    words = text(answer)
    assert "Too many pages asked for" in words
    assert (
        "more such pages were asked for from your address in the last minute than the club "
        f"makes for one reader. Wait {wait} seconds, then load the page again."
    ) in words
    assert f'href="{back}"' in answer.content.decode()


def test_players_pages_rendered_afresh_are_refused_past_the_rate_a_kept_copy_is_not(
    played, three_a_minute
):
    """A crawler reading every member's page: the fourth page no copy answers is refused;
    a page already rendered is still served, to him and to anyone, and is not counted."""
    crawler = Client(REMOTE_ADDR="203.0.113.7")
    for name in ("Ann", "Bob", "Cora"):
        assert crawler.get(player(played, name)).status_code == 200
        assert crawler.get(player(played, name)).status_code == 200  # the copy: not counted
    assert counted("203.0.113.7") == 3
    refused = crawler.get(player(played, "Dan"))
    assert_refused_in_words(refused)
    assert crawler.get(player(played, "Ann")).status_code == 200  # kept: served still
    # Dan's page was not rendered for the refused reader, so the next one renders it.
    assert Client(REMOTE_ADDR="198.51.100.2").get(player(played, "Dan")).status_code == 200
    assert counted("198.51.100.2") == 1  # another address has its own window


def test_standings_rendered_for_one_reader_and_an_evenings_results_count_in_one_window(
    played, three_a_minute
):
    """A standings page no copy will answer (found by a player's name, `?player=`, or a
    page past the end, shown as the last and never kept) is rendered for its reader every
    time, as an evening's results are: counted, and refused past the rate. The crowd's
    page, rendered once a version and kept whoever asks (on a club's Wi-Fi the room polls
    from one address), is not counted, and is served to the refused reader."""
    crawler = Client(REMOTE_ADDR="203.0.113.8")
    standings = "/clubs/somerset/tournaments/winter/"
    assert crawler.get(standings).status_code == 200  # the crowd's copy: rendered, kept
    assert crawler.get(f"{standings}?player=ann").status_code == 200
    assert crawler.get(f"{standings}?page=7").status_code == 200
    assert crawler.get(f"/clubs/somerset/evenings/{played.evening.pk}/").status_code == 200
    assert counted("203.0.113.8") == 3
    assert_refused_in_words(crawler.get(f"{standings}?player=bob"))
    assert_refused_in_words(crawler.get(f"{standings}?page=8"))
    assert_refused_in_words(crawler.get(f"/clubs/somerset/evenings/{played.evening.pk}/"))
    assert_refused_in_words(crawler.get(f"{standings}standings/?player=cora"))
    # The kept copy of the crowd's page and of its table: served, and never counted, so
    # they cost no round trip to Redis (BENCHMARKS.md: at least half a trivial view).
    assert [crawler.get(standings).status_code for _ in range(5)] == [200] * 5
    assert crawler.get(f"{standings}standings/").status_code == 200
    assert counted("203.0.113.8") == 3  # refused and kept pages are not counted


def test_a_rubbers_score_sheet_rendered_for_each_reader_is_counted_in_the_window(
    played, three_a_minute
):
    """A rubber's score sheet (`/clubs/<club>/rubbers/<id>/`) is rendered afresh for every
    reader, a tenth of a second of a core for a rubber of a hundred hands, and was not
    counted at all: a crawler asked for every rubber of every season as fast as he liked."""
    crawler = Client(REMOTE_ADDR="203.0.113.9")
    sheet = f"/clubs/somerset/rubbers/{played.rubber.pk}/"
    assert [crawler.get(sheet).status_code for _ in range(3)] == [200] * 3
    assert counted("203.0.113.9") == 3
    assert_refused_in_words(crawler.get(sheet))
    assert Client(REMOTE_ADDR="198.51.100.5").get(sheet).status_code == 200


def test_an_evenings_exports_are_counted_in_the_window(played, three_a_minute):
    """An evening's hands as CSV (a third of a second of a core for an evening of eighty
    rubbers) and its ledger, anyone's at a public club, were held only by the API's rate
    for anonymous callers (THROTTLE_ANON, 600 a minute: some three cores kept busy by one
    address); now they count in the public pages' window, refused in the API's error
    shape with Retry-After."""
    crawler = Client(REMOTE_ADDR="203.0.113.10")
    exports = f"/api/v1/clubs/somerset/evenings/{played.evening.pk}/"
    answers = [crawler.get(exports + name) for name in ("hands.csv", "ledger.csv", "hands.csv")]
    assert [answer.status_code for answer in answers] == [200] * 3
    assert counted("203.0.113.10") == 3
    refused = crawler.get(exports + "ledger.csv")
    assert refused.status_code == 429
    wait = int(refused["Retry-After"])
    assert 1 <= wait <= 60
    error = refused.json()["error"]  # the API's throttles' own words, as for its other rates
    assert error["code"] == "throttled" and f"{wait} seconds" in error["message"]
    # The API's other answers are not counted in it.
    assert crawler.get("/api/v1/clubs/somerset/").status_code == 200


def test_the_apis_costly_reads_count_in_the_window_a_tables_link_its_own(played, three_a_minute):
    """The API's reads of what the throttled pages show, each made afresh for every caller,
    were the way round them at THROTTLE_ANON (600 a minute): a player's record (his hundred
    last rubbers: the page's costliest part, never kept here), an evening's summary (a
    tenth of a second for an evening of eighty rubbers), a rubber with its hands. Now they
    count in the public window; a table's phone, checked by its link before any throttle,
    is counted per its link, not in the room's shared address."""
    crawler = Client(REMOTE_ADDR="203.0.113.11")
    api = "/api/v1/clubs/somerset/"
    reads = [
        f"{api}players/{played.members['Ann'].pk}/",
        f"{api}evenings/{played.evening.pk}/",
        f"{api}rubbers/{played.rubber.pk}/",
    ]
    assert [crawler.get(path).status_code for path in reads] == [200] * 3
    assert counted("203.0.113.11") == 3
    refused = crawler.get(reads[0])
    assert refused.status_code == 429 and refused.json()["error"]["code"] == "throttled"
    # The table's phone at the same address: its own window.
    phone = Client(REMOTE_ADDR="203.0.113.11", HTTP_AUTHORIZATION=f"Table {played.table.token}")
    assert phone.get(reads[1]).status_code == 200
    assert counted("203.0.113.11") == 3
    # A link that opens no table is refused before any count (401), not a fresh window.
    forged = Client(REMOTE_ADDR="203.0.113.11", HTTP_AUTHORIZATION="Table not-a-link")
    assert forged.get(reads[0]).status_code == 401
