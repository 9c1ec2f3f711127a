"""The hash chain over a game's events: anyone can verify a history was not edited.

    genesis(game)   = SHA-256("entrepot-chain-v1:" + game_id)                    (hex)
    record          = {"seq", "type", "schema_version", "seat", "at", "data"}
    canonical_json  = JSON, keys sorted, no spaces, UTF-8, non-ASCII kept as is
    at              = RFC 3339 UTC with microseconds: 2026-01-01T00:00:00.000000Z

    entrepot-chain-v1 (games created before keyed chains):
        hash = SHA-256(prev_hash_hex + canonical_json(record))                    (hex)
    entrepot-chain-v2 (games created before the chain covered commands):
        hash = HMAC-SHA-256(key = chain key (32 bytes),
                            msg = prev_hash_hex + canonical_json(record))          (hex)
    entrepot-chain-v3 (every newer game): as v2, but the record of each step's first
    event also holds the step: who sent it, when, for which seat, and the command
        record = {..., "step": {"seat", "sender", "at", "command"}}
    so a step's sender and time cannot change without breaking the chain (and every
    receipt after it).

The v2 chain key is drawn at random per game, kept secret while the game runs and
published with the seed when it ends. A v1 hash is a plain function of the unredacted
event, so anyone holding one could test guesses of the hidden fields; a v2 hash cannot be
recomputed, or tested against a guess, without the key. So v2 hashes may be published
(and signed in receipts) before the end, v1 hashes only after it.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Iterable, Mapping
from typing import Any

from domain.common.times import format_time  # noqa: F401  (re-exported: the chain's time format)

CHAIN_V1 = "entrepot-chain-v1"
CHAIN_V2 = "entrepot-chain-v2"
CHAIN_V3 = "entrepot-chain-v3"
#: The chain of new games.
CHAIN = CHAIN_V3
CHAINS = (CHAIN_V1, CHAIN_V2, CHAIN_V3)


def covers_steps(chain_name: str) -> bool:
    """Does this chain cover each step's sender, time, seat and command?"""
    return chain_name == CHAIN_V3


def step_of(seat: int | None, sender: Any, at: str | None, command: Any) -> dict:
    """What a v3 chain covers of a step, in the record of the step's first event."""
    return {"seat": seat, "sender": sender, "at": at, "command": command}


def canonical_json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def genesis(game_id: str) -> str:
    """The hash before a game's first event (both chains: the key enters every link)."""
    return hashlib.sha256(f"{CHAIN_V1}:{game_id}".encode()).hexdigest()


def record_of(seq: int, type_: str, version: int, seat: int | None, at: str, data: Any) -> dict:
    return {"seq": seq, "type": type_, "schema_version": version, "seat": seat, "at": at, "data": data}


def link(prev_hash: str, record: Mapping[str, Any], key_hex: str | None = None,
         step: Mapping[str, Any] | None = None) -> str:
    """The hash of one event: v2 (keyed) when a chain key is given, v1 otherwise; v3 when
    a step is given too (the step's first event only)."""
    if step is not None:
        record = {**record, "step": dict(step)}
    message = (prev_hash + canonical_json(record)).encode("utf-8")
    if key_hex is None:
        return hashlib.sha256(message).hexdigest()
    return hmac.new(bytes.fromhex(key_hex), message, hashlib.sha256).hexdigest()


def verify(game_id: str, rows: Iterable[Mapping[str, Any]], key_hex: str | None = None) -> int | None:
    """The seq of the first event that breaks the chain, or None when it all verifies.

    Each row holds the record fields plus ``prev_hash`` and ``hash``.
    """
    prev = genesis(game_id)
    expected_seq = 1
    for row in rows:
        record = record_of(row["seq"], row["type"], row["schema_version"], row["seat"], row["at"], row["data"])
        if row["seq"] != expected_seq or row["prev_hash"] != prev or link(prev, record, key_hex) != row["hash"]:
            return row["seq"]
        prev = row["hash"]
        expected_seq += 1
    return None
