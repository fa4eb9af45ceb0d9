"""A secretary's API token does not outlive the reason it was given (club/secretary_tokens.py).

It ends when the account's password changes (whichever way: the admin, `manage.py
changepassword`, quickstart's fresh demo password), when it is logged out
(`POST /api/v1/auth/logout/`), and API_TOKEN_DAYS after the login that gave it; each is
refused with 401 saying in words why. A fresh login gives a working token, and a table's
phone link (`Authorization: Table ...`) lives its own life, untouched by any of this.
"""

import datetime
from unittest import mock

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import PasswordChangeForm, SetPasswordForm
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from tests.factories import UserFactory
from tests.worlds import club_in_play

PASSWORD = "correct horse battery"  # tests.factories.UserFactory's
NEW_PASSWORD = "a quite different horse"
ME = "/api/v1/me/"
LOGIN = "/api/v1/auth/token/"
LOGOUT = "/api/v1/auth/logout/"


def log_in(username="secretary", password=PASSWORD) -> APIClient:
    """A client holding the token a login through the API gave."""
    response = APIClient().post(LOGIN, {"username": username, "password": password})
    assert response.status_code == 200, response.content
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {response.json()['token']}")
    return client


def refused(response, code: str) -> str:
    """The refusal's message, after checking it is a 401 with this code."""
    assert response.status_code == 401, response.content
    error = response.json()["error"]
    assert error["code"] == code, error
    return error["message"]


@pytest.fixture
def secretary(db):
    return UserFactory(username="secretary")


# --- A password change ends every token of the account ----------------------------------

PASSWORD_CHANGED = "This token ended when the account's password was changed"
LOG_IN_AGAIN = "; log in again to get a new one."


def change_in_the_admin(user, admin_client):
    response = admin_client.post(
        f"/admin/auth/user/{user.pk}/password/",
        {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD, "usable_password": "true"},
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    assert get_user_model().objects.get(pk=user.pk).check_password(NEW_PASSWORD)
    return NEW_PASSWORD


def change_by_the_command(user, admin_client):
    with mock.patch("getpass.getpass", return_value=NEW_PASSWORD):
        call_command("changepassword", user.username, stdout=mock.MagicMock())
    return NEW_PASSWORD


def change_by_a_reset(user, admin_client):
    """Django's form for a password reset's link (and for any page setting a password)."""
    form = SetPasswordForm(user, {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})
    assert form.is_valid(), form.errors
    form.save()
    return NEW_PASSWORD


def change_by_its_owner(user, admin_client):
    """Django's form where the owner types his old password, then the new one."""
    form = PasswordChangeForm(
        user,
        {"old_password": PASSWORD, "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )
    assert form.is_valid(), form.errors
    form.save()
    return NEW_PASSWORD


def change_by_set_password(user, admin_client):
    user.set_password(NEW_PASSWORD)
    user.save()
    return NEW_PASSWORD


def change_to_the_same_password(user, admin_client):
    """Set again, by someone who means to: a new salt, and every token ends, as Django's
    sessions do. Only Django's own re-hash of a password it has just checked is no change."""
    user.set_password(PASSWORD)
    user.save()
    return PASSWORD


def change_by_assigning_a_hash(user, admin_client):
    """A script writing a hash it made, saving the password alone: not taken for a re-hash
    (the account's hash was the preferred hasher's already)."""
    from django.contrib.auth.hashers import make_password

    user.password = make_password(NEW_PASSWORD)
    user.save(update_fields=["password"])
    return NEW_PASSWORD


def change_by_an_update(user, admin_client):
    """Behind the model's back (a shell, a script): the token still sees it."""
    from django.contrib.auth.hashers import make_password

    get_user_model().objects.filter(pk=user.pk).update(password=make_password(NEW_PASSWORD))
    return NEW_PASSWORD


def disable_in_the_admin(user, admin_client):
    """The admin's "password-based authentication: disabled" (an unusable password)."""
    response = admin_client.post(
        f"/admin/auth/user/{user.pk}/password/",
        {"usable_password": "false", "unset-password": "Disable password-based authentication"},
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    assert not get_user_model().objects.get(pk=user.pk).has_usable_password()
    return None


CHANGES = [
    change_in_the_admin,
    change_by_the_command,
    change_by_a_reset,
    change_by_its_owner,
    change_by_set_password,
    change_to_the_same_password,
    change_by_assigning_a_hash,
    change_by_an_update,
    disable_in_the_admin,
]


@pytest.mark.parametrize("change", CHANGES, ids=lambda f: f.__name__)
def test_a_password_change_ends_every_token_of_the_account(secretary, admin_client, change):
    laptop, script = log_in(), log_in()
    other = UserFactory(username="other")
    others = log_in("other")
    assert laptop.get(ME).status_code == script.get(ME).status_code == 200
    password = change(secretary, admin_client)
    for client in (laptop, script):
        message = refused(client.get(ME), "token_password_changed")
        if change is change_by_an_update:  # no save: when it was done is not known
            assert message == PASSWORD_CHANGED + LOG_IN_AGAIN
        else:
            assert message.startswith(PASSWORD_CHANGED + " at "), message
            assert message.endswith(LOG_IN_AGAIN)
    assert others.get(ME).json()["username"] == other.username  # only that account's
    if password is not None:
        assert log_in(password=password).get(ME).json()["username"] == "secretary"


def test_quickstarts_fresh_demo_password_ends_the_demo_secretarys_tokens(db):
    from club.management.commands import load_demo, quickstart

    call_command("load_demo", stdout=mock.MagicMock())
    demo = log_in(password=load_demo.DEMO_PASSWORD)
    password = quickstart.login_password(private=True)
    assert password != load_demo.DEMO_PASSWORD
    assert refused(demo.get(ME), "token_password_changed").startswith(PASSWORD_CHANGED)
    assert log_in(password=password).get(ME).status_code == 200


# --- A re-hash of the same password is no change ----------------------------------------

MD5 = "django.contrib.auth.hashers.MD5PasswordHasher"  # tests/conftest.py's _fast_passwords
FEW_ITERATIONS = "tests.hashers.FewIterations"
MORE_ITERATIONS = "tests.hashers.MoreIterations"

# The hashers when the token is given, then when the password is next checked, and how the
# hash Django writes then begins.
UPGRADES = {
    "preferred_hasher_changed": ([MD5], [FEW_ITERATIONS, MD5], "pbkdf2_sha256$2$"),
    "iterations_changed": ([FEW_ITERATIONS], [MORE_ITERATIONS], "pbkdf2_sha256$3$"),
}


def rehash_at_an_api_login(user):
    log_in()


def rehash_at_the_login_form(user):
    response = Client().post(reverse("login"), {"username": "secretary", "password": PASSWORD})
    assert response.status_code == 302, response.content.decode()[:2000]


def rehash_at_the_people_page(user):
    """Another club's secretary names him an officer, and he types his own password to
    agree (club.people.club_officer_add): checked as a login's is."""
    from tests.factories import ClubFactory

    bath = ClubFactory(slug="bath")
    bath.secretaries.add(UserFactory(username="bath-secretary"))
    browser = Client()
    browser.force_login(bath.secretaries.get())
    response = browser.post(
        "/secretary/clubs/bath/people/",
        {"action": "add", "username": "secretary", "role": "director",
         "password": PASSWORD, "password2": PASSWORD},
    )  # fmt: skip
    assert response.status_code == 302, response.content.decode()[:2000]


def rehash_by_check_password(user):
    assert user.check_password(PASSWORD)


REHASHES = [
    rehash_at_an_api_login,
    rehash_at_the_login_form,
    rehash_at_the_people_page,
    rehash_by_check_password,
]


def stored_password(user) -> str:
    return get_user_model().objects.get(pk=user.pk).password


@pytest.mark.parametrize("rehash", REHASHES, ids=lambda f: f.__name__)
@pytest.mark.parametrize("upgrade", UPGRADES.values(), ids=UPGRADES.keys())
def test_a_rehash_of_the_same_password_ends_no_token(secretary, settings, upgrade, rehash):
    """Django re-hashes a password it has just checked when the preferred hasher or its
    iterations changed: the same password, a new hash. The account's tokens live on, and
    still end at a real change afterwards."""
    before, after, rehashed = upgrade
    settings.PASSWORD_HASHERS = before
    change_to_the_same_password(secretary, None)  # hashed by the hasher of before
    laptop = log_in()
    hashed = stored_password(secretary)
    settings.PASSWORD_HASHERS = after
    rehash(get_user_model().objects.get(pk=secretary.pk))
    assert stored_password(secretary).startswith(rehashed), (hashed, stored_password(secretary))
    assert laptop.get(ME).json()["username"] == "secretary"
    assert log_in().get(ME).json()["username"] == "secretary"
    change_by_set_password(get_user_model().objects.get(pk=secretary.pk), None)
    assert refused(laptop.get(ME), "token_password_changed").startswith(PASSWORD_CHANGED)


def test_a_token_that_expired_before_the_password_changed_is_told_it_expired(secretary):
    laptop = log_in()
    with later(days=31):
        change_by_set_password(secretary, None)
        assert "30 days after the login" in refused(laptop.get(ME), "token_expired")


def test_a_token_ended_by_a_password_change_is_told_so_after_its_days(secretary):
    laptop = log_in()
    change_by_set_password(secretary, None)
    with later(days=31):
        assert refused(laptop.get(ME), "token_password_changed").startswith(PASSWORD_CHANGED)


# --- Logging out through the API ends the token it was sent with -------------------------


def test_logging_out_ends_the_token_it_was_sent_with_and_no_other(secretary):
    laptop, script = log_in(), log_in()
    response = laptop.post(LOGOUT)
    assert response.status_code == 204, response.content
    message = refused(laptop.get(ME), "token_logged_out")
    assert message.startswith("This token ended when it was logged out at ")
    assert message.endswith("; log in again to get a new one.")
    assert script.get(ME).json()["username"] == "secretary"  # the other login's token lives
    # Logging out again says the same, and changes nothing.
    assert refused(laptop.post(LOGOUT), "token_logged_out") == message
    assert log_in().get(ME).json()["username"] == "secretary"


def test_logging_out_without_a_token_is_refused_in_words(db):
    response = APIClient().post(LOGOUT)
    assert response.status_code == 401
    assert "Authorization: Token" in response.json()["error"]["message"]


def test_a_table_link_is_not_logged_out(db, django_capture_on_commit_callbacks):
    played = club_in_play(django_capture_on_commit_callbacks)
    phone = APIClient()
    phone.credentials(HTTP_AUTHORIZATION=f"Table {played.table.token}")
    response = phone.post(LOGOUT)
    assert response.status_code == 403
    assert "fresh link" in response.json()["error"]["message"]
    assert phone.get(ME).json()["table"]["number"] == 1


def test_logging_out_a_session_through_the_api_ends_the_session(secretary):
    browser = APIClient(enforce_csrf_checks=True)
    browser.force_login(secretary)
    assert browser.get(ME).json()["username"] == "secretary"
    csrf = APIClient(enforce_csrf_checks=True)
    csrf.force_login(secretary)
    assert csrf.post(LOGOUT).status_code == 403  # a session's post needs its CSRF token
    browser.cookies["csrftoken"] = "k" * 32  # the CSRF cookie a page of the site sets
    assert browser.post(LOGOUT, HTTP_X_CSRFTOKEN="k" * 32).status_code == 204
    assert browser.get(ME).json()["username"] is None


# --- Tokens expire API_TOKEN_DAYS after the login that gave them --------------------------


def later(**delta):
    """Every clock of the service moved on by `delta` (timezone.now is what it reads)."""
    moved = timezone.now() + datetime.timedelta(**delta)
    return mock.patch("django.utils.timezone.now", return_value=moved)


def test_a_token_expires_its_days_after_the_login_that_gave_it(secretary, settings):
    assert settings.API_TOKEN_DAYS == 30
    laptop = log_in()
    with later(days=29, hours=23):
        assert laptop.get(ME).status_code == 200  # used or not, its days count from issue
    with later(days=30, seconds=1):
        message = refused(laptop.get(ME), "token_expired")
    assert message.startswith("This token expired at ")
    assert "30 days after the login that gave it" in message
    assert message.endswith("log in again to get a new one.")


def test_the_days_a_token_lives_are_a_setting(secretary, settings):
    settings.API_TOKEN_DAYS = 1
    laptop = log_in()
    with later(hours=23):
        assert laptop.get(ME).status_code == 200
    with later(days=1, seconds=1):
        assert "1 day after the login" in refused(laptop.get(ME), "token_expired")


@pytest.mark.parametrize("days", ["0", "-3", "3651"])
def test_a_token_life_of_no_days_or_past_ten_years_is_refused_at_start(days):
    from tests.config.test_settings import run_check

    result = run_check({"API_TOKEN_DAYS": days})
    assert result.returncode != 0
    assert "API_TOKEN_DAYS is a number of days from 1 to 3650." in result.stderr


def test_a_fresh_login_gives_a_working_token_with_its_end(secretary):
    old = log_in()
    with later(days=31):
        assert refused(old.get(ME), "token_expired")
        response = APIClient().post(LOGIN, {"username": "secretary", "password": PASSWORD})
        assert response.status_code == 200
        body = response.json()
        fresh = APIClient()
        fresh.credentials(HTTP_AUTHORIZATION=f"Token {body['token']}")
        assert fresh.get(ME).json()["username"] == "secretary"
        expires = datetime.datetime.fromisoformat(body["expires"])
        assert expires == timezone.now() + datetime.timedelta(days=30)


def test_an_unknown_token_is_refused_in_words(db):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Token 0123456789abcdef")
    message = refused(client.get(ME), "authentication_failed")
    assert "log in again" in message


def test_a_disabled_accounts_token_is_refused(secretary):
    laptop = log_in()
    get_user_model().objects.filter(pk=secretary.pk).update(is_active=False)
    assert "disabled" in refused(laptop.get(ME), "authentication_failed")


# --- Why a token ended is told for a year, for an account's last ended tokens ------------


def end_by_logging_out(client, user):
    assert client.post(LOGOUT).status_code == 204
    return PASSWORD


def end_by_a_password_change(client, user):
    return change_by_set_password(user, None)


def end_of_age(client, user):
    return PASSWORD  # its days run out below


ENDINGS = {
    "token_logged_out": end_by_logging_out,
    "token_password_changed": end_by_a_password_change,
    "token_expired": end_of_age,
}


@pytest.mark.parametrize("code", ENDINGS)
def test_why_a_token_ended_is_told_for_a_year_after_its_days(secretary, code):
    """The logins that follow (each purges what is past keeping) leave an ended token's
    reason for a year after its days were up; then it is not known."""
    held = log_in()
    password = ENDINGS[code](held, secretary)
    for days in (31, 61, 200, 30 + 364):
        with later(days=days):
            log_in(password=password)
            assert refused(held.get(ME), code)
    with later(days=30 + 366):
        log_in(password=password)
        message = refused(held.get(ME), "authentication_failed")
    assert message.startswith("This token is not known")


def test_an_account_keeps_why_its_last_ended_tokens_ended_and_no_more(secretary, monkeypatch):
    """Bounded by count as well as by time: a script logging in for every run leaves no
    more than the last REASONS_KEPT_PER_ACCOUNT ended tokens of its account; live ones are
    never trimmed, and another account's are its own."""
    from club import secretary_tokens
    from club.models import ApiToken

    other = UserFactory(username="other")
    ended = {secretary: [], other: []}
    for minutes in range(6):
        with later(minutes=minutes):
            for user in ended:
                key, token = secretary_tokens.token_issue(user=user)
                secretary_tokens.token_logout(token=token)
                ended[user].append(key)
    live = [secretary_tokens.token_issue(user=secretary)[0] for _ in range(4)]
    monkeypatch.setattr(secretary_tokens, "REASONS_KEPT_PER_ACCOUNT", 3)
    with later(minutes=10):
        log_in()

    def answer(key):
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
        response = client.get(ME)
        return response.json()["error"]["code"] if response.status_code == 401 else "live"

    assert [answer(key) for key in ended[secretary]] == ["authentication_failed"] * 3 + [
        "token_logged_out"
    ] * 3
    assert [answer(key) for key in live] == ["live"] * 4
    assert [answer(key) for key in ended[other]] == ["token_logged_out"] * 6
    assert ApiToken.objects.filter(user=secretary).count() == 3 + 4 + 1


# --- A table's phone link is none of this -------------------------------------------------


def test_a_table_link_lives_on_whatever_its_secretary_does(
    db, django_capture_on_commit_callbacks, admin_client
):
    played = club_in_play(django_capture_on_commit_callbacks)
    phone = APIClient()
    phone.credentials(HTTP_AUTHORIZATION=f"Table {played.table.token}")
    secretary = log_in()
    assert secretary.post(LOGOUT).status_code == 204
    change_in_the_admin(played.secretary, admin_client)
    with later(days=31):  # a table link's own life is its evening's, not a token's days
        assert refused(secretary.get(ME), "token_logged_out")
    me = phone.get(ME).json()
    assert me["table"] == {"club": "somerset", "evening": played.evening.pk, "number": 1}
    hand = {"hand": {"makers": "NS", "tricks": 3}}
    url = f"/api/v1/clubs/somerset/evenings/{played.evening.pk}/tables/1/hands/"
    assert phone.post(url, hand, format="json").status_code == 201


# --- What is stored, and the tokens DRF's table held ------------------------------------


def test_only_the_keys_digest_is_stored(secretary):
    from club.models import ApiToken

    key = APIClient().post(LOGIN, {"username": "secretary", "password": PASSWORD}).json()["token"]
    token = ApiToken.objects.get(user=secretary)
    assert key not in {token.digest, token.password_stamp}
    assert secretary.password not in token.password_stamp


def test_the_tokens_drf_held_are_carried_over_with_their_age(secretary):
    """Migration club 0011: a client's existing key goes on working until its days are
    up; one issued long ago is expired, in words; DRF's table keeps no key."""
    import importlib

    from django.apps import apps
    from rest_framework.authtoken.models import Token

    fresh = Token.objects.create(user=secretary)
    old = Token.objects.create(user=UserFactory(username="old-hand"))
    Token.objects.filter(pk=old.pk).update(created=timezone.now() - datetime.timedelta(days=40))
    migration = importlib.import_module("club.migrations.0011_api_tokens")
    migration.carry_over_drf_tokens(apps, None)
    assert not Token.objects.exists()
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {fresh.key}")
    assert client.get(ME).json()["username"] == "secretary"
    client.credentials(HTTP_AUTHORIZATION=f"Token {old.key}")
    assert "30 days after the login" in refused(client.get(ME), "token_expired")


def test_the_admin_lists_tokens_and_why_each_ended(secretary, admin_client):
    laptop = log_in()
    log_in()
    laptop.post(LOGOUT)
    page = admin_client.get("/admin/club/apitoken/")
    assert page.status_code == 200
    text = page.content.decode()
    assert "live" in text and "This token ended when it was logged out" in text
    assert admin_client.get("/admin/club/apitoken/add/").status_code == 403
    assert admin_client.get("/admin/authtoken/tokenproxy/").status_code == 404


# --- An account holds at most API_TOKENS_PER_ACCOUNT live tokens ------------------------------


def test_a_login_past_the_most_live_tokens_ends_the_oldest_in_words(secretary, settings):
    """A script logging in on every run, or a stolen password used from many places, cannot
    pile tokens up: the oldest ends, told why; the others, and the new one, work."""
    settings.API_TOKENS_PER_ACCOUNT = 3
    first, second, third = log_in(), log_in(), log_in()
    assert all(c.get(ME).status_code == 200 for c in (first, second, third))
    fourth = log_in()
    message = refused(first.get(ME), "token_replaced")
    assert message.startswith("This token ended at ")
    assert (
        "when its account logged in again holding 3 live tokens already, the most an account "
        "holds: the oldest ends" + LOG_IN_AGAIN
    ) in message
    assert all(c.get(ME).status_code == 200 for c in (second, third, fourth))
    from club.models import ApiToken

    rows = ApiToken.objects.filter(user=secretary)
    assert rows.count() == 4  # the ended one kept, to say why
    assert rows.filter(ended_at=None).count() == 3


def test_a_logged_out_token_does_not_count_among_the_live(secretary, settings):
    settings.API_TOKENS_PER_ACCOUNT = 2
    first, second = log_in(), log_in()
    assert second.post(LOGOUT).status_code == 204
    log_in()  # the second is ended already: the first lives on
    assert first.get(ME).status_code == 200
