"""The table's timers grouped by time slot: one timer job fires every timer due in a slot.

A job per timer cost more in RQ's own bookkeeping (about twenty Redis round trips per job)
than the timeout it fires, so at a few dozen timeouts a second the jobs fell behind. A
slot is a tenth of a second: the job of a slot is scheduled at its end and fires the
timers of every game whose ``timer_at`` falls in it, so a timer fires at most one slot
late and a burst of timers costs one job per slot, not one per game.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

SLOT = timedelta(milliseconds=100)
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def slot_of(at: datetime) -> int:
    """The slot of a timer at ``at``: the one ending at the first slot boundary at or
    after ``at`` (exact: integer arithmetic on microseconds, as PostgreSQL stores them)."""
    return -((_EPOCH - at) // SLOT)


def slot_bounds(slot: int) -> tuple[datetime, datetime]:
    """(after, upto): the slot holds the times t with after < t <= upto."""
    return _EPOCH + (slot - 1) * SLOT, _EPOCH + slot * SLOT
