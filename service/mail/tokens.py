"""The tokens mails carry: reply addresses, verification links, unsubscribe links.

Each is its row's id (or the player and kind) followed by an HMAC under the server's mail
key over everything it is bound to, so a token cannot be made without the key, and the
same row always gives the same token: the database keeps only the token's SHA-256, and a
mail re-sent by the sweeper carries the same token as the first attempt.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re

#: reply tokens live in an address's local part (64 characters at most): 80 bits of MAC
REPLY_MAC_CHARS = 16
LINK_MAC_CHARS = 26
REPLY_LOCAL = re.compile(rf"play\+(\d{{1,18}}-[a-z2-7]{{{REPLY_MAC_CHARS}}})@", re.I)
UNSUBSCRIBE_KINDS = ("your_turn", "reminder", "finished", "messages", "all")


def mail_key(secret: str | None, signing_seed: bytes) -> bytes:
    """ENTREPOT_MAIL_SECRET if set, else a key derived from the receipts' signing key (which
    every process of a server already shares)."""
    if secret:
        return hashlib.sha256(secret.encode("utf-8")).digest()
    return hmac.new(signing_seed, b"entrepot mail tokens v1", hashlib.sha256).digest()


def token_hash(token: str) -> str:
    return hashlib.sha256(token.lower().encode("utf-8")).hexdigest()


class Tokens:
    def __init__(self, key: bytes):
        self._key = key

    def _mac(self, chars: int, *parts: object) -> str:
        message = "\x1f".join(str(p) for p in parts).encode("utf-8")
        digest = hmac.new(self._key, message, hashlib.sha256).digest()
        return base64.b32encode(digest).decode("ascii").lower().rstrip("=")[:chars]

    # reply addresses ------------------------------------------------------------------
    def reply(self, token_id: int, player_id: str, game_id: str, seat: int, version: int) -> str:
        return f"{token_id}-{self._mac(REPLY_MAC_CHARS, 'reply', token_id, player_id, game_id, seat, version)}"

    def reply_matches(self, token: str, player_id: str, game_id: str, seat: int, version: int) -> bool:
        token_id = reply_token_id(token)
        return token_id is not None and hmac.compare_digest(
            token.lower().encode("utf-8"), self.reply(token_id, player_id, game_id, seat, version).encode("utf-8"))

    # verification links ---------------------------------------------------------------
    def verification(self, verification_id: int, player_id: str, email: str) -> str:
        return f"{verification_id}-{self._mac(LINK_MAC_CHARS, 'verify', verification_id, player_id, email)}"

    # unsubscribe links ----------------------------------------------------------------
    def unsubscribe(self, player_id: str, kind: str) -> str:
        return f"{player_id}.{kind}.{self._mac(LINK_MAC_CHARS, 'unsubscribe', player_id, kind)}"

    def unsubscribe_target(self, token: str) -> tuple[str, str] | None:
        """(player id, kind) of a genuine unsubscribe token, else None."""
        player_id, _, rest = token.partition(".")
        kind, _, _mac = rest.partition(".")
        if kind not in UNSUBSCRIBE_KINDS or not player_id:
            return None
        # as bytes: compare_digest refuses a str that is not ASCII (a 500 on /v1/unsubscribe/é...)
        if not hmac.compare_digest(token.encode("utf-8"), self.unsubscribe(player_id, kind).encode("utf-8")):
            return None
        return player_id, kind


def reply_token_id(token: str) -> int | None:
    head, _, mac = token.partition("-")
    if not (head.isascii() and head.isdigit()) or len(mac) != REPLY_MAC_CHARS:
        return None
    return int(head)


def find_reply_token(addresses: list[str]) -> str | None:
    """The first reply token in these addresses (play+TOKEN@domain)."""
    for address in addresses:
        found = REPLY_LOCAL.search(address)
        if found:
            return found.group(1).lower()
    return None
