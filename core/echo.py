"""What a refusal repeats of what was sent, at every door: at most ECHO_MAX characters of
any text.

A refusal repeats what it refused: a page shows a refused form again as it was typed, so
the secretary loses nothing, and a message may name the value it refuses ('"x" is not a
valid choice'). Whatever its length: a 2 MB body's one key came back whole in the API's
error, and a 1 MB name pasted into a page's form came back whole in the page. Every door
cuts what it repeats here, to the same length:

- the API's error shape (config.api.error_body): its message, field and details;
- a page's refused form: `typed_again` (`typed_in`) cuts the fields it shows again and
  says in words which were cut (`note`), `refusal` cuts the error's message, and a Django
  form (`CutWhenRefused`) does both for itself.

A value no longer than ECHO_MAX is shown again as it was typed. A message naming the value
it refuses quotes at most ECHO_VALUE (40) characters of it (core.quoted), so that its
words saying what was wrong are never cut off.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.http import QueryDict

from core.quoted import cut
from core.text import too_long

# The most of a caller's text a refusal repeats, in the API's error (its message, its field
# and each text of its details) and in a page's refused form (each field, and the message).
ECHO_MAX = 500


def capped(value):
    """`value` with every text in it (dictionaries' keys too) cut to ECHO_MAX characters,
    an ellipsis marking the cut."""
    if isinstance(value, str):
        return value if len(value) <= ECHO_MAX else f"{value[:ECHO_MAX]}…"
    if isinstance(value, dict):
        return {capped(str(key)): capped(inner) for key, inner in value.items()}
    if isinstance(value, list | tuple):
        return [capped(inner) for inner in value]
    return value


@dataclass(frozen=True)
class Typed:
    """A refused form's fields as the page shows them again (`values`, each text cut to
    ECHO_MAX characters) and `note`, a sentence naming in words each field that was cut,
    or "" when none was."""

    values: dict
    note: str = ""


def _longest(value: Any) -> int:
    texts = value if isinstance(value, list | tuple) else [value]
    return max((len(text) for text in texts if isinstance(text, str)), default=0)


def _listed(items: list[str]) -> str:
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def _note(cut: dict[str, int]) -> str:
    """The sentence saying which fields (in words, with the length typed) were cut."""
    if not cut:
        return ""
    names = _listed(list(cut))
    lengths = _listed([f"{length:,}" for length in cut.values()])
    shown = (
        f"only its first {ECHO_MAX} are shown"
        if len(cut) == 1
        else f"only the first {ECHO_MAX} characters of each are shown"
    )
    return (
        f"What was typed for {names} ({lengths} characters) is too long to show again "
        f"whole: {shown}."
    )


def typed_again(values: Mapping[str, Any], words: Mapping[str, str]) -> Typed:
    """A refused form's fields (`values`: each a text, or a list of texts) as the page shows
    them again: each text cut to ECHO_MAX characters, and the note naming in `words`
    ({"stake": "the stake"}) each field that was longer, with its length. A field the
    page does not show (not in `words`) is cut, and not named."""
    cut = {
        words[name]: _longest(value)
        for name, value in values.items()
        if name in words and _longest(value) > ECHO_MAX
    }
    return Typed({name: capped(value) for name, value in values.items()}, _note(cut))


def typed_in(form: Mapping[str, Any], words: Mapping[str, str]) -> Typed:
    """`typed_again` of the fields named in `words`, as the posted `form` holds them ("" for
    one not sent)."""
    return typed_again({name: form.get(name, "") for name in words}, words)


def refusal(exc, *, note: str = "") -> dict:
    """A user error as a page shows it (templates/_refusal.html): its message cut to
    ECHO_MAX characters (a message may repeat the value it refuses), `note` after it
    (`typed_again`'s); its law; its field, for scripts (a page never shows it as a key)."""
    message = capped(exc.message)
    return {
        "message": f"{message} {note}" if note else message,
        "law": getattr(exc, "law", None),
        "field": exc.field,
    }


def after_label(message: str) -> str:
    """A refusal's message as it goes on after its field's name and a colon ("The table: "),
    so that the two read as one sentence: its first letter lower case ("The table: give a
    whole number ..."), unless its first word is written in capitals ("NS")."""
    if message[1:2].isupper():
        return message
    return message[:1].lower() + message[1:]


class CutWhenRefused:
    """A Django form (listed before forms.Form among its bases) that, when refused, shows
    again each value typed cut to ECHO_MAX characters, and those its messages repeat too
    (Django's own repeat a refused choice), with a message of its own among the form's
    naming in words each field that was cut: `typed_words`, or its label ("the address").
    A text past its field's limit is refused in the same words, as every door refuses one
    (core.text.too_long: "The tournament's name is 120 characters at most; this one has
    312."), not in Django's own words ("Ensure this value has at most 120 characters").
    """

    typed_words: dict[str, str] = {}

    def full_clean(self):
        super().full_clean()
        if self.is_bound and self._errors:
            self._say_lengths_in_words()
            self._cut_what_is_shown_again()

    def _word(self, name: str, field) -> str:
        """The field as a message names it: `typed_words`, or "the " and its label."""
        label = str(field.label or name.replace("_", " "))
        return self.typed_words.get(name, f"the {label[:1].lower()}{label[1:]}")

    def _words(self) -> dict[str, str]:
        words = {}
        for name, field in self.fields.items():
            if not getattr(field.widget, "render_value", True):
                continue  # a password, never shown again
            words[self.add_prefix(name)] = self._word(name, field)
        return words

    def _say_lengths_in_words(self) -> None:
        for name, errors in self._errors.items():
            field = self.fields.get(name)
            if field is None:
                continue
            for error in errors.data:
                params = getattr(error, "params", None) or {}
                if getattr(error, "code", None) == "max_length" and "show_value" in params:
                    words = self._word(name, field)
                    error.message = too_long(
                        f"{words[:1].upper()}{words[1:]}",
                        params["limit_value"],
                        params["show_value"],
                    )
                    error.params = None

    def _cut_what_is_shown_again(self) -> None:
        form = self.data
        typed = dict(form.lists()) if isinstance(form, QueryDict) else dict(form)
        again = typed_again(typed, self._words())
        if isinstance(form, QueryDict):
            data = QueryDict(mutable=True)
            for name, values in again.values.items():
                data.setlist(name, values)
            self.data = data
        else:
            self.data = again.values
        # Django words a message from its params ("Select a valid choice. %(value)s ..."):
        # the values they repeat are cut as every refusal's are (core.quoted), and the
        # message keeps its words.
        for errors in self._errors.values():
            for error in errors.data:
                if isinstance(getattr(error, "params", None), dict):
                    error.params = cut(error.params)
        if again.note:
            self.add_error(None, again.note)
