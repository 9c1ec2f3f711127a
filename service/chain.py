"""The hash chain over a game's events: anyone can verify a history was not edited.

    genesis(game)  = SHA-256("entrepot-chain-v1:" + game_id)                    (hex)
    hash(event)    = SHA-256(prev_hash_hex + canonical_json(record))            (hex)
    record         = {"seq", "type", "schema_version", "seat", "at", "data"}
    canonical_json = JSON, keys sorted, no spaces, UTF-8, non-ASCII kept as is
    at             = RFC 3339 UTC with microseconds: 2026-01-01T00:00:00.000000Z
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from datetime import UTC, datetime
from typing import Any

CHAIN = "entrepot-chain-v1"


def canonical_json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def format_time(at: datetime) -> str:
    return at.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def genesis(game_id: str) -> str:
    return hashlib.sha256(f"{CHAIN}:{game_id}".encode()).hexdigest()


def record_of(seq: int, type_: str, version: int, seat: int | None, at: str, data: Any) -> dict:
    return {"seq": seq, "type": type_, "schema_version": version, "seat": seat, "at": at, "data": data}


def link(prev_hash: str, record: Mapping[str, Any]) -> str:
    return hashlib.sha256((prev_hash + canonical_json(record)).encode("utf-8")).hexdigest()


def verify(game_id: str, rows: Iterable[Mapping[str, Any]]) -> int | None:
    """The seq of the first event that breaks the chain, or None when it all verifies.

    Each row holds the record fields plus ``prev_hash`` and ``hash``.
    """
    prev = genesis(game_id)
    expected_seq = 1
    for row in rows:
        record = record_of(row["seq"], row["type"], row["schema_version"], row["seat"], row["at"], row["data"])
        if row["seq"] != expected_seq or row["prev_hash"] != prev or link(prev, record) != row["hash"]:
            return row["seq"]
        prev = row["hash"]
        expected_seq += 1
    return None
