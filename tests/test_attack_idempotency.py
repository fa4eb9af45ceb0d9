"""Attacks on the Idempotency-Key's stored answers (core/idempotency.py): a key another
caller used must never answer with what was stored for that caller.

A stored answer is found by the key, the path and a hash of who asked. Who asked was the
`Authorization` header when there was one, else the session cookie. A header in a scheme
the API does not read (`Bearer`, `Basic`: a client library's default, a proxy's) is
ignored by the API, which then knows the caller by his session; but the stored answers
knew him by that header alone, the same for everyone sending it. Another club's secretary
sending the same header, path, body and key (a script's counter, "1") was answered with
the first secretary's stored answer: a write to a club he may not touch answered as
done, with its row.
"""

import pytest
from django.test import Client

from club.models import Member

IGNORED_SCHEMES = ["Bearer shared-by-the-client-library", "Basic c2VjcmV0YXJ5Og=="]


def _post(client: Client, path: str, body: dict, *, authorization: str, key: str):
    return client.post(
        path,
        body,
        content_type="application/json",
        headers={"Authorization": authorization, "Idempotency-Key": key},
    )


@pytest.mark.parametrize("authorization", IGNORED_SCHEMES)
def test_another_clubs_secretary_is_not_answered_with_a_secretarys_stored_answer(
    club, secretary, other_secretary, authorization, postgres, redis
):
    path = f"/api/v1/clubs/{club.slug}/members/"
    body = {"name": "Eliza Tremont"}
    own, other = Client(), Client()
    own.force_login(secretary)
    other.force_login(other_secretary)

    done = _post(own, path, body, authorization=authorization, key="1")
    assert done.status_code == 201

    tried = _post(other, path, body, authorization=authorization, key="1")
    assert tried.status_code == 403, tried.content
    assert not tried.has_header("Idempotent-Replayed")
    assert str(done.json()["id"]) not in tried.content.decode()
    # The key still does what it is for: the first secretary's retry is his stored answer.
    again = _post(own, path, body, authorization=authorization, key="1")
    assert again["Idempotent-Replayed"] == "true" and again.json() == done.json()
    assert Member.objects.filter(club=club, name="Eliza Tremont").count() == 1


def test_a_replayed_answer_holding_a_tables_link_is_kept_in_no_cache(
    club, secretary, postgres, redis, django_capture_on_commit_callbacks
):
    """A fresh table link's answer says `Cache-Control: no-store` (a bearer secret, kept
    in no cache: club.api_evenings.NO_STORE); its replay for the same key said nothing
    of caching, the link in it."""
    from tests.conftest import token_client
    from tests.worlds import euchre_table

    evening = euchre_table(club)
    api = token_client(secretary)  # a secretary's script, by its API token
    path = f"/api/v1/clubs/{club.slug}/evenings/{evening.pk}/tables/1/new-link/"
    first = api.post(path, headers={"Idempotency-Key": "new-card"})
    again = api.post(path, headers={"Idempotency-Key": "new-card"})
    assert first.status_code == again.status_code == 200
    assert again["Idempotent-Replayed"] == "true"
    assert again.json()["link"] == first.json()["link"]
    for answer in (first, again):
        assert "no-store" in answer["Cache-Control"]
