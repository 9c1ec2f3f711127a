"""Telling listeners that a game moved on: Redis pub/sub, one channel per game.

A wake-up call only: a listener always reads the events themselves from PostgreSQL, so a
lost message costs at most one keep-alive interval of delay, never an event.
"""

from __future__ import annotations

import logging
import time
from typing import Protocol

from redis import Redis

log = logging.getLogger(__name__)


def channel(game_id: str) -> str:
    return f"entrepot:game:{game_id}"


class Notifier(Protocol):
    def appended(self, game_id: str, version: int) -> None: ...


class RedisNotifier:
    def __init__(self, redis: Redis):
        self.redis = redis

    def appended(self, game_id: str, version: int) -> None:
        try:
            self.redis.publish(channel(game_id), str(version))
        except Exception:  # Redis down: listeners fall back to their keep-alive polling
            log.warning("could not publish version %s of %s", version, game_id)

    def listen(self, game_id: str) -> Listener:
        return Listener(self.redis, game_id)


class Listener:
    """Waits for a game's wake-up calls. Close it when done (it holds a connection)."""

    def __init__(self, redis: Redis, game_id: str):
        self._pubsub = redis.pubsub(ignore_subscribe_messages=True)
        self._pubsub.subscribe(channel(game_id))

    def wait(self, seconds: float) -> bool:
        """True when woken by a move, False after ``seconds`` of silence."""
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            if self._pubsub.get_message(timeout=left) is not None:
                return True
        return False

    def close(self) -> None:
        self._pubsub.close()


class SilentNotifier:
    def appended(self, game_id: str, version: int) -> None:
        pass
