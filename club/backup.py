"""Backing up a club and restoring it: one JSON document holding everything it owns.

`club_export` writes the club, its members, evenings (with their logs, cuts and
tables), rubbers and everything recorded in them, and its tournaments, each model's
rows in dependency order with their primary keys. `club_import` reads that document
into one transaction, giving every row a new primary key and rewriting every foreign
key, many-to-many link and id held in JSON (a standings row's member) to the new ids,
so a backup restores into a database that holds other clubs.

Users are not exported: a secretary, or the user who recorded a hand, is written by
username and linked on import when a user of that name exists. Operational rows
(idempotency records, worker heartbeats, the standings outbox) are not exported.

What the service derives is derived again on import, so that a backup written before a
derived column existed, or before a fix of the scoring, restores as the service would
have it now: the rubbers are scored again from their hands' data by the laws, a hand they
would not accept refused by name (club/backup_scoring.py); the evenings' states and
versions are derived again from their logs by the laws of forming tables, a log they would
not accept refused by name (club/backup_evenings.py); then the seats' roll-ups and the
standings (`_derive`).
"""

import datetime
import uuid
from collections.abc import Callable
from decimal import Decimal

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import DataError, IntegrityError, models, transaction

from club.backup_evenings import evenings_derived
from club.backup_scoring import DERIVED_COLUMNS, DERIVED_ROWS, BackupError, Rescoring
from club.models import (
    Club,
    Cut,
    Evening,
    EveningEvent,
    HandConfirmation,
    Member,
    Table,
    new_table_token,
)
from core.errors import UserError
from core.text import clean_name, clean_text
from scoring.models import (
    SEAT_TOTALS,
    Game,
    Hand,
    HandCorrection,
    HandScore,
    RemovedHand,
    Rubber,
    RubberPlayer,
    Settlement,
)

FORMAT = "cardclub-club-backup"
VERSION = 1

# Dependency order: every row's foreign keys point to rows of models earlier in the list
# (or to itself's parents). Each model comes with the lookup selecting the club's rows.
MODELS: list[tuple[type[models.Model], str]] = [
    (Member, "club"),
    (Evening, "club"),
    (Table, "club"),
    (EveningEvent, "evening__club"),
    (Cut, "evening__club"),
    (Rubber, "club"),
    (RubberPlayer, "rubber__club"),
    (Game, "rubber__club"),
    (Hand, "rubber__club"),
    (HandCorrection, "hand__rubber__club"),
    (RemovedHand, "rubber__club"),
    (HandScore, "rubber__club"),
    (Settlement, "rubber__club"),
    (HandConfirmation, "rubber__club"),  # the other side's word (club/confirmations.py)
    # The apps built on club (tournaments) add theirs when they are ready: `register`.
]
LABELS = {model._meta.label_lower: model for model, _ in MODELS}
# Columns the service derives from other rows: a backup may lack them (written before
# they existed); the import derives them again either way (the rubbers and their hands,
# club/backup_scoring.py; the seats' roll-up and the registered apps', `_derive`).
DERIVED = {(RubberPlayer, name) for name in SEAT_TOTALS} | DERIVED_COLUMNS
# What an app that registered rows derives again from them after an import.
_DERIVE: list[Callable[[Club], None]] = []


def register(
    rows: list[tuple[type[models.Model], str]],
    *,
    derived: set[tuple[type[models.Model], str]] = frozenset(),
    derive: Callable[[Club], None] | None = None,
) -> None:
    """Put another app's rows in a club's backup (called from its AppConfig.ready(), so
    that club knows nothing of the apps built on it): `rows`, (model, lookup selecting
    the club's rows) in dependency order, after every row they refer to; `derived`, the
    (model, column) pairs the import derives again, by `derive(club)`."""
    for model, lookup in rows:
        if model._meta.label_lower not in LABELS:
            MODELS.append((model, lookup))
            LABELS[model._meta.label_lower] = model
    DERIVED.update(derived)
    if derive is not None and derive not in _DERIVE:
        _DERIVE.append(derive)


def _label(model) -> str:
    return model._meta.label_lower


def _is_user(field) -> bool:
    return field.is_relation and field.related_model is get_user_model()


def _encode(value):
    """A field's value as JSON: decimals and UUIDs as strings, dates in ISO 8601 (to the
    microsecond, so timestamps and the orderings built on them survive)."""
    if isinstance(value, (Decimal, uuid.UUID)):
        return str(value)
    if isinstance(value, (datetime.date, datetime.datetime)):
        return value.isoformat()
    return value


def _row(obj: models.Model, usernames: dict[int, str]) -> dict:
    fields = {}
    for field in obj._meta.concrete_fields:
        if field.primary_key:
            continue
        value = getattr(obj, field.attname)
        if _is_user(field):
            value = usernames.get(value) if value is not None else None
        fields[field.name] = _encode(value)
    for field in obj._meta.many_to_many:
        fields[field.name] = sorted(other.pk for other in getattr(obj, field.name).all())
    return {"pk": obj.pk, "fields": fields}


def club_export(*, club: Club) -> dict:
    """Everything the club owns, as one JSON-ready document (see the module's docstring)."""
    user_model = get_user_model()
    user_ids = set()
    for model, lookup in MODELS:
        for field in model._meta.concrete_fields:
            if _is_user(field):
                user_ids.update(
                    model.objects.filter(**{lookup: club})
                    .exclude(**{field.attname: None})
                    .values_list(field.attname, flat=True)
                )
    usernames = dict(
        user_model.objects.filter(pk__in=user_ids).values_list("pk", user_model.USERNAME_FIELD)
    )
    data_models = []
    for model, lookup in MODELS:
        rows = model.objects.filter(**{lookup: club}).order_by("pk")
        if model._meta.many_to_many:
            rows = rows.prefetch_related(*(f.name for f in model._meta.many_to_many))
        data_models.append({"model": _label(model), "rows": [_row(obj, usernames) for obj in rows]})
    return {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": datetime.datetime.now(datetime.UTC).isoformat(),
        "club": {
            "name": club.name,
            "slug": club.slug,
            "currency": club.currency,
            "is_public": club.is_public,
            "confirm_hands": club.confirm_hands,
            "table_link_hours": club.table_link_hours,
            "created_at": _encode(club.created_at),
            "secretaries": sorted(
                club.secretaries.values_list(user_model.USERNAME_FIELD, flat=True)
            ),
            "directors": sorted(club.directors.values_list(user_model.USERNAME_FIELD, flat=True)),
        },
        "models": data_models,
    }


def _check(data) -> None:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise BackupError(f"Not a club backup: 'format' must be {FORMAT!r}.")
    if data.get("version") != VERSION:
        raise BackupError(
            f"This backup is version {data.get('version')!r}; this server reads version {VERSION}."
        )
    club = data.get("club")
    if not isinstance(club, dict) or not all(
        isinstance(club.get(key), str) and club[key] for key in ("slug", "name")
    ):
        raise BackupError("The backup's 'club' needs a name and a slug.")
    for key in ("secretaries", "directors"):
        names = club.get(key, [])
        if not isinstance(names, list) or not all(isinstance(name, str) for name in names):
            raise BackupError(f"The backup's club's {key!r} must be a list of login names.")
    sections = data.get("models")
    if not isinstance(sections, list) or not all(
        isinstance(s, dict) and isinstance(s.get("model"), str) and isinstance(s.get("rows"), list)
        for s in sections
    ):
        raise BackupError("The backup's 'models' must be a list of {model, rows}.")
    order = [_label(model) for model, _ in MODELS]
    labels = [s.get("model") for s in sections]
    unknown = [label for label in labels if label not in LABELS]
    if unknown:
        raise BackupError(f"The backup holds rows of unknown models: {', '.join(unknown)}.")
    if labels != [label for label in order if label in labels]:
        raise BackupError("The backup's models are not in dependency order.")


class _Importer:
    """Writes a backup's rows, remembering each old primary key's new one, per model."""

    def __init__(self, club: Club, rescoring: Rescoring):
        self.club = club
        self.rescoring = rescoring
        self.new_pk: dict[type[models.Model], dict[int, int]] = {Club: {}}
        self.users: dict[str, int | None] = {}
        self.missing_users: set[str] = set()
        self.tokens_renewed = 0

    def user_id(self, username):
        if username is None:
            return None
        if username not in self.users:
            user_model = get_user_model()
            self.users[username] = (
                user_model.objects.filter(**{user_model.USERNAME_FIELD: username})
                .values_list("pk", flat=True)
                .first()
            )
            if self.users[username] is None:
                self.missing_users.add(username)
        return self.users[username]

    def remap(self, model, field, old):
        if old is None:
            return None
        if field.related_model is Club:
            return self.club.pk
        try:
            return self.new_pk[field.related_model][old]
        except KeyError:
            raise BackupError(
                f"{_label(model)}.{field.name} refers to {_label(field.related_model)} {old}, "
                "which is not in the backup."
            ) from None

    def member_id(self, old):
        try:
            return self.new_pk[Member][old]
        except KeyError:
            raise BackupError(
                f"A standings row names member {old}, who is not in the backup."
            ) from None

    def write(self, model, rows: list[dict], progress=None) -> None:
        if model in DERIVED_ROWS:
            return  # written from the hands as they are (club/backup_scoring.py)
        mapping = self.new_pk.setdefault(model, {})
        for index, row in enumerate(rows):
            where = f"{_label(model)} row {index}"
            try:
                old = row["pk"]
                if not isinstance(old, int) or isinstance(old, bool):
                    # A list or an object could not even be remembered (hashed): a
                    # TypeError's traceback, not the backup's refusal.
                    raise BackupError(f"{where} is malformed: its id {old!r} is not a number.")
                if old in mapping:
                    # Else the later row took the id's place: what the file says of the
                    # earlier row was read as the later's.
                    raise BackupError(
                        f"{where} is malformed: its id {old} is an earlier row's too; each "
                        "row has an id of its own."
                    )
                obj, links = self.build(model, row)
            except (KeyError, TypeError, ValueError, ValidationError) as exc:
                raise BackupError(f"{where} is malformed: {exc!r}") from exc
            except UserError as exc:  # a text no door of the service takes (_checked_text)
                raise BackupError(f"{where} (id {old}) is refused: {exc.message}") from exc
            self.rescoring.prepare(model, obj, row, f"{where} (id {old})")
            try:
                # raw: timestamps (auto_now_add) are kept as they were, as loaddata does.
                obj.save_base(raw=True, force_insert=True)
                for name, ids in links.items():
                    getattr(obj, name).set(ids)
            except (IntegrityError, DataError) as exc:
                raise BackupError(f"{where} breaks a constraint: {exc}") from exc
            mapping[old] = obj.pk
            self.rescoring.written(model, obj, row)
            if progress is not None:
                progress(1)

    def build(self, model, row: dict):
        values = row["fields"]
        obj = model()
        for field in model._meta.concrete_fields:
            if field.primary_key:
                continue
            if field.name not in values:
                if (model, field.name) in DERIVED:
                    continue  # an older backup: derived again after the import (_derive)
                raise KeyError(field.name)
            value = values[field.name]
            if _is_user(field):
                value = self.user_id(value)
            elif field.is_relation:
                value = self.remap(model, field, value)
            elif value is not None and not isinstance(field, models.JSONField):
                value = field.to_python(value)
                if isinstance(field, models.CharField | models.IntegerField):
                    # Its length and a slug's form, as a form would check them: a slug
                    # that is none broke every page linking to its row (NoReverseMatch).
                    # A whole number within what its column holds: 10**30 was the
                    # database driver's OverflowError, a traceback, not a refusal.
                    field.run_validators(value)
                choices = [choice for choice, _ in field.flatchoices]
                # One of its column's choices, as a form's choice field would check it (a
                # rubber's rule set is Rescoring's to refuse, in the laws' words).
                if (
                    choices
                    and value not in choices
                    and not (value == "" and field.blank)
                    and (model, field.name) != (Rubber, "ruleset")
                ):
                    raise UserError(
                        f"its {field.verbose_name} {value!r} is none the service knows: "
                        f"{', '.join(map(str, choices))}.",
                        field=field.name,
                    )
                if isinstance(value, str):
                    _checked_text(model, field, value)
            setattr(obj, field.attname, value)
        links = {
            field.name: [self.remap(model, field, old) for old in values.get(field.name, [])]
            for field in model._meta.many_to_many
        }
        if model is Table and Table.objects.filter(token=obj.token).exists():
            obj.token = new_table_token()  # the phone link is another club's (unique)
            self.tokens_renewed += 1
        if (
            model is Table
            and obj.replaced_token
            and Table.objects.filter(replaced_token=obj.replaced_token).exists()
        ):
            # Another club's (unique); a copy need not tell a phone its old link was replaced.
            obj.replaced_token = None
        return obj, links


#: The texts that name a person: a backup's must be as every door keeps a name
#: (core.text.clean_name: NFKC, inner spaces collapsed, ends trimmed), or "Ann" in
#: full-width letters and "Ann" were two members, each door taking either for the other.
_NAMES = {(Member, "name")}


def _checked_text(model, field, value: str) -> None:
    """A backup's text refused (UserError) where any door of the service would refuse it
    as typed (core/text.py): control characters (an ESC in a name wrote terminal escapes
    into the operator's shell and logs), bidirectional overrides and isolates, zero-width
    and other invisible characters; and a person's name not as the service keeps one.
    Only the characters are refused elsewhere, not the spacing, so a backup written before
    the text rules still restores."""
    label = f"its {field.verbose_name}"
    if (model, field.name) in _NAMES:
        kept = clean_name(value, label=label, field=field.name, max_length=len(value) + 1)
        if kept != value:
            raise UserError(
                f"{label} {value!r} is not written as the service keeps a name ({kept!r}: "
                "NFKC letters, one space between words, none at the ends).",
                field=field.name,
            )
        return
    clean_text(value, field=field.name, max_length=len(value) + 1, label=label, multiline=True)


def _derive(club: Club) -> None:
    """What the service derives from the restored rows is derived again, so a backup
    written before a derived column existed restores right: the seats' roll-ups, then
    the standings' places (each registered app's `derive`)."""
    from scoring.rollup import rollup_rubbers

    rollup_rubbers(Rubber.objects.filter(club=club).values_list("pk", flat=True))
    for derive in _DERIVE:
        derive(club)


def backup_rows(data) -> int | None:
    """How many rows a backup holds (None if it is not shaped like one: the import says why)."""
    try:
        return sum(len(section["rows"]) for section in data["models"])
    except (KeyError, TypeError):
        return None


@transaction.atomic
def club_import(
    *,
    data: dict,
    slug: str | None = None,
    report: list[str] | None = None,
    progress: Callable[[int], None] | None = None,
) -> Club:
    """Restore a club from `club_export`'s document, all or nothing, under its own slug or
    `slug`. Secretaries and the users named on rows are linked by username when such a
    user exists; the lines appended to `report` say which were not found. `progress`, if
    given, is called with the number of rows written as they are (`backup_rows` counts
    them), for a bar.

    The rubbers are scored again from their hands' data by the laws as they are written
    (club/backup_scoring.py, which says why): a hand the laws would not have accepted is
    refused, naming its row and field and the law; what the service derives from the
    hands is derived again, and the report says how many seats' totals differed from the
    backup's. The document's hand rows are completed in place."""
    _check(data)
    rescoring = Rescoring(data, progress)  # the hands found and their numbers checked
    spec = data["club"]
    slug = slug or spec["slug"]
    if Club.objects.filter(slug=slug).exists():
        raise BackupError(
            f"A club with the slug {slug!r} exists already; import under another with --slug."
        )
    club = Club(
        name=spec["name"],
        slug=slug,
        currency=spec.get("currency", "USD"),
        is_public=spec.get("is_public", True),
        confirm_hands=spec.get("confirm_hands", False),
        table_link_hours=spec.get("table_link_hours", Club.table_link_hours.field.default),
    )
    try:
        _checked_text(Club, Club._meta.get_field("name"), club.name)
    except UserError as exc:
        raise BackupError(f"The backup's club cannot be written: {exc.message}") from exc
    try:
        # The club's fields by its own rules (a slug of a slug's form, the name's length,
        # the currency): a club slugged "a b" broke the site's front page, which links to
        # every club (NoReverseMatch, a 500 for everyone).
        club.full_clean(exclude=["created_at"], validate_unique=False)
        if spec.get("created_at"):
            club.created_at = Club._meta.get_field("created_at").to_python(spec["created_at"])
            club.save_base(raw=True, force_insert=True)
        else:
            club.save()
    except (ValidationError, IntegrityError, DataError) as exc:
        raise BackupError(f"The backup's club cannot be written: {exc}") from exc
    importer = _Importer(club, rescoring)
    secretaries = [importer.user_id(name) for name in spec.get("secretaries", [])]
    club.secretaries.set([pk for pk in secretaries if pk is not None])
    directors = [importer.user_id(name) for name in spec.get("directors", [])]
    club.directors.set([pk for pk in directors if pk is not None])
    for section in data["models"]:
        importer.write(LABELS[section["model"]], section["rows"], progress)
    rescoring.finish()
    evenings_derived(club, data, importer.new_pk)
    _derive(club)
    if report is not None:
        if importer.missing_users:
            report.append(
                "No user named " + ", ".join(sorted(importer.missing_users)) + ": not linked."
            )
        if importer.tokens_renewed:
            report.append(
                f"{importer.tokens_renewed} table phone link(s) were in use and were renewed."
            )
        report.extend(rescoring.differences(club))
    return club
