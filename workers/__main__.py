"""`python -m workers`: an RQ worker on the Entrepot queues, plus the periodic sweeper.

Three kinds of queues: "main" (short jobs: the clock queue, then the main queue of mail,
messages' fan-outs and the sweeper's work; and the games waiting for their fan-out, taken
by a loop of their own, ``fan_out_waiting``), "ai" (computer moves, which may search for a
second or more) and "webhooks" (deliveries, each up to its deadline whatever the receiver
does).
A worker listens to all by default, clocks first; ``--queues main``, ``--queues ai`` and
``--queues webhooks`` split them over processes, so short jobs never wait behind a search
or a slow receiver (``entrepot serve`` does that).
"""

from __future__ import annotations

import argparse
import logging
import sys
import threading
import time
import traceback
from datetime import datetime, timedelta

from redis import Redis
from rq.utils import now as rq_now
from rq.worker import SimpleWorker

from service.job_queue import (
    JobQueue,
    ai_queue,
    clock_queue,
    fanouts_key,
    timer_channel,
    watched_queues,
    webhook_queue,
)
from service.observability import logs, metrics, tracing
from service.observability.presence import announce, keep
from service.observability.tracing import TracedJob
from service.runtime.health import beat
from service.runtime.migrate import migrate
from workers.account_jobs import sweep_accounts
from workers.clock_jobs import sweep_tables
from workers.game_jobs import sweep
from workers.mail_jobs import sweep_mail
from workers.notification_jobs import sweep_notifications
from workers.rating_jobs import sweep_lobby
from workers.services import services

log = logging.getLogger("entrepot.worker")

#: The longest a worker's timer loop sleeps: it sleeps until the earliest timer still to
#: come, and is woken sooner by a message on the timer channel when an earlier timer or a
#: job for later is set (service/job_queue.py, ``timer_channel``); this bounds the delay
#: should a wake-up be lost (Redis restarting) or a killed worker's claims wait for a turn.
TIMER_LONGEST_SLEEP = 1.0
#: How often each worker looks for a clock job a dead worker was running.
WATCH_SECONDS = 0.2
#: A game whose fan-out waited longer than this (seconds) is logged: the workers lag
#: (entrepot_fanouts_waiting counts the games waiting).
FANOUT_LAG_LOGGED = 5.0
#: The least time between two of RQ's heartbeats of a worker's own key (RQ's worker_ttl
#: is minutes; /health reads the workers' own beats, service/runtime/health.py).
HEARTBEAT_EVERY = timedelta(seconds=1)


class EntrepotWorker(SimpleWorker):
    """RQ's SimpleWorker with its worker key's heartbeat written at most once a second.
    RQ writes it three times a job, three round trips each (HSET, EXPIRE, EXPIRE): a
    seventh of a busy worker's CPU (bench/README.md, issue 24). The heartbeats that carry a
    job's own time (given a timeout or a pipeline) are RQ's, unchanged."""

    def heartbeat(self, timeout=None, pipeline=None):
        if timeout is None and pipeline is None and self.last_heartbeat is not None \
                and rq_now() - self.last_heartbeat < HEARTBEAT_EVERY:
            return
        super().heartbeat(timeout, pipeline)


def dequeue_connection(redis_url: str) -> Redis:
    """The RQ worker's own Redis client, none of whose connections is made yet. RQ raises
    its pool's socket timeout past its blocking dequeue's (BLPOP, 405 s), but only for the
    connections made after: redis-py 8 gives every connection a 5-second timeout, and one
    the services' client had already made (the start's sweeps) then timed the idle
    worker's dequeue out every 5 s, each time followed by a sleep of 1, 2, 4... up to 60 s
    before the next look: a move on a quiet server waited that long for its fan-out.
    The services' client (the jobs' own commands) keeps its 5 s."""
    return Redis.from_url(redis_url)


class Alarm:
    """The timer loop's sleep: until a time, or sooner when a wake-up on the timer channel
    names an earlier time (messages that came while the loop was busy are read at its
    next sleep, so none is missed between turns)."""

    def __init__(self, redis, channel: str, clock):
        self.redis = redis
        self.channel = channel
        self.clock = clock
        self.pubsub = None

    def sleep(self, seconds: float, stop: threading.Event) -> None:
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0 and not stop.is_set():
            try:
                if self.pubsub is None:
                    self.pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
                    self.pubsub.subscribe(self.channel)
                message = self.pubsub.get_message(timeout=left)
            except Exception:  # Redis restarting: sleep the whole time, subscribe again after
                log.warning("timer loop: no wake-ups from Redis", exc_info=True)
                self.close()
                stop.wait(left)
                return
            if message is not None and message["type"] == "message":
                try:
                    sooner = (datetime.fromisoformat(message["data"].decode()) - self.clock.now()).total_seconds()
                except (ValueError, TypeError):  # not a time of ours: no reason to wake
                    continue
                deadline = min(deadline, time.monotonic() + sooner)

    def close(self) -> None:
        if self.pubsub is not None:
            try:
                self.pubsub.close()
            except Exception:  # already gone
                pass
            self.pubsub = None


#: outcomes of a timer turn that changed no game: no reason to look again at once (a game
#: refused or found early keeps its due time, and would be offered again in a tight loop)
IDLE_OUTCOMES = frozenset({"stale", "nothing", "early", "failed"})
#: a timer loop that has not ended a turn for this long is reported stuck, with its stack
STUCK_AFTER_SECONDS = 15.0


class TimerLoop:
    """The timer loop's thread: the table's timers due (ClockService.run_due_timers, in
    every worker that takes the main queues; they share the due timers through
    PostgreSQL's row locks), and the RQ jobs scheduled for later whose time has come. A
    turn that ran a timer is followed at once by the next (a backlog drains without
    waiting); otherwise the loop sleeps until the next timer, at most ``longest``, woken
    sooner by an earlier one (Alarm).

    Watched (``check``, from the worker's watch), since a silent loop leaves the timers to
    the sweeper's slower pace: a loop that died is started again; one that has not ended a
    turn for STUCK_AFTER_SECONDS is logged with where it waits, and after twice that is
    replaced by a new one (the old one ends at its next turn: the timers' claims keep two
    from running one game's timer)."""

    def __init__(self, stop: threading.Event, longest: float, jobs: JobQueue, timers: bool):
        self.stop, self.longest, self.jobs, self.timers = stop, longest, jobs, timers
        self.turn_ended = time.monotonic()
        self.reported_at = 0.0
        self.thread: threading.Thread | None = None
        self.generation = 0  # the current loop's; an older one stops at its next turn

    def start(self) -> None:
        self.turn_ended = time.monotonic()
        self.generation += 1
        self.thread = threading.Thread(target=self._forever, args=(self.generation,), name="timer-loop",
                                       daemon=True)
        self.thread.start()

    def check(self) -> None:
        if self.thread is None or self.stop.is_set():
            return
        if not self.thread.is_alive():
            log.error("the timer loop had stopped: started again")
            self.start()
            return
        silent = time.monotonic() - self.turn_ended
        if silent > STUCK_AFTER_SECONDS and time.monotonic() - self.reported_at > STUCK_AFTER_SECONDS:
            self.reported_at = time.monotonic()
            frame = sys._current_frames().get(self.thread.ident)
            where = "".join(traceback.format_stack(frame)) if frame is not None else "(no frame)"
            log.error("the timer loop has not ended a turn for %.0f s; it is at:\n%s", silent, where)
        if silent > 2 * STUCK_AFTER_SECONDS:
            log.error("the timer loop has not ended a turn for %.0f s: a new one takes over", silent)
            self.start()

    def _forever(self, generation: int) -> None:
        svc = services()
        clocks = svc.clocks
        alarm = Alarm(svc.redis, timer_channel(svc.settings.queue_name), svc.clock)
        try:
            while not self.stop.is_set() and generation == self.generation:
                wait = self.longest
                try:
                    self.jobs.move_due_jobs()
                    if self.timers:
                        outcomes = clocks.run_due_timers()
                        if any(outcome not in IDLE_OUTCOMES for outcome in outcomes):
                            self.turn_ended = time.monotonic()
                            continue
                        upcoming = clocks.seconds_to_next_timer()
                        if upcoming is not None:
                            wait = min(self.longest, upcoming)
                except Exception:  # the database may be restarting; try again next time
                    log.exception("timer loop failed")
                alarm.sleep(wait, self.stop)
                self.turn_ended = time.monotonic()
        finally:
            alarm.close()


def _watch(stop: threading.Event, presence, jobs: JobQueue, timer_loop: TimerLoop | None) -> None:
    """Every WATCH_SECONDS: queue again the clock job a dead worker was running, keep this
    worker's presence, and look after the timer loop."""
    while not stop.wait(WATCH_SECONDS):
        try:
            orphans = jobs.requeue_orphaned_clock_jobs()
            if orphans:
                log.info("queued again %s clock jobs a dead worker was running", orphans)
            keep(presence)
            if timer_loop is not None:
                timer_loop.check()
        except Exception:  # Redis may be restarting; try again next time
            log.exception("worker watch failed")


def fan_out_waiting(stop: threading.Event, jobs: JobQueue, notifications, wait: float | None) -> int:
    """The fan-out loop (in every worker that takes the main queues): fan out each game
    waiting in the set (RQJobQueue.queue_fanout), oldest first, until ``stop``; waits up
    to ``wait`` seconds at a time for one, or with ``wait`` None ends when none is left (a
    burst). A fan-out the database refused goes back into the set, tried again a second
    later (meanwhile the sweeper may take it). Returns how many games were fanned out.

    No gathering: each game is fanned out as soon as taken (holding it back 0.1 s, so that
    one fan-out would tell several commands, only made the players wait). A fan-out runs
    beside the computer's move, not before it: it may tell two turns of a seat at once,
    and only the one not played yet is mailed (service/mail/content.py, turn_still_open)."""
    done = 0
    while not stop.is_set():
        try:
            taken = jobs.take_fanout(wait)
        except Exception:  # Redis restarting: the sweeper covers the games meanwhile
            log.exception("could not take a fan-out")
            if wait is None or stop.wait(1.0):
                return done
            continue
        if taken is None:
            if wait is None:
                return done
            continue
        game_id, waited = taken
        if waited > FANOUT_LAG_LOGGED:
            log.warning("the fan-out of %s waited %.1f s: the workers lag behind the commits", game_id, waited)
        try:
            notifications.fan_out_game(game_id)
            done += 1
        except Exception:  # the database may be restarting
            log.exception("could not fan out %s: it waits again", game_id)
            jobs.queue_fanout(game_id, 0)
            if stop.wait(1.0):
                return done
    return done


def _sweep_forever(stop: threading.Event, every: float) -> None:
    while not stop.wait(every):
        try:
            found = sweep()
            if found:
                log.info("sweeper re-queued %s computer moves", found)
            timers, stand_ins, vacations = sweep_tables()
            if timers or stand_ins or vacations:
                log.info("sweeper re-queued %s timers, %s stand-in moves, %s vacation starts",
                         timers, stand_ins, vacations)
            resent, digests = sweep_mail()
            if resent or digests:
                log.info("sweeper re-sent %s lost mails, queued %s digests", resent, digests)
            requests = sweep_accounts()
            if requests:
                log.info("sweeper re-queued %s sign-in or reset link requests", requests)
            rated, withdrawn = sweep_lobby()
            if rated or withdrawn:
                log.info("sweeper rated %s games, withdrew %s seeks", rated, withdrawn)
            fanouts, mails, deliveries = sweep_notifications()
            if fanouts or mails or deliveries:
                log.info("sweeper fanned out %s games, re-queued %s mail jobs and %s webhook deliveries",
                         fanouts, mails, deliveries)
        except Exception:  # the database may be restarting; try again next time
            log.exception("sweep failed")


def _beat_forever(stop: threading.Event, redis, queue_name: str, ttl: float, kinds: tuple[str, ...]) -> None:
    """The heartbeats /health looks for, one per kind this worker takes: refreshed three
    times per time to live."""
    while True:
        try:
            beat(redis, queue_name, ttl, kinds)
        except Exception:  # Redis restarting: /health says so meanwhile
            log.exception("heartbeat failed")
        if stop.wait(ttl / 3):
            return


def count_failure(job, *_exc_info) -> bool:
    """RQ's exception handler: count the failure by queue, then RQ's own handling."""
    metrics.JOB_FAILURES.labels(job.origin).inc()
    return True


def queue_names(base: str, kinds: str) -> list[str]:
    """The RQ queues of ``kinds`` in the order a worker takes jobs from them: a clock's
    job before any other."""
    names = {"main": [clock_queue(base), base], "ai": [ai_queue(base)], "webhooks": [webhook_queue(base)]}
    chosen = [k.strip() for k in kinds.split(",") if k.strip()]
    unknown = [k for k in chosen if k not in names]
    if unknown or not chosen:
        raise SystemExit(f"--queues: expected main, ai and/or webhooks, got {kinds!r}")
    return [name for k in chosen for name in names[k]]


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m workers")
    parser.add_argument("--burst", action="store_true", help="stop when the queue is empty")
    parser.add_argument("--sweep-every", type=float, default=10.0,
                        help="seconds between sweeps (a lost timer job fires at most this much late)")
    parser.add_argument("--timer-longest-sleep", type=float, default=TIMER_LONGEST_SLEEP,
                        help="the longest the timer loop sleeps between looks for due timers (it sleeps"
                             " until the next timer, woken sooner by an earlier one)")
    parser.add_argument("--queues", default="main,ai,webhooks",
                        help="comma-separated: main (clocks, mail, short jobs), ai (computer moves),"
                             " webhooks (deliveries)")
    args = parser.parse_args()
    logs.configure()
    tracing.setup("entrepot-worker")
    svc = services()
    metrics.serve_from_env(svc.settings.redis_url, watched_queues(svc.settings.queue_name),
                            fanouts_key(svc.settings.queue_name))
    metrics.sample_pools({"worker": svc.store.pool})
    migrate(svc.settings.owner_database_url, svc.settings.database_url)
    stop = threading.Event()
    kinds = tuple(dict.fromkeys(k.strip() for k in args.queues.split(",") if k.strip()))
    queues = queue_names(svc.settings.queue_name, args.queues)  # refuses unknown kinds
    threading.Thread(target=_beat_forever, daemon=True, args=(
        stop, svc.redis, svc.settings.queue_name, svc.settings.worker_seen_within_seconds, kinds)).start()
    sweep()  # at start: whatever was lost while no worker ran
    if args.burst:  # the timers and jobs due now, then the queues' jobs
        svc.jobs.move_due_jobs()
        while "main" in kinds and svc.clocks.run_due_timers():
            pass
    sweep_tables()
    sweep_notifications()
    if args.burst and "main" in kinds:
        fan_out_waiting(stop, svc.jobs, svc.notifications, None)
    # SimpleWorker runs jobs in this process: no fork per move, one pool for all jobs.
    worker = EntrepotWorker(queues, connection=dequeue_connection(svc.settings.redis_url),
                            exception_handlers=[count_failure], job_class=TracedJob)
    # held open while this process lives: the sweepers tell by it that a job it started
    # is still running (service/observability/presence.py)
    presence = announce(svc.settings.redis_url, worker.name)
    threading.Thread(target=_sweep_forever, args=(stop, args.sweep_every), daemon=True).start()
    timer_loop = None if args.burst else TimerLoop(stop, args.timer_longest_sleep, svc.jobs, "main" in kinds)
    if timer_loop is not None:
        timer_loop.start()
    loops = [] if timer_loop is None else ["the timer loop"]
    if "main" in kinds and not args.burst:
        threading.Thread(target=fan_out_waiting, args=(stop, svc.jobs, svc.notifications, 1.0),
                         name="fan-out-loop", daemon=True).start()
        loops.append("the fan-out loop")
    # RQ's own lines (its start among them) are at ENTREPOT_JOB_LOG_LEVEL: this one says
    # what this worker does
    log.info("worker %s takes the queues %s%s", worker.name, ", ".join(queues),
             "".join(f", runs {loop}" for loop in loops))
    threading.Thread(target=_watch, args=(stop, presence, svc.jobs, timer_loop), daemon=True).start()
    try:
        # no RQ scheduler: the timer loop above moves the jobs queued for later
        worker.work(burst=args.burst, logging_level=svc.settings.job_log_level)
    finally:
        stop.set()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
