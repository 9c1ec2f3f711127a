"""Time controls of correspondence play: validated once, at the game's creation."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import isodate

from domain.common.computer import LEVELS
from service.errors import Invalid

ON_TIMEOUT = ("computer", "forfeit")
DEFAULT_REMINDERS = (0.8,)
#: The longest time per move: a year is already longer than any correspondence site gives.
LONGEST = timedelta(days=366)
#: The computer level that plays a timed-out move and every seat that is out, unless chosen.
DEFAULT_LEVEL = "normal"


@dataclass(frozen=True)
class TimeControl:
    per_move: str  # as the creator wrote it, e.g. "P2D"
    per_move_seconds: float
    on_timeout: str
    reminders: tuple[float, ...]
    #: the computer level standing in: a timed-out move ("computer") and seats that are out
    level: str = DEFAULT_LEVEL

    def to_json(self) -> dict:
        return {
            "per_move": self.per_move,
            "per_move_seconds": self.per_move_seconds,
            "on_timeout": self.on_timeout,
            "reminders": list(self.reminders),
            "level": self.level,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TimeControl:
        return cls(data["per_move"], float(data["per_move_seconds"]), data["on_timeout"],
                   tuple(float(f) for f in data["reminders"]), data.get("level", DEFAULT_LEVEL))


def parse_time_control(raw: Mapping[str, Any], now: datetime) -> TimeControl:
    """A time control from its JSON form; Invalid (422) naming every bad field.

    Durations with years or months count from ``now`` (the creation time), so "P1M" is
    the calendar month that starts then; the result is recorded in seconds.
    """
    errors: dict[str, list[str]] = {}
    unknown = sorted(set(raw) - {"per_move", "on_timeout", "reminders", "level"})
    for key in unknown:
        errors[f"time_control.{key}"] = ["unknown field"]
    per_move = raw.get("per_move")
    seconds = 0.0
    if not isinstance(per_move, str):
        errors["time_control.per_move"] = ["is required: an ISO 8601 duration such as P2D, PT12H or PT2S"]
    else:
        try:
            duration = isodate.parse_duration(per_move)
            span = duration.totimedelta(start=now) if isinstance(duration, isodate.Duration) else duration
            seconds = span.total_seconds()
            if seconds < 1:
                errors["time_control.per_move"] = ["must be at least one second (PT1S)"]
            elif span > LONGEST:
                errors["time_control.per_move"] = ["must be at most a year (P366D)"]
        except (isodate.ISO8601Error, ValueError, OverflowError):
            errors["time_control.per_move"] = [f"{per_move!r} is not an ISO 8601 duration (e.g. P2D, PT12H, PT2S)"]
    on_timeout = raw.get("on_timeout", "computer")
    if on_timeout not in ON_TIMEOUT:
        errors["time_control.on_timeout"] = ["must be one of computer, forfeit"]
    level = raw.get("level", DEFAULT_LEVEL)
    if level not in LEVELS:
        errors["time_control.level"] = [f"must be one of {', '.join(LEVELS)}"]
    reminders = raw.get("reminders", list(DEFAULT_REMINDERS))
    if not isinstance(reminders, list) or not all(
        isinstance(f, int | float) and not isinstance(f, bool) and 0 < f < 1 for f in reminders
    ):
        errors["time_control.reminders"] = ["must be a list of fractions of the time, each between 0 and 1 (e.g. [0.5, 0.8])"]
    elif len(reminders) > 5:
        errors["time_control.reminders"] = ["at most 5 reminders"]
    if errors:
        raise Invalid("this time control cannot be used", errors)
    return TimeControl(per_move, seconds, on_timeout, tuple(sorted({float(f) for f in reminders})), level)
