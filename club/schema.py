"""OpenAPI description of the table token, so the schema documents both ways in."""

from drf_spectacular.extensions import OpenApiAuthenticationExtension


class TableTokenScheme(OpenApiAuthenticationExtension):
    target_class = "club.auth.TableTokenAuthentication"
    name = "tableToken"

    def get_security_definition(self, auto_schema):
        return {
            "type": "apiKey",
            "in": "header",
            "name": "Authorization",
            "description": (
                "`Table <token>`: the phone at one table; opens only that table's rubbers "
                "and hands, while its evening is open, its table stands and the club's "
                "hours allow (a dead link gets 401 saying why)."
            ),
        }
