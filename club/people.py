"""Writes for a club's officers: its secretaries and its tournament directors.

A secretary runs everything of his club (evenings, members, tournaments) and names
its officers; a director runs the club's tournaments (ladders, progressives, their
standings) and nothing else (`club.selectors.clubs_directed_by`). A club always keeps
at least one secretary. Used by the club's people page and `manage.py create_secretary`.
"""

from django.contrib.auth import authenticate, get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Q

from club.models import Club
from core.errors import UserError
from core.quoted import quoted
from core.text import clean_name, too_long

ROLES = {"secretary": "secretaries", "director": "directors"}
ROLE_TITLES = {"secretary": "secretary", "director": "tournament director"}


def _role(role: str) -> str:
    if role not in ROLES:
        raise UserError("Choose a role: secretary or tournament director.", field="role")
    return ROLES[role]


def _login_name(username: str) -> str:
    """A login name as an account can have it, or a UserError on `username`: checked before
    it is looked up, as a NUL in it (which PostgreSQL's text cannot hold) or a name longer
    than the column was a 500 of the people page."""
    user_model = get_user_model()
    username = username.strip()
    if not username:
        raise UserError("Write the login name of the person to add.", field="username")
    longest = user_model._meta.get_field(user_model.USERNAME_FIELD).max_length
    if len(username) > longest:
        raise UserError(too_long("The login name", longest, len(username)), field="username")
    try:
        user_model.username_validator(username)
    except ValidationError as exc:
        raise UserError(
            "A login name is letters, digits and @ . + - _ only.", field="username"
        ) from exc
    return username


def _unsaved_account(*, username: str, password: str, full_name: str = ""):
    """The account a new officer would have, not saved: its full name cleaned and its
    password checked by the site's password rules, each refused in words (UserError)
    beside its field. Nothing here depends on whether the login name is taken."""
    # A name as every name is kept (core.text): a NUL in it was a 500 on PostgreSQL.
    full_name = (
        clean_name(full_name, field="full_name", max_length=150, label="The full name")
        if full_name.strip()
        else ""
    )
    first, _, last = full_name.partition(" ")
    user = get_user_model()(username=username, first_name=first[:150], last_name=last[:150])
    try:
        validate_password(password, user)
    except ValidationError as exc:
        raise UserError(" ".join(exc.messages), field="password") from exc
    return user


def officer_user_create(
    *, username: str, password: str, full_name: str = "", taken: UserError | None = None
):
    """A new account for an officer, its password checked by the site's password rules.
    A login name taken is refused with `taken` when given (the people page's words, which
    do not say it is taken: `_not_added`), else by saying so (the command line's)."""
    user_model = get_user_model()
    username = _login_name(username)
    taken = taken or UserError(
        f"There is an account called {quoted(username)} already.", field="username"
    )
    if user_model.objects.filter(username__iexact=username).exists():
        raise taken
    user = _unsaved_account(username=username, password=password, full_name=full_name)
    user.set_password(password)
    try:
        with transaction.atomic():
            user.save()
    except IntegrityError as exc:  # the same name taken by a concurrent request
        raise taken from exc
    return user


def _known_to(user, account) -> bool:
    """Whether `account` holds a role (secretary or director) at one of the clubs `user` is
    secretary of: he sees it on those clubs' people pages already. Staff know every one."""
    if user.is_staff:
        return True
    managed = Club.objects.filter(secretaries=user)
    return (
        get_user_model()
        .objects.filter(Q(clubs__in=managed) | Q(directed_clubs__in=managed), pk=account.pk)
        .exists()
    )


def _not_known(username: str) -> UserError:
    """The answer to a login name that is no officer of the secretary's clubs and came with
    no password: the same words whether an account has the name or none does, so that a
    secretary cannot learn from it which login names exist."""
    return UserError(
        f"{quoted(username)} is no officer of your clubs: someone who has an account already types "
        "its password below to agree to be added; for someone new, give a password (and a "
        "full name) to make the account.",
        field="password",
    )


def _not_added(username: str) -> UserError:
    """The answer to a login name with a password that is not the password of an account
    of that name: worded alike whether an account has the name (and this is not its
    password) or a new account cannot be made under it, so that it does not say which.
    (That no new account was made still tells a name is in use, as any sign-up must; each
    try is counted with the login doors' attempts, THROTTLE_LOGIN, and a wrong password
    by django-axes.)"""
    return UserError(
        f"Not added: {quoted(username)} cannot be added with that password. Someone who has an "
        "account already types its own password to agree to be added; for someone new, "
        "choose another login name.",
        field="password",
    )


def club_officer_add(
    *,
    club: Club,
    username: str,
    role: str,
    password: str = "",
    full_name: str = "",
    added_by=None,
    request=None,
):
    """Make an account a secretary or director of the club, creating the account when
    there is none by that name (a password is then needed). Returns (user, created).

    `added_by`, the secretary naming the officer on the club's people page (None for
    `manage.py create_secretary`, run by whoever runs the site): an existing account joins
    without more ado only if it holds a role at one of his clubs already; any other joins
    only with its own password, typed by its owner (checked as a login's is, through
    `request`: django-axes counts a wrong one). So a secretary neither learns whether a
    login name he does not know exists (half of what logging in as its owner takes) nor
    makes anyone an officer of his club, showing his full name there, without his word.
    The password is checked before the officer is added, in a transaction of its own: a
    wrong one counted by django-axes stays counted when the refusal undoes the rest."""
    relation = _role(role)
    username = _login_name(username)  # none written: asked for, not looked up
    user = get_user_model().objects.filter(username__iexact=username).first()
    if user is not None and added_by is not None and not _known_to(added_by, user):
        if not password:
            raise _not_known(username)
        if authenticate(request, username=user.username, password=password) != user:
            # Refused as a new account's would be first (the password's rules, the full
            # name), then in the same words as a name no new account can take: no answer
            # differs from what a free name would be told, save that none is made.
            _unsaved_account(username=username, password=password, full_name=full_name)
            raise _not_added(username)
    with transaction.atomic():
        return _officer_add(
            club=club, relation=relation, role=role, user=user, username=username,
            password=password, full_name=full_name, added_by=added_by,
        )  # fmt: skip


def _officer_add(*, club, relation, role, user, username, password, full_name, added_by):
    created = False
    if user is None:
        if not password:
            if added_by is not None:
                raise _not_known(username)
            raise UserError(
                f"There is no account called {quoted(username)}: give a password to make one.",
                field="password",
            )
        taken = _not_added(username) if added_by is not None else None
        user = officer_user_create(
            username=username, password=password, full_name=full_name, taken=taken
        )
        created = True
    elif getattr(club, relation).filter(pk=user.pk).exists():
        raise UserError(
            f"{user.username} is a {ROLE_TITLES[role]} of the club already.", field="username"
        )
    getattr(club, relation).add(user)
    return user, created


@transaction.atomic
def club_officer_remove(*, club: Club, user_id: int, role: str) -> None:
    """Take a role away from one of the club's officers (his account stays). The last
    secretary is never removed: the club would have no one to run it."""
    relation = _role(role)
    # The club's row is locked so that two secretaries removing each other at once
    # cannot leave the club with none.
    club = Club.objects.select_for_update().get(pk=club.pk)
    officers = getattr(club, relation)
    if not officers.filter(pk=user_id).exists():
        raise UserError(f"That account is not a {ROLE_TITLES[role]} of the club.", field="user")
    if role == "secretary" and officers.count() == 1:
        raise UserError(
            "The club must keep a secretary: add another before removing the last one.",
            field="user",
        )
    officers.remove(user_id)
