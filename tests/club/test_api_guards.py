"""The API's one-off actions at an evening take the board's guards: a call retried after a
lost answer acts once. "A fresh link" takes the link as the client last read it
(`link_version`, as the evening's tables list it and a fresh link answers it), "End the
sitting" and "Reopen" the evening's version (`expected_version`). With the guard, the same
call again is refused as the board refuses its form posted twice: 409, the same code and
words, nothing written. Without it the action runs as before; a malformed one is a 400
naming the field."""

import pytest

from club import services
from club.models import EveningEvent, Table
from scoring.models import Rubber
from tests.club.closing_helpers import close_abandoning
from tests.conftest import token_client

pytestmark = pytest.mark.django_db


def base(evening) -> str:
    return f"/api/v1/clubs/{evening.club.slug}/evenings/{evening.pk}"


def logged(evening) -> list[tuple[int, str]]:
    return list(EveningEvent.objects.filter(evening=evening).values_list("seq", "type"))


def link_of(table: Table) -> tuple:
    table = Table.objects.get(pk=table.pk)
    return table.token, table.replaced_token, table.link_issued_at


def error(response) -> dict:
    return response.json()["error"]


# --- a table's fresh link ---------------------------------------------------------------------


def test_the_tables_list_and_a_fresh_link_give_the_links_version(played):
    api = token_client(played.secretary)
    listed = api.get(f"{base(played.evening)}/tables/").json()
    table = Table.objects.get(pk=played.table.pk)
    assert listed[0]["link_version"] == services.phone_link_version(table)
    renewed = api.post(f"{base(played.evening)}/tables/1/new-link/", {}, format="json").json()
    assert renewed["link_version"] == services.phone_link_version(Table.objects.get(pk=table.pk))


def test_a_fresh_link_retried_with_its_link_version_renews_once(played):
    api = token_client(played.secretary)
    url = f"{base(played.evening)}/tables/1/new-link/"
    seen = api.get(f"{base(played.evening)}/tables/").json()[0]["link_version"]
    first = api.post(url, {"link_version": seen}, format="json")
    assert first.status_code == 200
    printed = link_of(played.table)
    assert printed[0] != played.table.token and first.json()["link"].endswith(f"/t/{printed[0]}/")
    again = api.post(url, {"link_version": seen}, format="json")
    assert again.status_code == 409
    assert error(again)["code"] == "link_renewed"
    assert error(again)["message"].startswith("Table 1's link was renewed already at ")
    assert "print its card" in error(again)["message"]
    assert link_of(played.table) == printed  # the card just printed still works
    # With the version the first answer gave, it is renewed again.
    assert api.post(url, {"link_version": first.json()["link_version"]}).status_code == 200
    assert link_of(played.table)[0] != printed[0]


def test_a_fresh_link_version_in_another_notation_of_the_same_moment_is_the_same(played):
    """The moment as the API gave it, written with Z or in another zone, is the same link."""
    import datetime

    api = token_client(played.secretary)
    issued = Table.objects.get(pk=played.table.pk).link_issued_at
    elsewhere = issued.astimezone(datetime.timezone(datetime.timedelta(hours=-5))).isoformat()
    url = f"{base(played.evening)}/tables/1/new-link/"
    assert api.post(url, {"link_version": elsewhere}, format="json").status_code == 200


def test_a_fresh_link_without_its_version_renews_as_before(played):
    api = token_client(played.secretary)
    url = f"{base(played.evening)}/tables/1/new-link/"
    assert api.post(url).status_code == 200
    once = link_of(played.table)
    assert api.post(url).status_code == 200
    assert link_of(played.table)[0] != once[0]


@pytest.mark.parametrize("bad", ["yesterday", "2026-11-28T00:10:00", "", 7, "9" * 70])
def test_a_malformed_link_version_is_a_400_naming_it(played, bad):
    api = token_client(played.secretary)
    before = link_of(played.table)
    refused = api.post(
        f"{base(played.evening)}/tables/1/new-link/", {"link_version": bad}, format="json"
    )
    assert refused.status_code == 400
    assert error(refused)["field"] == "link_version"
    assert link_of(played.table) == before


# --- "End the sitting" and "Reopen": the evening's version ------------------------------------


def test_a_sitting_ended_twice_with_the_version_ends_once(call_ace):
    api = token_client(call_ace.club.secretaries.get())
    url = f"{base(call_ace)}/tables/1/close-sitting/"
    seen = api.get(f"{base(call_ace)}/").json()["evening"]["version"]
    assert api.post(url, {"expected_version": seen}, format="json").status_code == 200
    sittings, log = (
        list(Rubber.objects.filter(evening=call_ace).values("pk", "status")),
        logged(call_ace),
    )
    again = api.post(url, {"expected_version": seen}, format="json")
    assert again.status_code == 409
    assert error(again)["code"] == "stale"
    assert error(again)["message"].startswith("The evening has moved on (version ")
    assert list(Rubber.objects.filter(evening=call_ace).values("pk", "status")) == sittings
    assert logged(call_ace) == log


def test_a_sitting_ended_without_the_version_as_before_and_a_bad_one_refused(call_ace):
    api = token_client(call_ace.club.secretaries.get())
    url = f"{base(call_ace)}/tables/1/close-sitting/"
    log = logged(call_ace)
    for bad in ("seven", -1, "٣"):
        refused = api.post(url, {"expected_version": bad}, format="json")
        assert refused.status_code == 400 and error(refused)["field"] == "expected_version"
    assert logged(call_ace) == log
    assert api.post(url).status_code == 200
    assert Rubber.objects.get(evening=call_ace).status != Rubber.Status.IN_PROGRESS


def test_a_reopen_retried_after_the_evening_closed_again_is_refused(played):
    api = token_client(played.secretary)
    close_abandoning(played.evening.pk)
    seen = api.get(f"{base(played.evening)}/").json()["evening"]["version"]
    url = f"{base(played.evening)}/reopen/"
    body = {"reason": "a hand missed", "expected_version": seen}
    reopened = api.post(url, body, format="json")
    assert reopened.status_code == 200 and reopened.json()["status"] == "open"
    close_abandoning(played.evening.pk)  # closed again meanwhile
    log = logged(played.evening)
    again = api.post(url, body, format="json")
    assert again.status_code == 409 and error(again)["code"] == "stale"
    played.evening.refresh_from_db()
    assert played.evening.status == "closed" and logged(played.evening) == log
    bad = api.post(url, {"reason": "a hand missed", "expected_version": "x"}, format="json")
    assert bad.status_code == 400 and error(bad)["field"] == "expected_version"
    assert api.post(url, {"reason": "a hand missed"}, format="json").status_code == 200


def test_the_schema_documents_the_guards(played):
    schema = token_client(played.secretary).get("/api/schema/?format=json").json()
    bodies = schema["components"]["schemas"]
    paths = schema["paths"]

    def body_of(path: str) -> dict:
        ref = paths[path]["post"]["requestBody"]["content"]["application/json"]["schema"]["$ref"]
        return bodies[ref.rsplit("/", 1)[1]]["properties"]

    prefix = "/api/v1/clubs/{slug}/evenings/{id}"
    link = body_of(f"{prefix}/tables/{{number}}/new-link/")["link_version"]
    assert "twice" in link["description"] and "as before" in link["description"]
    for path in (f"{prefix}/tables/{{number}}/close-sitting/", f"{prefix}/reopen/"):
        guard = body_of(path)["expected_version"]
        assert "twice" in guard["description"] and "as before" in guard["description"]
    listed = paths[f"{prefix}/tables/"]["get"]["responses"]["200"]["content"]
    ref = listed["application/json"]["schema"]["items"]["$ref"].rsplit("/", 1)[1]
    assert "link_version" in bodies[ref]["properties"]
