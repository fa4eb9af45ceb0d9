"""The user error of the table-formation engine."""

from __future__ import annotations


class FormationError(Exception):
    """A user error: the event breaks a law or ruling, or is malformed. Never changes the state.

    ``law`` names the law or ruling broken (``law 16``, ``ruling T6``, ``Bridge laws, Cutting
    Out / ruling T5``) when one applies, and the message begins with it; ``field`` is the
    event's field at fault (``player``, ``table``, ``cards``, ``consent``). A refusal of
    several fields at once (a cut with a bad card and others missing) names each in
    ``fields``, {field: [what is wrong with it]}, the first of them in ``field``; the API
    gives them as ``details.fields``, as it gives a serializer's every field's errors.
    """

    code = "formation_error"

    def __init__(
        self,
        message: str,
        *,
        law: str | None = None,
        field: str | None = None,
        fields: dict[str, list[str]] | None = None,
    ):
        super().__init__(message)
        self.message = message
        self.law = law
        self.field = field
        self.fields = fields or {}

    @property
    def details(self) -> dict:
        """More for the API's error body (config.api): every field at fault, when several."""
        return {"fields": self.fields} if self.fields else {}

    def as_dict(self) -> dict:
        """The error as the API's JSON body shows it."""
        return {"code": self.code, "message": self.message, "field": self.field, "law": self.law}
