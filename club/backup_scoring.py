"""A backup's rubbers scored again by the laws as they are restored (club/backup.py).

A hand's data is the record: what was played, as the table recorded it. Everything the
service keeps beside it is arithmetic on the hands by the laws, and is derived again here
from the hands' data by the rule set of the rubber's game, replaying them as every write
of a rubber does (`scoring.services.rubber_rescored`): each hand's points, explanation,
facts, trick count and game; the rubber's summary, hand count, winner, value and status
(an abandoned rubber stays abandoned); its seats' sides; and the rows wholly derived from
the hands, which are written from the replay and not read from the backup at all: the
points each player scored on each hand (`HandScore`, with its flags: march, lone hand
made, euchred, honours), the games and the money (`Settlement`).

Why derive rather than refuse a disagreement: a backup taken before a fix of the scoring
holds the figures the old code made. The lone hands made, recounted by scoring 0011 and
0012 (rulings E6, E8, E2, C3, C4), were mended in the database by those migrations, never
in the backups taken before them; a secretary restoring one expects his club back as the
service scores it now, as the migrations left the database, and a refusal he could only
get past by editing the file would leave him without his club. So the figures are derived
again, and the import's report says how many seats' totals (what the standings and the
money sum: points, lone hands made, rubbers won ...) differed from the backup's, and names
the first.

What cannot be derived is refused, with a BackupError naming the model, the row's place
among its model's rows and its old id, the field, what is wrong in words, and the law or
ruling the rule set cites: a rubber whose game (`ruleset`), options or players its rule
set does not accept; a hand the laws would not have accepted where it stands in its
rubber (a Bridge hand in a Euchre rubber, six tricks of five, a hand after the rubber was
won, a deal after a round of fixed deals was decided); hands not numbered 1, 2, 3 ... in
their rubber; a seat that is none of the rubber's players' places, or a player without a
seat; and a version of a hand kept beside it (a correction's original and corrected hand
and the original's points, a removed hand, the other side's versions) that is not a hand
of its rubber's game. Nothing is written then: the import is one transaction.

The pure engines replay in process, some 20 microseconds a hand with its explanation and
its players' scores, and the derived rows go in `CHUNK` to a statement where the backup's
went one by one: a restore takes less CPU than before it was checked (BENCHMARKS.md, the
eighth session of 26 November).
"""

import re
from collections import defaultdict
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.db import models

from club.models import HandConfirmation
from scoring.models import (
    SEAT_COVERED,
    Game,
    Hand,
    HandCorrection,
    HandScore,
    RemovedHand,
    Rubber,
    RubberPlayer,
    Settlement,
)
from scoring.rules import GAMES, RuleSet, ScoringError
from scoring.services import HAND_COLUMNS, player_scores, players_of, rubber_rescored

# The rows derived whole from the hands: the backup's own are not read.
DERIVED_ROWS = (HandScore, Game, Settlement)
# The columns derived again on the rows that are read: a backup may lack them.
DERIVED_COLUMNS = {
    *((Rubber, name) for name in ("summary", "hand_count", "winner", "value")),
    (RubberPlayer, "side"),
    *((Hand, name) for name in HAND_COLUMNS if name != "data"),
}
# The versions of a hand kept beside it, each a hand of its rubber's game.
VERSIONS = {
    HandCorrection: ("previous_data", "data"),
    RemovedHand: ("data",),
    HandConfirmation: ("recorded_version", "disputed_version", "settled_version"),
}
# A hand's field in a rubber's replay (scoring.services._replay): "hands[3].tricks".
_HAND_FIELD = re.compile(r"hands\[(\d+)\]\.?(.*)")
CHUNK = 2000  # derived rows inserted a statement


class BackupError(Exception):
    """A backup that cannot be restored: not one, the wrong version, a slug taken, a row
    the service cannot use."""


def refusal(where: str, field_name: str | None, error: ScoringError) -> BackupError:
    """The rule set's refusal of a row's field, in the backup's words."""
    law = f" ({error.law})" if error.law else ""
    return BackupError(f"{where}, field {field_name}: {error.message}{law}.")


@dataclass(slots=True)
class _Hand:
    """A hand row of the backup, found before it is written."""

    index: int  # its place among the backup's hands
    old: Any  # its id in the backup
    number: int
    data: Any  # as the backup has it
    row: dict

    def where(self, old_rubber, rubber: Rubber | None = None) -> str:
        """The row, and the hand in words: 'hand 3 of rubber id 12, Euchre (...)'."""
        if rubber is None:
            hand = f"hand {self.number} of rubber id {old_rubber}"
        else:
            game = GAMES[rubber.ruleset]
            hand = f"hand {self.number} of {game.rubber_label} id {old_rubber}, {game.title}"
        return f"scoring.hand row {self.index} (id {self.old}: {hand})"


@dataclass
class _Rubber:
    """A restored rubber as its rule set scored it."""

    where: str
    old: Any  # its id in the backup
    rubber: Rubber  # its players and options as the rule set normalises them
    games: list[dict]  # its games' columns
    settlement: list[Decimal] | None  # each seat's money, once it is complete
    members: list[int | None]  # each seat's member (restored), by place
    _start: Any = None

    @property
    def rules(self) -> RuleSet:
        return self.rubber.rules

    def start(self):
        """The rubber before its first hand, for checking a version of a hand."""
        if self._start is None:
            self._start = self.rules.start(self.rubber.options, self.rubber.players)
        return self._start


def _hands_by_rubber(data: dict) -> dict[Any, list[_Hand]]:
    """The backup's hands by their rubber's old id, in order; numbered 1, 2, 3 ..."""
    section = next((s for s in data["models"] if s.get("model") == "scoring.hand"), None)
    found = defaultdict(list)
    for index, row in enumerate(section["rows"] if section else []):
        try:
            fields = row["fields"]
            hand = _Hand(index, row["pk"], fields["number"], fields["data"], row)
            found[fields["rubber"]].append(hand)
        except (KeyError, TypeError) as exc:
            raise BackupError(f"scoring.hand row {index} is malformed: {exc!r}") from exc
        if type(hand.number) is not int:
            raise BackupError(
                f"{hand.where(fields['rubber'])}, field number: {hand.number!r} is not a "
                "whole number."
            )
    for rubber, hands in found.items():
        hands.sort(key=lambda hand: hand.number)
        for expected, hand in enumerate(hands, 1):
            if hand.number != expected:
                if 1 <= hand.number < expected:
                    wrong = f"two hands numbered {hand.number}"
                else:
                    wrong = f"a hand numbered {hand.number} and no hand {expected}"
                raise BackupError(
                    f"{hand.where(rubber)}, field number: rubber id {rubber} has {wrong}; "
                    "its hands are numbered 1, 2, 3 ... in the order played."
                )
    return found


class Rescoring:
    """The scoring rows of one import, checked and derived as they are written: the
    importer calls `prepare` before it writes a row, `written` after, and `finish` once
    every row is written; the derived rows are inserted `CHUNK` at a time."""

    def __init__(self, data: dict, progress=None):
        self.hands = _hands_by_rubber(data)
        self.rubbers: dict[int, _Rubber] = {}  # by the restored rubber's key
        self.hand_rubber: dict[int, int] = {}  # a restored hand's rubber, by their keys
        self.queued: dict[type[models.Model], list] = {model: [] for model in DERIVED_ROWS}
        self.progress = progress
        self.seat_totals: dict[int, tuple] = {}  # the backup's, by the restored seat's key
        self._rubber: _Rubber | None = None

    # --- the importer's calls ---------------------------------------------------------

    def prepare(self, model, obj, row: dict, where: str) -> None:
        """Check or derive a row about to be written (`obj`, built from `row`)."""
        if model is Rubber:
            self._rubber = self._rescore(obj, row, where)
        elif model is RubberPlayer:
            self._seat(obj, where)
        elif model in VERSIONS:
            self._versions(model, obj, where)

    def written(self, model, obj, row: dict) -> None:
        """What a row just written brings with it: a rubber's games, a hand's scores."""
        if model is Rubber:
            self.rubbers[obj.pk] = self._rubber
            for columns in self._rubber.games:
                self._queue(Game(rubber_id=obj.pk, **columns))
        elif model is RubberPlayer:
            self.rubbers[obj.rubber_id].members[obj.position] = obj.member_id
            self.seat_totals[obj.pk] = tuple(row["fields"].get(name) for name in SEAT_COVERED)
        elif model is Hand:
            self.hand_rubber[obj.pk] = obj.rubber_id
            scored = self.rubbers[obj.rubber_id]
            scores = player_scores(scored.rules, scored.rubber, obj)  # its points and facts
            for member_id, score in zip(self._members(scored), scores.values(), strict=True):
                self._queue(
                    HandScore(hand_id=obj.pk, rubber_id=obj.rubber_id, member_id=member_id, **score)
                )

    def finish(self) -> None:
        """Write the money and what is still queued."""
        for pk, scored in self.rubbers.items():
            members = self._members(scored)  # every rubber's seats, even with no hand
            if scored.settlement is not None:
                for member_id, amount in zip(members, scored.settlement, strict=True):
                    self._queue(Settlement(rubber_id=pk, member_id=member_id, amount=amount))
        for model in DERIVED_ROWS:
            self._flush(model)

    def differences(self, club) -> list[str]:
        """Once the seats are rolled up (club.backup._derive): the report's line saying
        how many seats' totals, what the standings and the money sum, differ from the
        backup's (where it has them), naming the first."""
        differ, rubbers, first = 0, set(), ""
        seats = RubberPlayer.objects.filter(rubber__club=club).order_by("pk")
        for pk, rubber_id, name, *now in seats.values_list(
            "pk", "rubber_id", "member__name", *SEAT_COVERED
        ).iterator():
            was = [
                _python(field, value)
                for field, value in zip(SEAT_COVERED, self.seat_totals[pk], strict=True)
            ]
            changed = [
                (f, w, n)
                for f, w, n in zip(SEAT_COVERED, was, now, strict=True)
                if w is not None and w != n
            ]
            if changed:
                differ += 1
                rubbers.add(rubber_id)
                if not first:
                    old = self.rubbers[rubber_id].old
                    first = f"{name} in rubber id {old}: " + ", ".join(
                        f"{f} {w} in the backup, {n} now" for f, w, n in changed
                    )
        if not differ:
            return []
        return [
            f"Scored again by the laws: the totals of {differ} seat(s) in {len(rubbers)} "
            "rubber(s) differed from the backup's, as in a backup taken before a fix of the "
            f"scoring, and are restored as the laws make them (the first: {first})."
        ]

    # --- rubbers and their hands --------------------------------------------------------

    def _rescore(self, rubber: Rubber, row: dict, where: str) -> _Rubber:
        old = row["pk"]
        hands = self.hands.pop(old, [])
        try:
            rescored = rubber_rescored(rubber=rubber, hands=[hand.data for hand in hands])
        except ScoringError as error:
            match = _HAND_FIELD.fullmatch(error.field or "")
            if match is None:
                raise refusal(where, error.field, error) from error
            hand = hands[int(match[1])]
            name = ".".join(filter(None, ["data", match[2]]))
            raise refusal(hand.where(old, rubber), name, error) from error
        for hand, columns in zip(hands, rescored.hands, strict=True):
            hand.row["fields"].update(columns)
        seats = len(players_of(rubber.rules, rubber.players))
        return _Rubber(where, old, rubber, rescored.games, rescored.settlement, [None] * seats)

    def _seat(self, seat: RubberPlayer, where: str) -> None:
        scored = self.rubbers[seat.rubber_id]
        places = players_of(scored.rules, scored.rubber.players)
        if type(seat.position) is not int or not 0 <= seat.position < len(places):
            raise BackupError(
                f"{where}, field position: {seat.position!r} is no seat of rubber "
                f"{scored.old}, whose {len(places)} players sit at places 0 to {len(places) - 1}."
            )
        seat.side = places[seat.position][1]  # as the rubber's players place him

    def _members(self, scored: _Rubber) -> list[int]:
        """The rubber's seats' members by place: each of its players has one."""
        if None in scored.members:
            places = players_of(scored.rules, scored.rubber.players)
            missing = [
                name for (name, _), m in zip(places, scored.members, strict=True) if m is None
            ]
            raise BackupError(
                f"{scored.where}, its seats (scoring.rubberplayer): no seat for "
                f"{', '.join(missing)}; a rubber has a seat for each of its players."
            )
        return scored.members

    # --- versions of a hand kept beside it ------------------------------------------------

    def _versions(self, model, obj, where: str) -> None:
        rubber_id = self.hand_rubber[obj.hand_id] if model is not RemovedHand else obj.rubber_id
        scored = self.rubbers[rubber_id]
        checked = {}
        for name in VERSIONS[model]:
            value = getattr(obj, name)
            if value is None and model._meta.get_field(name).null:
                continue
            try:
                checked[name] = scored.rules.validate_hand(scored.start(), value, field_prefix=name)
            except ScoringError as error:
                raise refusal(where, error.field, error) from error
            setattr(obj, name, checked[name].as_dict())
        if model is HandCorrection:
            _, result = scored.rules.apply(scored.start(), checked["previous_data"])
            if not _shaped_like(obj.previous_points, result.points):
                raise BackupError(
                    f"{where}, field previous_points: {obj.previous_points!r} are not the "
                    f"points of a hand of this game, shaped as {result.points!r} are."
                )

    def _queue(self, obj: models.Model) -> None:
        queued = self.queued[type(obj)]
        queued.append(obj)
        if len(queued) >= CHUNK:
            self._flush(type(obj))

    def _flush(self, model) -> None:
        queued = self.queued[model]
        if queued:
            model.objects.bulk_create(queued)
            if self.progress is not None:
                self.progress(len(queued))
            queued.clear()


def _python(name: str, value):
    """A seat's total as the backup has it, as the column holds it (None: not there)."""
    return None if value is None else RubberPlayer._meta.get_field(name).to_python(value)


def _shaped_like(value, like) -> bool:
    """Points of the same shape: the same keys, nested alike, whole numbers at the ends."""
    if isinstance(like, dict):
        return (
            isinstance(value, dict)
            and value.keys() == like.keys()
            and all(_shaped_like(value[key], like[key]) for key in like)
        )
    return type(value) is int
