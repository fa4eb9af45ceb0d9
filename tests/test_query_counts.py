"""The number of queries each public page and each recording endpoint makes, fixed.

The data is a generated season (several evenings, a hundred rubbers, 1,600 hands,
ladders and a progressive, corrections) with five rubbers in play and one long rubber
still going, so that a query per rubber, per hand or per player shows at once. A
change that adds a query to one of these must raise its bound here, on purpose.
"""

import pytest
from django.db import connection
from django.test import Client

from club import recording
from club.models import Club, Evening, Member, Table
from scoring import services as scoring
from scoring.models import HandCorrection, Rubber
from scoring.rules import EUCHRE
from tests.conftest import token_client
from tests.factories import UserFactory
from tournaments.management.season import season_make

SLUG = "counted"
IN_PLAY = 5
LONG = 20  # hands in the long rubber still going


@pytest.fixture
def season(db):
    """A season, five more rubbers in play on its open evening, the first of them long."""
    season_make(club_slug=SLUG, players=40, evenings=4, hands=1600, seed=5)
    club = Club.objects.get(slug=SLUG)
    secretary = UserFactory(username="counting-secretary")
    club.secretaries.add(secretary)
    evening = Evening.objects.get(club=club, status=Evening.Status.OPEN)
    busy = set(
        Rubber.objects.filter(club=club, status="in_progress").values_list(
            "seats__member_id", flat=True
        )
    )
    free = [m.name for m in Member.objects.filter(club=club).exclude(pk__in=busy).order_by("pk")]
    rubbers = []
    for i in range(IN_PLAY):
        table = Table.objects.create(club=club, evening=evening, number=100 + i)
        four = free[4 * i : 4 * i + 4]
        rubber = scoring.rubber_start(
            club=club, evening=evening, table=table, ruleset=EUCHRE.key,
            players={"NS": four[:2], "EW": four[2:]},
        )  # fmt: skip
        # The sides take one point in turn: the rubber goes on for more than twenty hands.
        for n in range(LONG if i == 0 else 2):
            hand = {"makers": "NS" if n % 2 else "EW", "tricks": 3}
            recording.hand_record(rubber_id=rubber.pk, data=hand)
        rubbers.append((table, rubber))
    table, long_rubber = rubbers[0]
    long_rubber.refresh_from_db()
    assert long_rubber.hand_count == LONG and not long_rubber.is_complete
    corrected = HandCorrection.objects.filter(hand__rubber__club=club).first().hand.rubber
    return {
        "club": club,
        "evening": evening,
        "member": Member.objects.filter(club=club).order_by("pk").first(),
        "corrected": corrected,
        "table": table,
        "rubber": long_rubber,
        "secretary": token_client(secretary),
        "secretary_user": secretary,
    }


def _page(season, name: str) -> str:
    return {
        "club home": f"/clubs/{SLUG}/",
        "standings page": f"/clubs/{SLUG}/tournaments/season/",
        "standings fragment": f"/clubs/{SLUG}/tournaments/season/standings/",
        "evening results": f"/clubs/{SLUG}/evenings/{season['evening'].pk}/",
        "player": f"/clubs/{SLUG}/players/{season['member'].pk}/",
        "rubber": f"/clubs/{SLUG}/rubbers/{season['corrected'].pk}/",
        "players": f"/clubs/{SLUG}/players/",
        "players found": f"/clubs/{SLUG}/players/?name=a",
        "members": f"/api/v1/clubs/{SLUG}/members/",
    }[name]


@pytest.mark.parametrize(
    ("name", "most"),
    [
        ("club home", 5),
        # Cold cache: the slugs (with the version), read again once kept in Redis (a
        # tournament made private meanwhile: tournaments.pagecache.public_standings), the
        # tournament, the version's row and the ranked rows (the pages are cut from them).
        ("standings page", 5),
        ("standings fragment", 5),
        ("evening results", 5),
        # His figures and rubbers (6), then the scorecard: his seasons, the season's
        # seats, and who else sat at those rubbers (3), however many evenings; and his
        # places in the club's tournaments, each with how many it ranks (1), however
        # many tournaments (tournaments.selectors.member_places).
        ("player", 10),
        ("rubber", 5),
        # The club and the roster's page with its count, whatever guests it leaves out.
        ("players", 3),
        ("players found", 3),
        ("members", 3),
    ],
)
def test_public_page(season, client, django_assert_max_num_queries, name, most):
    with django_assert_max_num_queries(most):
        response = client.get(_page(season, name))
    assert response.status_code == 200


def test_a_players_page_read_again_is_served_rendered(
    season, client, django_capture_on_commit_callbacks
):
    """His page's record (figures, seasons, rubbers, the season's scorecard) is kept
    rendered (club/player_cache.py): a reader again costs the club, the member and his
    places in the club's tournaments (read afresh: a recalculation moves them), however
    long his record; a rubber begun or a hand at his table renders it again, and the
    reader after that is served the copy."""
    from django.test.utils import CaptureQueriesContext

    page = _page(season, "player")

    def counted() -> tuple[int, str]:
        with CaptureQueriesContext(connection) as queries:
            response = client.get(page)
        assert response.status_code == 200
        return len(queries), response.content.decode()

    first, shown = counted()
    assert counted() == (3, shown) and first > 3
    client.force_login(season["secretary_user"])
    # The officers' copy is their own; his session and who he is cost them four more.
    officers_first, officers_again = counted()[0], counted()[0]
    assert officers_again == 3 + 4 < officers_first
    client.logout()
    member = season["member"]
    others = list(
        Member.objects.filter(club=season["club"])
        .exclude(pk=member.pk)
        .values_list("name", flat=True)[:3]
    )
    # Each change committed (its commit's callbacks run: the page's tokens are replaced then).
    with django_capture_on_commit_callbacks(execute=True):
        rubber = scoring.rubber_start(
            club=season["club"], ruleset=EUCHRE.key,
            players={"NS": [member.name, others[0]], "EW": others[1:]},
        )  # fmt: skip
    assert counted()[0] > 3  # a rubber begun is on his page
    assert counted()[0] == 3
    with django_capture_on_commit_callbacks(execute=True):
        recording.hand_record(rubber_id=rubber.pk, data={"makers": "NS", "tricks": 5})
    again, changed = counted()
    assert again > 3 and changed != shown
    assert counted() == (3, changed)


def test_the_roster_leaves_out_private_guests_in_as_many_queries(
    season, client, django_capture_on_commit_callbacks
):
    """Guests entered at a private progressive alone are left out of the roster and their
    pages by a subquery (club.selectors.members_hidden_from), not a query a member: thirty
    of them, some seated in its round, cost the public pages no query more."""
    from django.test.utils import CaptureQueriesContext

    from tournaments import rounds
    from tournaments.services import tournament_create

    pages = ["players", "players found", "members", "player"]

    def counted() -> dict[str, int]:
        counts = {}
        for name in pages:
            with CaptureQueriesContext(connection) as queries:
                assert client.get(_page(season, name)).status_code == 200
            counts[name] = len(queries)
        return counts

    before = counted()
    with django_capture_on_commit_callbacks(execute=True):  # committed: the pages made anew
        private = tournament_create(
            club=season["club"], name="Private", slug="private", kind="progressive",
            ruleset=EUCHRE.key, movement="cut", is_public=False,
        )  # fmt: skip
        for n in range(30):
            rounds.tournament_enter(tournament=private, name=f"Guest {n:02}")
        rounds.round_seat_next(tournament_id=private.pk)
    guests = Member.objects.filter(club=season["club"], name__startswith="Guest ")
    assert guests.count() == 30 and guests.filter(is_guest=True).count() == 30
    assert counted() == before
    listed = client.get(_page(season, "players")).content.decode()
    assert "Guest 0" not in listed
    assert client.get(f"/clubs/{SLUG}/players/{guests.first().pk}/").status_code == 404


@pytest.mark.parametrize("name", ["standings page", "standings fragment"])
def test_public_standings_served_whole_from_the_cache(
    season, client, django_assert_num_queries, name
):
    """The crowd's second request makes no query at all (tournaments/views.py)."""
    first = client.get(_page(season, name))
    with django_assert_num_queries(0):
        response = client.get(_page(season, name))
    assert response.status_code == 200
    assert response.content == first.content


@pytest.mark.parametrize(("name", "most"), [("standings page", 8), ("standings fragment", 8)])
def test_standings_for_a_secretary(season, django_assert_max_num_queries, name, most):
    """Logged in, the page is rendered for him (he may see private tournaments)."""
    client = Client()
    client.force_login(season["secretary_user"])
    client.get(_page(season, name))
    with django_assert_max_num_queries(most):
        response = client.get(_page(season, name))
    assert response.status_code == 200


def _with_locks(queries: int, locks: int, together: int = 0, replayed: int = 0) -> int:
    """On PostgreSQL each transaction that locks rows first sets its lock timeout
    (core.db.row_locks). Elsewhere (SQLite) a write to a rubber at an evening's table
    takes three statements more, each one on PostgreSQL alone: the standings' outbox
    note (tournaments.services.standings_note_change), the seats' members read with the
    rubber's lock (scoring.services.with_seat_member_ids), and the evening moved on with
    its log's entry (club.evenings._append); `together` more where PostgreSQL sends
    the hand's rows and the rubber's summary as one statement (core.compiled.Writes:
    the new hand, its scores, the rubber; a correction's scores and the rubber); and
    `replayed` more where PostgreSQL reads the hands a new hand follows with the
    rubber's lock (scoring.services.with_hand_data)."""
    if connection.vendor == "postgresql":
        return queries + locks
    return queries + 3 + together + replayed


def _hands(season) -> str:
    return f"/api/v1/clubs/{SLUG}/rubbers/{season['rubber'].pk}/hands/"


def _phone(season, key: str):
    """The phone at the long rubber's table, which sends an Idempotency-Key with every write."""
    phone = token_client(UserFactory())
    phone.credentials(HTTP_AUTHORIZATION=f"Table {season['table'].token}", HTTP_IDEMPOTENCY_KEY=key)
    return phone


def test_record_a_hand_from_the_table(season, django_assert_max_num_queries):
    """The phone at the table, which sends an Idempotency-Key with every hand. A hand that
    ends no game rewrites nothing already stored: no DELETE (no games, scores or money
    rebuilt), and the evening is locked only by the UPDATE that logs the hand."""
    phone = _phone(season, "hand-21")
    with django_assert_max_num_queries(_with_locks(10, locks=1, together=2, replayed=1)) as queries:
        response = phone.post(_hands(season), {"makers": "EW", "tricks": 3}, format="json")
    assert response.status_code == 201, response.content
    statements = [q["sql"] for q in queries.captured_queries]
    assert not [sql for sql in statements if "DELETE FROM" in sql]
    locks = [sql for sql in statements if " FOR " in sql and "UPDATE OF" in sql]
    if connection.vendor == "postgresql":  # SQLite has no row locks
        assert len(locks) == 1 and locks[0].endswith('FOR NO KEY UPDATE OF "scoring_rubber"')
    moves_evening = 'UPDATE "club_evening" SET "version" = "version" + 1'
    moved = [sql for sql in statements if moves_evening in sql]
    assert len(moved) == 1
    if connection.vendor == "postgresql":
        # One statement moves the evening on and logs the hand (club.evenings).
        assert moved[0].startswith("WITH moved AS")
        assert 'INSERT INTO "club_eveningevent"' in moved[0]


def test_record_a_hand_as_secretary(season, django_assert_max_num_queries):
    with django_assert_max_num_queries(_with_locks(10, locks=1, together=2, replayed=1)):
        response = season["secretary"].post(
            _hands(season), {"makers": "EW", "tricks": 3}, format="json"
        )
    assert response.status_code == 201, response.content


def test_record_a_hand_at_the_evenings_table(season, django_assert_max_num_queries):
    """The evening's own endpoint for a table's hands, from the phone (it answers with the
    evening's summary)."""
    url = f"/api/v1/clubs/{SLUG}/evenings/{season['evening'].pk}/tables/100/hands/"
    phone = _phone(season, "hand-21")
    with django_assert_max_num_queries(_with_locks(13, locks=1, together=2, replayed=1)):
        response = phone.post(url, {"hand": {"makers": "EW", "tricks": 3}}, format="json")
    assert response.status_code == 201, response.content


def test_record_a_hand_on_the_phone_page(season, client, django_assert_max_num_queries):
    """The table's phone page posts its form with an Idempotency-Key and shows the table;
    the form names the hand's number and its rubber, which the rubber's lock is taken on."""
    url = f"/t/{season['table'].token}/hand/"
    form = {
        "makers": "EW",
        "tricks": "3",
        "expected_number": LONG + 1,
        "rubber": season["rubber"].pk,
    }
    # 15: the last hand's forms are offered unless a later hand was taken back (ruling E9).
    with django_assert_max_num_queries(_with_locks(15, locks=1, together=2, replayed=1)):
        response = client.post(url, form, HTTP_IDEMPOTENCY_KEY="p-21")
    assert response.status_code == 200
    assert season["rubber"].hands.count() == LONG + 1


def test_correct_the_last_hand(season, django_assert_max_num_queries):
    url = f"{_hands(season)}{LONG}/"
    # 21: one of them asks whether a later hand was recorded and taken back (ruling E9).
    with django_assert_max_num_queries(_with_locks(21, locks=1, together=1)):
        response = season["secretary"].put(
            url, {"hand": {"makers": "NS", "tricks": 4}}, format="json"
        )
    assert response.status_code == 200, response.content


def test_correct_the_last_hand_from_the_table(season, django_assert_max_num_queries):
    """The phone corrects its table's last hand (law 5) through the evening's endpoint."""
    evening = season["evening"].pk
    url = f"/api/v1/clubs/{SLUG}/evenings/{evening}/tables/100/rubbers/1/hands/{LONG}/"
    phone = _phone(season, "correct-20")
    with django_assert_max_num_queries(_with_locks(22, locks=1, together=1)):
        response = phone.put(url, {"hand": {"makers": "NS", "tricks": 4}}, format="json")
    assert response.status_code == 200, response.content


def test_correct_the_first_hand_as_referee(season, django_assert_max_num_queries):
    url = f"{_hands(season)}1/"
    with django_assert_max_num_queries(_with_locks(21, locks=1, together=1)):
        response = season["secretary"].put(
            url,
            {"hand": {"makers": "NS", "tricks": 4}, "reason": "The sheet showed four."},
            format="json",
        )
    assert response.status_code == 200, response.content


def test_remove_the_last_hand(season, django_assert_max_num_queries):
    """At an evening's table: the removal is logged in the evening's record, as a hand is.
    (One DELETE takes the hand's confirmation with it, club.HandConfirmation's cascade.)"""
    url = f"{_hands(season)}{LONG}/remove/"
    with django_assert_max_num_queries(_with_locks(22, locks=1)):
        response = season["secretary"].post(url, {"reason": "Entered twice."}, format="json")
    assert response.status_code == 200, response.content


def test_the_boards_poll_answered_unchanged_and_after_a_fresh_link(
    season, django_assert_num_queries
):
    """The board's poll while nothing changed: 304 in the queries it always made (the
    session, the secretary, the evening with its club). When its tables' newest link was
    issued is read in the evening's query (club.views_board._etag), no query of its own,
    so a fresh link, which moves no version of the evening on, is brought to every board
    showing it at its next poll (tests/club/test_browser_board_second_device.py)."""
    from club import services

    client = Client()
    client.force_login(season["secretary_user"])
    url = f"/secretary/evenings/{season['evening'].pk}/board/"
    etag = client.get(url, HTTP_HX_REQUEST="true")["ETag"]
    with django_assert_num_queries(3):
        unchanged = client.get(url, HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=etag)
    assert unchanged.status_code == 304
    services.table_renew_link(table_id=season["table"].pk)
    renewed = client.get(url, HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=etag)
    assert renewed.status_code == 200 and renewed["ETag"] != etag
