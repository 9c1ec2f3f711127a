"""Telling listeners that a game moved on: Redis pub/sub, one channel per game.

A wake-up call only: a listener (service/notifications/streams.py) always reads the events themselves
from PostgreSQL, so a lost message costs delay, never an event.
"""

from __future__ import annotations

import logging
import queue
import threading
from typing import Protocol

from redis import Redis

from service.redis_wire import Wire

log = logging.getLogger(__name__)


def channel(game_id: str) -> str:
    return f"entrepot:game:{game_id}"


def player_channel(player_id: str) -> str:
    """The channel that wakes a player's stream of notifications (service/notifications/service.py
    publishes after each fan-out that told them something)."""
    return f"entrepot:player:{player_id}"


#: The lobby's channel: a seek appeared, filled or went (service/lobby/service.py).
LOBBY_CHANNEL = "entrepot:lobby"


class Notifier(Protocol):
    def appended(self, game_id: str, version: int) -> None: ...


class RedisNotifier:
    """Publishes from a background thread: a wake-up call is not worth a round trip on the
    request's path, and losing one only delays a listener until its keep-alive."""

    def __init__(self, redis: Redis, wire: Wire | None = None):
        self.redis = redis
        self.wire = wire or Wire(redis)
        self._outbox: queue.SimpleQueue[tuple[str | None, int]] = queue.SimpleQueue()
        self._publisher: threading.Thread | None = None
        self._lock = threading.Lock()

    def appended(self, game_id: str, version: int) -> None:
        self._ensure_publisher()
        self._outbox.put((game_id, version))

    def lobby_changed(self) -> None:
        self._ensure_publisher()
        self._outbox.put((None, 0))

    def chatted(self, game_id: str) -> None:
        """A message was posted: the game's streams wake and tell their readers whose
        readable messages grew (api/live.py)."""
        self._ensure_publisher()
        self._outbox.put((game_id, 0))

    def _ensure_publisher(self) -> None:
        # started on first use, so that it runs in the process that uses it (after a fork)
        if self._publisher is not None and self._publisher.is_alive():
            return
        with self._lock:
            if self._publisher is None or not self._publisher.is_alive():
                self._publisher = threading.Thread(target=self._publish_forever, daemon=True,
                                                   name="entrepot-notify")
                self._publisher.start()

    def _publish_forever(self) -> None:
        while True:
            game_id, version = self._outbox.get()
            try:
                self.wire.call("PUBLISH", channel(game_id) if game_id is not None else LOBBY_CHANNEL, str(version))
            except Exception:  # Redis down: the streams' resync finds the move (service/notifications/streams.py)
                log.warning("could not publish version %s of %s", version, game_id)


class SilentNotifier:
    def appended(self, game_id: str, version: int) -> None:
        pass

    def lobby_changed(self) -> None:
        pass

    def chatted(self, game_id: str) -> None:
        pass
