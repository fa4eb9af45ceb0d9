"""The user error of the table-formation engine."""

from __future__ import annotations


class FormationError(Exception):
    """A user error: the event breaks a law or ruling, or is malformed. Never changes the state.

    ``law`` names the law or ruling broken (``law 16``, ``ruling T6``, ``Bridge laws, Cutting
    Out / ruling T5``) when one applies, and the message begins with it; ``field`` is the
    event's field at fault (``player``, ``table``, ``cards``, ``consent``).
    """

    code = "formation_error"

    def __init__(self, message: str, *, law: str | None = None, field: str | None = None):
        super().__init__(message)
        self.message = message
        self.law = law
        self.field = field

    def as_dict(self) -> dict:
        """The error as the API's JSON body shows it."""
        return {"code": self.code, "message": self.message, "field": self.field, "law": self.law}
