"""The other side confirms (club/confirmations.py, issue #14 item 4): a hand recorded
from a table's phone counts at once but waits for the other side's word, when the club
asks for it; a disputed hand waits for the secretary, who settles it with a reason
(law 5, ruling E9). Services, API, pages."""

import datetime
from decimal import Decimal

import pytest
from rest_framework.test import APIClient

from club import confirmations, evenings, recording
from club.models import HandConfirmation, Table
from core.errors import UserError
from scoring.models import Rubber
from scoring.rules import ScoringError
from tests.club.test_evenings import MARCH, THREE, seat_six
from tests.conftest import token_client
from tests.worlds import bridge_and_call_ace_in_play

EW_EUCHRED = {"makers": "NS", "tricks": 2}


@pytest.fixture
def evening(club):
    club.confirm_hands = True
    club.save()
    evening = evenings.evening_open(
        club=club, date=datetime.date(1888, 11, 21), ruleset="euchre-somerset-1888",
        stake=Decimal("0.25"),
    )  # fmt: skip
    seat_six(evening)
    return evening


@pytest.fixture
def table(evening):
    return Table.objects.select_related("club", "evening").get(evening=evening, number=1)


@pytest.fixture
def rubber(evening):
    return Rubber.objects.get(evening=evening)


def second_table(evening) -> Table:
    """Four more arrive and form table 2 (Edith and Frank wait for table 1, law 12)."""
    for name in ["Gus", "Hal", "Ivy", "Jay"]:
        evenings.evening_act(evening_id=evening.pk, event={"type": "arrive", "player": name})
    evenings.evening_act(evening_id=evening.pk, event={"type": "form_table"})
    return Table.objects.select_related("club", "evening").get(evening=evening, number=2)


def from_phone(table, data=MARCH):
    return recording.hand_record(
        evening_id=table.evening_id, table_number=table.number, data=data, table=table
    )


def state(hand) -> str:
    return HandConfirmation.objects.get(hand=hand).state


# --- services ---------------------------------------------------------------------------


def test_a_hand_from_the_phone_counts_at_once_and_waits_for_the_other_side(table, rubber):
    hand = from_phone(table)
    row = HandConfirmation.objects.get(hand=hand)
    assert (row.state, row.recorded_by, row.confirmers) == ("unconfirmed", "NS", ["EW"])
    assert row.recorded_version == hand.data
    rubber.refresh_from_db()
    assert rubber.hand_count == 1 and hand.points == {"NS": 2, "EW": 0}  # counts (law 3)
    from_phone(table, THREE)  # the game goes on
    assert HandConfirmation.objects.filter(rubber=rubber, state="unconfirmed").count() == 2


def test_with_the_option_off_nothing_waits(club, table, rubber):
    club.confirm_hands = False
    club.save()
    table.club.confirm_hands = False
    hand = from_phone(table)
    assert not HandConfirmation.objects.exists()
    with pytest.raises(UserError, match="not waiting"):
        confirmations.hand_confirm(rubber_id=rubber.pk, number=hand.number, by="EW")


def test_the_secretarys_own_hands_need_no_confirmation(evening, rubber):
    recording.hand_record(evening_id=evening.pk, table_number=1, data=MARCH)
    assert not HandConfirmation.objects.exists()


def test_the_other_side_confirms(table, rubber):
    hand = from_phone(table)
    with pytest.raises(UserError) as refused:
        confirmations.hand_confirm(rubber_id=rubber.pk, number=1, by="NS", table=table)
    assert refused.value.field == "by" and "East-West" in refused.value.message
    assert state(hand) == "unconfirmed"
    done = confirmations.hand_confirm(rubber_id=rubber.pk, number=1, by="EW", table=table)
    assert (done.state, done.answered_by) == ("confirmed", "EW")
    with pytest.raises(UserError, match="already confirmed"):
        confirmations.hand_confirm(rubber_id=rubber.pk, number=1, by="EW", table=table)
    with pytest.raises(UserError, match="already confirmed"):
        confirmations.hand_dispute(rubber_id=rubber.pk, number=1, by="EW", data=THREE, table=table)


def test_a_dispute_keeps_both_versions_and_the_hand_counts_as_recorded(table, rubber):
    hand = from_phone(table)
    done = confirmations.hand_dispute(
        rubber_id=rubber.pk, number=1, by="EW", data=EW_EUCHRED, table=table
    )
    assert done.state == "disputed"
    assert done.recorded_version["tricks"] == 5 and done.disputed_version["tricks"] == 2
    assert done.disputed_version["makers"] == "NS"  # stored as the laws take it
    hand.refresh_from_db()
    assert hand.points == {"NS": 2, "EW": 0}  # still as recorded


def test_a_disputed_version_the_laws_refuse_is_refused(table, rubber):
    from_phone(table)
    with pytest.raises(ScoringError) as refused:
        confirmations.hand_dispute(
            rubber_id=rubber.pk, number=1, by="EW", data={"makers": "NS", "tricks": 6},
            table=table,
        )  # fmt: skip
    assert refused.value.field == "hand.tricks"
    with pytest.raises(UserError, match="as recorded"):
        confirmations.hand_dispute(rubber_id=rubber.pk, number=1, by="EW", data=MARCH)
    assert state(rubber.hands.get()) == "unconfirmed"


def test_another_tables_link_answers_for_none_of_its_hands(evening, table, rubber):
    from_phone(table)
    other = second_table(evening)
    with pytest.raises(confirmations.NotYourTable):
        confirmations.hand_confirm(rubber_id=rubber.pk, number=1, by="EW", table=other)
    assert state(rubber.hands.get()) == "unconfirmed"


def test_the_secretary_settles_with_a_correction_and_a_reason(table, rubber, secretary):
    from_phone(table)
    from_phone(table, THREE)  # the next hand: only the secretary corrects hand 1 now (E9)
    confirmations.hand_dispute(rubber_id=rubber.pk, number=1, by="EW", data=EW_EUCHRED)
    with pytest.raises(UserError) as refused:
        confirmations.hand_settle(rubber_id=rubber.pk, number=1, reason=" ", user=secretary)
    assert refused.value.field == "reason" and "E9" in refused.value.law
    done = confirmations.hand_settle(
        rubber_id=rubber.pk, number=1, reason="Cora counted the tricks", user=secretary
    )
    assert (done.state, done.settled_by, done.reason) == (
        "settled",
        secretary,
        "Cora counted the tricks",
    )
    hand = rubber.hands.get(number=1)
    assert hand.data["tricks"] == 2 and hand.points == {"NS": 0, "EW": 2}  # euchred (law 3)
    correction = hand.corrections.get()
    assert correction.reason == "Cora counted the tricks" and correction.kind == "referee"
    with pytest.raises(UserError, match="not disputed"):
        confirmations.hand_settle(rubber_id=rubber.pk, number=1, reason="again", user=secretary)


def test_the_secretary_upholds_the_hand_as_recorded(table, rubber, secretary):
    from_phone(table)
    confirmations.hand_dispute(rubber_id=rubber.pk, number=1, by="EW", data=EW_EUCHRED)
    done = confirmations.hand_settle(
        rubber_id=rubber.pk, number=1, reason="Five tricks, seen", user=secretary,
        accept="recorded",
    )  # fmt: skip
    assert done.state == "settled" and done.settled_version == done.recorded_version
    hand = rubber.hands.get()
    assert hand.data["tricks"] == 5 and not hand.corrections.exists()


def test_a_correction_by_the_table_is_put_to_the_other_side_again(table, rubber):
    from_phone(table)
    confirmations.hand_dispute(rubber_id=rubber.pk, number=1, by="EW", data=EW_EUCHRED)
    # Law 5: the table corrects its last hand itself, to the other side's version.
    recording.hand_correct(
        evening_id=table.evening_id, table_number=1, rubber_id=rubber.pk, number=1,
        data=EW_EUCHRED, table=table,
    )  # fmt: skip
    row = HandConfirmation.objects.get()
    assert (row.state, row.recorded_version["tricks"], row.disputed_version) == (
        "unconfirmed",
        2,
        None,
    )


def test_at_call_ace_any_player_but_the_maker_confirms(club, django_capture_on_commit_callbacks):
    club.confirm_hands = True
    club.save()
    world = bridge_and_call_ace_in_play(club)
    table = Table.objects.select_related("club", "evening").get(pk=world.call_ace.pk)
    order = world.call_ace_order
    hand = from_phone(table, {"maker": order[1], "partner": order[2], "tricks": 3})
    row = HandConfirmation.objects.get(hand=hand)
    assert row.recorded_by == order[1]
    assert sorted(row.confirmers) == sorted(p for p in order if p != order[1])
    with pytest.raises(UserError):
        confirmations.hand_confirm(rubber_id=row.rubber_id, number=hand.number, by=order[1])
    done = confirmations.hand_confirm(
        rubber_id=row.rubber_id, number=hand.number, by=order[3], table=table
    )
    assert done.state == "confirmed"


# --- API --------------------------------------------------------------------------------


def _phone(table) -> APIClient:
    phone = APIClient()
    phone.credentials(HTTP_AUTHORIZATION=f"Table {table.token}")
    return phone


def test_the_api_confirms_disputes_and_settles(club, table, rubber, secretary):
    phone = _phone(table)
    base = f"/api/v1/clubs/{club.slug}/rubbers/{rubber.pk}/hands/"
    recorded = phone.post(base, MARCH, format="json")
    assert recorded.status_code == 201
    assert recorded.json()["confirmation"]["state"] == "unconfirmed"
    phone.post(base, THREE, format="json")
    answer = phone.post(f"{base}2/confirm/", {"by": "EW"}, format="json")
    assert answer.status_code == 200 and answer.json()["state"] == "confirmed"
    wrong = phone.post(f"{base}1/confirm/", {"by": "NS"}, format="json")
    assert wrong.status_code == 400 and wrong.json()["error"]["field"] == "by"
    bad = phone.post(
        f"{base}1/dispute/", {"by": "EW", "hand": {"makers": "NS", "tricks": 9}}, format="json"
    )
    assert bad.status_code == 400 and bad.json()["error"]["field"] == "hand.tricks"
    disputed = phone.post(f"{base}1/dispute/", {"by": "EW", "hand": EW_EUCHRED}, format="json")
    assert disputed.status_code == 200, disputed.content
    assert disputed.json()["disputed_version"]["tricks"] == 2

    sheet = phone.get(f"/api/v1/clubs/{club.slug}/rubbers/{rubber.pk}/").json()
    assert [h["confirmation"]["state"] for h in sheet["hands"]] == ["disputed", "confirmed"]
    one = phone.get(f"{base}1/").json()["confirmation"]
    assert one["recorded_version"]["tricks"] == 5 and one["disputed_version"]["tricks"] == 2

    # The table does not settle its own dispute; the secretary does, with a reason.
    assert phone.post(f"{base}1/settle/", {"reason": "x"}, format="json").status_code == 403
    assert APIClient().post(f"{base}1/settle/", {"reason": "x"}, format="json").status_code in {
        401, 403
    }  # fmt: skip
    secretary_api = token_client(secretary)
    blank = secretary_api.post(f"{base}1/settle/", {"reason": ""}, format="json")
    assert blank.status_code == 400 and blank.json()["error"]["field"] == "reason"
    settled = secretary_api.post(f"{base}1/settle/", {"reason": "Recounted"}, format="json")
    assert settled.status_code == 200, settled.content
    assert settled.json()["state"] == "settled" and settled.json()["reason"] == "Recounted"
    assert rubber.hands.get(number=1).data["tricks"] == 2


def test_hands_without_a_confirmation_show_null(club, evening, rubber):
    club.confirm_hands = False
    club.save()
    recording.hand_record(evening_id=evening.pk, table_number=1, data=MARCH)
    sheet = APIClient().get(f"/api/v1/clubs/{club.slug}/rubbers/{rubber.pk}/").json()
    assert sheet["hands"][0]["confirmation"] is None


def test_the_club_option_is_set_through_the_api(club, secretary):
    club.confirm_hands = False
    club.save()
    secretary_api = token_client(secretary)
    url = f"/api/v1/clubs/{club.slug}/"
    assert secretary_api.get(url).json()["confirm_hands"] is False
    response = secretary_api.patch(url, {"confirm_hands": True}, format="json")
    assert response.status_code == 200 and response.json()["confirm_hands"] is True
    club.refresh_from_db()
    assert club.confirm_hands


def test_another_tables_link_cannot_confirm_by_the_api(club, evening, table, rubber):
    from_phone(table)
    other = second_table(evening)
    url = f"/api/v1/clubs/{club.slug}/rubbers/{rubber.pk}/hands/1/confirm/"
    assert _phone(other).post(url, {"by": "EW"}, format="json").status_code == 403  # public
    club.is_public = False
    club.save()
    assert _phone(other).post(url, {"by": "EW"}, format="json").status_code == 404  # private
    assert state(rubber.hands.get()) == "unconfirmed"


def test_the_schema_documents_the_endpoints_and_their_errors(api):
    schema = api.get("/api/schema/?format=json").json()
    for action in ("confirm", "dispute", "settle"):
        path = "/api/v1/clubs/{slug}/rubbers/{id}/hands/{number}/" + action + "/"
        operation = schema["paths"][path]["post"]
        assert {"400", "401", "403", "404", "409"} <= set(operation["responses"])
    hand = schema["components"]["schemas"]["HandOutput"]["properties"]
    assert "confirmation" in hand


# --- pages ------------------------------------------------------------------------------


def test_the_phone_page_shows_the_hand_to_the_other_side(client, club, table, rubber):
    from_phone(table)
    page = client.get(f"/t/{table.token}/").content.decode()
    assert "Hand 1 recorded by North-South:" in page and "Confirm (East-West)" in page
    answer = client.post(
        f"/t/{table.token}/answer/",
        {"rubber": rubber.pk, "number": 1, "answer": "dispute", "by": "EW", "makers": "NS",
         "tricks": "2"},
    )  # fmt: skip
    assert "Hand 1 disputed by East-West" in answer.content.decode()
    assert state(rubber.hands.get()) == "disputed"
    page = client.get(f"/clubs/{club.slug}/rubbers/{rubber.pk}/").content.decode()
    assert 'data-testid="hand-1-disputed"' in page


def test_another_tables_phone_page_cannot_answer(client, evening, table, rubber):
    from_phone(table)
    other = second_table(evening)
    answer = client.post(
        f"/t/{other.token}/answer/", {"rubber": rubber.pk, "number": 1, "by": "EW"}
    )
    assert "only for its own table" in answer.content.decode()
    assert state(rubber.hands.get()) == "unconfirmed"


def test_the_board_shows_a_dispute_and_settles_it(client, evening, table, rubber, secretary):
    from_phone(table)
    client.force_login(secretary)
    fragment = f"/secretary/evenings/{evening.pk}/board/"
    before = client.get(fragment)["ETag"]
    confirmations.hand_dispute(rubber_id=rubber.pk, number=1, by="EW", data=EW_EUCHRED)
    board = client.get(fragment, HTTP_IF_NONE_MATCH=before)
    assert board.status_code == 200  # the evening's version did not move; the board did
    text = board.content.decode()
    assert "Table 1, hand 1" in text and "Disputed by East-West" in text
    settle = f"/secretary/evenings/{evening.pk}/settle/"
    refused = client.post(settle, {"rubber": rubber.pk, "number": 1, "accept": "disputed"})
    assert "Say why" in refused.content.decode() and state(rubber.hands.get()) == "disputed"
    done = client.post(
        settle, {"rubber": rubber.pk, "number": 1, "accept": "disputed", "reason": "Recount"}
    )
    assert "Hand 1 settled" in done.content.decode()
    assert state(rubber.hands.get()) == "settled"
    assert rubber.hands.get().data["tricks"] == 2


@pytest.mark.parametrize(
    ("sent", "said", "field"),
    [
        ({"rubber": None},
         'The rubber of the disputed hand was not sent; settle the hand from its own form '
         'under "Disputed hands", which names it.', "rubber"),
        ({"number": None},
         'The number of the disputed hand was not sent; settle the hand from its own form '
         'under "Disputed hands", which names it.', "number"),
        ({"rubber": "x"},
         "The rubber of the disputed hand: give a whole number, nothing below nought, in the "
         "digits 0 to 9, at most 9 of them.", "rubber"),
        ({"number": "1.5"},
         "The number of the disputed hand: give a whole number, nothing below nought, in the "
         "digits 0 to 9, at most 9 of them.", "number"),
        ({"rubber": "999999"},
         "The rubber of the disputed hand: rubber 999999 is not one of this evening's; settle "
         'the hand from its own form under "Disputed hands", which names it.', "rubber"),
        ({"accept": "both"},
         "Which version stands: choose the disputing side's version (the hand is corrected) "
         "or the hand as recorded (law 5, ruling E9).", "accept"),
    ],
)  # fmt: skip
def test_a_crafted_or_stale_settle_names_its_field_in_words(
    client, evening, table, rubber, secretary, sent, said, field
):
    """The settle form names its hand by two hidden fields: a post that sends them wrong (a
    script, a page of another version) is refused naming the field in words, nothing
    settled. It said "Choose the hand to answer for." or 'Accept "disputed" or
    "recorded".', or a bare "Give a whole number ...", naming no field."""
    from tests.club.test_board_refusals import refusal

    from_phone(table)
    confirmations.hand_dispute(rubber_id=rubber.pk, number=1, by="EW", data=EW_EUCHRED)
    client.force_login(secretary)
    form = {"rubber": str(rubber.pk), "number": "1", "accept": "disputed", "reason": "Recount"}
    form = {key: value for key, value in {**form, **sent}.items() if value is not None}
    answer = client.post(f"/secretary/evenings/{evening.pk}/settle/", form)
    assert refusal(answer) == (f"Not done. {said}", field)
    assert "X-Live-Done" not in answer  # the form keeps what was typed
    assert state(rubber.hands.get()) == "disputed"


def test_a_clubs_backup_keeps_its_hands_confirmations(club, table, rubber, secretary):
    from club.backup import club_export, club_import

    from_phone(table)
    confirmations.hand_dispute(rubber_id=rubber.pk, number=1, by="EW", data=EW_EUCHRED)
    copy = club_import(data=club_export(club=club), slug="somerset-copy")
    assert copy.confirm_hands
    row = HandConfirmation.objects.get(rubber__club=copy)
    assert (row.state, row.hand.rubber.club, row.disputed_version["tricks"]) == (
        "disputed",
        copy,
        2,
    )


def test_a_backup_whose_disputed_version_is_no_hand_is_refused(club, table, rubber):
    """Guards club.backup_scoring: the other side's version of a hand is restored only if
    it is a hand of the rubber's game (the board shows it, a settling records it)."""
    from club.backup import BackupError, club_export, club_import
    from club.models import Club

    from_phone(table)
    confirmations.hand_dispute(rubber_id=rubber.pk, number=1, by="EW", data=EW_EUCHRED)
    data = club_export(club=club)
    section = next(s for s in data["models"] if s["model"] == "club.handconfirmation")
    section["rows"][0]["fields"]["disputed_version"] = {"makers": "NS", "tricks": 6}
    with pytest.raises(
        BackupError,
        match=r"^club\.handconfirmation row 0 \(id \d+\), field disputed_version\.tricks: 6 is "
        r"out of range: must be from 0 to 5 \(law 2\)\.$",
    ):
        club_import(data=data, slug="somerset-copy")
    assert not Club.objects.filter(slug="somerset-copy").exists()


@pytest.mark.parametrize("number", ["\uff11", "1.0", "-1", ""])  # a fullwidth one, ...
def test_the_answer_form_refuses_a_hand_number_not_written_in_digits(client, table, rubber, number):
    from_phone(table)
    answer = client.post(
        f"/t/{table.token}/answer/", {"rubber": rubber.pk, "number": number, "by": "EW"}
    )
    assert answer.status_code == 400  # as a refused hand at the same phone
    page = answer.content.decode()
    assert 'data-field="number"' in page
    if number:  # the field in words before the words that name none
        assert "The hand answered for: give a whole number" in page
    assert state(rubber.hands.get()) == "unconfirmed"
