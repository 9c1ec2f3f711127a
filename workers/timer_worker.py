"""The RQ worker with a scheduler that polls often enough for short clocks.

RQ's scheduler (one per queue, elected by a Redis lock, in a process of its own) moves
jobs scheduled with ``enqueue_at`` to the queue, then sleeps ``interval`` seconds; RQ's
1 s would let a 2-second clock's 80% reminder arrive after the deadline. ``interval``
also sets the lock's time to live (in whole seconds), so it stays 1 and only the sleep
between polls is shortened: a poll is one cheap Redis call.
"""

from __future__ import annotations

import time

from rq.scheduler import RQScheduler
from rq.worker import SimpleWorker

SCHEDULER_POLL_SECONDS = 0.2


class TimerScheduler(RQScheduler):
    poll_seconds: float = SCHEDULER_POLL_SECONDS

    def work(self):
        # RQ's loop, with the shorter sleep
        self._install_signal_handlers()
        self.register_birth()
        while True:
            if self._stop_requested:
                self.stop()
                break
            if self.should_reacquire_locks:
                self.acquire_locks()
            self.heartbeat()
            self.enqueue_scheduled_jobs()
            time.sleep(self.poll_seconds)


class TimerWorker(SimpleWorker):
    """RQ's SimpleWorker (jobs in this process, no fork per job) with a TimerScheduler."""

    poll_seconds: float = SCHEDULER_POLL_SECONDS

    def _start_scheduler(self, burst: bool = False, logging_level="INFO", date_format=None, log_format=None):
        # RQ's own method, with the scheduler class swapped
        extra = {k: v for k, v in (("date_format", date_format), ("log_format", log_format)) if v}
        self.scheduler = TimerScheduler(self.queues, connection=self.connection,
                                        logging_level=logging_level or self.log.level,
                                        serializer=self.serializer, **extra)
        self.scheduler.poll_seconds = self.poll_seconds
        self.scheduler.acquire_locks()
        if not self.scheduler.acquired_locks:
            return
        if burst:
            try:
                self.scheduler.register_birth()
                self.scheduler.enqueue_scheduled_jobs()
            finally:
                self.scheduler.release_locks()
                self.scheduler.register_death()
        else:
            self.scheduler.start()
