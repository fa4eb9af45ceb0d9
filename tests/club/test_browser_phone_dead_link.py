"""A phone holding hands not yet sent when its table's link dies (the secretary gives the
table a fresh card, the evening closes), in Debian's chromium at a phone's width: the
hands waiting are never dropped unsaid, nor kept for ever on a link that can no longer
send them. The dead link's page lists each as not recorded, what was entered and why,
for the players to enter again on the new card's page (docs/architecture.md, "The
phone's queue"). Screenshots in artifacts/screenshots/phone-dead-*.png."""

import pytest

from club import evenings, services
from scoring.models import Hand
from tests.browser import PHONE, enter_hand, enter_hand_offline, open_phone, shot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

QUEUED = (
    "Object.keys(localStorage).filter(k => k.startsWith('cardclub-phone-queue:'))"
    ".reduce((n, k) => n + JSON.parse(localStorage[k]).length, 0)"
)


def queue_two_hands_offline(page):
    """Two hands queued offline. The page's own clock (installed before it loaded) is run
    past the double-tap guard's 1.5 s between them, not waited out."""
    enter_hand_offline(page, makers="EW", tricks=5, waiting="Not sent yet: 1 hand")
    page.clock.run_for(1_600)  # not the same tap twice
    enter_hand(page, makers="NS", tricks=4)
    page.get_by_test_id("phone-queue").filter(has_text="Not sent yet: 2 hands").wait_for()


def listed(page) -> list[str]:
    texts = page.get_by_test_id("refused-hand").all_inner_texts()
    return [" ".join(text.split()) for text in texts]


def test_hands_waiting_when_the_table_gets_a_fresh_card_are_listed_not_lost(
    browser_page, live_server, played
):
    browser_page.clock.install()
    page = open_phone(browser_page, f"{live_server.url}/t/{played.table.token}/")
    queue_two_hands_offline(page)

    # The secretary gives the table a fresh card; the phone's network comes back and its
    # queue (or its poll) finds the link dead.
    services.table_renew_link(table_id=played.table.pk)
    page.context.set_offline(False)
    page.get_by_test_id("dead-link").wait_for(timeout=8000)
    page.get_by_test_id("refused-hand").nth(1).wait_for()

    why = (
        "This table's link was replaced by a new one. "
        "Ask the club's secretary for the table's new card."
    )
    assert listed(page) == [
        f"Hand 2 (makers: E-W Cora & Dan; tricks taken by the makers: 5) was not recorded. "
        f"{why} Dismiss",
        f"Hand 3 (makers: N-S Ann & Bob; tricks taken by the makers: 4) was not recorded. "
        f"{why} Dismiss",
    ]
    assert page.get_by_test_id("phone-queue").is_hidden()
    assert page.evaluate(QUEUED) == 0  # nothing left to be sent on a dead link
    assert Hand.objects.filter(rubber=played.rubber).count() == 1
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(page, "phone-dead-1-fresh-card")

    # Reloaded, the list is still there until the table dismisses it.
    page.reload()
    assert len(listed(page)) == 2
    page.get_by_test_id("dismiss-all-refused").click()
    assert page.get_by_test_id("refused-hand").count() == 0


def test_a_hand_waiting_when_the_evening_closes_is_listed_on_reload(
    browser_page, live_server, played
):
    page = open_phone(browser_page, f"{live_server.url}/t/{played.table.token}/")
    enter_hand_offline(page, makers="EW", tricks=5, waiting="Not sent yet: 1 hand")

    # The evening is closed meanwhile; the player reloads the page once back online, before
    # the queue has tried again: the dead page itself lists what was waiting.
    page.route("**/hand/", lambda route: route.abort())  # the queue's retries do not get out
    abandoned = {"table": 1, "rubber": 1, "outcome": "abandoned", "reason": "Time"}
    evenings.evening_close(evening_id=played.evening.pk, rubbers=[abandoned])
    page.context.set_offline(False)
    page.reload()
    page.get_by_test_id("dead-link").wait_for()
    page.get_by_test_id("refused-hand").wait_for()
    assert (
        "Hand 2 (makers: E-W Cora & Dan; tricks taken by the makers: 5) was not recorded."
        in (listed(page)[0])
    )
    assert page.evaluate(QUEUED) == 0
    assert Hand.objects.filter(rubber=played.rubber).count() == 1
    shot(page, "phone-dead-2-evening-closed")
