"""Sealing secrets the server must read back (webhook signing secrets): PyNaCl's secretbox
under a server key, so the database holds only ciphertext.

The key is ``ENTREPOT_WEBHOOK_KEY`` (32 bytes, standard base64) or, when unset, derived
from the receipts' signing key (service/audit/signing.py): one key to keep, and every process of
a deployment that shares the signing key reads the same secrets. Derived with BLAKE2b
personalised for this use, so neither key reveals the other.
"""

from __future__ import annotations

import base64
import hashlib

from nacl.secret import SecretBox
from nacl.signing import SigningKey


class Sealer:
    def __init__(self, key: bytes):
        self._box = SecretBox(key)

    def seal(self, secret: bytes) -> bytes:
        return bytes(self._box.encrypt(secret))  # a random nonce first

    def open(self, sealed: bytes) -> bytes:
        return self._box.decrypt(bytes(sealed))


def webhook_sealer(key_b64: str | None, signing_key: SigningKey) -> Sealer:
    if key_b64:
        try:
            key = base64.b64decode(key_b64, validate=True)
        except ValueError:
            key = b""
        if len(key) != SecretBox.KEY_SIZE:
            raise RuntimeError("ENTREPOT_WEBHOOK_KEY must hold 32 bytes in standard base64")
        return Sealer(key)
    derived = hashlib.blake2b(bytes(signing_key), digest_size=SecretBox.KEY_SIZE, person=b"entrepot-webhook").digest()
    return Sealer(derived)
