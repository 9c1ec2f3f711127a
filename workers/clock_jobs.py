"""RQ jobs of correspondence play: the table's timers and vacation starts.

Arguments are ids, versions and time slots only; each job re-checks its premise for each
game (the game is still at that version, the seat still to act, its clock not paused) in
``ClockService``, and acts through the one write path.
"""

from __future__ import annotations

import logging

from workers.runtime import services

log = logging.getLogger(__name__)


def run_table_timers(slot: int) -> dict[str, int]:
    """Send the reminders, time out the seats and end the vacations due in a time slot
    (service/timer_slots.py), game by game."""
    outcomes = services().clocks.run_timers(slot)
    log.info("table timers of slot %s: %s", slot, outcomes)
    return outcomes


def run_table_timer(game_id: str, version: int) -> str:
    """Send the reminder, time out the seat or end the vacation due in this game now (the
    job of a timer already due when its commit scheduled it)."""
    outcome = services().clocks.run_timer(game_id, version)
    log.info("table timer of %s at v%s: %s", game_id, version, outcome)
    return outcome


def start_vacation(vacation_id: str) -> int:
    """Pause the clocks of a vacation's player in every active game of theirs."""
    return services().clocks.apply_vacation(vacation_id)


def sweep_tables() -> tuple[int, int, int]:
    """Re-queue overdue timers, stand-in moves and vacation starts that lost their job."""
    return services().clocks.sweep()
