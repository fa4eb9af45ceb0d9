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
