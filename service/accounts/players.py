"""Players and their tokens."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from service.accounts import AccountService, Credential
from service.accounts import records as account_records
from service.entropy import new_id, new_token, token_hash
from service.games.idempotency import IdempotencyKey, Replayed, once
from service.games.store import Player, Store
from service.mail.addresses import MailAccounts


@dataclass(frozen=True)
class NewPlayer:
    player: Player
    token: str  # shown once, never stored


class PlayerService:
    def __init__(self, store: Store, accounts: MailAccounts | None = None,
                 credentials: AccountService | None = None):
        self.store = store
        #: address verification and mail choices (service/mail/addresses.py)
        self.accounts = accounts
        #: passwords, sessions, tokens with scopes (service/accounts/)
        self.credentials = credentials

    def create(self, name: str, email: str | None, idem: IdempotencyKey | None = None,
               password: str | None = None):
        verification = None
        # argon2 outside the transaction: it takes a while, on purpose
        hashed = self._credentials().hash_password(password) if password is not None else None

        def work(tx):
            nonlocal verification
            token = new_token()
            player_id = new_id()
            tx.insert_player(player_id, name, email, token_hash(token))
            if hashed is not None:
                account_records.set_password(tx, player_id, hashed, self._credentials().clock.now())
            # the sign-up token is the player's first personal access token, with every scope
            self._credentials().first_token(tx, player_id, token)
            if email and self.accounts is not None:
                verification = self.accounts.start_verification(tx, player_id, email)
            return NewPlayer(tx.player(player_id), token)

        created = once(self.store, idem, work)
        if self.accounts is not None:
            self.accounts.send_verification(verification)
        return created

    def authenticate(self, token: str, epoch: bytes | None = None) -> Player:
        """The token's player: a revoked token is refused at its next request."""
        return self.credential(token, epoch).player

    def credential(self, token: str, epoch: bytes | None = None) -> Credential:
        """The bearer token's player and scopes (Unauthorized: unknown, revoked, expired).
        ``epoch``: the credential epoch the request read (AccountService.token_credential)."""
        return self._credentials().token_credential(token, epoch)

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
        if self.credentials is not None:
            self.credentials.epoch.changed()  # a remembered credential's player is looked up again
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

    def _credentials(self) -> AccountService:
        assert self.credentials is not None, "built by service.runtime.container with the account service"
        return self.credentials

    def _accounts(self) -> MailAccounts:
        assert self.accounts is not None, "built by service.runtime.container with mail accounts"
        return self.accounts


__all__ = ["NewPlayer", "PlayerService", "Replayed"]
