"""The crowd's standings pages: where a public page is found, and its rendered copies.

A visitor who is not logged in asks for `/clubs/<club>/tournaments/<slug>/?page=N`.
Three layers answer without the database (BENCHMARKS.md, "Public standings page"):

1. `public_standings(club, slug)`: the tournament's id and latest standings version.
   Each process keeps the answer for `MEMO_SECONDS` (a quarter of a second: the crowd
   sees a new version that much later at most); behind it, Redis keeps it under
   `PUBLIC_KEY` (written by every recalculation as it publishes, `announce`; dropped
   when a club or a tournament changes, `forget`; read again from the database at
   least every `PUBLIC_SECONDS`). Only public tournaments of public clubs are found.
2. The rendered page of (id, version, page), kept in the process's memory
   (`rendered_copies`, the last 64; a version's rows are read once per process,
   `ranked_rows`, and every page of it cut from them) ...
3. ... and in Redis under `PAGE_KEY` for the other processes, for `PAGE_SECONDS`.

A version never changes, so a copy is never wrong, only old; a new version makes new
keys and the old copies age out.
"""

import hashlib
import threading
import time
from collections import OrderedDict

from django.core.cache import cache
from django.db import transaction
from django.utils.http import quote_etag

from core import redisops
from core.compiled import Compiled

VERSION_KEY = "standings:version:{}"  # tournament id -> latest version (pages, API)
PUBLIC_KEY = "standings:public:{}:{}"  # club slug, tournament slug -> [id, version]
PAGE_KEY = "standings:{}:{}:{}:{}"  # tournament id, version, page, "page"/"fragment"
PUBLIC_SECONDS = 30
PAGE_SECONDS = 300  # a renamed player shows within this, if no hand comes first
MEMO_SECONDS = 0.25


class _Memo:
    """A small, thread-safe, least-recently-used map for one process, with an optional
    lifetime per entry (gunicorn's threads share it)."""

    def __init__(self, size: int, seconds: float | None = None):
        self.size, self.seconds = size, seconds
        self.items: OrderedDict = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key):
        with self.lock:
            found = self.items.get(key)
            if found is None:
                return None
            value, born = found
            if self.seconds is not None and time.monotonic() - born > self.seconds:
                del self.items[key]
                return None
            self.items.move_to_end(key)
            return value

    def put(self, key, value) -> None:
        with self.lock:
            self.items[key] = (value, time.monotonic())
            self.items.move_to_end(key)
            while len(self.items) > self.size:
                self.items.popitem(last=False)

    def get_or_make(self, key, make):
        """The value kept under `key`, or `make()`'s, kept from now on."""
        value = self.get(key)
        if value is None:
            value = make()
            self.put(key, value)
        return value

    def discard(self, key) -> None:
        with self.lock:
            self.items.pop(key, None)

    def clear(self) -> None:
        with self.lock:
            self.items.clear()


rendered_copies = _Memo(size=64)
# Every ranked row of a (tournament, version): a version's pages are cut from one read.
ranked_rows = _Memo(size=8)
public_memo = _Memo(size=256, seconds=MEMO_SECONDS)


def standings_etag(tournament_id: int, number: int, page: int, kind: str, player: str = "") -> str:
    """The ETag of one representation of a standings version: its page, its kind ("page",
    "fragment", "api", the API's browsable "api-page") and the player asked for, so that
    no cache answers one with another (a fragment for the page, one player's line for the
    whole standings)."""
    tag = f"standings-{tournament_id}-{number}-{page}-{kind}"
    if player:
        tag += "-" + hashlib.sha256(player.encode()).hexdigest()[:16]
    return quote_etag(tag)


def _public_row(club_slug: str, slug: str) -> list[int]:
    """[id, latest standings version] of a public tournament of a public club, as
    committed now; [0, 0] for none."""
    from tournaments.models import Tournament

    row = (
        Tournament.objects.filter(
            club__slug=club_slug, club__is_public=True, slug=slug, is_public=True
        )
        .values_list("pk", "standings_version")
        .first()
    )
    return list(row) if row else [0, 0]


def public_standings(club_slug: str, slug: str) -> tuple[int, int] | None:
    """(id, latest standings version) of a public tournament of a public club.

    A public row read from the database is kept in Redis, then read again: a director
    who made the tournament private (or a secretary the club) between the first read
    and the write had its lookup dropped (`forget`) before the write, which would have
    kept the private standings served to the crowd for PUBLIC_SECONDS; a change
    committed after the second read drops the lookup written itself."""
    key = PUBLIC_KEY.format(club_slug, slug)

    def from_redis_or_database() -> list[int]:
        found = cache.get(key)
        if found is None:
            found = _public_row(club_slug, slug)
            # add, not set: a recalculation that published meanwhile wrote a newer one.
            added = cache.add(key, found, PUBLIC_SECONDS)
            if added and found[0] and not _public_row(club_slug, slug)[0]:
                cache.delete(key)
                found = [0, 0]
        return found

    found = public_memo.get_or_make((club_slug, slug), from_redis_or_database)
    return (found[0], found[1]) if found[0] else None


def rendered_page(copy: tuple, render) -> str:
    """The crowd's page `copy` = (id, version, page, kind): from this process's memory,
    else from Redis, else `render()`ed and kept in both. `render()` answers the page and
    the number of the page it shows, which for a page past the end is the last: such a
    page is served, not kept, since a copy of its own for each number asked (up to
    MAX_PAGE, of the page and of its table, for every version) let any visitor have
    thousands of copies of one page written to Redis for every hand recorded."""
    key = PAGE_KEY.format(*copy)
    known = rendered_copies.get(copy)
    if known is not None:
        return known
    html = cache.get(key)
    if html is None:
        html, shown = render()
        if shown != copy[2]:
            return html
        cache.set(key, html, PAGE_SECONDS)
    rendered_copies.put(copy, html)
    return html


def _public_slugs_query(pk: int):
    from tournaments.models import Tournament

    return Tournament.objects.filter(pk=pk, is_public=True, club__is_public=True).values_list(
        "club__slug", "slug"
    )[:1]


# Compiled once a worker: every recalculation reads it (core/compiled.py, issue 17).
_PUBLIC_SLUGS = Compiled(_public_slugs_query, int)


def _public_slugs(tournament_id: int) -> tuple[str, str] | None:
    """The club's and the tournament's slugs as committed now, if both are public."""
    found = _PUBLIC_SLUGS.rows(tournament_id)
    return tuple(found[0]) if found else None


def announce(tournament, number: int) -> None:
    """After a recalculation commits: its version, for the pages' and the API's ETags,
    and, for a public tournament of a public club, under its slugs for the crowd.

    Whether it is public is read again here, not taken from the `tournament` the
    recalculation read when it began: a director who made the tournament (or a secretary
    the club) private meanwhile had its lookup dropped (`forget`), and the recalculation's
    old copy would have put it back, the private standings served to the crowd for
    PUBLIC_SECONDS. So the lookup is written and then read again: a change committed
    before that read is seen by it (the lookup dropped again here), one committed after
    it drops the lookup itself.

    Two workers' recalculations of one tournament commit in turn (its advisory lock), but
    each announces after its commit, so the later may announce first: an older version
    never replaces a newer one (`redisops.set_if_newer`), or the crowd would be shown the
    standings before the last hand until the next one came, at the end of an evening
    never."""
    known = (tournament.club.slug, tournament.slug)
    public_then = tournament.is_public and tournament.club.is_public
    # The version, and the lookup under the slugs read if it was public then: one round
    # trip, nothing written if a newer version was announced already.
    lookup = {}
    if public_then:
        lookup[PUBLIC_KEY.format(*known)] = ([tournament.pk, number], PUBLIC_SECONDS)
    if redisops.set_if_newer(VERSION_KEY.format(tournament.pk), number, lookup) is False:
        return  # the newer announcement has written (or drops) the lookup itself
    public = _write_lookup(tournament, number, known, written=public_then)
    if public is not None and public != known:
        public_memo.discard(public)
    public_memo.discard(known)  # this process sees it at once; the others within MEMO_SECONDS


def _write_lookup(
    tournament, number: int, known: tuple[str, str], *, written: bool
) -> tuple[str, str] | None:
    """`announce`'s lookup for the crowd, written and read again; the slugs it is public
    under now (None: private). A tournament public as the recalculation read it has been
    written under the slugs it read (`written`) and is read once (every recalculation's
    case); otherwise (private then, or its slugs changed since) the slugs are read first,
    the lookup written under them, and read again."""
    public = _public_slugs(tournament.pk)
    if written and public == known:
        return public
    if public is None:  # private now: the lookup under the slugs read goes
        cache.delete(PUBLIC_KEY.format(*known))
        return None
    cache.set(PUBLIC_KEY.format(*public), [tournament.pk, number], PUBLIC_SECONDS)
    if _public_slugs(tournament.pk) != public:
        cache.delete(PUBLIC_KEY.format(*public))
    if public != known:
        cache.delete(PUBLIC_KEY.format(*known))
    return public


def forget(club_slug: str, slugs: list[str]) -> None:
    """A club or tournament changed (made private, renamed, deleted): drop the cached
    lookups of these tournaments, now and again after commit, so that a reader in
    between cannot keep the old state."""
    keys = [PUBLIC_KEY.format(club_slug, slug) for slug in slugs]

    def drop():
        cache.delete_many(keys)
        for slug in slugs:
            public_memo.discard((club_slug, slug))

    if keys:
        drop()
        transaction.on_commit(drop)
