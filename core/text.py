"""One set of rules for the text people type: names, titles and reasons.

Every door (the API's serializers, the HTML forms, the evening's actions, a replayed
log) cleans text through these functions, so a rule written here holds everywhere:

- a **name** (a member, a player arriving) is at most `NAME_MAX` characters; a **title**
  (an evening, a club, a tournament) at most `TITLE_MAX`; a **reason** (a correction, a
  hand removed, an evening reopened) at most `REASON_MAX`. Past it the answer is a 400
  naming the field in words, its limit and the length sent (`too_long`: "The evening's
  title is 120 characters at most; this one has 312."), and the text is never echoed
  back. Every call names its field in words (`label`); the API's text fields do so by
  `words` (`InWords`), and so does every API field with a length limit;
- a name is normalised to Unicode NFKC (so the full-width letters of "Ann" are "Ann"), its inner
  spaces collapsed and its ends trimmed; control characters (NUL, the rest of C0 and
  C1), bidirectional overrides and isolates, zero-width and other invisible formatting
  characters are refused, as are unpaired surrogates and unassigned code points;
- titles and reasons are normalised to NFC and refused on the same characters, except
  that a reason may run over several lines;
- `name_key` is what two names must share to be the same person (case and spaces
  ignored); `name_skeleton` is what two names share when they merely look alike
  (letters from another script, after Unicode TR39's confusables, as kept by the
  `confusable_homoglyphs` package): such a name is flagged, never silently merged.

No model is imported here, so every app may use it.
"""

import functools
import re
import unicodedata

from rest_framework import serializers

from core.errors import UserError

NAME_MAX = 80  # club.Member.name
TITLE_MAX = 120  # club.Club.name, club.Evening.title, tournaments.Tournament.name
REASON_MAX = 500  # a correction's, a removal's or a reopening's reason
KEY_MAX = 40  # a short identifier inside an action, such as a cut's id

# Characters that change how the text around them is displayed without showing
# themselves: bidirectional embeddings, overrides and isolates (the "Trojan Source"
# characters), and the zero-width ones. Refused in every kind of text.
BIDI = {chr(c) for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A), 0x200E, 0x200F, 0x061C)}
ZERO_WIDTH = {"\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u180e"}
_SPACES = re.compile(r"\s+")


class Plural(str):
    """A field's words whose noun is plural ("The cards the dealer chose"): a refusal says
    "are", "hold", not "is", "holds"."""


def _is(label: str) -> str:
    """``label`` and its verb, agreeing: "The evening's title is", "The cards ... are"."""
    return f"{label} {'are' if isinstance(label, Plural) else 'is'}"


def _refusal(ch: str, label: str, field: str) -> UserError:
    code = f"U+{ord(ch):04X}"
    if ch in BIDI:
        what = f"a character that reverses or isolates the direction of text ({code})"
    elif ch in ZERO_WIDTH:
        what = f"an invisible zero-width character ({code})"
    elif unicodedata.category(ch) == "Cc":
        what = f"a control character ({code})"
    elif unicodedata.category(ch) == "Cs":
        what = f"half of a character (an unpaired surrogate, {code})"
    elif unicodedata.category(ch) == "Cn":
        what = f"a code point Unicode does not assign ({code})"
    else:
        what = f"an invisible formatting character ({code})"
    holds = "hold" if isinstance(label, Plural) else "holds"
    return UserError(f"{label} {holds} {what}; type it again as plain text.", field=field)


def too_long(label: str, max_length: int, length: int) -> str:
    """The refusal of a text past its limit, in words: the field (`label`, "The evening's
    title"; a `Plural` one agrees, "The cards the dealer chose are"), its limit and the length
    sent. The one wording at every door: the services'
    cleaning, the API's fields (`InWords`) and the HTML forms (core.echo.CutWhenRefused)."""
    return f"{_is(label)} {max_length:,} characters at most; this one has {length:,}."


def _check_length(text: str, *, label: str, field: str, max_length: int, slack: int = 1) -> None:
    if len(text) > max_length * slack:
        raise UserError(
            too_long(label, max_length, len(text)),
            field=field,
            code="too_long",
            details={"max_length": max_length, "length": len(text)},
        )


def _string(value, *, label: str, field: str) -> str:
    if not isinstance(value, str):
        raise UserError(f"{_is(label)} text.", field=field)
    return value


def clean_name(value, *, label: str, field: str = "name", max_length: int = NAME_MAX) -> str:
    """A person's name as it is kept: NFKC, inner spaces collapsed, ends trimmed.

    Refuses (UserError naming `field`, and in its message the field in words, `label`:
    "The member's name"): anything but a string, an empty name, a name longer than
    `max_length`, and control, bidirectional, zero-width, other invisible formatting,
    surrogate, private-use and unassigned characters.
    """
    value = _string(value, label=label, field=field)
    # The raw text is measured first (a generous bound) so a 100 KB name is refused
    # before any work is done on it.
    _check_length(value, label=label, field=field, max_length=max_length, slack=4)
    for ch in value:
        if ch in BIDI or ch in ZERO_WIDTH or unicodedata.category(ch) in {"Cc", "Cf", "Cs"}:
            if ch in " \t\n\r":
                continue
            raise _refusal(ch, label, field)
    name = _SPACES.sub(" ", unicodedata.normalize("NFKC", value)).strip()
    for ch in name:
        if unicodedata.category(ch) in {"Cc", "Cf", "Cs", "Co", "Cn"} or ch in ZERO_WIDTH:
            raise _refusal(ch, label, field)
    if not name:
        raise UserError(f"{_is(label)} needed.", field=field, code="required")
    _check_length(name, label=label, field=field, max_length=max_length)
    return name


def clean_text(
    value,
    *,
    field: str,
    max_length: int,
    label: str,
    required: bool = False,
    multiline: bool = False,
) -> str:
    """A title or a reason as it is kept: NFC, ends trimmed (and, unless `multiline`,
    inner spaces collapsed). Refuses what `clean_name` refuses, except that a
    multi-line text keeps its line breaks and tabs; an empty text only if `required`.
    `label` is the field in words, as the refusal names it ("The evening's title")."""
    value = _string(value, label=label, field=field)
    _check_length(value, label=label, field=field, max_length=max_length, slack=4)
    text = unicodedata.normalize("NFC", value.replace("\r\n", "\n"))
    for ch in text:
        if ch in " \t\n\r":
            continue
        if ch in BIDI or ch in ZERO_WIDTH or unicodedata.category(ch) in {"Cc", "Cs", "Cn"}:
            raise _refusal(ch, label, field)
    text = text.strip() if multiline else _SPACES.sub(" ", text).strip()
    if required and not text:
        raise UserError(f"{_is(label)} needed.", field=field, code="required")
    _check_length(text, label=label, field=field, max_length=max_length)
    return text


def clean_reason(value, *, field: str = "reason") -> str:
    """The reason given for a change (ruling E9's, a reopening's, an abandoned rubber's...)
    as it is kept: `clean_text` of a multi-line text of at most REASON_MAX characters,
    named "The reason" in a refusal; empty when none is given (the caller decides whether
    one is needed, and says why in its own words)."""
    return clean_text(
        value or "", field=field, max_length=REASON_MAX, label="The reason", multiline=True
    )


def name_key(name: str) -> str:
    """What two names share when they name the same person: NFKC, case and spaces ignored
    ("ann", "ANN" and "A nn" are Ann)."""
    return "".join(unicodedata.normalize("NFKC", name).casefold().split())


@functools.cache
def _prototypes() -> dict[str, str]:
    """Each confusable character mapped to one prototype of its class (TR39's idea of a
    skeleton, from the confusables table `confusable_homoglyphs` keeps). The classes are
    closed under the table's pairs; the prototype is the class's lowest code point, so an
    ASCII letter where the class has one (Cyrillic and Greek small a are "a")."""
    from confusable_homoglyphs.confusables import confusables_data

    parent: dict[str, str] = {}

    def find(ch: str) -> str:
        while parent.get(ch, ch) != ch:
            parent[ch] = parent.get(parent[ch], parent[ch])
            ch = parent[ch]
        return ch

    for char, homoglyphs in confusables_data.items():
        if len(char) != 1:
            continue
        for homoglyph in homoglyphs:
            other = homoglyph["c"]
            if len(other) == 1:
                a, b = find(char), find(other)
                if a != b:
                    parent[max(a, b)] = min(a, b)
    return {ch: find(ch) for ch in parent}


def name_skeleton(name: str) -> str:
    """What two names share when they look alike: the key of the name with every
    character replaced by the prototype of its confusable class, before and after
    case is folded ("Ann" with a Cyrillic capital A and in Latin both give "ann")."""
    table = _prototypes()
    shape = "".join(table.get(ch, ch) for ch in unicodedata.normalize("NFKC", name))
    return "".join(table.get(ch, ch) for ch in name_key(shape))


# --- the API's fields --------------------------------------------------------------------------


class InWords:
    """A DRF text field whose refusals name it in words (`words`: "The evening's title";
    by default "The " and its name, "The reason"): a text past its `max_length` is refused
    with `too_long`'s sentence, not DRF's "Ensure this field has no more than 120
    characters." Mixed into every text field of the API with a length limit (a test holds
    them to it)."""

    def __init__(self, *, words: str | None = None, **kwargs):
        self.words = words
        super().__init__(**kwargs)

    @property
    def in_words(self) -> str:
        """The field as a refusal names it."""
        if self.words:
            return self.words
        # A list's item has no name of its own: it is named by its list's.
        name = self.field_name or getattr(self.parent, "field_name", "") or "text"
        return f"The {name.replace('_', ' ')}"

    def to_internal_value(self, data):
        return self.clean(super().to_internal_value(data))

    def clean(self, value: str) -> str:
        """The text as kept, or a ValidationError in words; checked before the field's
        validators (DRF's own length check among them) run."""
        if self.max_length is not None and len(value) > self.max_length:
            raise serializers.ValidationError(
                too_long(self.in_words, self.max_length, len(value)), code="too_long"
            )
        return value


class BoundedCharField(InWords, serializers.CharField):
    """DRF's CharField, its length refused in words (`InWords`)."""


class BoundedSlugField(InWords, serializers.SlugField):
    """DRF's SlugField, its length refused in words (`InWords`)."""


class NameField(BoundedCharField):
    """A serializer field for a person's name, cleaned by `clean_name`."""

    def __init__(self, **kwargs):
        kwargs.setdefault("max_length", NAME_MAX)
        super().__init__(**kwargs)

    def clean(self, value: str) -> str:
        try:
            return clean_name(
                value, field=self.field_name, max_length=self.max_length, label=self.in_words
            )
        except UserError as exc:
            raise serializers.ValidationError(exc.message, code=exc.code) from exc


class TextField(BoundedCharField):
    """A serializer field for a title or a reason, cleaned by `clean_text`."""

    def __init__(self, *, multiline: bool = False, **kwargs):
        kwargs.setdefault("max_length", TITLE_MAX)
        self.multiline = multiline
        super().__init__(**kwargs)

    def clean(self, value: str) -> str:
        try:
            return clean_text(
                value, field=self.field_name, max_length=self.max_length,
                label=self.in_words, multiline=self.multiline,
            )  # fmt: skip
        except UserError as exc:
            raise serializers.ValidationError(exc.message, code=exc.code) from exc
