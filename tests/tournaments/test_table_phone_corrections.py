"""The players at a progressive's table correct its last deal from the phone, as an
evening's table's players do (law 5, ruling E9), through the one recording service
(club.recording.hand_correct): within the laws' limits, at their own table's rubber of the
round in play, the result of a round over at the table kept (tournaments.table_links.
may_correct), nothing once the tournament is over; every refusal in words naming its field
and its law or ruling; the same correction sent again with its Idempotency-Key made once."""

import re

import pytest

from club import recording
from scoring.models import Hand, HandCorrection
from tournaments import rounds
from tournaments.models import StandingsDirty
from tournaments.table_links import ASK_THE_REFEREE

from .test_table_phone import at_table, deal, hands, link, page_of, play_out

pytestmark = pytest.mark.django_db


def send(client, tournament, form: dict, number: int = 1, **headers):
    """A form posted from table `number`'s phone, as its queue sends it (htmx)."""
    return client.post(
        f"/p/{link(tournament, number).token}/hand/", form, HTTP_HX_REQUEST="true", **headers
    )


def correction(table, number=1, **fields) -> dict:
    """The correction form of deal `number` at `table`: the deal as the phone sends it."""
    return deal(**fields, correct=str(number), rubber=str(table.rubber_id))


@pytest.fixture
def two_deals(make, director):
    """A rotation progressive of two deals a round, round 1 seated: two tables."""
    tournament = make("rotation", deals=2)
    rounds.round_seat_next(tournament_id=tournament.pk, user=director)
    return tournament


def refused(answer, status: int, *words: str, field: str, law: str | None) -> str:
    """The refusal's page: its status, its words, its field for scripts and its law (None:
    a refusal no law or ruling speaks to)."""
    assert answer.status_code == status
    page = page_of(answer)
    alert = page[page.index('role="alert"') :].split("</div>", 1)[0]
    assert "Not recorded." in alert
    for said in words:
        assert said in alert, said
    assert f'data-field="{field}"' in alert
    if law is None:
        assert 'class="law"' not in alert
    else:
        assert law in alert
    return page


def shown(page: str) -> str:
    """The refusal as a person reads it: its words without the markup (data-field)."""
    alert = page[page.index('role="alert"') :].split(">", 1)[1].split("</div>", 1)[0]
    return " ".join(re.sub(r"<[^>]+>", "", alert).split())


def test_the_last_deal_corrected_from_the_phone_changes_the_sheet_and_the_standings(
    client, two_deals
):
    table = at_table(two_deals)
    recorded = page_of(send(client, two_deals, deal(expected_number="1")))
    # The page offers the last deal's correction, filled with it, as an evening's phone does.
    assert 'data-testid="last-hand"' in recorded and "Correct hand 1" in recorded
    assert 'name="correct" value="1"' in recorded
    assert f'<input type="hidden" name="rubber" value="{table.rubber_id}">' in recorded
    assert 'value="NS" required checked' in recorded
    assert "Ruling E9: the players may correct a hand's score until the next hand" in recorded
    assert "may change its figures but not whether it is over, nor, before the last round, who" in (
        " ".join(recorded.split())
    )
    StandingsDirty.objects.all().delete()  # as the worker leaves it

    answer = send(client, two_deals, correction(table, tricks="5"))
    assert answer.status_code == 200
    page = page_of(answer)
    assert "Hand 1 corrected." in page
    corrected = Hand.objects.get(rubber=table.rubber)
    assert corrected.data["tricks"] == 5 and corrected.points == {"NS": 2, "EW": 0}
    line = next(line for line in corrected.lines if "five tricks" in line)
    assert line.split(": ", 1)[1] in page  # the sheet shows the corrected deal
    assert "Correct hand 1 (corrected already)" in page
    kept = HandCorrection.objects.get(hand=corrected)
    assert kept.kind == HandCorrection.Kind.FREE and kept.law == "law 5"
    assert kept.previous_data["tricks"] == 3  # the original beside it (ruling E9)
    # The standings heard of it in the correction's transaction (their outbox).
    assert StandingsDirty.objects.filter(tournament=two_deals).count() == 4


def test_a_refused_correction_comes_back_as_typed_in_its_own_form(client, two_deals):
    table = at_table(two_deals)
    send(client, two_deals, deal(expected_number="1"))
    answer = send(client, two_deals, correction(table, makers="EW", tricks="6"))
    page = refused(answer, 400, "6 is out of range", field="hands[0].tricks", law="law 2")
    # The field in words, as the form names it (the laws replayed the rubber: its hand 1),
    # never its path, which only the markup keeps for scripts.
    assert shown(page) == (
        "Not recorded. In hand 1, the tricks taken by the makers: 6 is out of range: must be "
        "from 0 to 5 (law 2)"
    )
    corrections = page[page.index('data-kind="correct"') :]
    assert 'value="EW" checked' in corrections and 'value="6"' in corrections
    assert '<details class="panel last-hand" data-testid="last-hand" open>' in page
    assert [h["makers"] for h in hands(table)] == ["NS"]
    assert not HandCorrection.objects.exists()


def test_a_refused_deal_names_its_field_in_words_as_at_an_evenings_table(client, two_deals):
    """The same refusal, in the same words and with the same status, as at an evening's
    table's phone (tests/club/test_phone_page.py)."""
    answer = send(client, two_deals, deal(tricks="6", expected_number="1"))
    page = refused(answer, 400, "6 is out of range", field="hand.tricks", law="law 2")
    assert shown(page) == (
        "Not recorded. The tricks taken by the makers: 6 is out of range: must be from 0 to 5 "
        "(law 2)"
    )
    answer = send(client, two_deals, deal(tricks="3", expected_number="1", law102="on"))
    page = refused(answer, 400, "applies only when", field="hand.law102", law="law 102")
    assert shown(page) == (
        "Not recorded. The lone player's partner exposed a card: law 102 applies only when a "
        "lone hand is played"
    )


def test_an_earlier_deal_is_the_secretarys_to_correct(client, two_deals):
    table = at_table(two_deals)
    send(client, two_deals, deal(expected_number="1"))
    send(client, two_deals, deal("EW", expected_number="2"))
    answer = send(client, two_deals, correction(table, number=1, tricks="5"))
    refused(
        answer,
        400,
        "Too late for the players to change this hand: a later hand has been recorded. Only "
        "the secretary, as the club's referee, may change it now.",
        field="number",
        law="law 5, ruling E9",
    )
    assert [h["tricks"] for h in hands(table)] == [3, 3]
    assert not HandCorrection.objects.exists()


def test_another_tables_rubber_is_refused(client, two_deals):
    other = at_table(two_deals, number=2)
    recording.hand_record(rubber_id=other.rubber_id, data={"makers": "EW", "tricks": 3})
    answer = send(client, two_deals, correction(other, tricks="5"), number=1)
    refused(
        answer,
        400,
        "This table's link records only table 1's own rubber of the round in play; the one "
        "sent is another table's.",
        field="rubber",
        law=None,
    )
    assert [h["tricks"] for h in hands(other)] == [3]


def test_a_round_over_at_the_table_keeps_its_result(client, round_one):
    """One deal a round: it ends the round at the table (ruling P1). Its figures may still
    be corrected while the round is the latest; who won it may not."""
    table = at_table(round_one)
    seats = round_one.rounds.get(number=1).seating["tables"][0]["seats"]
    page = page_of(send(client, round_one, deal(expected_number="1")))
    assert "Round 1 is over at this table" in page and "Correct hand 1" in page

    answer = send(client, round_one, correction(table, makers="EW"))
    refused(
        answer,
        400,
        f"This correction of hand 1 would change who won round 1 at this table ({seats['N']} "
        f"& {seats['S']} (N-S) won it, ruling P1), and the director seats the next round from "
        f"that result; correct the figures only, or {ASK_THE_REFEREE}.",
        field="hand",
        law="ruling E9",
    )
    assert [h["makers"] for h in hands(table)] == ["NS"]
    assert not HandCorrection.objects.exists()

    answer = send(client, round_one, correction(table, tricks="5"))
    assert "Hand 1 corrected." in page_of(answer)
    assert [h["tricks"] for h in hands(table)] == [5]


def test_a_decided_round_made_level_again_is_refused_and_a_level_one_may_be_decided(
    client, two_deals
):
    """Ruling P1: a level round goes on one deal at a time. A correction may decide a round
    still being played, but not reopen one decided."""
    table = at_table(two_deals)
    send(client, two_deals, deal("NS", expected_number="1"))
    send(client, two_deals, deal("NS", expected_number="2"))
    answer = send(client, two_deals, correction(table, number=2, makers="EW"))
    refused(answer, 400, "would change who won round 1 at this table", field="hand", law="E9")
    assert [h["makers"] for h in hands(table)] == ["NS", "NS"]

    other = at_table(two_deals, number=2)
    for number, makers in ((1, "NS"), (2, "EW")):
        send(client, two_deals, deal(makers, expected_number=str(number)), number=2)
    assert "Level after the round's 2 deals" in page_of(
        client.get(f"/p/{link(two_deals, 2).token}/")
    )
    answer = send(client, two_deals, correction(other, number=2, makers="EW", tricks="5"), 2)
    page = page_of(answer)
    assert "Hand 2 corrected." in page and "Round 1 is over at this table" in page


def test_the_round_before_is_refused_once_the_next_is_seated(client, round_one, director):
    earlier = at_table(round_one)
    play_out(round_one)
    rounds.round_seat_next(tournament_id=round_one.pk, user=director)
    answer = send(client, round_one, correction(earlier, tricks="5"))
    page = refused(
        answer,
        409,
        "This correction of hand 1 was entered for round 1 at this table, which is over (the "
        "director has seated the next round from its result), so it was not made; "
        f"{ASK_THE_REFEREE}.",
        field="rubber",
        law="ruling E9",
    )
    assert [h["tricks"] for h in hands(earlier)] == [3]
    # Not offered as a correction of round 2's deal: round 2 has none yet.
    assert 'data-kind="correct"' not in page and 'value="5"' not in page


def test_the_last_tables_final_deal_is_corrected_until_the_results_are_final(client, round_one):
    """The last deal of the last round ends the tournament, and no deal follows it: law 5
    (until the trump is turned in the next deal) and ruling E9 (until the next hand at the
    table is recorded) leave it open, so the phone still corrects it, figures and who won
    the round, until the director declares the results final; then it corrects nothing,
    and says who does and how. It once refused the correction the moment the deal ended
    the tournament, and named only the secretary."""
    round_one.rounds_planned = 1
    round_one.save(update_fields=["rounds_planned"])
    table = at_table(round_one, number=2)
    recording.hand_record(
        rubber_id=at_table(round_one).rubber_id, data={"makers": "EW", "tricks": 3}
    )
    page = page_of(send(client, round_one, deal(expected_number="1"), number=2))
    assert "Hand 1 recorded." in page  # the tournament's last deal
    assert (
        "The tournament is over: every table has played its last round, round 1, and this "
        "table's link records nothing more. No deal follows this table's last, so it may "
        "still be corrected here (law 5, ruling E9) until the director declares the results "
        "final."
    ) in " ".join(page.split())
    assert 'data-kind="correct"' in page and "Correct hand 1" in page

    answer = send(client, round_one, correction(table, tricks="5"), number=2)
    assert answer.status_code == 200 and "Hand 1 corrected." in page_of(answer)
    # The last round: no round is seated from its result, so who won it may change too.
    answer = send(client, round_one, correction(table, makers="EW", tricks="4"), number=2)
    assert answer.status_code == 200 and "Hand 1 corrected." in page_of(answer)
    assert rounds.round_as_dict(round_one.rounds.get(number=1))["tables"][1]["winner"] == "EW"
    assert HandCorrection.objects.filter(hand__rubber=table.rubber).count() == 2
    assert all(
        c.kind == HandCorrection.Kind.FREE for c in HandCorrection.objects.all()
    )  # the players' own, within law 5

    round_one.refresh_from_db()
    rounds.tournament_results_final(tournament_id=round_one.pk)
    page = page_of(client.get(f"/p/{link(round_one, 2).token}/"))
    final = "The tournament is over: its director declared the results final at "
    assert final in page and 'data-kind="correct"' not in page
    answer = send(client, round_one, correction(table, makers="NS", tricks="3"), number=2)
    page = refused(
        answer,
        409,
        final,
        "and this table's link records and corrects nothing more. This correction of hand 1 "
        "was not made; ask the director: he corrects any deal of the tournament on the "
        "table's sheet, with a reason, as the club's referee, and the original is kept "
        "beside the correction.",
        field="rubber",
        law="ruling E9",
    )
    assert [(h["makers"], h["tricks"]) for h in hands(table)] == [("EW", 4)]
    assert HandCorrection.objects.count() == 2


def test_the_last_round_keeps_a_decided_table_decided(client, two_deals, director):
    """Ruling P1 in the last round: who won may change, whether it is decided may not."""
    two_deals.rounds_planned = 1
    two_deals.save(update_fields=["rounds_planned"])
    table = at_table(two_deals)
    send(client, two_deals, deal("NS", expected_number="1"))
    send(client, two_deals, deal("NS", expected_number="2"))
    answer = send(client, two_deals, correction(table, number=2, makers="EW"))
    refused(
        answer,
        400,
        "This correction of hand 2 would leave round 1, the last, undecided at this table",
        f"its result stands decided; correct the figures so that a side still wins it, or "
        f"{ASK_THE_REFEREE}.",
        field="hand",
        law="ruling E9",
    )
    assert [h["makers"] for h in hands(table)] == ["NS", "NS"]
    answer = send(client, two_deals, correction(table, number=2, makers="EW", tricks="5"))
    assert "Hand 2 corrected." in page_of(answer)  # E-W march: now E-W are ahead
    assert rounds.round_as_dict(two_deals.rounds.get(number=1))["tables"][0]["winner"] == "EW"


def test_a_correction_sent_again_with_its_idempotency_key_is_made_once(client, two_deals):
    table = at_table(two_deals)
    send(client, two_deals, deal(expected_number="1"))
    form = correction(table, tricks="4")
    first = send(client, two_deals, form, HTTP_IDEMPOTENCY_KEY="correction-once")
    second = send(client, two_deals, form, HTTP_IDEMPOTENCY_KEY="correction-once")
    assert first.status_code == second.status_code == 200
    assert second["Idempotent-Replayed"] == "true"
    assert second.content == first.content
    assert HandCorrection.objects.count() == 1
    assert Hand.objects.get(rubber=table.rubber).correction_count == 1
    # The same key with another correction is refused, never made.
    other = send(
        client, two_deals, correction(table, tricks="5"), HTTP_IDEMPOTENCY_KEY="correction-once"
    )
    assert other.status_code == 422
    assert [h["tricks"] for h in hands(table)] == [4]


def test_a_deal_the_other_phone_corrected_first_is_not_corrected_again(client, two_deals):
    """Two phones at the table correcting the same deal: each form names the version of
    the deal it corrects (its hidden `changed_at`, club.recording.hand_correct); the one
    sent second, from the deal as it was, is refused with 409 in words saying what the deal
    now reads, nothing written, the form holding the deal as it now reads and what was
    typed said beside it in words (so a second tap never sends the old fields over the
    other phone's correction)."""
    table = at_table(two_deals)
    page = page_of(send(client, two_deals, deal(expected_number="1")))
    seen = re.search(r'name="changed_at" value="([^"]+)"', page)[1]
    assert seen == Hand.objects.get(rubber=table.rubber).recorded_at.isoformat()
    first = send(client, two_deals, correction(table, tricks="5", changed_at=seen))
    assert first.status_code == 200, page_of(first)
    answer = send(client, two_deals, correction(table, makers="EW", tricks="4", changed_at=seen))
    page = refused(answer, 409, "corrected hand 1 at", field="changed_at", law=None)
    assert "The other phone at the table corrected hand 1 at" in shown(page)
    assert "it now reads" in shown(page) and "five tricks" in shown(page)
    corrections = page[page.index('data-kind="correct"') :]
    assert 'value="NS" required checked' in corrections and 'value="5"' in corrections
    assert 'value="EW" checked' not in corrections and 'value="4"' not in corrections
    assert "You had entered: E-W make, 4 tricks." in page
    assert [(h["makers"], h["tricks"]) for h in hands(table)] == [("NS", 5)]
    assert HandCorrection.objects.count() == 1
    # The form shown with the refusal names the deal as it is now: sent again, it is made.
    now = re.search(r'name="changed_at" value="([^"]+)"', page)[1]
    assert now == HandCorrection.objects.get().at.isoformat()
    again = send(client, two_deals, correction(table, makers="EW", tricks="4", changed_at=now))
    assert again.status_code == 200, page_of(again)
    assert [(h["makers"], h["tricks"]) for h in hands(table)] == [("EW", 4)]


def test_a_field_sent_twice_is_refused_naming_it(client, two_deals):
    """As at an evening's table (tests/club/test_phone_page.py): never taken as its last."""
    table = at_table(two_deals)
    answer = send(client, two_deals, deal(makers=["NS", "EW"], expected_number="1"))
    page = refused(answer, 400, field="makers", law=None)
    assert shown(page) == (
        "Not recorded. The makers came 2 times in one form, which sends it once: nothing was "
        "recorded. Send the hand again from the page."
    )
    assert hands(table) == []
