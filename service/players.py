"""Players and their tokens."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from service.entropy import new_id, new_token, token_hash
from service.errors import Unauthorized
from service.idempotency import IdempotencyKey, Replayed, once
from service.mail.accounts import MailAccounts
from service.store import Player, Store


@dataclass(frozen=True)
class NewPlayer:
    player: Player
    token: str  # shown once, never stored


#: How long a token's identity is trusted without asking the database again.
IDENTITY_TTL_SECONDS = 60.0


class PlayerService:
    def __init__(self, store: Store, accounts: MailAccounts | None = None):
        self.store = store
        #: address verification and mail choices (service/mail/accounts.py)
        self.accounts = accounts
        self._identities: dict[str, tuple[Player, float]] = {}

    def create(self, name: str, email: str | None, idem: IdempotencyKey | None = None):
        verification = None

        def work(tx):
            nonlocal verification
            token = new_token()
            player_id = new_id()
            tx.insert_player(player_id, name, email, token_hash(token))
            if email and self.accounts is not None:
                verification = self.accounts.start_verification(tx, player_id, email)
            return NewPlayer(tx.player(player_id), token)

        created = once(self.store, idem, work)
        if self.accounts is not None:
            self.accounts.send_verification(verification)
        return created

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

    def update_settings(self, player: Player, notify_by_email: bool | None, vacation_until: Any,
                        email: Any = ..., notify: dict | None = None) -> Player:
        """``email``: ... keeps it; a new one is unverified until its link is used.
        ``notify``: the keys given replace the stored ones."""
        verification = None
        with self.store.tx() as tx:
            tx.update_player_settings(player.id, notify_by_email, vacation_until)
            if self.accounts is not None:
                current = tx.player(player.id)
                verification = self.accounts.change(tx, player.id, current.email, email, notify)
            updated = tx.player(player.id)
        if self.accounts is not None:
            self.accounts.send_verification(verification)
        return updated

    def verify_email(self, token: str, player: Player | None) -> Player:
        with self.store.tx() as tx:
            player_id = self._accounts().verify(tx, token, player.id if player else None)
            return tx.player(player_id)

    def unsubscribe(self, token: str):
        with self.store.tx() as tx:
            return self._accounts().unsubscribe(tx, token)

    def _accounts(self) -> MailAccounts:
        assert self.accounts is not None, "built by service.container with mail accounts"
        return self.accounts


__all__ = ["NewPlayer", "PlayerService", "Replayed"]
