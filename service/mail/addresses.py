"""A player's address and mail choices: changing the address starts a verification (a
link with a one-time token, stored hashed, expiring); unsubscribe links turn a kind of
mail off (or all mail) without logging in."""

from __future__ import annotations

from dataclasses import dataclass

from service.clock import Clock, SystemClock
from service.errors import InvalidToken, TokenExpired, TokenUsed
from service.games.store import Tx
from service.job_queue import JobQueue
from service.mail import records
from service.mail.job_names import MAIL_VERIFICATION
from service.mail.tokens import Tokens, token_hash


@dataclass(frozen=True)
class Unsubscribed:
    player_id: str
    kind: str


class MailAccounts:
    def __init__(self, tokens: Tokens, queue: JobQueue, verification_ttl_seconds: float,
                 clock: Clock | None = None):
        self.tokens = tokens
        self.queue = queue
        self.ttl = verification_ttl_seconds
        self.clock = clock or SystemClock()

    def change(self, tx: Tx, player_id: str, current_email: str | None, email, notify: dict | None) -> int | None:
        """Apply the changes in the caller's transaction; the id of a verification to mail
        after the commit (``send_verification``), if the address changed."""
        if notify:
            records.merge_notify(tx, player_id, notify)
            if notify.get("digest") == "daily":
                records.start_digest(tx, player_id, self.clock.now())
        if email is ... or email == current_email:
            return None
        records.set_email(tx, player_id, email)
        return self.start_verification(tx, player_id, email) if email else None

    def start_verification(self, tx: Tx, player_id: str, email: str) -> int:
        verification_id = records.new_verification(tx, player_id, email, self.ttl, self.clock.now())
        token = self.tokens.verification(verification_id, player_id, email)
        records.keep_verification_hash(tx, verification_id, token_hash(token))
        return verification_id

    def send_verification(self, verification_id: int | None) -> None:
        if verification_id is not None:
            self.queue.enqueue_job(MAIL_VERIFICATION, (verification_id,), f"mail-verify-{verification_id}")

    def verify(self, tx: Tx, token: str, player_id: str | None) -> str:
        """Confirm the address the token was mailed to; the player's id. ``player_id``:
        the caller, who must be the token's player (None: the link alone, which proves
        the mailbox)."""
        head, _, _ = token.partition("-")
        now = self.clock.now()
        row = records.verification(tx, int(head), now, lock=True) if head.isdigit() and len(head) < 19 else None
        if row is None or row["token_hash"] != token_hash(token) or (
                player_id is not None and row["player_id"] != player_id):
            raise InvalidToken("this verification token is not valid", {"token": ["is not a valid token"]})
        if row["used_at"] is not None:
            raise TokenUsed("this verification token was used already")
        if row["expired"]:
            raise TokenExpired("this verification token has expired: change the address again for a new one")
        if not records.confirm_email(tx, row["id"], row["player_id"], row["email"], now):
            raise TokenExpired("the address changed since this token was sent")
        return row["player_id"]

    def unsubscribe(self, tx: Tx, token: str) -> Unsubscribed:
        return unsubscribe(tx, self.tokens, token)


def unsubscribe(tx: Tx, tokens: Tokens, token: str) -> Unsubscribed:
    """Turn off the kind of mail the token names (``all``: every mail) for its player."""
    target = tokens.unsubscribe_target(token.strip())
    if target is None:
        raise InvalidToken("this unsubscribe link is not valid", {"token": ["is not a valid token"]})
    player_id, kind = target
    if kind == "all":
        records.set_notify_by_email(tx, player_id, False)
    else:
        records.merge_notify(tx, player_id, {kind: False})
    return Unsubscribed(player_id, kind)
