"""Is this deployment able to serve? PostgreSQL answers, Redis answers, a worker of each
kind was seen.

Workers write a heartbeat (a Redis key with a time to live) every few seconds, one per
kind of work they take (main: clocks and mail; ai: computer moves; webhooks: deliveries);
a kind's key vanishing is how a dead or hung worker of that kind shows. (With one key for
all, a dead clock-and-mail worker went unseen while the computer-move worker beat.)"""

from __future__ import annotations

import time

from redis import Redis

from service.games.store import Store

#: The kinds of work a deployment needs a live worker for, and what each does.
KINDS = {"main": "clocks and mail", "ai": "computer moves", "webhooks": "webhook deliveries"}


def heartbeat_key(queue_name: str, kind: str = "main") -> str:
    return f"entrepot:worker-heartbeat:{queue_name}:{kind}"


def beat(redis: Redis, queue_name: str, ttl_seconds: float, kinds: tuple[str, ...] = tuple(KINDS)) -> None:
    """A worker taking ``kinds`` is alive: say so for ``ttl_seconds``."""
    with redis.pipeline(transaction=False) as pipe:
        for kind in kinds:
            pipe.set(heartbeat_key(queue_name, kind), f"{time.time():.3f}", px=max(1, int(ttl_seconds * 1000)))
        pipe.execute()


class HealthCheck:
    def __init__(self, store: Store, redis_url: str, queue_name: str, timeout_seconds: float):
        self.store = store
        self.queue_name = queue_name
        self.timeout_seconds = timeout_seconds
        # its own client with short timeouts: a hung Redis must not hang the health check
        self.redis = Redis.from_url(redis_url, socket_timeout=timeout_seconds,
                                    socket_connect_timeout=timeout_seconds)

    def run(self) -> dict[str, str]:
        """{"postgres", "redis", "worker"} -> "ok" or what is wrong."""
        checks = {"postgres": self._check(lambda: self.store.ping(self.timeout_seconds))}
        try:
            # one round trip: Redis answering the heartbeats' look-up is Redis answering
            with self.redis.pipeline(transaction=False) as pipe:
                for kind in KINDS:
                    pipe.exists(heartbeat_key(self.queue_name, kind))
                seen = dict(zip(KINDS, pipe.execute()))
            checks["redis"] = "ok"
            missing = [f"{kind} ({KINDS[kind]})" for kind, found in seen.items() if not found]
            checks["worker"] = "ok" if not missing else (
                "no worker has been seen recently" if len(missing) == len(KINDS)
                else "no worker has been seen recently for " + ", ".join(missing))
        except Exception as err:  # any failure to reach Redis is "down"
            checks["redis"] = _describe(err)
            checks["worker"] = "unknown: Redis is down"
        return checks

    @staticmethod
    def _check(probe) -> str:
        try:
            probe()
        except Exception as err:
            return _describe(err)
        return "ok"

    def close(self) -> None:
        self.redis.close()


def _describe(err: Exception) -> str:
    return f"down: {type(err).__name__}"
