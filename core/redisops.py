"""Several of the cache's `add`s in one round trip to Redis (`add_many`), several
values set for good in one command (`set_many`: the players' pages' tokens), and
a counter with the values that go with it, in one round trip and only if the counter
grows (`set_if_newer`: a recalculation's announcement).

A recorded hand sets the standings' queued flag of each tournament it counts in; each
`cache.add` was a round trip of its own, and each costs the request more CPU than Redis
takes to answer it (redis-py's command, pool and retry machinery). (The throttles' count,
the hand's other call to Redis, is one round trip too: config/throttles.py.)

Where the cache is not Redis (the laptop default: Django's local memory cache), the
cache's own `add`s. A Redis that does not answer is treated as the cache's
`IGNORE_EXCEPTIONS` treats it: None, nothing known.
"""

from __future__ import annotations

import logging

from django.core.cache import caches
from django_redis.cache import RedisCache

logger = logging.getLogger(__name__)


def redis_cache():
    """The default cache when it is django-redis's, else None."""
    backend = caches["default"]
    return backend if isinstance(backend, RedisCache) else None


def add_many(keys: list[str], value, timeout: int) -> list[bool | None]:
    """`cache.add(key, value, timeout)` for each key, in one round trip to Redis: True
    where the key was added, False where it was there already, None where the cache
    could not be asked (Redis down)."""
    backend = redis_cache()
    if backend is None:
        local = caches["default"]
        return [local.add(key, value, timeout) for key in keys]
    if not keys:
        return []
    from redis.exceptions import RedisError

    client = backend.client
    try:
        with client.get_client(write=True).pipeline(transaction=False) as pipe:
            for key in keys:
                pipe.set(client.make_key(key), client.encode(value), nx=True, ex=int(timeout))
            return [bool(done) for done in pipe.execute()]
    except RedisError:
        logger.warning("cache unavailable: %d flags not set", len(keys), exc_info=True)
        return [None] * len(keys)


def set_many(values: dict[str, object]) -> None:
    """`cache.set_many(values, None)` (kept until replaced) in one command (MSET): no
    transaction around it, which django-redis's `set_many` opens. Redis down: logged, as
    the cache's `IGNORE_EXCEPTIONS` would."""
    backend = redis_cache()
    if backend is None:
        caches["default"].set_many(values, None)
        return
    if not values:
        return
    from redis.exceptions import RedisError

    client = backend.client
    try:
        client.get_client(write=True).mset(
            {client.make_key(key): client.encode(value) for key, value in values.items()}
        )
    except RedisError:
        logger.warning("cache unavailable: not set: %s", ", ".join(values), exc_info=True)


# KEYS[1] a counter (a tournament's latest standings version), KEYS[2..] keys written with
# it; ARGV[1] the counter's new value, then each other key's value and lifetime in seconds
# (0: kept until replaced). Nothing is written unless the counter grows. Returns 1 if
# written, 0 if the counter held as much already.
_NEWER_SCRIPT = """
local current = tonumber(redis.call('GET', KEYS[1]))
if current and current >= tonumber(ARGV[1]) then return 0 end
redis.call('SET', KEYS[1], ARGV[1])
for i = 2, #KEYS do
    local seconds = tonumber(ARGV[2 * i - 1])
    if seconds > 0 then
        redis.call('SET', KEYS[i], ARGV[2 * i - 2], 'EX', seconds)
    else
        redis.call('SET', KEYS[i], ARGV[2 * i - 2])
    end
end
return 1
"""
_scripts: dict[int, tuple] = {}  # id(redis client) -> (the client, its registered script)


def set_if_newer(
    counter: str, number: int, values: dict[str, tuple[object, int | None]]
) -> bool | None:
    """Set `counter` to `number`, and each of `values` (its value and timeout; None: kept
    until replaced), in one round trip, only if `counter` holds less than `number` (or
    nothing): a recalculation's announcement of its standings version, which a later
    recalculation's, announced first by another worker, must not take back. True if set,
    False if the counter held as much already, None if Redis did not answer (logged, as
    the cache's `IGNORE_EXCEPTIONS` would)."""
    backend = redis_cache()
    if backend is None:  # one process (the laptop default): read, compare, set
        local = caches["default"]
        current = local.get(counter)
        if current is not None and current >= number:
            return False
        local.set(counter, number, None)
        for key, (value, timeout) in values.items():
            local.set(key, value, timeout)
        return True
    from redis.exceptions import RedisError

    client = backend.client
    try:
        redis = client.get_client(write=True)
        known = _scripts.get(id(redis))
        if known is None or known[0] is not redis:
            known = _scripts[id(redis)] = (redis, redis.register_script(_NEWER_SCRIPT))
        arguments: list = [number]
        for value, timeout in values.values():
            arguments += [client.encode(value), int(timeout or 0)]
        keys = [client.make_key(key) for key in [counter, *values]]
        return bool(known[1](keys=keys, args=arguments))
    except RedisError:
        names = ", ".join([counter, *values])
        logger.warning("cache unavailable: not set: %s", names, exc_info=True)
        return None
