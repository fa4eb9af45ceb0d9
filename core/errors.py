"""The user error every service raises before writing: it names the field, what was
wrong and the law. The API turns it into its one error shape (config/api.py)."""

from rest_framework import status


class UserError(Exception):
    """An error the user can fix: it names the field, what was wrong and the law.

    Services raise it (or a subclass) before writing anything, so a rejected
    request never leaves half its change behind.
    """

    status_code = status.HTTP_400_BAD_REQUEST
    default_code = "invalid"

    def __init__(
        self,
        message: str,
        *,
        field: str | None = None,
        law: str | None = None,
        code: str | None = None,
        details: dict | None = None,
    ):
        super().__init__(message)
        self.message = message
        self.field = field
        self.law = law
        self.code = code or self.default_code
        self.details = details or {}

    def as_dict(self) -> dict:
        """The error as the API's JSON shape (without the outer "error" key)."""
        return {
            "code": self.code,
            "message": self.message,
            "field": self.field,
            "law": self.law,
            "details": self.details,
        }


class Conflict(UserError):
    """Another request changed the same table or rubber first; retrying is safe."""

    status_code = status.HTTP_409_CONFLICT
    default_code = "conflict"
