"""Receipts: the server signs (game, version, chain hash) of every accepted command.

The signing key (Ed25519, PyNaCl) comes from, in order: ``ENTREPOT_SIGNING_KEY`` (its
32-byte seed, standard base64), or the file ``ENTREPOT_SIGNING_KEY_FILE`` (created with a
new key, mode 0600, if absent; ``entrepot serve`` uses one in its data directory), or else
a key made for this process alone (a warning says so: receipts still verify, but each
restart publishes another key). Private keys are never written to the database; only
public keys are, in ``signing_keys``, published at GET /v1/keys with their validity.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import logging
import os
from pathlib import Path

from nacl.signing import SigningKey

from service.clock import Clock, SystemClock
from verifier.receipts import ALGORITHM, key_id, receipt_message

log = logging.getLogger(__name__)


class Signer:
    def __init__(self, key: SigningKey):
        self._key = key
        raw = bytes(key.verify_key)
        self.key_id = key_id(raw)
        self.public_key = base64.b64encode(raw).decode("ascii")

    def derived_key(self, purpose: str) -> bytes:
        """A secret of this server for ``purpose`` (never the signing key itself)."""
        return hmac.new(bytes(self._key), purpose.encode(), hashlib.sha256).digest()

    def receipt(self, game_id: str, version: int, hash_hex: str) -> dict:
        signed = self._key.sign(receipt_message(game_id, version, hash_hex))
        return {"game_id": game_id, "version": version, "hash": hash_hex, "key_id": self.key_id,
                "signature": base64.b64encode(signed.signature).decode("ascii")}


def load_signing_key(seed_b64: str | None, path: str | None) -> SigningKey:
    if seed_b64:
        return SigningKey(_seed(seed_b64, "ENTREPOT_SIGNING_KEY"))
    if path:
        file = Path(path)
        if not file.exists():
            fd = os.open(file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "w") as out:
                out.write(base64.b64encode(bytes(SigningKey.generate())).decode("ascii") + "\n")
        return SigningKey(_seed(file.read_text().strip(), str(file)))
    log.warning("no signing key configured (ENTREPOT_SIGNING_KEY or ENTREPOT_SIGNING_KEY_FILE):"
                " this process signs receipts with a key of its own")
    return SigningKey.generate()


def _seed(text: str, where: str) -> bytes:
    try:
        seed = base64.b64decode(text, validate=True)
    except ValueError:
        seed = b""
    if len(seed) != 32:
        raise RuntimeError(f"{where} must hold an Ed25519 seed: 32 bytes in standard base64")
    return seed


class KeyRing:
    """The published public keys."""

    def __init__(self, store, signer: Signer, clock: Clock | None = None):
        self.store = store
        self.signer = signer
        #: the clock port: when a key became valid, and when a retired one stopped
        self.clock = clock or SystemClock()

    def register(self) -> None:
        with self.store.tx() as tx:
            tx.register_signing_key(self.signer.key_id, ALGORITHM, self.signer.public_key, self.clock.now())

    def published(self, tx=None) -> list[dict]:
        if tx is not None:
            return tx.signing_keys()
        with self.store.read() as read:
            return read.signing_keys()

    def retire(self, key: str) -> bool:
        with self.store.tx() as tx:
            return tx.retire_signing_key(key, self.clock.now())
