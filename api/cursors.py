"""Opaque page cursors: a few text fields, base64url-encoded; a malformed one is a 422."""

from __future__ import annotations

import base64
from collections.abc import Callable, Sequence
from typing import Any

from service.errors import Invalid


def encode_cursor(parts: Sequence[str]) -> str:
    return base64.urlsafe_b64encode("|".join(parts).encode()).decode()


def decode_cursor(cursor: str, parse: Callable[[list[str]], Any]) -> Any:
    """``parse`` turns the fields back into values; any ValueError means a bad cursor."""
    try:
        return parse(base64.urlsafe_b64decode(cursor.encode()).decode().split("|"))
    except (ValueError, UnicodeDecodeError, IndexError):
        raise Invalid("bad cursor", {"cursor": ["is not a cursor this server gave"]}) from None
