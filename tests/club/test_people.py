"""A club's officers (issue #16, item 4): `manage.py create_secretary` and the people page
where a club's secretaries add and remove its secretaries and tournament directors."""

import io

import pytest
from axes.models import AccessAttempt
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

from config.throttles import LoginRateThrottle
from tests.factories import UserFactory

STRONG = "lone-hand-march-1888"


def create_secretary(*args, **options):
    out = io.StringIO()
    call_command("create_secretary", *args, stdout=out, **options)
    return out.getvalue()


@pytest.fixture
def typed(monkeypatch):
    """What the operator types at getpass's prompts, in order."""
    answers = []
    monkeypatch.setattr(
        "club.management.commands.create_secretary.getpass.getpass",
        lambda prompt="": answers.pop(0),
    )
    return answers


# --- the command ------------------------------------------------------------------------


def test_the_first_secretary_is_made_at_the_prompt(club, typed):
    typed.extend([STRONG, STRONG])
    out = create_secretary("somerset", "eliza")
    user = get_user_model().objects.get(username="eliza")
    assert "eliza is now a secretary of Somerset Club" in out
    assert list(club.secretaries.all()) == [user] and not club.directors.exists()
    assert user.check_password(STRONG)
    assert not user.is_staff


def test_a_director_from_the_environment(club, monkeypatch):
    monkeypatch.setenv("DIRECTOR_PASSWORD", STRONG)
    out = create_secretary(
        "somerset", "tom", "--director", "--password-from-env", "DIRECTOR_PASSWORD"
    )
    assert "tom is now a tournament director of Somerset Club" in out
    assert [u.username for u in club.directors.all()] == ["tom"]
    assert not club.secretaries.exists()


@pytest.mark.parametrize(
    ("args", "env", "answers", "words"),
    [
        (("nowhere", "eliza"), {}, [], "There is no club with the address 'nowhere'. The clubs"),
        (("somerset", "secretary"), {}, [], "There is an account called 'secretary' already."),
        (("somerset", "eliza", "--password-from-env", "UNSET_VAR"), {}, [],
         "The environment variable UNSET_VAR is not set, or empty."),
        (("somerset", "eliza"), {}, [STRONG, "something-else-1888"], "The two passwords differ."),
        (("somerset", "eliza"), {}, ["", ""], "No password given."),
        (("somerset", "eliza"), {}, ["12345678", "12345678"], "This password is too common."),
        (("somerset", "eliza", "--password-from-env", "SHORT"), {"SHORT": "euchre"}, [],
         "This password is too short."),
        (("somerset", "eliza smith"), {}, [STRONG, STRONG], "A login name is letters, digits"),
    ],
)  # fmt: skip
def test_the_command_refuses_and_makes_nothing(
    club, secretary, typed, monkeypatch, args, env, answers, words
):
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    monkeypatch.delenv("UNSET_VAR", raising=False)
    typed.extend(answers)
    with pytest.raises(CommandError) as refused:
        create_secretary(*args)
    assert words in str(refused.value)
    assert get_user_model().objects.count() == 1  # the secretary fixture alone
    assert list(club.secretaries.all()) == [secretary] and not club.directors.exists()


# --- the people page -----------------------------------------------------------------------


@pytest.fixture
def people(client, secretary, club):
    client.force_login(secretary)
    return f"/secretary/clubs/{club.slug}/people/"


def test_a_secretary_adds_a_new_director_and_an_existing_secretary(client, people, club, secretary):
    page = client.get(people)
    assert page.status_code == 200 and "Tournament directors" in page.content.decode()
    response = client.post(
        people,
        {"action": "add", "username": "tom", "full_name": "Tom Moore", "role": "director",
         "password": STRONG, "password2": STRONG},
        follow=True,
    )  # fmt: skip
    assert response.redirect_chain == [(people, 302)]  # asked for again: a reload posts nothing
    assert (
        "A new account, tom, is now a tournament director of the club." in response.content.decode()
    )
    tom = get_user_model().objects.get(username="tom")
    assert tom.get_full_name() == "Tom Moore" and list(club.directors.all()) == [tom]
    assert tom.check_password(STRONG)
    # Someone who has an account (of no club of this secretary's) types its own password.
    existing = UserFactory(username="eliza")
    response = client.post(
        people,
        {"action": "add", "username": "Eliza", "role": "secretary",
         "password": "correct horse battery", "password2": "correct horse battery"},
        follow=True,
    )  # fmt: skip
    assert "eliza, is now a secretary" in response.content.decode()
    assert set(club.secretaries.all()) == {secretary, existing}
    # An officer of his clubs (now eliza, or tom) needs no password: he sees them already.
    response = client.post(
        people, {"action": "add", "username": "tom", "role": "secretary"}, follow=True
    )
    assert "tom, is now a secretary" in response.content.decode()


@pytest.mark.parametrize(
    ("form", "field", "words"),
    [
        ({"username": "nobody"}, "password",
         "&#x27;nobody&#x27; is no officer of your clubs: someone who has an account"),
        ({"username": "tom", "password": STRONG, "password2": "other"}, "password",
         "The two passwords differ."),
        ({"username": "tom", "password": "12345678", "password2": "12345678"}, "password",
         "This password is too common."),
        ({"username": "secretary"}, "username", "secretary is a secretary of the club already."),
        # An empty form: a login name is asked for, not "'' is no officer of your clubs".
        ({}, "username", "Write the login name of the person to add."),
        ({"username": "  ", "password": STRONG, "password2": STRONG}, "username",
         "Write the login name of the person to add."),
        ({"username": "tom", "role": "treasurer", "password": STRONG, "password2": STRONG},
         "role", "Choose a role: secretary or tournament director."),
    ],
)  # fmt: skip
def test_an_officer_refused_says_why_beside_the_field(client, people, club, form, field, words):
    response = client.post(people, {"action": "add", "role": "secretary", **form})
    assert response.status_code == 400
    assert field in response.context["errors"]
    assert words in response.content.decode()
    assert not get_user_model().objects.filter(username="tom").exists()
    assert club.secretaries.count() == 1 and not club.directors.exists()


@pytest.mark.parametrize(
    ("form", "field", "words"),
    [
        ({"username": "ann\x00"}, "username", "letters, digits and @ . + - _ only"),
        ({"username": "t" * 151, "password": STRONG, "password2": STRONG}, "username",
         "The login name is 150 characters at most; this one has 151."),
        ({"username": "tom", "full_name": "Tom\x00", "password": STRONG, "password2": STRONG},
         "full_name", "control character"),
        ({"username": "tom", "full_name": "T" * 200, "password": STRONG, "password2": STRONG},
         "full_name", "The full name is 150 characters at most; this one has 200."),
    ],
)  # fmt: skip
def test_a_hostile_officer_is_refused_beside_the_field(client, people, club, form, field, words):
    """Guards club.people._login_name and the full name's cleaning: a NUL in the login
    name (looked up before anything else) or in the full name was a 500 of the people page
    on PostgreSQL, and a login name longer than the column too. The page says why beside
    the field (a refused full name's reason was once not shown at all)."""
    response = client.post(people, {"action": "add", "role": "secretary", **form})
    assert response.status_code == 400
    assert field in response.context["errors"]
    assert words in response.context["errors"][field]
    assert words in response.content.decode()
    assert get_user_model().objects.count() == 1  # the secretary alone
    assert club.secretaries.count() == 1 and not club.directors.exists()


@pytest.mark.parametrize("password", ["", "a wrong guess at it 1888"])
def test_a_secretary_cannot_learn_whether_an_account_exists_nor_take_it_in(
    client, people, club, secretary, other_club, password
):
    """Any club's secretary typed a login name on his people page and learnt whether an
    account has it ("There is no account called ..."), and if it had, made it an officer
    of his club without its owner's word, its full name then shown on his page: another
    club's secretary, or the site's staff, whose login name is half of what logging in
    as them takes. Now an account that holds no role at his clubs joins only with its own
    password, typed by its owner. Without one, the answer is the same whether or not the
    account exists; a wrong one is refused, counted as a wrong password by django-axes."""
    stranger = UserFactory(username="stranger", first_name="Private", last_name="Person")
    other_club.secretaries.add(stranger)
    form = {"action": "add", "role": "director", "password": password, "password2": password}
    # Without a password, an account and no account at all; with one, only the account (a
    # free name and a password make a new account, as asked).
    names = ("stranger", "nobody") if not password else ("stranger",)
    answers = [client.post(people, {**form, "username": name}) for name in names]
    for answer in answers:
        assert answer.status_code == 400
        assert "Private Person" not in answer.content.decode()
    assert not club.directors.exists() and not club.secretaries.filter(pk=stranger.pk).exists()
    said = [
        a.context["errors"]["password"].replace(n, "") for a, n in zip(answers, names, strict=True)
    ]
    if not password:  # the same words for an account and for none
        assert said[0] == said[1]
        assert "no officer of your clubs" in said[0]
    else:  # refused in words that do not say the name is taken; the wrong password is
        # counted as a login's would be
        assert "cannot be added with that password" in said[0]
        assert "There is an account" not in said[0] and "already" not in said[0].split(".")[0]
        assert AccessAttempt.objects.filter(username="stranger").exists()


@pytest.mark.parametrize(
    ("password", "full_name", "field"),
    [("12345678", "", "password"), ("stranger", "", "password"),
     ("a good long passphrase 1888", "Ann\x00", "full_name")],
)  # fmt: skip
def test_a_refused_officer_reads_alike_whether_the_login_name_is_taken_or_free(
    client, people, club, other_club, password, full_name, field
):
    """User enumeration: a password the site's rules refuse (too common, too like the
    login name) or a full name refused was answered "There is an account called
    'stranger' already" for a taken name and with the rules' words for a free one, so a
    secretary learnt which login names exist without making anything. Now the password
    and the full name are checked first, the same way for both."""
    other_club.secretaries.add(UserFactory(username="stranger"))
    form = {"action": "add", "role": "director", "password": password, "password2": password,
            "full_name": full_name}  # fmt: skip
    taken = client.post(people, {**form, "username": "stranger"})
    free = client.post(people, {**form, "username": "Stranger2"})
    assert taken.status_code == free.status_code == 400
    assert list(taken.context["errors"]) == list(free.context["errors"]) == [field]
    words = [a.context["errors"][field] for a in (taken, free)]
    assert words[0] == words[1].replace("Stranger2", "stranger")
    assert "There is an account" not in words[0]
    assert get_user_model().objects.filter(username__iexact="stranger2").count() == 0
    assert not club.directors.exists()


def test_adding_with_a_password_is_behind_the_login_throttle(client, people, club, monkeypatch):
    """Each add with a password checks one (an existing account's) or tells whether a login
    name is free: counted with the login doors' attempts from the address (THROTTLE_LOGIN)."""
    rates = {**LoginRateThrottle.THROTTLE_RATES, "login": "2/min"}
    monkeypatch.setattr(LoginRateThrottle, "THROTTLE_RATES", rates)
    UserFactory(username="stranger")
    guess = "a wrong guess at it 1888"
    form = {"action": "add", "role": "director", "username": "stranger",
            "password": guess, "password2": guess}  # fmt: skip
    assert [client.post(people, form).status_code for _ in range(3)] == [400, 400, 429]
    refused = client.post(people, form)
    assert refused.status_code == 429 and "Too many" in refused.content.decode()
    assert "Retry-After" in refused
    assert not club.directors.exists()


def test_roles_removed_but_never_the_last_secretary(client, people, club, secretary):
    tom = UserFactory(username="tom")
    club.directors.add(tom)
    response = client.post(
        people, {"action": "remove", "role": "director", "user": tom.pk}, follow=True
    )
    assert "that role is taken away" in response.content.decode()
    assert not club.directors.exists() and get_user_model().objects.filter(pk=tom.pk).exists()
    refused = client.post(people, {"action": "remove", "role": "secretary", "user": secretary.pk})
    assert refused.status_code == 400
    assert "The club must keep a secretary" in refused.content.decode()
    assert list(club.secretaries.all()) == [secretary]
    # With another secretary, he may step down, and is sent to his own home page.
    club.secretaries.add(tom)
    gone = client.post(people, {"action": "remove", "role": "secretary", "user": secretary.pk})
    assert gone.status_code == 302 and gone["Location"] == "/secretary/"
    assert list(club.secretaries.all()) == [tom]
    assert client.get(people).status_code == 404


def test_who_may_name_officers(client, club, secretary, other_secretary):
    url = f"/secretary/clubs/{club.slug}/people/"
    assert client.get(url)["Location"].startswith("/accounts/login/")
    director = UserFactory(username="tom")
    club.directors.add(director)
    client.force_login(director)
    assert client.get(url).status_code == 403
    assert (
        client.post(url, {"action": "add", "username": "tom", "role": "secretary"}).status_code
        == 403
    )
    assert not club.secretaries.filter(pk=director.pk).exists()
    client.force_login(other_secretary)
    assert client.get(url).status_code == 404
    removed = client.post(url, {"action": "remove", "role": "secretary", "user": secretary.pk})
    assert removed.status_code == 404
    assert list(club.secretaries.all()) == [secretary]


@pytest.mark.parametrize("user", ["eliza", "9" * 40, ""])
def test_an_officer_not_named_by_a_number_is_refused(client, people, club, secretary, user):
    response = client.post(people, {"action": "remove", "role": "secretary", "user": user})
    assert response.status_code == 400 and response.context["errors"]["user"]
    assert list(club.secretaries.all()) == [secretary]
