"""The standings in the API: `?player=` (django-filter), paged as the public page is, each
figure described in the response and the schema; and an ETag for every representation."""

import pytest
from django.utils.html import escape

from tests.conftest import rows_for_the_module
from tests.tournaments.conftest import crowd_for_the_module
from tournaments.metrics import METRICS

API = "/api/v1/clubs/somerset/tournaments/big/standings/"
PAGE = "/clubs/somerset/tournaments/big/"
FRAGMENT = "/clubs/somerset/tournaments/big/standings/"

# The module's tests only read the crowd: it is made once for them (each test's own
# writes, a standings row cached, are rolled back to its savepoint).
_crowd = rows_for_the_module(crowd_for_the_module)


@pytest.fixture
def crowd_ladder(db, _crowd):
    return _crowd


@pytest.mark.usefixtures("crowd_ladder")
def test_the_api_pages_as_the_page_does(api):
    first = api.get(API).json()
    assert (first["count"], first["page"], first["pages"], first["page_size"]) == (228, 1, 3, 100)
    assert len(first["rows"]) == 100 and first["previous"] is None
    assert first["next"].endswith("standings/?page=2")
    third = api.get(API, {"page": 3}).json()
    assert len(third["rows"]) == 28 and third["next"] is None
    assert third["rows"][0]["rank"] > first["rows"][-1]["rank"]  # places run on
    # A page past the end is the last, as on the page; a page that is no number is refused.
    assert api.get(API, {"page": 9}).json()["page"] == 3
    bad = api.get(API, {"page": "two"})
    assert bad.status_code == 400 and bad.json()["error"]["field"] == "page"


@pytest.mark.usefixtures("crowd_ladder")
def test_one_player_is_found_by_name(api):
    found = api.get(API, {"player": "player 17"}).json()
    assert found["player"] == "player 17"
    assert found["count"] == 10 and {r["name"] for r in found["rows"]} == {
        f"Player {n}" for n in range(170, 180)
    }
    whole = {r["name"]: r["rank"] for r in api.get(API, {"page": 2}).json()["rows"]}
    whole.update({r["name"]: r["rank"] for r in api.get(API).json()["rows"]})
    whole.update({r["name"]: r["rank"] for r in api.get(API, {"page": 3}).json()["rows"]})
    assert all(whole[r["name"]] == r["rank"] for r in found["rows"])  # ranks of the whole
    assert api.get(API, {"player": "Zed"}).json()["rows"] == []
    too_long = api.get(API, {"player": "x" * 81})
    assert too_long.status_code == 400 and too_long.json()["error"]["field"] == "player"


@pytest.mark.usefixtures("crowd_ladder")
def test_every_figure_is_described_in_the_response_and_the_schema(api):
    body = api.get(API).json()
    described = {m["key"]: m["description"] for m in body["metrics"]}
    assert set(described) == set(body["rows"][0]["metrics"])
    assert described["rounds_won"] == METRICS["rounds_won"].description
    assert all(described.values())
    schema = api.get("/api/schema/?format=json").json()
    operation = schema["paths"]["/api/v1/clubs/{slug}/tournaments/{tslug}/standings/"]["get"]
    assert {"player", "page"} <= {p["name"] for p in operation["parameters"]}
    figures = schema["components"]["schemas"]["StandingFiguresOutput"]["properties"]
    assert set(figures) == set(described)
    for key, text in described.items():
        assert text in figures[key]["description"]


@pytest.mark.usefixtures("crowd_ladder")
def test_each_representation_has_its_own_etag(client, api):
    tags = {
        "page": client.get(PAGE)["ETag"],
        "fragment": client.get(FRAGMENT)["ETag"],
        "page 2": client.get(PAGE, {"page": 2})["ETag"],
        "player": client.get(PAGE, {"player": "player 17"})["ETag"],
        "another player": client.get(PAGE, {"player": "player 18"})["ETag"],
        "api": api.get(API)["ETag"],
        "api player": api.get(API, {"player": "player 17"})["ETag"],
    }
    assert len(set(tags.values())) == len(tags), tags
    # No representation's tag answers another with 304.
    assert client.get(PAGE, headers={"If-None-Match": tags["fragment"]}).status_code == 200
    assert client.get(FRAGMENT, headers={"If-None-Match": tags["page"]}).status_code == 200
    assert (
        client.get(PAGE, {"player": "player 17"}, headers={"If-None-Match": tags["page"]})
    ).status_code == 200
    assert api.get(API, {"player": "player 17"}, HTTP_IF_NONE_MATCH=tags["api"]).status_code == 200
    # Each still answers its own with 304 while the version stands.
    assert client.get(FRAGMENT, headers={"If-None-Match": tags["fragment"]}).status_code == 304
    assert api.get(API, HTTP_IF_NONE_MATCH=tags["api"]).status_code == 304
    # The page polls its table with the fragment's tag.
    assert f'data-etag="{escape(tags["fragment"])}"' in client.get(PAGE).content.decode()
