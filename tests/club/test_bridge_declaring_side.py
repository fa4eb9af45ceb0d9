"""Bridge: the trump is declared by the dealer or his partner; if either of the dealer's
adversaries makes the declaration, the dealer claims a new deal or proceeds as if no
declaration had been made (Bridge laws, Declaring Trumps). At an evening's table, its seats
cut (ruling T4), the service knows who deals each hand: a hand entered as declared by the
adversaries is refused, at the API and the phone alike, naming the dealer and the side that
declares; nothing is written. The phone recorded "E-W declare hearts" on N-S's deal."""

import html

import pytest
from django.test import Client
from rest_framework.test import APIClient

from club import recording
from core.errors import UserError
from scoring.models import Hand
from tests.browser import PHONE, settled, shot
from tests.worlds import bridge_and_call_ace_in_play, club_in_play

# Hand 1 (Ann deals, N-S declared no trumps) is recorded: Cora, East, deals hand 2.
WRONG_SIDE = (
    "Cora deals hand 2, so E-W (Cora & Dan) declare the trump: the "
    "dealer makes it or passes the declaration to his partner, and a declaration by N-S, "
    "the adversaries, is no declaration (Bridge laws, Declaring Trumps)."
)


@pytest.fixture
def bridge(db, django_capture_on_commit_callbacks):
    return bridge_and_call_ace_in_play(club_in_play(django_capture_on_commit_callbacks).club).bridge


def test_the_adversaries_declaring_is_refused_at_the_api_and_the_phone(bridge):
    club = bridge.evening.club
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Table {bridge.token}")
    url = f"/api/v1/clubs/{club.slug}/evenings/{bridge.evening_id}/tables/1/hands/"
    hand = {"declarer": "NS", "trump": "NT", "tricks": {"NS": 7, "EW": 6}}
    answer = api.post(url, {"hand": hand}, format="json")
    assert answer.status_code == 400
    error = answer.json()["error"]
    assert (error["field"], error["message"]) == ("hand.declarer", WRONG_SIDE), error
    form = {"declarer": "NS", "trump": "NT", "tricks_ns": "7"}
    answer = Client().post(f"/t/{bridge.token}/hand/", form)
    page = " ".join(html.unescape(answer.content.decode()).split())
    assert f"Not recorded.</strong> The declarer's side: {WRONG_SIDE}" in page
    assert Hand.objects.filter(rubber__table=bridge).count() == 1
    answer = api.post(url, {"hand": {**hand, "declarer": "EW"}}, format="json")
    assert answer.status_code == 201, answer.json()
    # Hand 3 is Ann's partner's, Bob's (South): N-S declare again.
    answer = api.post(url, {"hand": {**hand, "declarer": "EW"}}, format="json")
    assert answer.status_code == 400
    assert "Bob deals hand 3, so N-S" in answer.json()["error"]["message"]


def test_a_correction_to_the_adversaries_declaring_is_refused(bridge):
    evening = bridge.evening
    with pytest.raises(UserError) as refused:
        recording.hand_correct(
            evening_id=evening.pk, table_number=1, rubber_number=1, number=1,
            data={"declarer": "EW", "trump": "NT", "tricks": {"NS": 7, "EW": 6}},
            is_secretary=True,
        )  # fmt: skip
    assert refused.value.field == "hand.declarer"
    assert "Ann deals hand 1, so N-S" in str(refused.value)
    assert Hand.objects.get(rubber__table=bridge, number=1).data["declarer"] == "NS"


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_phone_says_which_side_declares_when_the_other_is_chosen(
    browser_page, live_server, django_capture_on_commit_callbacks
):
    tables = bridge_and_call_ace_in_play(club_in_play(django_capture_on_commit_callbacks).club)
    page = browser_page
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}/t/{tables.bridge.token}/")
    form = page.locator("form.hand[data-kind=record]")
    form.locator("input[name=declarer][value=NS]").check()
    form.locator("select[name=trump]").select_option("NT")
    form.locator("input[name=tricks_ns]").fill("7")
    form.get_by_test_id("record-hand").click()
    page.get_by_test_id("phone-error").wait_for()
    settled(page)
    said = " ".join(page.get_by_test_id("phone-error").inner_text().split())
    assert f"Not recorded. The declarer's side: {WRONG_SIDE}" in said, said
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(page, "bridge-declaring-side-refused")
    assert Hand.objects.filter(rubber__table=tables.bridge).count() == 1
    form.locator("input[name=declarer][value=EW]").check()  # what was typed is still there
    form.get_by_test_id("record-hand").click()
    page.get_by_test_id("phone-notice").filter(has_text="Hand 2 recorded.").wait_for()
    assert Hand.objects.get(rubber__table=tables.bridge, number=2).data["declarer"] == "EW"


def test_a_log_exported_before_the_check_replays_as_it_was_recorded(bridge):
    # A hand recorded before the service checked the declaring side (the phone took "E-W"
    # on N-S's deal) is in the club's exported logs: replayed, it is kept as it was, not
    # refused, so the evening replays whole (docs/evening-log.md).
    from club import evening_log

    evening = bridge.evening
    log = evening_log.evening_export(evening=evening)
    entry = next(event for event in log["events"] if event["type"] == "hand")
    entry["hand"]["declarer"] = "EW"  # Ann dealt hand 1: N-S declare
    replayed = evening_log.evening_replay(log=log, club=evening.club)
    assert Hand.objects.get(rubber__evening=replayed, number=1).data["declarer"] == "EW"
