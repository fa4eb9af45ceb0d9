"""Properties every movement keeps, whoever comes and goes (hypothesis)."""

import json
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.tournaments.movements.movement_helpers import partnerships
from tournaments.movements import MOVEMENTS, Guarantee, RoundResult, movement_for

POOL = [f"m{number:02d}" for number in range(48)]


KEYS = tuple(sorted(MOVEMENTS))


@st.composite
def tournaments(draw, keys=KEYS):
    """A movement, a rule set, and who is present for each of a few rounds."""
    key = draw(st.sampled_from(keys))
    rule_set = draw(st.sampled_from(["euchre-somerset-1888", "bridge-elwell-1907"]))
    low = 8 if key == "rotation" else 4
    present = POOL[: draw(st.integers(low, 32))]
    waiting = POOL[len(present) :]
    attendance = [present]
    for _ in range(draw(st.integers(0, 9))):
        leaving = draw(st.lists(st.sampled_from(present), unique=True, max_size=3))
        arriving = waiting[: draw(st.integers(0, 3))]
        waiting = waiting[len(arriving) :]
        kept = [player for player in present if player not in leaving]
        if len(kept) + len(arriving) >= 4:
            present = kept + arriving
        attendance.append(present)
    return key, rule_set, attendance, draw(st.randoms(use_true_random=False))


@settings(max_examples=80, deadline=None)
@given(tournaments())
def test_everyone_present_is_seated_once_or_sits_out(tournament):
    key, rule_set, attendance, rng = tournament
    movement = movement_for(key, rule_set=rule_set)
    results = []
    for number, present in enumerate(attendance, start=1):
        seating = movement.seat_round(
            round_number=number, players=present, previous=results, rng=random.Random(rng.random())
        )
        assert sorted([*seating.seated, *seating.byes]) == sorted(present)
        assert [table.number for table in seating.tables] == list(range(1, len(present) // 4 + 1))
        assert len(seating.byes) == len(present) % 4
        for table in seating.tables:
            assert len(set(table.players)) == 4
            assert sorted(table.seats) == ["E", "N", "S", "W"]
        result = RoundResult(seating, {t.number: rng.choice(["NS", "EW"]) for t in seating.tables})
        assert RoundResult.from_dict(json.loads(json.dumps(result.to_dict()))) == result
        results.append(result)


@settings(max_examples=60, deadline=None)
@given(tournaments(keys=("progressive", "rotation")))
def test_a_partnership_played_again_is_always_reported(tournament):
    key, rule_set, attendance, rng = tournament
    movement = movement_for(key, rule_set=rule_set)
    results, seen = [], Counter()
    for number, present in enumerate(attendance, start=1):
        seating = movement.seat_round(
            round_number=number, players=present, previous=results, rng=random.Random(rng.random())
        )
        repeated = any(seen[pair] for pair in partnerships(seating))
        seen.update(partnerships(seating))
        reported = any(r.guarantee == Guarantee.NEW_PARTNER for r in seating.relaxations)
        assert repeated == reported
        results.append(
            RoundResult(seating, {t.number: rng.choice(["NS", "EW"]) for t in seating.tables})
        )


@settings(max_examples=40, deadline=None)
@given(key=st.sampled_from(sorted(MOVEMENTS)), count=st.integers(8, 32), seed=st.integers(0, 999))
def test_the_same_random_source_gives_the_same_seating(key, count, seed):
    movement = MOVEMENTS[key]

    def run():
        rng, results = random.Random(seed), []
        for number in range(1, 4):
            seating = movement.seat_round(
                round_number=number, players=POOL[:count], previous=results, rng=rng
            )
            results.append(RoundResult(seating, {t.number: "NS" for t in seating.tables}))
        return results

    assert run() == run()


@settings(max_examples=60, deadline=None)
@given(tournaments())
def test_byes_of_those_present_throughout_stay_close(tournament):
    """Within one round of each other, or two where the movement says it relaxed that."""
    key, rule_set, attendance, rng = tournament
    movement = movement_for(key, rule_set=rule_set)
    throughout = set(attendance[0]).intersection(*attendance)
    results, relaxed = [], False
    for number, present in enumerate(attendance, start=1):
        seating = movement.seat_round(
            round_number=number, players=present, previous=results, rng=random.Random(rng.random())
        )
        relaxed |= any(r.guarantee == Guarantee.BALANCED_BYES for r in seating.relaxations)
        results.append(RoundResult(seating, {t.number: "EW" for t in seating.tables}))
        sat_out = Counter(dict.fromkeys(throughout, 0))
        sat_out.update(player for r in results for player in r.seating.byes if player in throughout)
        if throughout:
            assert max(sat_out.values()) - min(sat_out.values()) <= (2 if relaxed else 1)
