"""Players and their tokens."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from service.entropy import new_id, new_token, token_hash
from service.errors import Unauthorized
from service.idempotency import IdempotencyKey, Replayed, once
from service.store import Player, Store


@dataclass(frozen=True)
class NewPlayer:
    player: Player
    token: str  # shown once, never stored


#: How long a token's identity is trusted without asking the database again.
IDENTITY_TTL_SECONDS = 60.0


class PlayerService:
    def __init__(self, store: Store):
        self.store = store
        self._identities: dict[str, tuple[Player, float]] = {}

    def create(self, name: str, email: str | None, idem: IdempotencyKey | None = None):
        def work(tx):
            token = new_token()
            player_id = new_id()
            tx.insert_player(player_id, name, email, token_hash(token))
            return NewPlayer(tx.player(player_id), token)

        return once(self.store, idem, work)

    def authenticate(self, token: str) -> Player:
        """The token's player. Identities are cached briefly: a token never changes owner."""
        digest = token_hash(token)
        cached = self._identities.get(digest)
        if cached is not None and cached[1] > time.monotonic():
            return cached[0]
        with self.store.read() as tx:
            player = tx.player_by_token_hash(digest)
        if player is None:
            raise Unauthorized("the bearer token is not valid")
        if len(self._identities) > 10_000:
            self._identities.clear()
        self._identities[digest] = (player, time.monotonic() + IDENTITY_TTL_SECONDS)
        return player

    def get(self, player_id: str) -> Player:
        with self.store.read() as tx:
            return tx.player(player_id)

    def update_settings(self, player: Player, notify_by_email: bool | None, vacation_until: Any) -> Player:
        with self.store.tx() as tx:
            tx.update_player_settings(player.id, notify_by_email, vacation_until)
            return tx.player(player.id)


__all__ = ["NewPlayer", "PlayerService", "Replayed"]
