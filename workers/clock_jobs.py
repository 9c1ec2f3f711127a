"""RQ jobs of correspondence play: the table's timers and vacation starts.

Arguments are ids, versions and time slots only; each job re-checks its premise for each
game (the game is still at that version, the seat still to act, its clock not paused) in
``ClockService``, and acts through the one write path.
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime

from rq import get_current_job

from service.timer_trace import trace
from workers.runtime import services

log = logging.getLogger(__name__)


def run_table_timers(slot: int) -> dict[str, int]:
    """Send the reminders, time out the seats and end the vacations due in a time slot
    (service/timer_slots.py), game by game."""
    outcomes = services().clocks.run_timers(slot)
    log.info("table timers of slot %s: %s", slot, outcomes)
    _trace_job(slot=slot, outcomes=outcomes)
    return outcomes


def run_table_timer(game_id: str, version: int) -> str:
    """Send the reminder, time out the seat or end the vacation due in this game now (the
    job of a timer already due when its commit scheduled it)."""
    outcome = services().clocks.run_timer(game_id, version)
    log.info("table timer of %s at v%s: %s", game_id, version, outcome)
    _trace_job(game=game_id, outcomes={outcome: 1})
    return outcome


def start_vacation(vacation_id: str) -> int:
    """Pause the clocks of a vacation's player in every active game of theirs."""
    return services().clocks.apply_vacation(vacation_id)


def sweep_tables() -> tuple[int, int, int]:
    """Re-queue overdue timers, stand-in moves and vacation starts that lost their job."""
    return services().clocks.sweep()


def _trace_job(**fields) -> None:
    job = get_current_job()
    if job is not None:
        trace("job", job=job.id, worker=job.worker_name, enqueued=_epoch(job.enqueued_at),
              started=_epoch(job.started_at), **fields)


def _epoch(at: datetime | None) -> float | None:
    """RQ's times are UTC, with or without their zone."""
    return None if at is None else at.replace(tzinfo=at.tzinfo or UTC).timestamp()
