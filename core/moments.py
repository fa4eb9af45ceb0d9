"""A moment as the public reads it: in the site's time zone (settings.TIME_ZONE), with
the zone named as people name it, the same way on every page.

    moment_words(dt) -> "at 23:10 GMT on 21 November 1888"

A page that is kept rendered (tournaments/pagecache.py) may keep these words: the zone
is the site's, the same for every reader, and changes only with the settings.

A moment is also a version: a page shows a stored moment (when a table's link was issued,
when a tournament was ended) and its one-off form sends it back, so a second post of the
same form finds the moment moved on and is refused.

    moment_version(dt) -> "1888-11-21T23:10:00.123456+00:00"
"""

import datetime

from django.utils import timezone


def zone_name(local: datetime.datetime) -> str:
    """The zone of a local moment as people name it: "GMT", "BST", "CET", "EST"; "UTC+03"
    where the zone has no letters of its own (the tz database writes "+03")."""
    name = local.tzname() or "UTC"
    return f"UTC{name}" if name[0] in "+-" else name


def moment_version(moment: datetime.datetime | None) -> str:
    """A stored moment as a version a page shows and a form or an API call sends back: its
    ISO 8601 text in UTC, to the microsecond, whatever zone it was read in; "" for none."""
    return moment.astimezone(datetime.UTC).isoformat() if moment else ""


def moment_words(moment: datetime.datetime | str | None) -> str:
    """An aware moment (or its ISO 8601 text) in the site's time zone, in words:
    "at 23:10 GMT on 21 November 1888"; "" for none."""
    if not moment:
        return ""
    if isinstance(moment, str):
        moment = datetime.datetime.fromisoformat(moment)
    local = timezone.localtime(moment)
    return f"at {local:%H:%M} {zone_name(local)} on {local.day} {local:%B %Y}"
