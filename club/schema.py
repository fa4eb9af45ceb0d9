"""OpenAPI descriptions of the table token and the secretary's token, so the schema documents
both ways in and how long each lives."""

from drf_spectacular.extensions import OpenApiAuthenticationExtension


def header_key(description: str) -> dict:
    """An OpenAPI security scheme: a key sent in the Authorization header."""
    return {"type": "apiKey", "in": "header", "name": "Authorization", "description": description}


class TableTokenScheme(OpenApiAuthenticationExtension):
    target_class = "club.auth.TableTokenAuthentication"
    name = "tableToken"

    def get_security_definition(self, auto_schema):
        return header_key(
            "`Table <token>`: the phone at one table; opens only that table's rubbers "
            "and hands, while its evening is open, its table stands and the club's "
            "hours allow (a dead link gets 401 saying why)."
        )


class SecretaryTokenScheme(OpenApiAuthenticationExtension):
    """drf-spectacular's own description of DRF's token, under the same name, saying how
    long one lives."""

    target_class = "club.auth.SecretaryTokenAuthentication"
    name = "tokenAuth"
    priority = 1  # before drf-spectacular's, which matches every TokenAuthentication

    def get_security_definition(self, auto_schema):
        return header_key(
            "`Token <key>`: a secretary's, a tournament director's or staff's, from "
            "`POST /api/v1/auth/token/`. It ends when logged out "
            "(`POST /api/v1/auth/logout/`), when the account's password changes, and "
            "API_TOKEN_DAYS (30 unless set) after its login; an ended one gets 401 "
            "saying which (token_logged_out, token_password_changed, token_expired, "
            "token_replaced: an account holds at most API_TOKENS_PER_ACCOUNT live tokens, "
            "and a login past it ends the oldest), for "
            "a year after its days. Django's re-hash of the same password (a hasher "
            "upgrade) is no change."
        )
