"""A player's page, its costly parts kept rendered (docs/security.md, "Floods").

The page (club.views.player_detail) reads the player's whole record: his figures, his
last hundred rubbers and a season's scorecard, every rubber of the season on it. Those
parts are rendered once and kept in Redis, keyed on what they show:

- the member and, for the scorecard, the season shown (the one found, not the one asked:
  any number asked shows the latest season and shares its copy);
- whether the reader may read private play (club.selectors.rubbers_hidden_from: the
  club's officers read a private progressive's rubbers, the public never; the two are
  kept apart, so the public is never served the officers' copy);
- two tokens, each a random word in Redis that a change replaces: the member's (a hand
  recorded, corrected or removed at one of his rubbers, a rubber ended, abandoned or
  closed: scoring's `rubber_changed`, which names its players) and the club's (a rubber
  begun or its players changed, a member added or renamed, an evening, a table, a
  tournament, a round or a round's table changed: a tournament made private or public
  changes what the public may read). A token is random, not a count: a token lost from
  Redis is made anew, never one an old copy was kept under.

A token is read before the rows, so a copy holds rows at least as new as its token; a
change replaces the token once it commits (one MSET, core.redisops.set_many), so a
reader who read the old token kept the rows of before the commit under a token no one
reads again, and a change rolled back replaces nothing. (Replacing it before the commit
too cost a recorded hand a second write, each in django-redis's MULTI: about 0.14 ms of
CPU and a round trip more a hand, for nothing a reader could see.) The places in the club's
tournaments (a recalculation moves them after every hand anywhere) are read afresh each
time. A copy lives `COPY_SECONDS` at most: a change some door makes without a signal (a
bulk update) shows within that. Only the sets of a member and a season he played are
kept (a season asked for that he did not play shows, and shares, the latest's copy).
"""

import pickle
import secrets
import zlib

from django.core.cache import cache
from django.db import transaction

from core import redisops

MEMBER_TOKEN = "player-page:member:{}"
CLUB_TOKEN = "player-page:club:{}"
COPY_KEY = "player-page:{}:{}:{}:{}:{}:{}"  # member, private?, part, season, both tokens
COPY_SECONDS = 300


def _tokens(member) -> tuple[str, str]:
    """The member's and his club's tokens, made where Redis has none."""
    keys = [MEMBER_TOKEN.format(member.pk), CLUB_TOKEN.format(member.club_id)]
    found = cache.get_many(keys)
    for key in keys:
        if key not in found:
            cache.add(key, secrets.token_hex(8), None)  # add: another reader may have made one
            found[key] = cache.get(key)
    return found[keys[0]], found[keys[1]]


def page_part(*, member, private: bool, part: str, season, make):
    """The part `part` of the member's page (of `season`, for a season's part), as the
    reader may see it (`private`: he reads private play), from Redis, else `make()`'s,
    kept for the next reader."""
    tokens = _tokens(member)  # before the rows `make` reads
    key = COPY_KEY.format(member.pk, int(private), part, season or "", *tokens)
    kept = cache.get(key)
    if kept is not None:
        return pickle.loads(zlib.decompress(kept))
    found = make()
    # Compressed: a season's scorecard and a hundred rubbers are some fifty kilobytes of
    # HTML, five once compressed; a crawler's copies of every member's every season,
    # each kept COPY_SECONDS, would otherwise fill Redis tenfold.
    cache.set(key, zlib.compress(pickle.dumps(found), 1), COPY_SECONDS)
    return found


def _replace(keys: list[str]) -> None:
    transaction.on_commit(lambda: redisops.set_many({key: secrets.token_hex(8) for key in keys}))


def members_changed(member_ids) -> None:
    """Their rubbers' figures changed: their pages are rendered again."""
    _replace([MEMBER_TOKEN.format(pk) for pk in member_ids])


def club_changed(club_id: int) -> None:
    """Something every player's page of the club may show changed (a name, an evening, a
    tournament's visibility): every page of the club is rendered again."""
    if club_id:
        _replace([CLUB_TOKEN.format(club_id)])


def on_rubber_changed(sender, *, rubber, member_ids, **kwargs) -> None:
    """scoring's `rubber_changed` (a hand recorded, corrected or removed, a rubber ended,
    abandoned or closed) and `rubber_started` (a rubber begun)."""
    members_changed(member_ids)


def on_row_saved(sender, instance, **kwargs) -> None:
    """A row the players' pages show was saved or deleted (connected for the club's and
    scoring's models in ClubConfig.ready(), the tournaments' in tournaments/signals.py)."""
    club_changed(club_of(instance))


def club_of(instance) -> int | None:
    """The club id of a club, member, evening, table or rubber (a table's, through its
    evening, should it have none of its own)."""
    from club.models import Club, Evening

    if isinstance(instance, Club):
        return instance.pk
    if getattr(instance, "club_id", None):
        return instance.club_id
    evening_id = getattr(instance, "evening_id", None)
    return Evening.objects.filter(pk=evening_id).values_list("club_id", flat=True).first()
