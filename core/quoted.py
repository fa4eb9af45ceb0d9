"""A caller's value as a refusal names it: quoted as Python quotes it ('JS'), and at most
ECHO_VALUE characters of it, an ellipsis marking the cut.

A refusal says which value it refuses ("'QX' is not a card"), so that the one who sent
it sees his mistake. A value of 10,000 characters came back whole inside the message,
which the door then cut to its own length (core.echo.ECHO_MAX) and so cut off the words
saying what was wrong. Every message that repeats a value the caller sent quotes it
here: the pure engines (scoring.rules, club.formation) as the services and the forms.

Nothing of Django here: the engines import it and run without Django (`pytest -p
no:django`).
"""

from __future__ import annotations

#: The most of a refused value a refusal's message repeats (a card, a name, a key).
ECHO_VALUE = 40


def quoted(value: object) -> str:
    """`value` as a refusal names it: its repr (a text quoted, 'JS'), a text longer than
    ECHO_VALUE characters cut to them and "…" inside its quotes, anything else's repr cut
    so with "…" after it."""
    if isinstance(value, str):
        return repr(value if len(value) <= ECHO_VALUE else f"{value[:ECHO_VALUE]}…")
    shown = repr(value)
    return shown if len(shown) <= ECHO_VALUE else f"{shown[:ECHO_VALUE]}…"


def cut(value: object) -> object:
    """A value a message's words are made from (a Django form's params: a refused choice)
    cut as `quoted` cuts it, unquoted; anything but a text, or a list or dict of them, as
    it is."""
    if isinstance(value, str):
        return value if len(value) <= ECHO_VALUE else f"{value[:ECHO_VALUE]}…"
    if isinstance(value, dict):
        return {key: cut(inner) for key, inner in value.items()}
    if isinstance(value, list | tuple):
        return [cut(inner) for inner in value]
    return value
