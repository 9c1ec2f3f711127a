"""RQ jobs of correspondence play: vacation starts, and the sweeper.

The table's timers are no RQ jobs: the workers' timer loop runs them from PostgreSQL
(``ClockService.run_due_timers``, started by workers/__main__.py). Arguments are ids only;
each job re-checks its premise in ``ClockService`` and acts through the one write path.
"""

from __future__ import annotations

import logging

from workers.services import services

log = logging.getLogger(__name__)


def start_vacation(vacation_id: str) -> int:
    """Pause the clocks of a vacation's player in every active game of theirs."""
    return services().clocks.apply_vacation(vacation_id)


def sweep_tables() -> tuple[int, int, int]:
    """Re-queue overdue timers, stand-in moves and vacation starts that lost their job."""
    return services().clocks.sweep()

