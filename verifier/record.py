"""The audit record's shape (docs/audit.md): names shared by the server that writes it
and the verifier that reads it."""

from __future__ import annotations

from typing import Any

FORMAT = "entrepot-audit-1"
RNG = "entrepot-rng-v1"


def result_json(result: Any) -> dict | None:
    """A title's Result as the record holds it (and the games table stores it)."""
    if result is None:
        return None
    found = {"scores": list(result.scores), "winners": list(result.winners), "detail": dict(result.detail)}
    if getattr(result, "reason", None) is not None:  # why it ended, and who left (the table's)
        found["reason"] = result.reason
        found["out"] = [{"seat": seat, "reason": why} for seat, why in result.out]
    return found


def event_json(seq: int, type_: str, schema_version: int, seat: int | None, at: str, data: Any) -> dict:
    return {"seq": seq, "type": type_, "schema_version": schema_version, "seat": seat, "at": at, "data": data}
