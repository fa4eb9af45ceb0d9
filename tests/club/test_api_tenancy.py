"""No request reaches another club's private data; writes need the club's own secretary."""

import pytest

from tests.factories import MemberFactory


@pytest.fixture
def private_club(club):
    club.is_public = False
    club.save()
    MemberFactory(club=club, name="Ann")
    return club


@pytest.fixture
def clients(api, secretary_api, other_secretary_api):
    return {"anonymous": api, "secretary": secretary_api, "other": other_secretary_api}


def urls(club):
    member = club.members.get(name="Ann")
    return [
        f"/api/v1/clubs/{club.slug}/",
        f"/api/v1/clubs/{club.slug}/members/",
        f"/api/v1/clubs/{club.slug}/members/{member.pk}/",
    ]


@pytest.mark.parametrize(
    ("who", "expected"), [("anonymous", 404), ("other", 404), ("secretary", 200)]
)
def test_private_club_reads(private_club, clients, who, expected):
    for url in urls(private_club):
        response = clients[who].get(url)
        assert response.status_code == expected, url
        if expected == 404:
            assert response.json()["error"]["code"] == "not_found"
            assert "Ann" not in response.content.decode()


@pytest.mark.parametrize("who", ["anonymous", "other", "secretary"])
def test_private_club_is_left_out_of_the_club_list(private_club, clients, who):
    slugs = [c["slug"] for c in clients[who].get("/api/v1/clubs/").json()["results"]]
    assert (private_club.slug in slugs) is (who == "secretary")


def test_public_club_is_readable_by_anyone(club, api):
    MemberFactory(club=club, name="Ann")
    assert api.get(f"/api/v1/clubs/{club.slug}/").status_code == 200
    names = [m["name"] for m in api.get(f"/api/v1/clubs/{club.slug}/members/").json()["results"]]
    assert names == ["Ann"]


@pytest.mark.parametrize(("who", "expected"), [("anonymous", 401), ("other", 403)])
def test_writes_to_a_public_club_need_its_secretary(club, secretary, clients, who, expected):
    member = MemberFactory(club=club, name="Ann")
    client = clients[who]
    assert client.post(f"/api/v1/clubs/{club.slug}/members/", {"name": "Bob"}).status_code in {
        expected,
        403,
    }
    assert client.patch(f"/api/v1/clubs/{club.slug}/", {"name": "Hijacked"}).status_code in {
        expected,
        403,
    }
    assert client.delete(f"/api/v1/clubs/{club.slug}/members/{member.pk}/").status_code in {
        expected,
        403,
    }
    club.refresh_from_db()
    assert club.name == "Somerset Club"
    assert list(club.members.values_list("name", flat=True)) == ["Ann"]


@pytest.mark.parametrize("who", ["anonymous", "other"])
def test_writes_to_a_private_club_answer_not_found(private_club, clients, who):
    response = clients[who].post(f"/api/v1/clubs/{private_club.slug}/members/", {"name": "Bob"})
    assert response.status_code == 404
    assert not private_club.members.filter(name="Bob").exists()


def test_a_member_of_another_club_is_not_found_through_this_club(club, other_club, secretary_api):
    stranger = MemberFactory(club=other_club, name="Zed")
    response = secretary_api.get(f"/api/v1/clubs/{club.slug}/members/{stranger.pk}/")
    assert response.status_code == 404


def test_secretary_manages_the_roster(club, secretary_api):
    created = secretary_api.post(f"/api/v1/clubs/{club.slug}/members/", {"name": "Ann"})
    assert created.status_code == 201
    duplicate = secretary_api.post(f"/api/v1/clubs/{club.slug}/members/", {"name": "ann"})
    assert duplicate.status_code == 400
    assert duplicate.json()["error"]["field"] == "name"
    pk = created.json()["id"]
    renamed = secretary_api.patch(f"/api/v1/clubs/{club.slug}/members/{pk}/", {"name": "Anne"})
    assert renamed.json()["name"] == "Anne"
    assert secretary_api.delete(f"/api/v1/clubs/{club.slug}/members/{pk}/").status_code == 204
    assert not club.members.exists()


def test_only_staff_create_clubs(secretary_api, staff_api, secretary):
    body = {"name": "Union Club", "slug": "union", "currency": "GBP", "secretary": "secretary"}
    assert secretary_api.post("/api/v1/clubs/", body).status_code == 403
    response = staff_api.post("/api/v1/clubs/", body)
    assert response.status_code == 201
    assert secretary.clubs.filter(slug="union").exists()
    again = staff_api.post("/api/v1/clubs/", body)
    assert again.status_code == 400
    assert again.json()["error"]["field"] == "slug"


def test_validation_errors_have_the_one_shape(club, secretary_api):
    response = secretary_api.patch(f"/api/v1/clubs/{club.slug}/", {"currency": "dollars"})
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "invalid"
    assert error["field"] == "currency"
    assert set(error) >= {"code", "message", "field", "law"}


def test_page_size_is_capped(club, api):
    MemberFactory.create_batch(205, club=club)
    page = api.get(f"/api/v1/clubs/{club.slug}/members/?page_size=1000").json()
    assert len(page["results"]) == 200
    assert page["count"] == 205


def test_a_refused_read_of_the_officers_own_says_read_not_change(
    club, evening, other_secretary_api
):
    """An evening's log and its tables' links are the club's secretary's alone, even at a
    public club. Another club's secretary reading them was refused with "Only the club's
    secretary may change this.": he changed nothing. The refusal says what he tried."""
    for url in (
        f"/api/v1/clubs/{club.slug}/evenings/{evening.pk}/log/",
        f"/api/v1/clubs/{club.slug}/evenings/{evening.pk}/tables/",
    ):
        response = other_secretary_api.get(url)
        assert response.status_code == 403, url
        assert response.json()["error"]["message"] == "Only the club's secretary may read this."
    refused = other_secretary_api.post(
        f"/api/v1/clubs/{club.slug}/evenings/{evening.pk}/events/",
        {"type": "arrive", "player": "Zed"},
        format="json",
    )
    assert refused.status_code == 403
    assert refused.json()["error"]["message"] == "Only the club's secretary may change this."
