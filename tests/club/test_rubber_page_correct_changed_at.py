"""The secretary's late correction on the rubber's page names the version of the hand it
corrects (its hidden `changed_at`, club.recording.hand_correct), as a table's phone does:
a hand a phone corrected since the page showed it is refused with 409 in words (law 5,
ruling E9), nothing written, the form then holding the hand as it now reads and what the
secretary had entered said beside it. It once named no version, and the secretary's
correction silently overwrote the phone's."""

import html
import re

import pytest
from django.urls import reverse

from club import recording
from scoring.models import HandCorrection


@pytest.fixture
def page_url(world):
    return reverse("rubber-detail", args=[world.club.slug, world.rubber.pk])


@pytest.fixture
def change_url(world):
    return reverse("rubber-change", args=[world.club.slug, world.rubber.pk])


def shown_version(page: str) -> str:
    return re.search(r'name="changed_at" value="([^"]*)"', page).group(1)


def words(answer) -> str:
    """The page's text as read: its tags taken out, its whitespace as one space."""
    text = re.sub(r"<[^>]+>", " ", answer.content.decode())
    return re.sub(r"\s+([.,:;])", r"\1", " ".join(html.unescape(text).split()))


def phone_corrects_hand_1(world, tricks: int) -> None:
    recording.hand_correct(
        evening_id=world.evening.pk,
        table_number=1,
        rubber_id=world.rubber.pk,
        number=1,
        data={"makers": "NS", "tricks": tricks},
        table=world.table,
    )


def test_the_form_names_the_version_of_the_hand_it_shows(client, world, page_url):
    client.force_login(world.secretary)
    hand = world.rubber.hands.get(number=1)
    page = client.get(f"{page_url}?correct=1").content.decode()
    assert shown_version(page) == recording.changed_at(hand).isoformat()


def test_a_hand_a_phone_corrected_since_the_page_showed_it_is_not_overwritten(
    client, world, page_url, change_url
):
    client.force_login(world.secretary)
    seen = shown_version(client.get(f"{page_url}?correct=1").content.decode())
    phone_corrects_hand_1(world, tricks=5)  # the phone at the table: a march

    sent = {"change": "correct", "number": "1", "makers": "EW", "tricks": "3"}
    answer = client.post(change_url, {**sent, "changed_at": seen, "reason": "E-W made it"})
    assert answer.status_code == 409
    said = words(answer)
    assert re.search(
        r"Not changed\. A phone at the table corrected hand 1 at \d\d:\d\d, since this page "
        r"showed it: it now reads .*five tricks.*\. So this correction was not recorded; look "
        r"again at hand 1 and correct it if it is still wrong\.",
        said,
    ), said
    hand = world.rubber.hands.get(number=1)
    assert (hand.data["makers"], hand.data["tricks"]) == ("NS", 5)  # the phone's stands
    assert HandCorrection.objects.count() == 1
    # The form holds hand 1 as it now reads, at its new version; what the secretary had
    # entered is said beside it, and his reason kept.
    page = answer.content.decode()
    assert shown_version(page) == recording.changed_at(hand).isoformat() != seen
    assert re.search(r'name="tricks"[^>]*value="5"', page)
    assert re.search(r'name="makers" value="NS"[^>]*checked', page)
    assert "You had entered: E-W make, 3 tricks." in said
    assert "E-W made it</textarea>" in page

    # Sent again from the form as it now is, it is made.
    again = {**sent, "changed_at": shown_version(page), "reason": "E-W made it"}
    assert client.post(change_url, again).status_code == 302
    hand.refresh_from_db()
    assert (hand.data["makers"], hand.data["tricks"]) == ("EW", 3)


def test_a_refusal_for_another_reason_keeps_the_version_he_read(
    client, world, page_url, change_url
):
    """Refused for want of a reason, the form comes back as typed with the version the
    secretary read, not the latest: a phone's correction meanwhile is still found."""
    client.force_login(world.secretary)
    seen = shown_version(client.get(f"{page_url}?correct=1").content.decode())
    sent = {"change": "correct", "number": "1", "makers": "EW", "tricks": "3", "changed_at": seen}
    answer = client.post(change_url, {**sent, "reason": ""})
    assert answer.status_code == 400
    assert shown_version(answer.content.decode()) == seen
    phone_corrects_hand_1(world, tricks=4)
    assert client.post(change_url, {**sent, "reason": "E-W"}).status_code == 409
    assert world.rubber.hands.get(number=1).data["tricks"] == 4


def test_a_version_not_written_as_one_is_refused_in_words(client, world, change_url):
    client.force_login(world.secretary)
    sent = {"change": "correct", "number": "1", "makers": "EW", "tricks": "3", "reason": "x"}
    answer = client.post(change_url, {**sent, "changed_at": "yesterday"})
    assert answer.status_code == 400
    assert (
        "The correction does not say which version of hand 1 it corrects, as the sheet "
        "showed it (when it was last changed): reload the page and correct the hand again."
    ) in words(answer)
    assert not HandCorrection.objects.exists()


@pytest.mark.parametrize(
    ("sent", "said"),
    [
        ({"tricks": "9"},
         "In hand 1, the tricks taken by the makers: 9 is out of range: must be from 0 to 5 "
         "(law 2)"),
        ({"makers": "XX"},
         'In hand 1, the makers: must be North-South ("NS") or East-West ("EW")'),
        ({"revokes_NS": "x"},
         "The revokes: give a whole number, nothing below nought, in the digits 0 to 9, at "
         "most 9 of them."),
        ({"number": "x"},
         "The hand to change: give a whole number, nothing below nought, in the digits 0 to "
         "9, at most 9 of them."),
    ],
)  # fmt: skip
def test_a_refused_change_names_its_field_in_words(client, world, change_url, sent, said):
    """The rubber's page names the field a refusal is of, as the table's phone does
    (club.phone.named_refusal): it said "9 is out of range ..." or "Must be North-South
    ...", naming no field, or a bare "Give a whole number ..." for the hand's number."""
    client.force_login(world.secretary)
    form = {"change": "correct", "number": "1", "makers": "EW", "tricks": "3", "reason": "x"}
    answer = client.post(change_url, {**form, **sent})
    assert answer.status_code == 400
    assert f"Not changed. {said}" in words(answer)
    assert not HandCorrection.objects.exists()
