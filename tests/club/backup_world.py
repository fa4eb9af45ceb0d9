"""The clubs the backup's tests restore (tests/club/test_backup.py and
test_backup_evenings.py), built through the real services, and the helpers that read a
backup's rows. Each test module builds its clubs once for its own tests
(tests.conftest.rows_for_the_module over `build_worlds` or `build_rich_world`)."""

import datetime
import json
from decimal import Decimal

import pytest

from club import evenings, recording
from club.backup import MODELS, BackupError, club_export, club_import
from club.models import Club, Member, Table
from tests.factories import ClubFactory, UserFactory
from tournaments import rounds, services

SIX = ["Ann", "Bob", "Cora", "Dan", "Edith", "Frank"]
EIGHT = [*SIX, "Grace", "Hugh"]
MARCH, THREE = {"makers": "NS", "tricks": 5}, {"makers": "NS", "tricks": 3}
SWEEP = [MARCH, MARCH, THREE] * 3  # N-S win the rubber, worth 8 (rulings E1, E3, E4)


def committing(capture_on_commit):
    """Run a write as if it had committed, so the standings are recalculated."""

    def run(function, **kwargs):
        with capture_on_commit(execute=True):
            return function(**kwargs)

    return run


def seat_six(commit, evening, cards=("JS", "AS", "KS", "QS", "10S", "9S")):
    for name in SIX:
        commit(
            evenings.evening_act, evening_id=evening.pk, event={"type": "arrive", "player": name}
        )
    commit(evenings.evening_act, evening_id=evening.pk, event={"type": "form_table"})
    commit(
        evenings.evening_act,
        evening_id=evening.pk,
        event={"type": "cut", "cards": dict(zip(SIX, cards, strict=True))},
    )
    commit(
        evenings.evening_act,
        evening_id=evening.pk,
        event={"type": "cut", "cards": {"Ann": "JH", "Bob": "AH", "Cora": "KH", "Dan": "QH"}},
    )


def record(commit, evening, hands, **kwargs):
    for hand in hands:
        commit(
            recording.hand_record,
            evening_id=evening.pk,
            table_number=1,
            data=hand,
            **kwargs,
        )


def build_rich(club, secretary, commit):
    """A club with two evenings (cuts, cut-outs, corrections, a closed evening), a ladder
    over them, and a progressive tournament with a removed hand; two secretaries."""
    ghost = UserFactory(username="ghost")
    club.secretaries.add(ghost)
    club.table_link_hours = 9  # the club's own settings travel with it
    club.save(update_fields=["table_link_hours"])
    first = evenings.evening_open(
        club=club, date=datetime.date(1888, 11, 21), ruleset="euchre-somerset-1888",
        stake=Decimal("0.25"), title="November",
    )  # fmt: skip
    second = evenings.evening_open(
        club=club, date=datetime.date(1888, 11, 28), ruleset="euchre-somerset-1888",
        stake=Decimal("0.50"),
    )  # fmt: skip
    commit(
        services.tournament_create,
        club=club, name="Winter ladder", slug="winter", kind="ladder",
        evening_ids=[first.pk, second.pk],
    )  # fmt: skip

    seat_six(commit, first)
    Member.objects.filter(club=club, name="Ann").update(user=secretary)
    record(commit, first, SWEEP, user=secretary)
    commit(
        evenings.evening_act,
        evening_id=first.pk,
        event={"type": "cut", "cards": {"Ann": "JC", "Bob": "AC", "Cora": "7C", "Dan": "8C"}},
    )
    commit(
        evenings.evening_act,
        evening_id=first.pk,
        event={"type": "cut", "cards": {"Ann": "JD", "Edith": "AD", "Bob": "KD", "Frank": "QD"}},
    )
    phone = Table.objects.get(evening=first, number=1)
    record(commit, first, [MARCH], table=phone)  # at the table's phone: logged by_table
    record(commit, first, [THREE])
    commit(
        recording.hand_correct,
        evening_id=first.pk, table_number=1, rubber_number=2, number=1,
        data={"makers": "EW", "tricks": 3}, reason="Wrong side written", user=secretary,
        is_secretary=True,
    )  # fmt: skip

    seat_six(commit, second, cards=("JS", "AS", "KS", "QS", "9S", "10S"))
    record(commit, second, [{"makers": "EW", "tricks": 5}] * 2)
    # Closing answers for the rubber in play (club.closing): abandoned, with a reason.
    abandoned = {"table": 1, "rubber": 1, "outcome": "abandoned", "reason": "closing time"}
    commit(evenings.evening_close, evening_id=second.pk, user=secretary, rubbers=[abandoned])

    tournament = commit(
        services.tournament_create,
        club=club, name="Progressive", slug="prog", kind="progressive",
        ruleset="euchre-somerset-1888", movement="rotation",
    )  # fmt: skip
    for name in EIGHT:
        rounds.tournament_enter(tournament=tournament, name=name)
    played = commit(rounds.round_seat_next, tournament_id=tournament.pk)
    for table in played.tables.all():
        for hand in SWEEP:
            commit(recording.hand_record, rubber_id=table.rubber_id, data=hand)
    played = commit(rounds.round_seat_next, tournament_id=tournament.pk)
    rubber_id = played.tables.get(number=1).rubber_id
    commit(recording.hand_record, rubber_id=rubber_id, data=MARCH)
    commit(recording.hand_record, rubber_id=rubber_id, data=THREE)
    commit(
        recording.hand_remove,
        rubber_id=rubber_id, number=2, reason="Entered twice", is_secretary=True,
    )  # fmt: skip
    club.refresh_from_db()
    return club


LOST = {"makers": "NS", "tricks": 4, "alone": True, "revokes": ["NS"]}  # ruling E6: lost
MADE = {"makers": "EW", "tricks": 4, "alone": True, "revokes": ["NS"]}  # a lone hand made
BRIDGE = {"declarer": "NS", "trump": "NT", "tricks": {"NS": 7, "EW": 6}}


def build_played(club, secretary, commit):
    """A club with a ladder over an evening of two Euchre rubbers: one of a lone hand
    whose points were lost (ruling E6) and a lone hand made, its second hand corrected
    and a third taken off; one swept and settled. Beside them a Bridge rubber and a
    Call-Ace sitting, closed, whose lone maker's side revoked (ruling C3)."""
    from scoring import services as scoring
    from tests.factories import EveningFactory, MemberFactory

    for name in ["Ann", "Bob", "Cora", "Dan"]:
        MemberFactory(club=club, name=name)
    evening = EveningFactory(club=club, stake="0.25")
    commit(
        services.tournament_create,
        club=club, name="Winter ladder", slug="winter", kind="ladder", evening_ids=[evening.pk],
    )  # fmt: skip

    def rubber(ruleset="euchre-somerset-1888", players=None, evening=evening):
        players = players or {"NS": ["Ann", "Cora"], "EW": ["Bob", "Dan"]}
        return scoring.rubber_start(club=club, evening=evening, ruleset=ruleset, players=players)

    def play(rubber, *hands):
        for hand in hands:
            commit(recording.hand_record, rubber_id=rubber.pk, data=hand)

    lone = rubber()
    play(lone, LOST, THREE)
    commit(
        recording.hand_correct,
        rubber_id=lone.pk, number=2, data=MADE, reason="Wrong hand written", user=secretary,
        is_secretary=True,
    )  # fmt: skip
    play(lone, THREE)
    commit(
        recording.hand_remove, rubber_id=lone.pk, number=3, reason="Entered twice",
        is_secretary=True,
    )  # fmt: skip
    play(rubber(), *SWEEP)
    play(rubber("bridge-elwell-1907", evening=None), BRIDGE)
    sitting = rubber("call-ace-foster-1905", ["Ann", "Bob", "Cora", "Dan"], evening=None)
    play(sitting, {"maker": "Ann", "alone": True, "tricks": 4, "revoke": "makers"})
    commit(recording.sitting_close, rubber_id=sitting.pk)
    return club


def _secretary_and_club(slug: str, name: str, secretary=None):
    secretary = secretary or UserFactory(username="secretary")
    club = ClubFactory(name=name, slug=slug)
    club.secretaries.add(secretary)
    return secretary, club


def build_worlds(capture_on_commit) -> dict:
    """The two clubs of tests/club/test_backup.py, built once for its tests
    (tests.conftest.rows_for_the_module), each test's changes undone after it: the rich
    club (Somerset) and the played one, each with the secretary among its secretaries.
    Returns their ids."""
    commit = committing(capture_on_commit)
    secretary, somerset = _secretary_and_club("somerset", "Somerset Club")
    _, foster = _secretary_and_club("foster", "Foster Club", secretary)
    return {
        "rich": build_rich(somerset, secretary, commit).pk,
        "played": build_played(foster, secretary, commit).pk,
    }


def build_rich_world(capture_on_commit) -> dict:
    """The rich club alone (Somerset, its secretary among its secretaries), as
    `build_worlds` makes it, for a module whose tests restore only it. Returns its id."""
    secretary, somerset = _secretary_and_club("somerset", "Somerset Club")
    return {"rich": build_rich(somerset, secretary, committing(capture_on_commit)).pk}


def rows(data: dict, label: str) -> list[dict]:
    """The rows of one model in a backup."""
    return next(section for section in data["models"] if section["model"] == label)["rows"]


def counts() -> dict:
    """How many rows the database holds of each model a backup restores, and clubs."""
    return {"clubs": Club.objects.count(), **{m: m.objects.count() for m, _ in MODELS}}


def roundtrip_json(data: dict) -> dict:
    return json.loads(json.dumps(data))


def refused_when_spoiled(club: Club, spoil, refusal: str) -> None:
    """CLUB's backup, spoiled by SPOIL (which changes the data in place), is refused on
    import with a BackupError whose message matches REFUSAL (a regular expression), and
    nothing is written."""
    data = roundtrip_json(club_export(club=club))
    spoil(data)
    before = counts()
    with pytest.raises(BackupError, match=refusal):
        club_import(data=data, slug="copy")
    assert counts() == before
