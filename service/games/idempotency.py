"""Idempotency keys: a retry with the same key and body gets the first response.

A key belongs to one caller (a player, or anonymous), one method and one path, as in a
payment API: the same key sent to another game's commands is another key. The key is
stored only as a derived ``lookup``; the first response is sealed with a second key
derived from it, so the database holds no response in clear (a new player's token among
them) and only whoever holds the Idempotency-Key can have it replayed.

The unit of work first claims the key by inserting its row, in the same transaction as
the work and its saved response: a concurrent request with the same key waits on that
row until the first commits, then replays its response. A refusal (409, 422...) is a
response too and is replayed the same way, as a payment API does. A crash can never leave work done without its
answer, or an answer without its work. Rows expire ``ttl_seconds`` after the request
that claimed them (by the clock port: the key carries the time its request came, ``at``)
and are purged by the worker's sweeper (by its clock's time), or on access.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from nacl.secret import SecretBox

from service.audit.chain import canonical_json
from service.errors import IdempotencyKeyReused, ServiceError, WeakIdempotencyKey
from service.games.store import Store, Tx

ANONYMOUS = "anonymous"
#: What an anonymous caller's key must look like: nobody else may guess it, since it is
#: the only thing that entitles a caller to a replay (a UUID4, or secrets.token_urlsafe(24)).
ANONYMOUS_KEY = re.compile(r"[A-Za-z0-9_-]{32,255}")
ANONYMOUS_KEY_MIN_DISTINCT = 8


@dataclass(frozen=True)
class IdempotencyKey:
    lookup: str  # what the database knows of the key
    secret: bytes  # seals the response; derived from the key, never stored
    fingerprint: str  # what the request said (its body), keyed by the secret
    ttl_seconds: float
    #: when the request came, by the clock port: the key expires ``ttl_seconds`` after it
    at: datetime
    #: turns the service's result into the (status, body) the client receives
    render: Callable[[Any], tuple[int, Any]]
    #: the same for a refusal (a ServiceError), so that retries get it too; None: not kept
    render_error: Callable[[ServiceError], tuple[int, Any]] | None = None


@dataclass(frozen=True)
class Replayed:
    status: int
    body: Any


def idempotency_key(
    player_id: str | None, method: str, path: str, key: str, body: Any, ttl_seconds: float,
    render: Callable[[Any], tuple[int, Any]],
    render_error: Callable[[ServiceError], tuple[int, Any]] | None = None, *, at: datetime,
) -> IdempotencyKey:
    """The key of one caller's request to one route, made ``at`` the clock port's time;
    anonymous keys must be unguessable."""
    if player_id is None:
        check_anonymous_key(key)
    material = canonical_json([player_id or ANONYMOUS, method.upper(), path, key]).encode()
    # two keys from one: BLAKE2b personalised per use is a keyed derivation function
    lookup = hashlib.blake2b(material, digest_size=32, person=b"entrepot-idem-id").hexdigest()
    secret = hashlib.blake2b(material, digest_size=32, person=b"entrepot-idem-bx").digest()
    fingerprint = hmac.new(secret, canonical_json(body).encode(), hashlib.sha256).hexdigest()
    return IdempotencyKey(lookup, secret, fingerprint, ttl_seconds, at, render, render_error)


def check_anonymous_key(key: str) -> None:
    if ANONYMOUS_KEY.fullmatch(key) is None or len(set(key)) < ANONYMOUS_KEY_MIN_DISTINCT:
        raise WeakIdempotencyKey(
            "an Idempotency-Key sent without a bearer token must be unguessable: 32 to 255 "
            "letters, digits, '-' or '_', with at least 128 bits of randomness (a UUID4 will do)",
            {"Idempotency-Key": [f"must match {ANONYMOUS_KEY.pattern} and be random"]},
        )


def claim(tx: Tx, idem: IdempotencyKey | None) -> Replayed | None:
    """Claim the key for this unit of work, or the first response if it already has one.

    Waits while another transaction holds the same key, so that retries racing the first
    request get its response rather than a conflict."""
    if idem is None:
        return None
    found = tx.claim_idempotency_key(idem.lookup, idem.fingerprint, idem.at, idem.ttl_seconds)
    if found is None:
        return None
    request_hash, status, sealed = found
    if not hmac.compare_digest(request_hash, idem.fingerprint):
        raise IdempotencyKeyReused("this Idempotency-Key was already used for a different request")
    return Replayed(status, json.loads(SecretBox(idem.secret).decrypt(bytes(sealed))))


def _seal(tx: Tx, idem: IdempotencyKey, status: int, body: Any) -> None:
    """Seal the response of the claimed key, in the transaction of the work it answers."""
    sealed = SecretBox(idem.secret).encrypt(json.dumps(body).encode())  # random nonce first
    tx.seal_idempotent_response(idem.lookup, status, bytes(sealed))


def _always(_err: ServiceError) -> bool:
    return True


def once(
    store: Store, idem: IdempotencyKey | None, work: Callable[[Tx], Any], *,
    keep_error: Callable[[ServiceError], bool] = _always, transaction_without_key: bool = True,
) -> Any:
    """Run ``work(tx)`` as one unit of work, at most once per key: its result, or the first
    answer to this key (``Replayed``). A refusal (ServiceError) the work raises is an answer
    too: the work rolls back to a savepoint, the refusal is sealed under the key (unless
    ``keep_error`` says it is only a step of a retry loop) and raised."""
    if idem is None:
        with store.tx() if transaction_without_key else store.read() as tx:
            return work(tx)
    refusal = None
    with store.tx() as tx:
        replayed = claim(tx, idem)
        if replayed is not None:
            return replayed
        try:
            with tx.conn.transaction():  # a savepoint: a refused request leaves only its answer
                result = work(tx)
        except ServiceError as err:
            if idem.render_error is None or not keep_error(err):
                raise
            _seal(tx, idem, *idem.render_error(err))
            refusal = err
        else:
            _seal(tx, idem, *idem.render(result))
    if refusal is not None:
        raise refusal
    return result


def purge_expired(store: Store, now: datetime) -> int:
    """Forget the keys expired by ``now`` (the sweeper's clock); returns how many went."""
    with store.read() as tx:
        return tx.purge_expired_idempotency_keys(now)
