"""Is this deployment able to serve? PostgreSQL answers, Redis answers, a worker was seen.

Workers write a heartbeat (a Redis key with a time to live) every few seconds; the key
vanishing is how a dead or hung worker fleet shows."""

from __future__ import annotations

import time

from redis import Redis

from service.store import Store


def heartbeat_key(queue_name: str) -> str:
    return f"entrepot:worker-heartbeat:{queue_name}"


def beat(redis: Redis, queue_name: str, ttl_seconds: float) -> None:
    """A worker is alive: say so for ``ttl_seconds``."""
    redis.set(heartbeat_key(queue_name), f"{time.time():.3f}", px=max(1, int(ttl_seconds * 1000)))


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
            self.redis.ping()
            checks["redis"] = "ok"
            seen = self.redis.exists(heartbeat_key(self.queue_name))
            checks["worker"] = "ok" if seen else "no worker has been seen recently"
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
