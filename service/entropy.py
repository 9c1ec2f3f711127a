"""The entropy port: game seeds, tokens and ids come from here."""

from __future__ import annotations

import hashlib
import secrets
import uuid


def new_seed() -> str:
    """A fresh game seed: 32 random bytes as 64 hex digits."""
    return secrets.token_hex(32)


def new_token() -> str:
    """A bearer token (256 random bits, URL-safe).  Never one starting with "-": the
    CLI's `--token <token>` would read it as an option."""
    while (token := secrets.token_urlsafe(32)).startswith("-"):
        pass
    return token


def token_hash(token: str) -> str:
    """Tokens are stored only as this hash; a stolen table does not let anyone in."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def new_id() -> str:
    return str(uuid.uuid4())
