"""The standings against an independent reading of them (tests/tournaments/independent.py:
every metric worked out again from the stored hands, games and seats, as the issues and
rulings say), on worlds with the edge cases: every game, corrections and removed hands,
an abandoned rubber, a Call-Ace sitting, an evening outside the ladder, a progressive's
fixed deals and rubbers up to a selected round; published after the incremental
recalculations and again after a full one."""

import datetime
import itertools

import pytest
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from club import recording
from config.api import UserError
from scoring import services as scoring
from scoring.models import Rubber
from scoring.rules import ScoringError
from tests.factories import EveningFactory
from tests.tournaments import independent
from tests.tournaments.conftest import EIGHT, hand, sweep
from tournaments import rounds, services
from tournaments.selectors import standings_published


def shown(tournament) -> dict[str, tuple[str, dict]]:
    tournament.refresh_from_db()
    rows = standings_published(tournament=tournament)["rows"]
    return {row["name"]: (row["display_rank"], row["metrics"]) for row in rows}


def agree(tournament, precedence):
    """The published standings (places by the precedence list, and every figure) equal the
    independent reading, incrementally kept and after a full recalculation."""
    expected = independent.ranked(tournament, precedence)
    for _ in ("incremental", "full"):
        published = shown(tournament)
        assert sorted(published) == sorted(expected)
        differ = {}
        for name, (place, figures) in expected.items():
            got_place, got = published[name]
            want = {k: str(v) if k == "stake_won" else v for k, v in figures.items()}
            want["place"], got = place, {**got, "place": got_place}
            differ.update({(name, k): (got[k], want[k]) for k in want if got[k] != want[k]})
        assert not differ, f"(published, expected): {differ}"
        services.standings_full_recalculation(tournament_id=tournament.pk)


def start(club, evening, ruleset, players, **kwargs):
    return scoring.rubber_start(
        club=club, evening=evening, ruleset=ruleset, players=players, **kwargs
    )


def play(commit, rubber, *hands):
    """Record the hands in turn, up to the one the laws refuse (the rubber, or the round of
    fixed deals, is over: rulings E1, P1)."""
    for data in hands:
        try:
            commit(recording.hand_record, rubber_id=rubber.pk, data=data)
        except ScoringError:
            return


def abandon(commit, rubber):
    def run():
        with transaction.atomic():
            locked = Rubber.objects.select_for_update().get(pk=rubber.pk)
            scoring.rubber_abandon(rubber=locked)

    commit(run)


@pytest.fixture
def season(club, roster, commit):
    """A ladder over a Euchre, a Bridge and a Call-Ace evening, and a Euchre evening it
    does not count."""
    euchre = EveningFactory(club=club, stake="0.25")
    bridge = EveningFactory(club=club, ruleset=independent.BRIDGE, stake="0.10")
    call_ace = EveningFactory(club=club, ruleset=independent.CALL_ACE, stake="0.05")
    outside = EveningFactory(club=club, date=datetime.date(1888, 12, 1))
    precedence = ["net_rubber_points", "rubbers_won", "points", "head_to_head"]
    ladder = commit(
        services.tournament_create, club=club, name="Season", slug="season", kind="ladder",
        evening_ids=[euchre.pk, bridge.pk, call_ace.pk], precedence=precedence,
    )  # fmt: skip
    return ladder, euchre, bridge, call_ace, outside


def test_a_ladder_of_every_game_agrees_with_the_laws(club, season, commit):
    ladder, euchre, bridge, call_ace, outside = season
    E = independent.EUCHRE
    # Euchre: a lone hand whose revoke gave the adversaries their game first (ruling E6),
    # a law-90 forfeit (E8), euchres, laps, then won by North-South.
    first = start(club, euchre, E, {"NS": ["Ann", "Cora"], "EW": ["Bob", "Dan"]})
    play(
        commit, first,
        {"makers": "NS", "alone": True, "tricks": 4, "revokes": ["NS"]},  # 5 to EW: game
        hand("EW", 1), {"makers": "NS", "tricks": 5, "law90": "NS"}, hand("NS", 5, True),
        hand("NS", 3), hand("NS", 5), hand("EW", 0, True), hand("NS", 5), hand("NS", 3),
    )  # fmt: skip
    # Corrected and a hand removed, then abandoned.
    second = start(club, euchre, E, {"NS": ["Ann", "Bob"], "EW": ["Cora", "Edith"]})
    play(commit, second, hand("NS", 5), hand("EW", 4), hand("EW", 5, True))
    commit(recording.hand_correct, rubber_id=second.pk, number=1, data=hand("EW", 2),
           reason="misread", is_secretary=True)  # fmt: skip
    commit(recording.hand_remove, rubber_id=second.pk, number=3, reason="wrong table",
           is_secretary=True)  # fmt: skip
    abandon(commit, second)
    third = start(club, euchre, E, {"NS": ["Edith", "Frank"], "EW": ["Ann", "Dan"]})
    play(commit, third, *sweep("EW"))
    start_outside = start(club, outside, E, {"NS": ["Ann", "Bob"], "EW": ["Cora", "Dan"]})
    play(commit, start_outside, *sweep("NS"))
    # Bridge: honours, chicane, a slam; won by East-West.
    players = {"NS": ["Bob", "Cora"], "EW": ["Dan", "Frank"]}
    rubber = start(club, bridge, independent.BRIDGE, players)
    play(
        commit, rubber,
        {"declarer": "NS", "trump": "H", "tricks": {"NS": 9, "EW": 4},
         "honours": {"side": "NS", "held": 4, "in_one_hand": 3}, "chicane": {"NS": 0, "EW": 1}},
        {"declarer": "EW", "trump": "NT", "tricks": {"NS": 3, "EW": 10},
         "honours": {"side": "EW", "held": 4, "in_one_hand": 4}},
        {"declarer": "EW", "trump": "S", "tricks": {"NS": 1, "EW": 12},
         "honours": {"side": "NS", "held": 3, "in_one_hand": 2}, "chicane": {"NS": 0, "EW": 1}},
        {"declarer": "EW", "trump": "C", "tricks": {"NS": 4, "EW": 9},
         "honours": {"side": "EW", "held": 5, "in_one_hand": 4}},
    )  # fmt: skip
    # Call-Ace: five players, lone hands spoilt and made, a void deal; closed and settled.
    sitting = start(club, call_ace, independent.CALL_ACE, ["Ann", "Bob", "Cora", "Dan", "Edith"])
    play(
        commit, sitting,
        {"maker": "Ann", "alone": True, "tricks": 5},
        {"maker": "Bob", "partner": "Cora", "tricks": 2},
        {"maker": "Cora", "alone": True, "tricks": 4, "revoke": "makers"},
        {"maker": "Dan", "tricks": 3},
        {"maker": "Edith", "partner": "Ann", "tricks": 5, "revoke": "adversaries"},
        {"void": True},
        {"maker": "Bob", "alone": True, "tricks": 3, "no_score": ["Bob"]},
    )  # fmt: skip
    commit(recording.sitting_close, rubber_id=sitting.pk)
    for precedence in (
        ladder.precedence,
        ["euchres", "lone_hands", "head_to_head", "points"],
        ["rubbers_won", "head_to_head", "honours"],
    ):
        if precedence != ladder.precedence:
            commit(services.tournament_update, tournament=ladder, precedence=precedence)
        agree(ladder, precedence)


@pytest.fixture
def staked(club, commit):
    def build(*, deals=None, stake="0.20"):
        tournament = services.tournament_create(
            club=club, name="Progressive", slug=f"s-{deals}", kind="progressive",
            ruleset=independent.EUCHRE, movement="rotation", deals_per_round=deals,
            stake=stake, precedence=["rounds_won", "stake_won", "head_to_head", "points"],
        )  # fmt: skip
        for name in EIGHT:
            rounds.tournament_enter(tournament=tournament, name=name)
        return tournament

    return build


@pytest.mark.parametrize("deals", [None, 3])
def test_a_progressive_agrees_round_by_round(staked, commit, deals):
    tournament = staked(deals=deals)
    plays = {
        None: [sweep("NS"), [hand("EW", 5), hand("NS", 5)] * 2 + sweep("EW") * 2],
        3: [[hand("NS", 5), hand("EW", 3), hand("EW", 5, True)],
            [hand("NS", 3), hand("EW", 3), hand("NS", 0), hand("NS", 3)]],
    }[deals]  # fmt: skip
    for _ in (1, 2):
        played = rounds.round_seat_next(tournament_id=tournament.pk)
        for table, hands in zip(played.tables.order_by("number"), plays, strict=True):
            play(commit, table.rubber, *hands)
    second = rounds.round_seat_next(tournament_id=tournament.pk)  # round 3, one hand
    play(commit, second.tables.get(number=1).rubber, hand("NS", 5))
    agree(tournament, tournament.precedence)
    commit(services.tournament_update, tournament=tournament, standings_round=1)
    agree(tournament, tournament.precedence)


def test_ties_head_to_head_and_odd_hands_agree(club, season, commit):
    """Players level on the first metrics, head-to-head at each place in the list, a lone
    hand an adversary abandoned (law 50), a Bridge rubber worth less than nothing to its
    winners (ruling B7), a Call-Ace sitting still being played (it settles nothing yet)."""
    ladder, euchre, bridge, call_ace, _ = season
    E = independent.EUCHRE
    for ns, ew, side in (
        (["Ann", "Bob"], ["Cora", "Dan"], "NS"),
        (["Cora", "Dan"], ["Ann", "Bob"], "NS"),
        (["Edith", "Ann"], ["Frank", "Bob"], "EW"),
        (["Edith", "Frank"], ["Cora", "Dan"], "EW"),
    ):
        play(commit, start(club, euchre, E, {"NS": ns, "EW": ew}), *sweep(side))
    odd = start(club, euchre, E, {"NS": ["Ann", "Edith"], "EW": ["Dan", "Frank"]})
    play(commit, odd, {"makers": "NS", "alone": True, "tricks": 2, "law50": True}, hand("EW", 0))
    rubber = start(club, bridge, independent.BRIDGE, {"NS": ["Ann", "Cora"], "EW": ["Bob", "Dan"]})
    aces = {"declarer": "NS", "trump": "NT", "tricks": {"NS": 9, "EW": 4},
            "honours": {"side": "EW", "held": 4, "in_one_hand": 4}}  # fmt: skip
    play(commit, rubber, aces, aces)  # NS 72 + 100, EW 200: worth -28 to NS
    rubber.refresh_from_db()
    assert rubber.winner == "NS" and rubber.value == -28
    sitting = start(club, call_ace, independent.CALL_ACE, ["Bob", "Cora", "Dan", "Frank"])
    play(commit, sitting, {"maker": "Bob", "partner": "Dan", "tricks": 5})
    for precedence in (
        ["rubbers_won", "head_to_head", "points"],
        ["head_to_head", "games_won"],
        ["games_won", "euchres", "head_to_head", "marches"],
        ["net_rubber_points", "stake_won", "head_to_head"],
    ):
        commit(services.tournament_update, tournament=ladder, precedence=precedence)
        agree(ladder, precedence)


def test_fixed_deals_level_rounds_and_rubbers_won_early_agree(staked, commit):
    """Ruling P1: a level round goes on a deal at a time; a round whose rubber is won
    before its deals run out is over; P2: each settles at the difference in points."""
    tournament = staked(deals=9)
    level = [hand("NS", 3), hand("EW", 3)] * 4 + [hand("NS", 3), hand("EW", 4), hand("EW", 5)]
    plays = [sweep("EW"), level]  # the first won early (nine deals), the second level at 9
    played = rounds.round_seat_next(tournament_id=tournament.pk)
    for table, hands in zip(played.tables.order_by("number"), plays, strict=True):
        play(commit, table.rubber, *hands)
    played = rounds.round_seat_next(tournament_id=tournament.pk)
    tables = played.tables.order_by("number")
    for table, hands in zip(tables, [level[:4], sweep("NS")], strict=True):
        play(commit, table.rubber, *hands)
    agree(tournament, tournament.precedence)


call_ace_deal = st.one_of(
    st.fixed_dictionaries(
        {"maker": st.sampled_from(["Ann", "Bob", "Cora", "Dan", "Edith"]),
         "alone": st.booleans(), "tricks": st.integers(0, 5)},
        optional={"revoke": st.sampled_from(["makers", "adversaries"]),
                  "no_score": st.lists(st.sampled_from(["Ann", "Bob"]), max_size=1)},
    ),
    st.just({"void": True}),
)  # fmt: skip
euchre_hand = st.fixed_dictionaries(
    {"makers": st.sampled_from(["NS", "EW"]), "alone": st.booleans(),
     "tricks": st.integers(0, 5)},
    optional={"revokes": st.lists(st.sampled_from(["NS", "EW"]), max_size=2),
              "law90": st.sampled_from(["NS", "EW"])},
)  # fmt: skip
step = st.one_of(
    st.tuples(st.just("record"), st.integers(0, 1), euchre_hand),
    st.tuples(st.just("deal"), call_ace_deal),
    st.tuples(st.just("correct"), st.integers(0, 1), st.integers(1, 12), euchre_hand),
    st.tuples(st.just("remove"), st.integers(0, 2)),
    st.tuples(st.just("close"), st.just(0)),
    st.tuples(st.just("abandon"), st.integers(0, 1)),
)
slugs = itertools.count()


@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(steps=st.lists(step, min_size=1, max_size=30))
def test_any_evening_of_records_corrections_removals_and_endings_agrees(
    club, roster, commit, steps
):
    """Issue #5: whatever was recorded, corrected, removed, closed or abandoned, the
    standings kept incrementally, and recalculated in full, read as the laws do."""
    euchre = EveningFactory(club=club)
    sittings = EveningFactory(club=club, ruleset=independent.CALL_ACE, stake="0.05")
    precedence = ["rubbers_won", "lone_hands", "head_to_head", "points"]
    ladder = commit(
        services.tournament_create, club=club, name="L", slug=f"any{next(slugs)}",
        kind="ladder", evening_ids=[euchre.pk, sittings.pk], precedence=precedence,
    )  # fmt: skip
    E = independent.EUCHRE
    rubbers = [
        start(club, euchre, E, {"NS": ["Ann", "Cora"], "EW": ["Bob", "Dan"]}),
        start(club, euchre, E, {"NS": ["Ann", "Edith"], "EW": ["Frank", "Cora"]}),
        start(club, sittings, independent.CALL_ACE, ["Ann", "Bob", "Cora", "Dan", "Edith"]),
    ]
    for kind, *args in steps:
        try:
            if kind == "record":
                commit(recording.hand_record, rubber_id=rubbers[args[0]].pk, data=args[1])
            elif kind == "deal":
                commit(recording.hand_record, rubber_id=rubbers[2].pk, data=args[0])
            elif kind == "correct":
                commit(recording.hand_correct, rubber_id=rubbers[args[0]].pk, number=args[1],
                       data=args[2], reason="test", is_secretary=True)  # fmt: skip
            elif kind == "remove":
                rubber = rubbers[args[0]]
                rubber.refresh_from_db()
                commit(recording.hand_remove, rubber_id=rubber.pk, number=rubber.hand_count,
                       reason="test", is_secretary=True)  # fmt: skip
            elif kind == "close":
                commit(recording.sitting_close, rubber_id=rubbers[2].pk)
            else:
                abandon(commit, rubbers[args[0]])
        except (UserError, ScoringError):
            pass  # refused under the laws: nothing changed
    agree(ladder, precedence)
