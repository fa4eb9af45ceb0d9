"""Attacks on caches, round two: answers that differ by a request header, and costly
answers any visitor can ask for again and again.

- A table's phone page (`/t/<token>/`, a progressive's `/p/<token>/`) answers one address
  with two representations: the whole page, and its live part (a bare fragment, with an
  ETag) to the phone's poll and queue, which send `HX-Request`. Neither said `Vary:
  HX-Request` nor anything of caching: the browser's cache (its Back button) or a proxy
  in front kept the last poll's fragment for the address, and served it for the page.
- /api/schema/ built the whole schema again for every caller, and wrote `?version=` into
  a header (a line break: a 500).
- The API's standings (`.../standings/`) answer JSON, or DRF's browsable page (HTML) to a
  browser's `Accept: text/html`, with one ETag for both: a 304 told a client holding the
  one that it held the other.
"""

import pytest
from django.test import Client
from django.utils.cache import cc_delim_re

from tests.worlds import club_in_play


def _varies_by(response, header: str) -> bool:
    return header.lower() in {h.strip().lower() for h in cc_delim_re.split(response["Vary"])}


@pytest.fixture
def phone_links(db, django_capture_on_commit_callbacks) -> list[str]:
    """The phone pages of an evening's table and of a progressive's table."""
    from tournaments import rounds
    from tournaments.models import TournamentTable
    from tournaments.services import tournament_create

    world = club_in_play(django_capture_on_commit_callbacks)
    with django_capture_on_commit_callbacks(execute=True):
        progressive = tournament_create(
            club=world.club, name="Spring", slug="spring", kind="progressive",
            ruleset="euchre-somerset-1888", movement="rotation", rounds_planned=7,
        )  # fmt: skip
        for name in ["Ann", "Bob", "Cora", "Dan", "Edith", "Frank", "Grace", "Hugh"]:
            rounds.tournament_enter(tournament=progressive, name=name)
        rounds.round_seat_next(tournament_id=progressive.pk)
    at_progressive = TournamentTable.objects.filter(tournament=progressive).first().token
    return [f"/t/{world.table.token}/", f"/p/{at_progressive}/"]


def test_a_phone_pages_live_part_is_never_served_for_the_page(phone_links):
    """Both answers of a phone's address name HX-Request in Vary, so no cache gives the
    poll's fragment for the page (or the page for a poll), and are private: the page is
    its link's, a bearer secret (docs/security.md)."""
    phone = Client()
    for link in phone_links:
        page = phone.get(link)
        part = phone.get(link, headers={"HX-Request": "true"})
        assert page.status_code == part.status_code == 200, link
        assert b"<html" in page.content and b"<html" not in part.content  # two answers
        assert part["ETag"]
        for answer in (page, part):
            assert _varies_by(answer, "HX-Request"), link
            assert "private" in answer["Cache-Control"], link
        # The page asked for with the part's ETag is the page, never a 304 of the part.
        again = phone.get(link, headers={"If-None-Match": part["ETag"]})
        assert again.status_code == 200 and b"<html" in again.content


def test_the_apis_schema_is_built_once_not_for_every_caller(db, monkeypatch):
    """/api/schema/ is open to anyone, 600 times a minute per address (THROTTLE_ANON), and
    built the whole schema again each time (a tenth to a quarter of a second of a core):
    one caller kept both cores busy. It is built once per process and format."""
    from drf_spectacular.generators import SchemaGenerator

    from config import schema_view

    monkeypatch.setattr(schema_view, "_RENDERED", {})  # as a process freshly started
    built = []
    original = SchemaGenerator.get_schema

    def counted(self, *args, **kwargs):
        built.append(1)
        return original(self, *args, **kwargs)

    monkeypatch.setattr(SchemaGenerator, "get_schema", counted)
    caller = Client()
    yaml = [caller.get("/api/schema/") for _ in range(3)]
    json = [caller.get("/api/schema/", {"format": "json"}) for _ in range(3)]
    assert len(built) == 2  # once as YAML, once as JSON
    assert len({answer.content for answer in yaml}) == len({answer.content for answer in json}) == 1
    assert json[0].json()["paths"] and b"openapi:" in yaml[0].content
    assert yaml[0]["Content-Type"].startswith("application/vnd.oai.openapi")


def test_the_schemas_version_and_language_are_no_callers_to_write(db):
    """`?version=` was written into the schema and its Content-Disposition header: a line
    break in it was a 500 for anyone, a quote broke the file name. The API has one
    version, and its words one language (`?lang=`): both are ignored."""
    caller = Client(raise_request_exception=False)
    plain = caller.get("/api/schema/")
    for asked in ["\r\nX-Injected: 1", 'a"b', "9" * 5000]:
        answer = caller.get("/api/schema/", {"version": asked})
        assert answer.status_code == 200, asked
        assert answer.content == plain.content
        assert (
            answer["Content-Disposition"]
            == plain["Content-Disposition"]
            == ('inline; filename="Card club API.yaml"')
        )
    assert caller.get("/api/schema/", {"lang": "fr"}).content == plain.content


def test_the_standings_apis_json_and_html_have_their_own_etags(
    club, evening, django_capture_on_commit_callbacks
):
    """The API's standings, as JSON and as DRF's browsable page (a browser's Accept), are
    two representations of one address: each has its own ETag, and neither's answers the
    other with 304 (each still answers its own)."""
    from tournaments import services

    with django_capture_on_commit_callbacks(execute=True):
        services.tournament_create(
            club=club, name="Ladder", slug="ladder", kind="ladder", evening_ids=[evening.pk]
        )
    standings = f"/api/v1/clubs/{club.slug}/tournaments/ladder/standings/"
    reader = Client()
    as_json = reader.get(standings, headers={"Accept": "application/json"})
    as_html = reader.get(standings, headers={"Accept": "text/html"})
    assert as_json["Content-Type"].startswith("application/json")
    assert as_html["Content-Type"].startswith("text/html")
    assert as_json["ETag"] != as_html["ETag"]
    for accept, other in [("text/html", as_json), ("application/json", as_html)]:
        answer = reader.get(standings, headers={"Accept": accept, "If-None-Match": other["ETag"]})
        assert answer.status_code == 200, accept
    for accept, own in [("application/json", as_json), ("text/html", as_html)]:
        answer = reader.get(standings, headers={"Accept": accept, "If-None-Match": own["ETag"]})
        assert answer.status_code == 304, accept
