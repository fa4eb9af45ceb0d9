"""Phones at one table recording hands at once on the live server while the test reads the
sheet, on whichever database the suite runs on (a laptop's SQLite too): every answer is a
hand recorded or a conflict (another phone took that hand's number), never a server
error, and each hand is stored once.

On SQLite each of the live server's threads has a connection of its own to the test
database, a file, as each of the quickstart server's threads has to db.sqlite3
(config/settings.py): a writer waits for the other (`transaction_mode` IMMEDIATE, the busy
`timeout`), a reader never waits (WAL). Django's default test database in memory, in a
shared cache, failed a conflicting access at once ("database table is locked"), in the
test's reads and in the phones' answers (a 500)."""

import http.cookiejar
import re
import threading
import urllib.error
import urllib.parse
import urllib.request

import pytest
from django.contrib.auth.models import Permission

from scoring.models import Hand

pytestmark = pytest.mark.django_db(transaction=True)

PHONES = 3
HANDS_EACH = 3
FORM_FIELD = re.compile(r'name="(csrfmiddlewaretoken|expected_number|rubber)" value="([^"]+)"')


class Phone:
    """A phone at the table: a browser's cookies, the table's page read before each hand
    for the number it offers, the hand sent as the page's form sends it."""

    def __init__(self, page: str):
        self.page = page
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
        )

    def record_next(self) -> int:
        """Read the page, record the hand it offers (N-S, three tricks: one point, law 2);
        return the answer's status."""
        with self.opener.open(self.page, timeout=60) as answer:
            form = dict(FORM_FIELD.findall(answer.read().decode()))
        form.update(makers="NS", tricks="3")
        sent = urllib.request.Request(
            f"{self.page}hand/",
            data=urllib.parse.urlencode(form).encode(),
            headers={"HX-Request": "true", "Referer": self.page},
        )
        try:
            with self.opener.open(sent, timeout=60) as answer:
                return answer.status
        except urllib.error.HTTPError as refused:
            return refused.code


def test_phones_recording_at_once_while_the_sheet_is_read_store_each_hand_once(live_server, played):
    phones = [Phone(f"{live_server.url}/t/{played.table.token}/") for _ in range(PHONES)]
    together = threading.Barrier(PHONES)
    statuses, failures = [], []

    def record(phone):
        try:
            together.wait(timeout=60)
            for _ in range(HANDS_EACH):
                statuses.append(phone.record_next())
        except Exception as exc:  # asserted below, with the test's own reads
            failures.append(exc)

    threads = [threading.Thread(target=record, args=(phone,)) for phone in phones]
    for thread in threads:
        thread.start()
    reads = 0
    try:
        while any(thread.is_alive() for thread in threads):
            # The sheet, read while the phones write it: never refused for their writes.
            list(Hand.objects.filter(rubber=played.rubber).values_list("number", "data"))
            reads += 1
    finally:
        for thread in threads:
            thread.join()
    assert not failures, failures
    assert reads > 0
    # Recorded (200), or refused as a number another phone took (409): never a 500.
    assert sorted(set(statuses)) in ([200], [200, 409]), statuses
    numbers = sorted(Hand.objects.filter(rubber=played.rubber).values_list("number", flat=True))
    assert numbers == list(range(1, 2 + statuses.count(200)))  # hand 1 was recorded before


def test_a_hand_is_recorded_while_a_long_read_is_under_way(live_server, played):
    """A read under way, row by row as a long export reads, does not hold a phone's hand
    up: SQLite's WAL lets a writer commit while others read. In its default journal the
    commit waited for the read's end (the busy timeout's 20 s, then a 500). The read may be
    of any table: that journal's lock is the whole database's."""
    phone = Phone(f"{live_server.url}/t/{played.table.token}/")
    reading = Permission.objects.values_list("codename", flat=True).iterator(chunk_size=1)
    try:
        next(reading)  # begun, and holding its place
        assert phone.record_next() == 200
    finally:
        reading.close()
    recorded = Hand.objects.filter(rubber=played.rubber).values_list("number", flat=True)
    assert sorted(recorded) == [1, 2]
