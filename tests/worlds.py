"""A private club in play, built through the real services, for the tests that try every
endpoint (the permission matrix, the schema fuzzing)."""

import datetime
from decimal import Decimal
from types import SimpleNamespace

from club import evenings, recording
from tests.factories import ClubFactory, MemberFactory, UserFactory
from tournaments.services import tournament_create


def club_in_play(capture_on_commit) -> SimpleNamespace:
    """Club "somerset" (private) with its secretary, four members, a ladder "winter" over
    an evening whose table 1 is playing a rubber with one hand recorded.

    `capture_on_commit` is pytest-django's django_capture_on_commit_callbacks fixture, so
    the standings are computed as after a commit.
    """
    secretary = UserFactory(username="secretary")
    club = ClubFactory(slug="somerset", is_public=False, secretaries=[secretary])
    members = {n: MemberFactory(club=club, name=n) for n in ["Ann", "Bob", "Cora", "Dan"]}
    evening = evenings.evening_open(
        club=club,
        date=datetime.date(1888, 11, 21),
        ruleset="euchre-somerset-1888",
        stake=Decimal("0.25"),
    )
    with capture_on_commit(execute=True):
        tournament_create(
            club=club, name="Winter", slug="winter", kind="ladder", evening_ids=[evening.pk]
        )
        for name in members:
            evenings.evening_act(evening_id=evening.pk, event={"type": "arrive", "player": name})
        evenings.evening_act(evening_id=evening.pk, event={"type": "form_table"})
        evenings.evening_act(
            evening_id=evening.pk,
            event={"type": "cut", "cards": {"Ann": "JS", "Bob": "AS", "Cora": "KS", "Dan": "QS"}},
        )
        recording.hand_record(
            evening_id=evening.pk, table_number=1, data={"makers": "NS", "tricks": 3}
        )
    return SimpleNamespace(
        club=club,
        secretary=secretary,
        members=members,
        evening=evening,
        table=evening.tables.get(number=1),
        rubber=evening.rubbers.get(),
    )


def public_club_with_private_play(capture_on_commit) -> SimpleNamespace:
    """`club_in_play` made public, with "Public standings" switched off for its ladder
    "winter" and for a progressive "spring" (director "director") whose round 1 (Ann, Bob,
    Cora and Dan, at one table) has one hand recorded: `round_rubber`. The evening's
    rubber (`rubber`) counts in the ladder; the round's rubber in the progressive."""
    from tournaments import rounds
    from tournaments.services import tournament_update

    played = club_in_play(capture_on_commit)
    club = played.club
    club.is_public = True
    club.save()
    director = UserFactory(username="director")
    club.directors.add(director)
    with capture_on_commit(execute=True):
        tournament_update(tournament=club.tournaments.get(slug="winter"), is_public=False)
        spring = tournament_create(
            club=club, name="Spring", slug="spring", kind="progressive",
            ruleset="euchre-somerset-1888", movement="cut", is_public=False,
        )  # fmt: skip
        for name in played.members:
            rounds.tournament_enter(tournament=spring, name=name)
        table = rounds.round_seat_next(tournament_id=spring.pk, user=director).tables.get()
        recording.hand_record(
            rubber_id=table.rubber_id, data={"makers": "EW", "tricks": 5}, user=director
        )
    return SimpleNamespace(
        **vars(played), director=director, progressive=spring, round_rubber=table.rubber
    )


def second_table(evening):
    """Four more arrive at `club_in_play`'s evening and form its table 2."""
    for name in ["Edith", "Fred", "Gus", "Hal"]:
        evenings.evening_act(evening_id=evening.pk, event={"type": "arrive", "player": name})
    evenings.evening_act(evening_id=evening.pk, event={"type": "form_table"})
    return evening.tables.get(number=2)


def table_formed(evening, names=("Ann", "Bob", "Cora", "Dan")):
    """`names` arrive at `evening` and form a table; the evening."""
    for name in names:
        evenings.evening_act(evening_id=evening.pk, event={"type": "arrive", "player": name})
    evenings.evening_act(evening_id=evening.pk, event={"type": "form_table"})
    return evening


def euchre_table(club, names=("Ann", "Bob", "Cora", "Dan")):
    """A Euchre evening at `club` (21 November 1888, 0.25 a point) where `names` arrive and
    form table 1; the evening."""
    evening = evenings.evening_open(
        club=club, date=datetime.date(1888, 11, 21), ruleset="euchre-somerset-1888",
        stake=Decimal("0.25"),
    )  # fmt: skip
    return table_formed(evening, names)


def _open(club, ruleset: str):
    return evenings.evening_open(
        club=club, date=datetime.date(1907, 3, 1), ruleset=ruleset, stake=Decimal("0.10")
    )


def _act(evening, **event) -> None:
    evenings.evening_act(evening_id=evening.pk, event=event)


def call_ace_first_deal(evening, names) -> list[str]:
    """`names` arrive at a Call-Ace evening and form table 1; the first in its order draws
    the first jack and deals (law 1), and the first deal is recorded: he made the trump and
    took three tricks. The table's order of play, its first dealer first."""
    for name in names:
        _act(evening, type="arrive", player=name)
    _act(evening, type="form_table")
    evening.refresh_from_db()
    order = evenings.evening_summary(evening=evening)["tables"][0]["playing"]
    _act(evening, type="deal_jack", table=1, cards=[[order[0], "JD"]])
    recording.hand_record(
        evening_id=evening.pk, table_number=1, data={"maker": order[0], "tricks": 3}
    )
    return order


def call_ace_jack_drawn(club, *, unplayed: bool = False, played: bool = False):
    """A Call-Ace evening of `club` (1905-11-21, a point worth 1.00): four at table 1, the
    first jack thrown (law 1). With `unplayed`, that sitting is ended at once, before any
    deal (ruling C5: it settles nothing); with `played` too, a second sitting of one deal
    follows, ended and settled. The evening and the table's order of play, its first
    dealer first."""
    evening = evenings.evening_open(
        club=club, date="1905-11-21", ruleset="call-ace-foster-1905", stake=1
    )
    table_formed(evening)
    evening.refresh_from_db()
    order = evenings.evening_summary(evening=evening)["tables"][0]["playing"]
    _act(evening, type="deal_jack", table=1, cards=[[order[0], "JD"]])
    if unplayed:
        evenings.evening_close_sitting(evening_id=evening.pk, table_number=1)
    if played:
        recording.hand_record(
            evening_id=evening.pk, table_number=1, data={"maker": order[1], "tricks": 3}
        )
        evenings.evening_close_sitting(evening_id=evening.pk, table_number=1)
    return evening, order


def bridge_and_call_ace_in_play(club) -> SimpleNamespace:
    """Two more evenings of `club`: a Bridge table (Ann, Bob, Cora, Dan) and a Call-Ace
    table of five, each with one hand recorded. `call_ace_order` lists the Call-Ace
    table's players in their order round the table (its first is the dealer)."""
    bridge = _open(club, "bridge-elwell-1907")
    for name in ["Ann", "Bob", "Cora", "Dan"]:
        _act(bridge, type="arrive", player=name)
    _act(bridge, type="form_table")
    _act(bridge, type="cut", cards={"Ann": "AH", "Bob": "2H", "Cora": "3H", "Dan": "4H"})
    recording.hand_record(
        evening_id=bridge.pk, table_number=1,
        data={"declarer": "NS", "trump": "NT", "tricks": {"NS": 7, "EW": 6}},
    )  # fmt: skip
    call_ace = _open(club, "call-ace-foster-1905")
    order = call_ace_first_deal(call_ace, ["Ann", "Bob", "Cora", "Dan", "Edith"])
    return SimpleNamespace(
        bridge=bridge.tables.get(number=1),
        call_ace=call_ace.tables.get(number=1),
        call_ace_order=order,
    )


REPLAYED = ("present", "candidates", "tables", "pending_cuts", "rubbers", "ledger")


def assert_replayed(after: dict, before: dict, keys=REPLAYED) -> None:
    """An evening's summary after a replay agrees with the one before on every key, the
    database ids of its rubbers aside (a replay writes new rows)."""

    def same(key, value):
        if key != "rubbers":
            return value
        return [{k: v for k, v in rubber.items() if k != "id"} for rubber in value]

    for key in keys:
        assert same(key, after[key]) == same(key, before[key]), key


def hand_recorded(world, client, hand: dict) -> dict:
    """Record the next hand of `world`'s rubber through the API as `client`; its answer
    (with `recorded_at` and `changed_at`)."""
    url = f"/api/v1/clubs/{world.club.slug}/rubbers/{world.rubber.pk}/hands/"
    response = client.post(url, {"hand": hand}, format="json")
    assert response.status_code == 201, response.content
    return response.json()


def hand_shown(world, client, number: int) -> dict:
    """Hand `number` of `world`'s rubber as the API shows it."""
    url = f"/api/v1/clubs/{world.club.slug}/rubbers/{world.rubber.pk}/hands/{number}/"
    return client.get(url).json()


def sheet(world) -> list[tuple[str, int]]:
    """`world`'s rubber's hands as stored, in order: (makers, tricks) each."""
    from scoring.models import Hand

    return [
        (data["makers"], data["tricks"])
        for data in Hand.objects.filter(rubber=world.rubber)
        .order_by("number")
        .values_list("data", flat=True)
    ]


def reloaded(world: SimpleNamespace) -> SimpleNamespace:
    """`world` with each of its rows read afresh from the database: for a world made once
    for a module's tests (tests.conftest.rows_for_the_module), whose rows each test's
    savepoint puts back as they were, while a row a test changed in memory only
    (`world.club.is_public = True`) would otherwise be handed to the next test as it left
    it. Reading the handful of rows again is a fraction of making the world anew."""
    from django.db.models import Model

    def fresh(value):
        if isinstance(value, Model):
            return type(value)._default_manager.get(pk=value.pk)
        if isinstance(value, dict):
            return {key: fresh(item) for key, item in value.items()}
        if isinstance(value, list | tuple):
            return type(value)(fresh(item) for item in value)
        return value

    return SimpleNamespace(**{name: fresh(value) for name, value in vars(world).items()})


def edith_sits_in(evening, player: str) -> None:
    """Edith arrives and sits in for `player` at table 1 of `evening`, the four seated by
    `club_in_play` (Ann, Bob, Cora, Dan), with the other three's consent (law 18)."""
    four = ["Ann", "Bob", "Cora", "Dan"]
    evenings.evening_act(evening_id=evening.pk, event={"type": "arrive", "player": "Edith"})
    evenings.evening_act(
        evening_id=evening.pk,
        event={"type": "substitute", "table": 1, "player": player, "substitute": "Edith",
               "consent": [name for name in four if name != player]},
    )  # fmt: skip
