"""Telling listeners that a game moved on: Redis pub/sub, one channel per game.

A wake-up call only: a listener (service/notifications/streams.py) always reads the events themselves
from PostgreSQL, so a lost message costs delay, never an event.
"""

from __future__ import annotations

import logging
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
    """Publishes in the caller's thread, only sent (service/redis_wire.py's ``send``): no
    answer is waited for, so a wake-up call costs the request about 15 us of CPU, less than
    handing it to a thread of its own did (bench/README.md, section 18). Lost, it only
    delays a listener until its resync (service/notifications/streams.py)."""

    def __init__(self, redis: Redis, wire: Wire | None = None):
        self.wire = wire or Wire(redis)

    def appended(self, game_id: str, version: int) -> None:
        self._publish(channel(game_id), version)

    def lobby_changed(self) -> None:
        self._publish(LOBBY_CHANNEL, 0)

    def chatted(self, game_id: str) -> None:
        """A message was posted: the game's streams wake and tell their readers whose
        readable messages grew (api/live.py)."""
        self._publish(channel(game_id), 0)

    def _publish(self, name: str, version: int) -> None:
        try:
            self.wire.send("PUBLISH", name, str(version))
        except Exception:  # Redis down: the streams' resync finds the move (service/notifications/streams.py)
            log.warning("could not publish version %s on %s", version, name)


class SilentNotifier:
    def appended(self, game_id: str, version: int) -> None:
        pass

    def command_notices(self, title, game, before, after, sender) -> None:
        """No notifications to write with an append."""
        return None

    def lobby_changed(self) -> None:
        pass

    def chatted(self, game_id: str) -> None:
        pass
