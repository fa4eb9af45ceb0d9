"""core/redisops.py: the standings' queued flags set together in one round trip, on the
real Redis; Django's local memory cache where there is none."""

from django.core.cache import cache, caches
from django.test import override_settings

from core import redisops
from tests.conftest import LOCAL_CACHE as LOCAL
from tests.conftest import REDIS_DOWN as DOWN


def test_flags_are_added_together_each_only_once(redis):
    assert redisops.redis_cache() is not None
    assert redisops.add_many(["flag:a", "flag:b"], 1, timeout=60) == [True, True]
    assert redisops.add_many(["flag:b", "flag:c"], 1, timeout=60) == [False, True]
    # Stored as the cache stores them: `cache.get` reads them, `cache.delete` clears them.
    assert cache.get("flag:a") == 1
    assert 0 < cache.ttl("flag:a") <= 60
    cache.delete("flag:a")
    assert redisops.add_many(["flag:a"], 1, timeout=60) == [True]


def test_without_redis_the_flags_are_the_caches_own_adds():
    with override_settings(CACHES=LOCAL):
        assert redisops.add_many(["x", "y"], 1, timeout=60) == [True, True]
        assert redisops.add_many(["y"], 1, timeout=60) == [False]
        assert caches["default"].get("x") == 1


def test_with_redis_down_the_flags_say_nothing_is_known():
    with override_settings(CACHES=DOWN):
        assert redisops.add_many(["x", "y"], 1, timeout=60) == [None, None]


def test_values_are_set_together_kept_until_replaced(redis):
    """The players' pages' tokens (club/player_cache.py): one MSET, no expiry, read back
    by the cache as its own values."""
    cache.set("token:a", "old", 30)
    redisops.set_many({"token:a": "new", "token:b": "b"})
    assert cache.get_many(["token:a", "token:b"]) == {"token:a": "new", "token:b": "b"}
    assert cache.ttl("token:a") is None and cache.ttl("token:b") is None  # kept
    redisops.set_many({})  # nothing to set: no command


def test_set_without_redis_by_the_caches_own_set_many():
    with override_settings(CACHES=LOCAL):
        redisops.set_many({"x": "1"})
        assert caches["default"].get("x") == "1"


def test_set_with_redis_down_is_logged_not_raised(caplog):
    with override_settings(CACHES=DOWN):
        redisops.set_many({"x": "1"})
    assert "cache unavailable: not set: x" in caplog.text


def test_a_counter_and_its_values_are_set_together_only_if_it_grows(redis):
    """A recalculation's announcement (tournaments/pagecache.py): the version kept until
    replaced, the crowd's lookup for its seconds, one round trip for both; an older
    version announced late writes neither."""
    cache.set("version:a", 1, 30)
    assert redisops.set_if_newer("version:a", 3, {"lookup:a": ([7, 3], 30)}) is True
    assert cache.get_many(["version:a", "lookup:a"]) == {"version:a": 3, "lookup:a": [7, 3]}
    assert cache.ttl("version:a") is None and 0 < cache.ttl("lookup:a") <= 30
    assert redisops.set_if_newer("version:a", 2, {"lookup:a": ([7, 2], 30)}) is False
    assert redisops.set_if_newer("version:a", 3, {"lookup:a": ([7, 3], 99)}) is False
    assert cache.get_many(["version:a", "lookup:a"]) == {"version:a": 3, "lookup:a": [7, 3]}
    assert cache.ttl("lookup:a") <= 30  # the refused write set no lifetime either
    assert redisops.set_if_newer("version:b", 1, {}) is True  # nothing there: set
    assert cache.get("version:b") == 1
    assert redisops.set_if_newer("version:b", 2, {"lookup:b": ("kept", None)}) is True
    assert cache.get("lookup:b") == "kept" and cache.ttl("lookup:b") is None


def test_set_if_newer_without_redis_by_the_caches_own_reads_and_sets():
    with override_settings(CACHES=LOCAL):
        assert redisops.set_if_newer("counter:x", 2, {"value:y": ("2", 30)}) is True
        assert redisops.set_if_newer("counter:x", 1, {"value:y": ("1", 30)}) is False
        assert caches["default"].get_many(["counter:x", "value:y"]) == {
            "counter:x": 2,
            "value:y": "2",
        }


def test_set_if_newer_with_redis_down_is_logged_not_raised(caplog):
    with override_settings(CACHES=DOWN):
        assert redisops.set_if_newer("x", 1, {"y": ("1", None)}) is None
    assert "cache unavailable: not set: x, y" in caplog.text
