"""Times as the event stream writes them: RFC 3339 UTC with microseconds, e.g.
2026-01-01T00:00:00.000000Z (the hash chain, the table's clocks and the records share it)."""

from __future__ import annotations

from datetime import UTC, datetime


def format_time(at: datetime) -> str:
    return at.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def parse_time(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))
