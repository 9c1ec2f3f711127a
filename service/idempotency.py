"""Idempotency keys: a retry with the same key and body gets the first response.

The response is saved in the same transaction as the work it answers, so a crash can
never leave work done without its answer, or an answer without its work.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from service.chain import canonical_json
from service.errors import IdempotencyKeyReused
from service.store import Tx


@dataclass(frozen=True)
class IdempotencyKey:
    scope: str  # the caller's player id, or "anonymous"
    key: str
    fingerprint: str  # what the request said: method, path, body
    #: turns the service's result into the (status, body) the client receives
    render: Callable[[Any], tuple[int, Any]]


@dataclass(frozen=True)
class Replayed:
    status: int
    body: Any


def fingerprint(method: str, path: str, body: Any) -> str:
    return hashlib.sha256(canonical_json([method, path, body]).encode()).hexdigest()


class SavedByAnother(Exception):
    """A concurrent request with the same key committed first."""


def replay(tx: Tx, idem: IdempotencyKey | None) -> Replayed | None:
    if idem is None:
        return None
    found = tx.idempotent_response(idem.scope, idem.key)
    if found is None:
        return None
    request_hash, status, body = found
    if request_hash != idem.fingerprint:
        raise IdempotencyKeyReused(
            "this Idempotency-Key was already used for a different request"
        )
    return Replayed(status, body)


def save(tx: Tx, idem: IdempotencyKey | None, result: Any) -> None:
    if idem is None:
        return
    status, body = idem.render(result)
    if not tx.save_response(idem.scope, idem.key, idem.fingerprint, status, body):
        raise SavedByAnother()

