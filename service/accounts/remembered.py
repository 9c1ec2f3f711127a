"""Bearer tokens an API process remembers, and the credential epoch that says whether it
still may: a token looked up in PostgreSQL once is answered from memory by the next
requests of this process, each of which checks the epoch (one Redis key, read in the same
round trip as the rate limits: api/limits.py) first.

The epoch changes (a new random value, ``CredentialEpoch.change``) whenever a token is
revoked and whenever a player's settings change; a remembered token is used only if the
epoch its request read is the one it was remembered under. So a revocation stops the token
on every API process at the next request after the revoking request's answer, as the
look-up in PostgreSQL did:

- the epoch is read at the start of a request, before any look-up it may lead to: a
  look-up that raced a revocation is remembered under an epoch the revocation changes
  afterwards (``revoked`` changes it before and after its commit);
- a revocation whose first change of the epoch fails (Redis down) is refused (503), so a
  token is never revoked in PostgreSQL while processes may keep trusting it;
- a request that could not read the epoch (Redis down: no rate limits either) looks up
  and remembers nothing;
- a value is never reused (not a counter): a Redis restarted empty cannot give back an
  epoch something was remembered under before a revocation it lost; and nothing is
  remembered while no epoch is set (the empty value such a restart gives back): the
  request that finds none sets one (``establish``).

A remembered token is also forgotten when it expires and after TOUCH_EVERY, when its
last use is due to be written again (the look-up writes it). The remembered player's
settings (email, notification choices, vacation) are as of that look-up: nothing that
answers with them reads them from the credential (GET /v1/players/me reads the row).
"""

from __future__ import annotations

import logging
import uuid
from dataclasses import dataclass
from datetime import datetime

from redis import Redis, RedisError

from service.errors import Unavailable
from service.games.states import Lru

log = logging.getLogger(__name__)

#: tokens remembered per process (least recently used forgotten first)
CAPACITY = 10_000


def epoch_key(queue_name: str) -> str:
    """The Redis key of a deployment's credential epoch (one per queue name, as the rate
    limits' keys)."""
    return f"entrepot-credentials:{queue_name}:epoch"


@dataclass(frozen=True)
class Remembered:
    credential: object  # service.accounts.Credential (imported by it: no cycle)
    epoch: bytes
    until: datetime


class RememberedTokens:
    """Credentials by token hash, each valid under the epoch it was looked up under."""

    def __init__(self, capacity: int = CAPACITY):
        self._items = Lru(capacity)

    def get(self, hashed: str, epoch: bytes, now: datetime):
        found: Remembered | None = self._items.get(hashed)
        if found is None or found.epoch != epoch or now >= found.until:
            return None
        return found.credential

    def put(self, hashed: str, credential, epoch: bytes, until: datetime) -> None:
        self._items.put(hashed, Remembered(credential, epoch, until))


class CredentialEpoch:
    """The epoch's writer (its readers: api/limits.py's script)."""

    def __init__(self, redis: Redis, queue_name: str):
        self.redis = redis
        self.key = epoch_key(queue_name)

    def change(self) -> None:
        """A new epoch: every remembered token is looked up again. Unavailable when Redis
        does not take it."""
        try:
            self.redis.set(self.key, uuid.uuid4().hex)
        except RedisError as err:
            raise Unavailable("a credential change cannot be made known to every API process now"
                              " (Redis did not answer): try again shortly") from err

    def changed(self) -> None:
        """After a commit: a new epoch, or a logged error (the change is made; what was
        remembered before is forgotten when it ages out, TOUCH_EVERY at most)."""
        try:
            self.change()
        except Unavailable:
            log.exception("the credential epoch was not changed after a commit")

    def establish(self) -> None:
        """An epoch where none is set (a new random value, never one used before), or
        nothing if Redis does not answer (nothing is remembered then)."""
        try:
            self.redis.set(self.key, uuid.uuid4().hex, nx=True)
        except RedisError:
            log.warning("no credential epoch could be set", exc_info=True)


class NoEpoch:
    """Where nothing is remembered (service tests without Redis): changes are no-ops."""

    def change(self) -> None:
        pass

    def changed(self) -> None:
        pass

    def establish(self) -> None:
        pass


__all__ = ["CredentialEpoch", "NoEpoch", "RememberedTokens", "epoch_key"]
