"""Folded game states, cached per process: a command loads only the events it has not seen.

States are immutable, so a cached one is shared safely between threads.  The cache is an
optimisation only: whatever it holds, the tail read from PostgreSQL brings it up to date.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from domain.common.envelope import decode_event
from domain.decider import GameDefinition
from service.audit import chain
from service.games.store import StoredEvent, Tx


@dataclass(frozen=True)
class Folded:
    state: Any
    version: int
    last_hash: str


def decode(game: GameDefinition, stored: StoredEvent) -> Any:
    return decode_event(game, stored.type, stored.schema_version, stored.data)


def fold_stored(game: GameDefinition, events: list[StoredEvent], start: Folded) -> Folded:
    state, version, last_hash = start.state, start.version, start.last_hash
    for stored in events:
        state = game.evolve(state, decode(game, stored))
        version, last_hash = stored.seq, stored.hash
    return Folded(state, version, last_hash)


class Lru:
    """A small thread-safe least-recently-used map."""

    def __init__(self, capacity: int):
        self._items: OrderedDict[str, Any] = OrderedDict()
        self._lock = threading.Lock()
        self.capacity = capacity

    def get(self, key: str) -> Any:
        with self._lock:
            found = self._items.get(key)
            if found is not None:
                self._items.move_to_end(key)
            return found

    def put(self, key: str, value: Any) -> None:
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self.capacity:
                self._items.popitem(last=False)


class StateCache:
    def __init__(self, capacity: int = 2000):
        self._items = Lru(capacity)

    def get(self, game_id: str) -> Folded | None:
        return self._items.get(game_id)

    def put(self, game_id: str, folded: Folded) -> None:
        current = self._items.get(game_id)
        if current is None or current.version <= folded.version:
            self._items.put(game_id, folded)

    def load(self, tx: Tx, title: GameDefinition, game_id: str, version: int, remember: bool = True) -> Folded:
        """The state at ``version`` (the game's current version), from cache plus tail.

        Inside a transaction that writes, pass ``remember=False``: what it reads may never
        be committed.
        """
        cached = self.get(game_id)
        if cached is None or cached.version > version:
            cached = Folded(None, 0, chain.genesis(game_id))
        if cached.version < version:
            cached = fold_stored(title, tx.events(game_id, after=cached.version, upto=version), cached)
            if remember:
                self.put(game_id, cached)
        return cached
