"""Fixtures for tournaments: a ladder over an evening, and helpers to play rubbers."""

import pytest

# Django is imported inside the fixtures and helpers: the pure movements' tests below
# (tests/tournaments/movements) run without it (`pytest -p no:django`).

NAMES = ["Ann", "Bob", "Cora", "Dan", "Edith", "Frank"]
EIGHT = [*NAMES, "Grace", "Hugh"]


@pytest.fixture
def roster(club):
    from tests.factories import MemberFactory

    return {name: MemberFactory(club=club, name=name) for name in NAMES}


@pytest.fixture
def evening(club):
    from tests.factories import EveningFactory

    return EveningFactory(club=club, stake="0.25")


@pytest.fixture
def commit(django_capture_on_commit_callbacks):
    """Run a write as if it had committed: its on-commit callbacks (the standings
    recalculation, eager here) run when the block ends."""

    def run(function, **kwargs):
        with django_capture_on_commit_callbacks(execute=True):
            return function(**kwargs)

    return run


@pytest.fixture
def ladder(club, roster, evening, commit):
    from tournaments import services

    return commit(
        services.tournament_create,
        club=club, name="Winter ladder", slug="winter", kind="ladder", evening_ids=[evening.pk],
    )  # fmt: skip


@pytest.fixture
def director(club):
    """A tournament director of the club who is not its secretary."""
    from tests.factories import UserFactory

    user = UserFactory(username="director")
    club.directors.add(user)
    return user


@pytest.fixture
def directing(client, director):
    """The test client, logged in as the club's director."""
    client.force_login(director)
    return client


@pytest.fixture
def round_one(make, roster, director):
    """A rotation progressive of one deal a round (EIGHT entered), its round 1 seated by
    its director: two tables."""
    from tournaments import rounds

    tournament = make("rotation", deals=1)
    rounds.round_seat_next(tournament_id=tournament.pk, user=director)
    return tournament


@pytest.fixture
def four_deals(make, director):
    """A rotation progressive of four deals a round, round 1 seated, nothing recorded."""
    from tournaments import rounds

    tournament = make("rotation", deals=4)
    rounds.round_seat_next(tournament_id=tournament.pk, user=director)
    return tournament


@pytest.fixture
def make(club):
    """A progressive with this movement and these players entered, no round seated yet."""
    from tournaments import rounds, services

    def build(movement, *, players=EIGHT, deals=None):
        tournament = services.tournament_create(
            club=club, name="Progressive", slug=f"p-{movement}", kind="progressive",
            ruleset="euchre-somerset-1888", movement=movement, deals_per_round=deals,
        )  # fmt: skip
        for name in players:
            rounds.tournament_enter(tournament=tournament, name=name)
        return tournament

    return build


def start(club, evening, ns, ew):
    from scoring import services as scoring

    return scoring.rubber_start(
        club=club, evening=evening, ruleset="euchre-somerset-1888", players={"NS": ns, "EW": ew}
    )


def record(commit, rubber, *hands):
    from club import recording

    for hand in hands:
        commit(recording.hand_record, rubber_id=rubber.pk, data=hand)


def hand(makers="NS", tricks=3, alone=False):
    return {"makers": makers, "tricks": tricks, "alone": alone}


# Three games of march, march, three tricks (2 + 2 + 1 = 5 each): the side wins every game,
# each double (ruling E3), the third game always played (ruling E1): worth 2+2+2+2 = 8.
def sweep(side):
    return [hand(side, 5), hand(side, 5), hand(side, 3)] * 3


@pytest.fixture
def crowd_ladder(club, evening, commit):
    """A ladder of 230 players, two rubbers played: three pages of standings."""
    return crowd(club, evening, commit)


def crowd_for_the_module(capture_on_commit):
    """The crowd's ladder at the Somerset club, as `crowd_ladder` makes it, for a module's
    tests that only read it (tests.conftest.rows_for_the_module): 230 members and 57
    rubbers, a few seconds' making, made once instead of for each test."""
    from tests.factories import ClubFactory, EveningFactory

    club = ClubFactory(name="Somerset Club", slug="somerset")
    evening = EveningFactory(club=club, stake="0.25")

    def commit(function, **kwargs):
        with capture_on_commit(execute=True):
            return function(**kwargs)

    return crowd(club, evening, commit)


def crowd(club, evening, commit):
    """A ladder of 230 players at the club's evening, 57 rubbers of one hand played."""
    from tests.factories import MemberFactory
    from tournaments import services

    names = [f"Player {i:03}" for i in range(230)]
    for name in names:
        MemberFactory(club=club, name=name)
    ladder = commit(
        services.tournament_create,
        club=club, name="Big ladder", slug="big", kind="ladder", evening_ids=[evening.pk],
        precedence=["points"],
    )  # fmt: skip
    for i in range(0, 230 - 2, 4):
        four = names[i : i + 4]
        record(commit, start(club, evening, four[:2], four[2:]), hand("NS", 3 + i % 3))
    return ladder
