"""The RQ worker with a scheduler precise enough for short clocks.

RQ's scheduler (one per queue, elected by a Redis lock, in a process of its own) moves
jobs scheduled with ``enqueue_at`` to the queue, then sleeps ``interval`` seconds; and it
counts in whole seconds (a job runs up to 1 s early). Both would let a 2-second clock's
80% reminder arrive after the deadline. So the scheduler here polls every 0.2 s and
compares the registry's scores (which service/jobs.py writes as exact times) with the
exact time. ``interval`` also sets the lock's time to live in whole seconds, so it stays
1; only the sleep between polls is shorter (a poll is one cheap Redis call).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import signal
import threading
import time

from rq.registry import ScheduledJobRegistry
from rq.scheduler import SCHEDULER_KEY_TEMPLATE, RQScheduler
from rq.scripts import release_lock
from rq.utils import now, utcparse
from rq.worker import SimpleWorker

from service.timer_trace import trace

SCHEDULER_POLL_SECONDS = 0.2


class ExactScheduledJobRegistry(ScheduledJobRegistry):
    """Due jobs by the exact time, not RQ's whole seconds."""

    def get_jobs_to_schedule(self, timestamp=None, chunk_size: int = 1000) -> list[str]:
        due = self.connection.zrangebyscore(self.key, 0, time.time(), start=0, num=chunk_size, withscores=True)
        ids = [job_id.decode() if isinstance(job_id, bytes) else job_id for job_id, _ in due]
        if due:
            trace("move", jobs=ids, due=[score for _, score in due])
        return ids


def die_with_parent(parent_pid: int | None) -> None:
    """In a worker's scheduler process (a fork): be killed when the worker dies, even by
    kill -9 (Linux's PR_SET_PDEATHSIG). Otherwise the orphan, reparented to PID 1, kept
    beating and holding ``rq:scheduler-lock:<queue>``, and a restarted worker never became
    that queue's scheduler. A parent already gone before the call ends this process now."""
    if parent_pid is None:
        return
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        libc.prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG = 1
    except (OSError, AttributeError):  # not Linux: the watch below still ends it within a poll
        pass
    if os.getppid() != parent_pid:
        os._exit(1)


class TimerScheduler(RQScheduler):
    poll_seconds: float = SCHEDULER_POLL_SECONDS
    #: the worker process that started this scheduler (set before the fork)
    parent_pid: int | None = None

    @property
    def should_reacquire_locks(self):
        # a worker's queues' locks may be held by several schedulers (taken at the same
        # start); one whose holder died is released by the workers' watch
        # (take_over_dead_scheduler) and taken here at the next poll, not after RQ's 10 minutes
        return self._queue_names != self._acquired_locks

    def prepare_registries(self, queue_names=None):
        self._scheduled_job_registries = [
            ExactScheduledJobRegistry(name, connection=self.connection, serializer=self.serializer)
            for name in (queue_names or self._acquired_locks)
        ]

    def work(self):
        # RQ's loop, with the shorter sleep; in its own process, which dies with the worker
        die_with_parent(self.parent_pid)
        self._install_signal_handlers()
        self.register_birth()
        while True:
            if self._stop_requested or (self.parent_pid is not None and os.getppid() != self.parent_pid):
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

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        #: set once the worker stops: from then on no takeover may start a scheduler,
        #: which would outlive the worker's own stop of its scheduler (and keep the
        #: process from exiting). Taken with ``takeover`` held, so a takeover under way
        #: ends (its scheduler then stopped with the worker's) before the worker stops.
        self.stopping = threading.Event()
        self.takeover = threading.Lock()

    def _stop_takeovers(self) -> None:
        self.stopping.set()
        with self.takeover:
            pass

    def request_stop(self, signum, frame):
        self._stop_takeovers()
        super().request_stop(signum, frame)

    def teardown(self):
        self._stop_takeovers()
        super().teardown()

    def _start_scheduler(self, burst: bool = False, logging_level="INFO", date_format=None, log_format=None):
        # RQ's own method, with the scheduler class swapped
        extra = {k: v for k, v in (("date_format", date_format), ("log_format", log_format)) if v}
        self.scheduler = TimerScheduler(self.queues, connection=self.connection,
                                        logging_level=logging_level or self.log.level,
                                        serializer=self.serializer, **extra)
        self.scheduler.poll_seconds = self.poll_seconds
        self.scheduler.parent_pid = os.getpid()
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


#: A scheduler that has not beaten for this long is dead (it beats every poll, 0.2 s).
#: Taking over from one only slow costs nothing worse than two schedulers for a moment
#: (the slow one drops the lock at its next beat): a job moved twice re-checks its
#: premise and does nothing the second time. Short, because every timer due meanwhile
#: waits: with 1-second clocks, a timeout must fire within 2 s of its deadline.
STALE_SCHEDULER_SECONDS = 0.8
#: How often each worker looks at the scheduler lock's holder.
WATCH_SECONDS = 0.2


def take_over_dead_scheduler(worker: TimerWorker) -> bool:
    """Start this worker's scheduler if the one holding the queue's lock is dead.

    RQ keeps a dead scheduler's lock for 61 s and lets other workers retry only every
    10 minutes; until then no scheduled job would move and every timer would wait for
    the sweeper. Called every ``WATCH_SECONDS`` by the worker's watch thread: a lock whose
    holder has not beaten for ``STALE_SCHEDULER_SECONDS`` is released (only if it still
    names that holder) and taken.
    """
    with worker.takeover:
        return _take_over(worker)


def _take_over(worker: TimerWorker) -> bool:
    scheduler = worker.scheduler
    if worker.stopping.is_set() or worker._stop_requested or scheduler is None:
        return False  # shutting down
    conn = worker.connection
    free = False
    for queue in worker.queue_names():
        key = RQScheduler.get_locking_key(queue)
        holder = conn.get(key)
        if holder is None:
            free = True
            continue
        holder = holder.decode()
        if holder == scheduler.name and scheduler._process is not None and scheduler._process.is_alive():
            continue  # ours
        beat = conn.hget(SCHEDULER_KEY_TEMPLATE % holder, "last_heartbeat")
        if beat is not None and (now() - utcparse(beat.decode())).total_seconds() < STALE_SCHEDULER_SECONDS:
            continue
        # a lock just taken (its scheduler process has not beaten yet) has its whole time
        # to live, which RQ sets to interval + 60 s when it takes or refreshes the lock
        if conn.pttl(key) > (scheduler.interval + 60 - STALE_SCHEDULER_SECONDS) * 1000:
            continue
        release_lock(conn, key, holder)
        free = True
    if not free or (scheduler._process is not None and scheduler._process.is_alive()):
        return False  # every lock has a live holder, or our scheduler takes the free ones itself
    scheduler.acquire_locks(auto_start=True)
    trace("takeover", worker=worker.name, acquired=bool(scheduler.acquired_locks))
    return bool(scheduler.acquired_locks)
