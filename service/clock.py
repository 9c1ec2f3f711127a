"""The clock port: the only place the shell reads the time."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Protocol


class Clock(Protocol):
    def now(self) -> datetime: ...


class SystemClock:
    def now(self) -> datetime:
        return datetime.now(UTC)


class FixedClock:
    """A clock for tests: stands still until moved."""

    def __init__(self, at: datetime):
        self.at = at

    def now(self) -> datetime:
        return self.at
