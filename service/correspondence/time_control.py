"""Time controls of correspondence play: validated once, at the game's creation."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any, TypeVar

import isodate

from domain.common.computer import LEVELS
from service.errors import Invalid

G = TypeVar("G")

ON_TIMEOUT = ("computer", "forfeit")
DEFAULT_REMINDERS = (0.8,)
#: The longest time per move: a year is already longer than any correspondence site gives.
LONGEST = timedelta(days=366)
#: The computer level that plays a timed-out move and every seat that is out, unless chosen.
DEFAULT_LEVEL = "normal"
#: Consecutive timeouts the computer plays for a seat under "computer" before the next
#: one puts the seat out: nobody wins by never moving.
DEFAULT_MAX_STAND_INS = 2


@dataclass(frozen=True)
class TimeControl:
    per_move: str  # as the creator wrote it, e.g. "P2D"
    per_move_seconds: float
    on_timeout: str
    reminders: tuple[float, ...]
    #: the computer level standing in: a timed-out move ("computer") and seats that are out
    level: str = DEFAULT_LEVEL
    max_stand_ins: int | None = DEFAULT_MAX_STAND_INS
    #: a time bank (then per_move is "" and per_move_seconds 0): as written, and in seconds
    bank: str | None = None
    increment: str | None = None
    max_bank: str | None = None
    bank_seconds: float | None = None
    increment_seconds: float = 0.0
    max_bank_seconds: float | None = None

    def to_json(self) -> dict:
        data = {
            "per_move": self.per_move,
            "per_move_seconds": self.per_move_seconds,
            "on_timeout": self.on_timeout,
            "reminders": list(self.reminders),
            "level": self.level,
            "max_stand_ins": self.max_stand_ins,
        }
        if self.bank is not None:
            data.update(bank=self.bank, increment=self.increment, max_bank=self.max_bank,
                        bank_seconds=self.bank_seconds, increment_seconds=self.increment_seconds,
                        max_bank_seconds=self.max_bank_seconds)
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TimeControl:
        return cls(data["per_move"], float(data["per_move_seconds"]), data["on_timeout"],
                   tuple(float(f) for f in data["reminders"]), data.get("level", DEFAULT_LEVEL),
                   data.get("max_stand_ins"), data.get("bank"), data.get("increment"), data.get("max_bank"),
                   data.get("bank_seconds"), float(data.get("increment_seconds") or 0.0),
                   data.get("max_bank_seconds"))


def _duration(raw: Mapping[str, Any], key: str, now: datetime, errors: dict, least: float = 1.0) -> float:
    """Seconds of the ISO 8601 duration ``raw[key]`` (from ``least`` to a year); 0 and an
    error recorded when it is not one."""
    text = raw.get(key)
    name = f"time_control.{key}"
    if not isinstance(text, str):
        errors[name] = ["is required: an ISO 8601 duration such as P2D, PT12H or PT2S"]
        return 0.0
    try:
        duration = isodate.parse_duration(text)
        span = duration.totimedelta(start=now) if isinstance(duration, isodate.Duration) else duration
    except (isodate.ISO8601Error, ValueError, OverflowError):
        errors[name] = [f"{text!r} is not an ISO 8601 duration (e.g. P2D, PT12H, PT2S)"]
        return 0.0
    seconds = span.total_seconds()
    if seconds < least:
        errors[name] = ["must be at least one second (PT1S)" if least else "must not be negative"]
    elif span > LONGEST:
        errors[name] = ["must be at most a year (P366D)"]
    return seconds


def parse_time_control(raw: Mapping[str, Any], now: datetime) -> TimeControl:
    """A time control from its JSON form; Invalid (422) naming every bad field.

    Durations with years or months count from ``now`` (the creation time), so "P1M" is
    the calendar month that starts then; the result is recorded in seconds.
    """
    errors: dict[str, list[str]] = {}
    unknown = sorted(set(raw) - {"per_move", "on_timeout", "reminders", "level", "max_stand_ins",
                                 "bank", "increment", "max_bank"})
    for key in unknown:
        errors[f"time_control.{key}"] = ["unknown field"]
    max_stand_ins = raw.get("max_stand_ins", DEFAULT_MAX_STAND_INS)
    if not isinstance(max_stand_ins, int) or isinstance(max_stand_ins, bool) or not 0 <= max_stand_ins <= 100:
        errors["time_control.max_stand_ins"] = ["must be a whole number from 0 to 100"]
    banked = {"bank", "increment", "max_bank"} & set(raw)
    if banked:
        return _bank_control(raw, now, errors, max_stand_ins)
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
    on_timeout, level, reminders = _common(raw, errors)
    if errors:
        raise Invalid("this time control cannot be used", errors)
    return TimeControl(per_move, seconds, on_timeout, reminders, level, max_stand_ins)


def _common(raw: Mapping[str, Any], errors: dict) -> tuple[str, str, tuple[float, ...]]:
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
        reminders = []
    elif len(reminders) > 5:
        errors["time_control.reminders"] = ["at most 5 reminders"]
    return on_timeout, level, tuple(sorted({float(f) for f in reminders}))


def _bank_control(raw: Mapping[str, Any], now: datetime, errors: dict, max_stand_ins) -> TimeControl:
    """A time bank: ``bank`` to start with, ``increment`` after each move (default none),
    ``max_bank`` at most (default: no cap)."""
    if "per_move" in raw:
        errors["time_control.per_move"] = ["a time control has either per_move or a bank, not both"]
    bank = _duration(raw, "bank", now, errors)
    increment = _duration(raw, "increment", now, errors, least=0.0) if "increment" in raw else 0.0
    max_bank = _duration(raw, "max_bank", now, errors) if "max_bank" in raw else None
    if max_bank is not None and "time_control.max_bank" not in errors and max_bank < bank:
        errors["time_control.max_bank"] = ["must be at least the bank"]
    on_timeout, level, reminders = _common(raw, errors)
    if errors:
        raise Invalid("this time control cannot be used", errors)
    return TimeControl("", 0.0, on_timeout, reminders, level, max_stand_ins, raw["bank"], raw.get("increment", "PT0S"),
                       raw.get("max_bank"), bank, increment, max_bank)


def _instant(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def banks_now(table: Mapping[str, Any] | None, now: datetime) -> dict | None:
    """The table's read model with each time bank as it is at ``now``.

    The games row keeps each seat's bank as of its last move (it is written when the game
    changes, never as time passes). A seat whose clock runs spends its bank: what is left
    now is its bank less the time its clock ran this turn, which is the time to its
    deadline (pauses move the deadline, so a vacation costs nothing); while its clock is
    paused, what was left when it paused. Never more than the bank nor less than 0 (a bank
    run dry still gets a move's chance: its clock has at least a second).
    """
    if not table or not table.get("banks"):
        return dict(table) if table is not None else None
    clocks = {c["seat"]: c for c in table.get("clocks") or ()}
    banks = []
    for bank in table["banks"]:
        clock = clocks.get(bank["seat"])
        if clock is None or not bank.get("running"):
            banks.append(dict(bank))
            continue
        deadline = _instant(clock["deadline"])
        since = max(_instant(clock["paused_until"]), now) if clock.get("paused_until") else now
        left = min(float(bank["seconds"]), max((deadline - since).total_seconds(), 0.0))
        banks.append({**bank, "seconds": round(left, 3)})
    return {**table, "banks": banks}


def with_banks_now(game: G, now: datetime) -> G:
    """``game`` (a games row) as a read shows it at ``now``: its banks spent so far."""
    table = getattr(game, "table", None)
    if not table or not any(b.get("running") for b in table.get("banks") or ()):
        return game
    return replace(game, table=banks_now(table, now))
