"""The API tokens of secretaries, tournament directors and staff (`Authorization: Token`).

A login through the API (`POST /api/v1/auth/token/`) issues a token of its own; each
token ends, and is then refused with 401 saying why in words:

- when it is logged out (`POST /api/v1/auth/logout/`): that token only, the account's
  other logins keep theirs;
- when its account's password changes, however it is changed (the admin, `manage.py
  changepassword`, quickstart's fresh demo password, a script): every token of the
  account. The token keeps a stamp of the password's hash as it was at the login, and a
  request whose account's hash no longer gives that stamp is refused, as Django's own
  sessions are (they keep an HMAC of the same hash);
- API_TOKEN_DAYS after the login that gave it, used or not. Counted from the login and
  not from the last use, so that a request writes nothing and a stolen token has a known
  end; a script logs in again when told its token expired.

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
from django.utils import timezone

from club.models import ApiToken

# An ended token's row is kept this many lifetimes after its login, so that its holder
# is told why it ended rather than that it is unknown; the next login purges older ones.
KEPT_AFTER_END = 2
LOG_IN_AGAIN = "log in again to get a new one."


class TokenEnded(Exception):
    """A token that opens nothing, with the reason as a code and in words."""

    def __init__(self, code: str, message: str):
        self.code = code
        self.message = message
        super().__init__(message)


def key_digest(key: str) -> str:
    """What is stored of a key: its SHA-256 (a key is 160 random bits: no salt needed)."""
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()


def password_stamp(user) -> str:
    """A stamp of the account's password hash (which changes with every new password,
    its salt being new): a token is refused once the account's stamp differs from its
    own. Not a secret: the hash it is made from sits in the same database."""
    return hashlib.sha256(f"club.ApiToken:{user.password}".encode()).hexdigest()


def lifetime() -> datetime.timedelta:
    return datetime.timedelta(days=settings.API_TOKEN_DAYS)


def token_expires(token: ApiToken) -> datetime.datetime:
    return token.created + lifetime()


def token_issue(*, user) -> tuple[str, ApiToken]:
    """A new token for `user` (who has just proved his password): its key, to hand to
    him once, and its row. Rows of tokens long ended are purged on the way."""
    now = timezone.now()
    ApiToken.objects.filter(created__lt=now - KEPT_AFTER_END * lifetime()).delete()
    key = secrets.token_hex(20)  # 40 characters, as DRF's tokens were
    token = ApiToken.objects.create(
        digest=key_digest(key), user=user, created=now, password_stamp=password_stamp(user)
    )
    return key, token


def token_logout(*, token: ApiToken) -> None:
    """End this token (a logout): the account's other tokens live on."""
    token.logged_out_at = timezone.now()
    ApiToken.objects.filter(pk=token.pk, logged_out_at=None).update(
        logged_out_at=token.logged_out_at
    )


def _in_words(moment: datetime.datetime) -> str:
    local = timezone.localtime(moment)
    return f"{local.day} {local:%B %Y at %H:%M} ({local.tzname()})"


def token_user(key: str):
    """The account a token opens, and the token; or TokenEnded saying why it opens none.
    One query: the token and its account together."""
    try:
        token = ApiToken.objects.select_related("user").get(digest=key_digest(key))
    except ApiToken.DoesNotExist:
        raise TokenEnded(
            "authentication_failed",
            f"This token is not known: no login gave it, or it ended long ago; {LOG_IN_AGAIN}",
        ) from None
    token_user_check(token)
    return token.user, token


def token_user_check(token: ApiToken) -> None:
    """Raise TokenEnded saying why a token ended; nothing while it lives."""
    if not token.user.is_active:
        raise TokenEnded(
            "authentication_failed", "This token's account is disabled; ask the site's staff."
        )
    if token.logged_out_at is not None:
        raise TokenEnded(
            "token_logged_out",
            f"This token ended when it was logged out on {_in_words(token.logged_out_at)}; "
            f"{LOG_IN_AGAIN}",
        )
    if token.password_stamp != password_stamp(token.user):
        raise TokenEnded(
            "token_password_changed",
            f"This token ended when the account's password was changed; {LOG_IN_AGAIN}",
        )
    expires = token_expires(token)
    if expires <= timezone.now():
        days = settings.API_TOKEN_DAYS
        raise TokenEnded(
            "token_expired",
            f"This token expired on {_in_words(expires)}, {days} day{'s' if days != 1 else ''} "
            f"after the login that gave it; {LOG_IN_AGAIN}",
        )
