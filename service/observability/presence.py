"""Which workers are alive now, from Redis's own list of connections.

Each worker process holds one connection named after its RQ worker for as long as it
lives. When the process dies, even by kill -9, its kernel closes the connection and Redis
forgets the name at once; so a job "started" by a worker whose name is gone will never
finish, and the sweeper queues it again without waiting out a patience meant for slow
jobs. A machine that vanishes without closing its connections (power loss) keeps its name
until Redis notices; the sweeper's patience covers that case. A Redis that refuses
CLIENT LIST (some hosted ones) tells nothing: the patience alone applies.
"""

from __future__ import annotations

import logging

from redis import Redis

log = logging.getLogger(__name__)

PREFIX = "entrepot-worker:"
_refused: list[bool] = []  # said once per process


def announce(redis_url: str, worker_name: str) -> Redis:
    """A connection of this process's own, named for the worker (named again on every
    reconnect); ping it now and then (``keep``) so that it reconnects after a Redis restart."""
    connection = Redis.from_url(redis_url, client_name=PREFIX + worker_name, single_connection_client=True)
    connection.ping()
    return connection


def keep(connection: Redis) -> None:
    connection.ping()


def workers_present(redis: Redis) -> set[str] | None:
    """The names of the workers alive now, or None if Redis will not say."""
    try:
        clients = redis.client_list()
    except Exception:
        if not _refused:
            log.warning("CLIENT LIST refused: dead workers are found by the sweeper's patience only")
            _refused.append(True)
        return None
    return {c["name"][len(PREFIX):] for c in clients if c.get("name", "").startswith(PREFIX)}
