"""The API tokens of secretaries, tournament directors and staff (`Authorization: Token`).

A login through the API (`POST /api/v1/auth/token/`) issues a token of its own; each
token ends, and is then refused with 401 saying why in words:

- when it is logged out (`POST /api/v1/auth/logout/`): that token only, the account's
  other logins keep theirs;
- when its account's password changes, however it is changed (the admin, `manage.py
  changepassword`, a reset, quickstart's fresh demo password, a script): every token of
  the account. A change saved through the model is written on the account's tokens with
  its moment (`token_password_saving`, on the account's pre_save); the token also keeps a
  stamp of the password's hash as it was at the login, and a request whose account's hash
  no longer gives that stamp is refused, as Django's own sessions are, so a hash written
  behind the model's back (an UPDATE) ends them too. A re-hash of the same password
  (Django's, when the preferred hasher or its iterations changed, at the next check of the
  password) is no change: the stamps follow the new hash and no token ends;
- API_TOKEN_DAYS after the login that gave it, used or not. Counted from the login and
  not from the last use, so that a request writes nothing and a stolen token has a known
  end; a script logs in again when told its token expired;
- when its account logs in once more holding API_TOKENS_PER_ACCOUNT live tokens already:
  the oldest ends (`_replace_oldest`), so an account holds at most that many, whatever
  logs in for it (a script logging in on every run, a stolen password used from many
  places).

An ended token's row (its key's digest, never the key; its account, login, stamp, and its
end's moment and reason) is kept REASONS_KEPT after its days were up, so that a phone or a
script still holding it is told why it ended rather than that it is unknown; and of each
account only the last REASONS_KEPT_PER_ACCOUNT ended ones, so that a script logging in for
every run cannot grow the table without end. Both are purged at a login, the only thing
that adds a row.

The request that presents a token reads it and its account in one query, as DRF's own
token did; the checks are arithmetic on that row. Only the key's SHA-256 is stored.

Why not django-rest-knox, made for this (a token per login, expiry, logout): its tokens
are of another form, so every client's existing key would stop working (here DRF's keys
were carried over, club migration 0011, and the header is the same `Token <key>`); its
authentication reads the token, then its account, then the account's other tokens (to
delete the expired ones), three queries where DRF's token took one; an expired token is
deleted when seen and refused as "Invalid token.", as any other; and a password change
ends nothing. What it would bring is this module's hundred lines.
"""

import datetime
import hashlib
import secrets

from django.conf import settings
from django.contrib.auth.hashers import get_hasher, identify_hasher, is_password_usable
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from club.models import ApiToken
from core.moments import moment_words

# Why a token ended is told this long after its days were up (it ended then at the latest),
# and for this many of an account's ended tokens, the last ones (by login): a phone left in
# a drawer over the summer is still told why, and the table stays bounded.
REASONS_KEPT = datetime.timedelta(days=365)
REASONS_KEPT_PER_ACCOUNT = 100
LOG_IN_AGAIN = "log in again to get a new one."
ENDED = ApiToken.EndedBecause


class TokenEnded(Exception):
    """A token that opens nothing, with the reason as a code and in words."""

    def __init__(self, code: str, message: str):
        self.code = code
        self.message = message
        super().__init__(message)


def key_digest(key: str) -> str:
    """What is stored of a key: its SHA-256 (a key is 160 random bits: no salt needed)."""
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()


def hash_stamp(password_hash: str) -> str:
    """A stamp of a password hash (which changes with every new password, its salt being
    new): a token is refused once the account's stamp differs from its own. Not a secret:
    the hash it is made from sits in the same database."""
    return hashlib.sha256(f"club.ApiToken:{password_hash}".encode()).hexdigest()


def password_stamp(user) -> str:
    """The stamp of the account's password hash as it is now."""
    return hash_stamp(user.password)


def lifetime() -> datetime.timedelta:
    return datetime.timedelta(days=settings.API_TOKEN_DAYS)


def token_expires(token: ApiToken) -> datetime.datetime:
    return token.created + lifetime()


def token_issue(*, user) -> tuple[str, ApiToken]:
    """A new token for `user` (who has just proved his password): its key, to hand to
    him once, and its row. Rows past keeping are purged on the way."""
    now = timezone.now()
    _purge(user=user, now=now)
    _replace_oldest(user=user, now=now)
    key = secrets.token_hex(20)  # 40 characters, as DRF's tokens were
    token = ApiToken.objects.create(
        digest=key_digest(key), user=user, created=now, password_stamp=password_stamp(user)
    )
    return key, token


def _purge(*, user, now: datetime.datetime) -> None:
    """Delete every token a year (REASONS_KEPT) past its days, and the ended tokens of
    `user` beyond his last REASONS_KEPT_PER_ACCOUNT; a live token is never deleted. A login
    is the only thing that adds a row, and it trims its own account: so an account holds
    at most its live tokens (its logins of the last API_TOKEN_DAYS, behind the login
    throttle) and that many ended ones."""
    ApiToken.objects.filter(created__lt=now - lifetime() - REASONS_KEPT).delete()
    ended = ApiToken.objects.filter(user=user).filter(
        Q(ended_at__isnull=False)
        | Q(created__lte=now - lifetime())
        | ~Q(password_stamp=password_stamp(user))
    )
    kept = ended.order_by("-created", "-digest").values("digest")[:REASONS_KEPT_PER_ACCOUNT]
    ended.exclude(digest__in=kept).delete()


def _replace_oldest(*, user, now: datetime.datetime) -> None:
    """End the account's oldest live tokens, so that with the one a login is about to
    issue it holds API_TOKENS_PER_ACCOUNT; each is told that a newer login replaced it."""
    live = ApiToken.objects.filter(
        user=user, ended_at=None, created__gt=now - lifetime(), password_stamp=password_stamp(user)
    )
    newest = live.order_by("-created", "-digest").values("digest")
    keep = newest[: settings.API_TOKENS_PER_ACCOUNT - 1]
    live.exclude(digest__in=keep).update(ended_at=now, ended_because=ENDED.REPLACED)


def token_logout(*, token: ApiToken) -> None:
    """End this token (a logout): the account's other tokens live on."""
    token.ended_at, token.ended_because = timezone.now(), ENDED.LOGGED_OUT
    ApiToken.objects.filter(pk=token.pk, ended_at=None).update(
        ended_at=token.ended_at, ended_because=token.ended_because
    )


def on_account_saving(sender, instance, raw, update_fields, **kwargs):
    """The account model's pre_save (connected in club.apps): its tokens learn of a
    password saved (token_password_saving). A new account has no token; a fixture's raw
    rows are written as they are."""
    if raw or instance._state.adding:
        return
    if update_fields is not None and "password" not in update_fields:
        return
    token_password_saving(account=instance, update_fields=update_fields)


def token_password_saving(*, account, update_fields) -> None:
    """The account is about to be saved. If its password changed, its live tokens end now
    (the stamp would end them too, but without knowing when). If Django is re-hashing the
    same password (`is_rehash`), its tokens follow the new hash, and nothing ends.

    The re-hash writes the new hash here, in one transaction with the tokens' new stamps:
    no request sees the one without the other, which would end the tokens after all. The
    save that follows writes the same hash again."""
    accounts = type(account)._default_manager
    old = accounts.filter(pk=account.pk).values_list("password", flat=True).first()
    new = account.password
    if old is None or old == new:
        return
    if is_rehash(account=account, old=old, new=new, update_fields=update_fields):
        with transaction.atomic():
            if accounts.filter(pk=account.pk, password=old).update(password=new):
                ApiToken.objects.filter(user_id=account.pk, password_stamp=hash_stamp(old)).update(
                    password_stamp=hash_stamp(new)
                )
        return
    now = timezone.now()
    ApiToken.objects.filter(
        user_id=account.pk,
        ended_at=None,
        created__gt=now - lifetime(),
        password_stamp=hash_stamp(old),
    ).update(ended_at=now, ended_because=ENDED.PASSWORD_CHANGED)


def is_rehash(*, account, old: str, new: str, update_fields) -> bool:
    """Whether saving the hash `new` over `old` can only be Django's re-hash of a password
    it has just checked (AbstractBaseUser.check_password's setter, when the preferred
    hasher or its iterations changed): it saves the password alone, marks it as no change
    (`_password` None: "Password hash upgrades shouldn't be considered password
    changes"), and runs only when the preferred hasher would replace the old hash, the new
    one being that hasher's.

    Anything else writing a password is a change: set_password and a save (`_password` is
    the password set, even the same one again: someone meant to set it), an unusable
    password, a hash assigned and saved with the rest, or saved alone over a hash the
    preferred hasher would have kept."""
    if update_fields is None or set(update_fields) != {"password"}:
        return False
    if getattr(account, "_password", None) is not None:
        return False
    if not (is_password_usable(old) and is_password_usable(new)):
        return False
    preferred = get_hasher()
    try:
        was, now = identify_hasher(old), identify_hasher(new)
    except ValueError:  # a hash of no hasher installed: no check could have passed
        return False
    outdated = was.algorithm != preferred.algorithm or preferred.must_update(old)
    return outdated and now.algorithm == preferred.algorithm and not preferred.must_update(new)


def token_user(key: str):
    """The account a token opens, and the token; or TokenEnded saying why it opens none.
    One query: the token and its account together."""
    try:
        token = ApiToken.objects.select_related("user").get(digest=key_digest(key))
    except ApiToken.DoesNotExist:
        raise TokenEnded(
            "authentication_failed",
            "This token is not known: no login gave it, or it was deleted (by the site's "
            f"staff, {REASONS_KEPT.days} days after its days were up, or as one of more "
            f"than {REASONS_KEPT_PER_ACCOUNT} ended tokens of its account); {LOG_IN_AGAIN}",
        ) from None
    token_user_check(token)
    return token.user, token


def token_user_check(token: ApiToken) -> None:
    """Raise TokenEnded saying why a token ended, the first reason that ended it; nothing
    while it lives."""
    if not token.user.is_active:
        raise TokenEnded(
            "authentication_failed", "This token's account is disabled; ask the site's staff."
        )
    if token.ended_because == ENDED.LOGGED_OUT:
        raise TokenEnded(
            "token_logged_out",
            f"This token ended when it was logged out {moment_words(token.ended_at)}; "
            f"{LOG_IN_AGAIN}",
        )
    if token.ended_because == ENDED.REPLACED:
        most = settings.API_TOKENS_PER_ACCOUNT
        raise TokenEnded(
            "token_replaced",
            f"This token ended {moment_words(token.ended_at)}, when its account logged in "
            f"again holding {most} live token{'s' if most != 1 else ''} already, the most an "
            f"account holds: the oldest ends; {LOG_IN_AGAIN}",
        )
    if token.ended_because == ENDED.PASSWORD_CHANGED:
        raise TokenEnded(
            "token_password_changed",
            "This token ended when the account's password was changed "
            f"{moment_words(token.ended_at)}; {LOG_IN_AGAIN}",
        )
    expires = token_expires(token)
    if expires <= timezone.now():
        days = settings.API_TOKEN_DAYS
        raise TokenEnded(
            "token_expired",
            f"This token expired {moment_words(expires)}, {days} day{'s' if days != 1 else ''} "
            f"after the login that gave it; {LOG_IN_AGAIN}",
        )
    # A hash written behind the model's back (an UPDATE): when is not known. After the
    # days, since a change saved through the model ends only live tokens: one that
    # expired first says so.
    if token.password_stamp != password_stamp(token.user):
        raise TokenEnded(
            "token_password_changed",
            f"This token ended when the account's password was changed; {LOG_IN_AGAIN}",
        )
