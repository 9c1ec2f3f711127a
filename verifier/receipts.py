"""Receipts: the server's Ed25519 signature over (game, version, chain hash).

    message   = b"entrepot-receipt-v1\n" + canonical_json({"game_id", "version", "hash"})
    signature = Ed25519(private key, message), standard base64 (88 characters)
    key_id    = the first 16 hex digits of SHA-256(raw 32-byte public key)

Anyone who kept one receipt catches a history rewritten after it was issued: the record's
chain hash at that version no longer matches the signed one.
"""

from __future__ import annotations

import base64
import hashlib

from nacl.exceptions import BadSignatureError
from nacl.signing import VerifyKey

from verifier.chain import canonical_json

ALGORITHM = "Ed25519"
_PREFIX = b"entrepot-receipt-v1\n"


def receipt_message(game_id: str, version: int, hash_hex: str) -> bytes:
    return _PREFIX + canonical_json({"game_id": game_id, "version": version, "hash": hash_hex}).encode("utf-8")


def key_id(public_key: bytes) -> str:
    return hashlib.sha256(public_key).hexdigest()[:16]


def signature_holds(receipt: dict, public_key_b64: str) -> bool:
    """Whether the receipt's signature is the key's over its game, version and hash."""
    try:
        key = VerifyKey(base64.b64decode(public_key_b64, validate=True))
        key.verify(receipt_message(receipt["game_id"], receipt["version"], receipt["hash"]),
                   base64.b64decode(receipt["signature"], validate=True))
    except (BadSignatureError, ValueError, TypeError):
        return False
    return True
