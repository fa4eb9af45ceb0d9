"""A correction refused because the other phone corrected the hand first (409, code
hand_corrected: law 5, ruling E9) and that was not a legal hand either: what the player
had entered is shown beside the form in the same controls as the form's, tick boxes
checked as they were ticked, none of them to be sent (club.phone.hand_forms). It was a
list of the fields in words that dropped every tick box (played alone, the lone player's
partner exposed a card), so the player could not see all he had entered."""

import re

import pytest
from django.test import Client

from club import recording
from scoring.models import Hand
from tests.worlds import club_in_play


@pytest.fixture
def played(db, django_capture_on_commit_callbacks):
    """Table 1 of a Euchre evening; hand 1 (N-S, three tricks) is recorded."""
    return club_in_play(django_capture_on_commit_callbacks)


def test_a_refused_illegal_correction_is_shown_in_the_form_s_own_controls(played):
    client = Client()
    table = played.table
    page = client.get(f"/t/{table.token}/").content.decode()
    seen = re.search(r'name="changed_at" value="([^"]+)"', page)[1]
    # The other phone corrects hand 1 first: N-S, five tricks.
    recording.hand_correct(
        evening_id=played.evening.pk, table_number=1, rubber_number=1, number=1,
        data={"makers": "NS", "tricks": 5},
    )  # fmt: skip
    # This phone's correction, of hand 1 as it read: E-W alone with six tricks (law 2:
    # five at most), the lone player's partner exposed a card (law 102).
    answer = client.post(
        f"/t/{table.token}/hand/",
        {"correct": "1", "rubber": str(played.rubber.pk), "changed_at": seen, "makers": "EW",
         "alone": "on", "tricks": "6", "law102": "on", "revokes_NS": "0", "revokes_EW": "0",
         "law90": ""},
    )  # fmt: skip
    assert answer.status_code == 409
    page = answer.content.decode()
    entered = page[page.index('data-testid="correction-entered"') :]
    entered = entered[: entered.index("<form")]
    # The same controls as the form's, holding what was entered, ticked boxes ticked;
    # shown only: its fieldset is disabled and it is in no form.
    assert "<fieldset disabled" in entered
    assert re.search(r'name="makers" value="EW"[^>]* checked', entered)
    assert re.search(r'type="checkbox" name="alone" checked', entered)
    assert re.search(r'type="checkbox" name="law102" checked', entered)
    assert not re.search(r'type="checkbox" name="law50" checked', entered)
    assert re.search(r'name="tricks"[^>]* value="6"', entered)
    # The form to send holds hand 1 as it now reads, nothing of this phone's entry.
    form = page[page.index('data-kind="correct"') :]
    form = form[: form.index("</form>")]
    assert 'value="NS" required checked' in form and 'value="5"' in form
    assert 'name="alone" checked' not in form
    assert [(h.data["makers"], h.data["tricks"]) for h in Hand.objects.all()] == [("NS", 5)]
