"""Several of the cache's `add`s in one round trip to Redis (`add_many`), several
values set for good in one command (`set_many`: the players' pages' tokens), and
several each with its own lifetime in one round trip (`set_each`: a recalculation's
announcement).

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


def set_each(values: dict[str, tuple[object, int | None]]) -> None:
    """`cache.set(key, value, timeout)` for each key (its value and timeout; None: kept
    until replaced), in one round trip to Redis (a pipeline, no transaction): a
    recalculation's announcement sets its version and the crowd's lookup together.
    Redis down: logged, as the cache's `IGNORE_EXCEPTIONS` would."""
    backend = redis_cache()
    if backend is None:
        local = caches["default"]
        for key, (value, timeout) in values.items():
            local.set(key, value, timeout)
        return
    if not values:
        return
    from redis.exceptions import RedisError

    client = backend.client
    try:
        with client.get_client(write=True).pipeline(transaction=False) as pipe:
            for key, (value, timeout) in values.items():
                ex = None if timeout is None else int(timeout)
                pipe.set(client.make_key(key), client.encode(value), ex=ex)
            pipe.execute()
    except RedisError:
        logger.warning("cache unavailable: not set: %s", ", ".join(values), exc_info=True)
