"""An evening's log as a file: exported in the documented format (docs/evening-log.md) and
replayed through the same services as every door, so a replayed evening ends in the same
state (`manage.py replay_evening`). Events the service generated (a rubber's end, marked
`automatic`) are regenerated on replay, not applied twice.
"""

from decimal import Decimal

from django.db import transaction

from club import evenings, recording
from club.evening_undo import evening_undo
from club.formation import FormationError
from club.models import Club, Cut, Evening, EveningEvent
from core.errors import UserError
from core.text import clean_reason

LOG_FORMAT = "cardclub-evening-log/1"


def evening_export(*, evening: Evening) -> dict:
    """The evening's log in the documented format (docs/evening-log.md)."""
    club = evening.club
    return {
        "format": LOG_FORMAT,
        "club": {"name": club.name, "slug": club.slug, "currency": club.currency},
        "evening": {
            "title": evening.title,
            "date": evening.date.isoformat(),
            "ruleset": evening.ruleset,
            "options": evening.options,
            "stake": str(evening.stake),
        },
        "events": [
            {**event.data, **({"automatic": True} if event.automatic else {})}
            for event in evening.events.order_by("seq")
        ],
    }


@transaction.atomic
def evening_replay(*, log: dict, club: Club | None = None) -> Evening:
    """Replay an exported log into a new evening (on an empty database, a new club too).

    Events the service generated (a rubber's end) are regenerated, not applied twice.
    """
    from club.services import club_create

    if not isinstance(log, dict) or log.get("format") != LOG_FORMAT:
        raise UserError(f"Not an evening log: 'format' must be {LOG_FORMAT!r}.", field="format")
    spec = log.get("evening") or {}
    if club is None:
        info = log.get("club") or {}
        club = Club.objects.filter(slug=info.get("slug")).first() or club_create(
            name=info.get("name", "Club"),
            slug=info.get("slug", "club"),
            currency=info.get("currency", "USD"),
            is_public=True,
            secretary=None,
        )
    for key in ("date", "ruleset"):
        if key not in spec:
            raise UserError(f"The log's evening has no {key}.", field=f"evening.{key}")
    evening = evenings.evening_open(
        club=club,
        date=spec["date"],
        ruleset=spec["ruleset"],
        options=spec.get("options"),
        stake=Decimal(str(spec.get("stake", "0"))),
        title=spec.get("title", ""),
    )
    for index, event in enumerate(log.get("events") or []):
        try:
            _replay_event(evening, event)
        except (UserError, FormationError) as exc:
            exc.field = f"events[{index}]" + (f".{exc.field}" if exc.field else "")
            # Which entry of the file, in words: "Entry 4 of the log: ...".
            exc.message = f"Entry {index + 1} of the log: {exc.message}"
            raise
    evening.refresh_from_db()
    return evening


def _replay_event(evening: Evening, event: dict) -> None:
    if not isinstance(event, dict):
        raise UserError("An event is a JSON object.", field="type")
    if event.get("automatic"):
        return
    kind = event.get("type")
    if "reason" in event:
        event = {**event, "reason": _reason(event["reason"])}
    # A log exported before a Bridge hand was checked against its dealer's side replays
    # as it was recorded (club.seating.check_declaring_side).
    if kind == "hand":
        recording.hand_record(
            evening_id=evening.pk,
            table_number=event["table"],
            data=event["hand"],
            declaring_checked=False,
        )
    elif kind == "correction":
        recording.hand_correct(
            evening_id=evening.pk,
            table_number=event["table"],
            rubber_number=event["rubber"],
            number=event["number"],
            data=event["hand"],
            reason=event.get("reason", ""),
            is_secretary=True,
            declaring_checked=False,
        )
    elif kind == "hand_removed":
        recording.hand_remove(
            evening_id=evening.pk,
            table_number=event["table"],
            rubber_number=event["rubber"],
            number=event["number"],
            reason=event.get("reason", ""),
            is_secretary=True,
        )
    elif kind == "close":
        evenings.evening_close(evening_id=evening.pk, rubbers=event.get("rubbers"))
    elif kind == "reopen":
        evenings.evening_reopen(evening_id=evening.pk, reason=event.get("reason", ""))
    elif kind == "close_sitting":
        evenings.evening_close_sitting(evening_id=evening.pk, table_number=event["table"])
    elif kind == "undo":
        evening_undo(
            evening_id=evening.pk, reason=event.get("reason", ""), undoes=event.get("undoes")
        )
    else:
        # A drawn cut's cards are in the log: replayed as typed in, then marked drawn.
        clean = {k: v for k, v in event.items() if k != "drawn"}
        logged = evenings.evening_act(evening_id=evening.pk, event=clean)
        if event.get("drawn") and logged.type in {"cut", "deal_jack"}:
            _mark_drawn(logged)


def _reason(value) -> str:
    return clean_reason(value)


def _mark_drawn(logged: EveningEvent) -> None:
    """A replayed cut the service had drawn keeps its marker (ruling T10)."""
    logged.data = {**logged.data, "drawn": True}
    logged.save(update_fields=["data"])
    Cut.objects.filter(event=logged).update(drawn_by_service=True)
