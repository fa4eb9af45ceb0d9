"""API authentication: a secretary's token, and a table's token for the phone at the table.

    Authorization: Token <secretary token>     -> request.user is the secretary,
                                                  request.auth is his ApiToken
    Authorization: Table <table token>         -> request.user is anonymous,
                                                  request.auth is the Table

A secretary's token (one a login through the API, club.secretary_tokens) ends when it is
logged out, when the account's password changes and API_TOKEN_DAYS after its login; an
ended one is refused with 401 and a code saying why (token_replaced, token_logged_out,
token_password_changed, token_expired).

A table token opens only that table's rubbers and hands, on its own evening, and only
while it lives (club.selectors.table_by_link): a dead one is refused with 401 and a code
saying why (evening_closed, table_broken_up, link_expired, link_replaced).
"""

from django.contrib.auth.models import AnonymousUser
from rest_framework import exceptions
from rest_framework.authentication import (
    BaseAuthentication,
    TokenAuthentication,
    get_authorization_header,
)


class SecretaryTokenAuthentication(TokenAuthentication):
    """DRF's token authentication (keyword `Token`, its header parsing) for secretaries,
    tournament directors and staff, with the tokens of club.secretary_tokens."""

    keyword = "Token"

    def authenticate_credentials(self, key):
        from club.secretary_tokens import TokenEnded, token_user

        try:
            return token_user(key)
        except TokenEnded as exc:
            raise exceptions.AuthenticationFailed(exc.message, code=exc.code) from exc


class TableTokenAuthentication(BaseAuthentication):
    """`Authorization: Table <token>`: the phone at one table."""

    keyword = "Table"

    def authenticate(self, request):
        parts = get_authorization_header(request).split()
        if not parts or parts[0].lower() != self.keyword.lower().encode():
            return None
        if len(parts) != 2:
            raise exceptions.AuthenticationFailed("Table token header must be 'Table <token>'.")
        try:
            token = parts[1].decode()
        except UnicodeError as exc:
            raise exceptions.AuthenticationFailed("Table token is not valid text.") from exc
        return self.authenticate_token(token)

    def authenticate_token(self, token: str):
        """Find the table a live token opens, or fail saying why the link is dead."""
        from club.selectors import TableLinkDead, table_by_link

        try:
            table = table_by_link(token=token)
        except TableLinkDead as exc:
            if exc.code == "unknown_link":
                raise exceptions.AuthenticationFailed("Unknown table token.") from exc
            raise exceptions.AuthenticationFailed(exc.message, code=exc.code) from exc
        return AnonymousUser(), table

    def authenticate_header(self, request):
        return self.keyword
