"""The job queue port and its RQ adapter.

Job arguments are ids and versions only; every job re-checks its premise, so a job that
runs twice or late does nothing wrong.  Postgres is the truth: if Redis loses a job, the
sweeper enqueues it again.
"""

from __future__ import annotations

import logging
import zlib
from datetime import UTC, datetime, timedelta
from typing import Protocol

from redis import Redis
from redis.exceptions import ResponseError, WatchError
from rq import Queue
from rq.job import Job
from rq.registry import ScheduledJobRegistry, StartedJobRegistry
from rq.utils import get_call_string, utcformat
from rq.utils import now as rq_now

from service.clock import Clock, SystemClock
from service.correspondence.timer_trace import trace
from service.observability import tracing
from service.observability.presence import workers_present
from service.observability.tracing import TracedJob
from service.redis_wire import Wire

log = logging.getLogger(__name__)

COMPUTER_MOVE = "workers.game_jobs.play_computer_seat"
#: A clock job runs for a fraction of a second: one started this long ago by a worker
#: whose connection is gone (service/observability/presence.py) died with it (kill -9).
ORPHAN_AFTER = 0.5
VACATION_START = "workers.clock_jobs.start_vacation"
#: Notifications (service/notifications/service.py, service/notifications/webhooks.py); the mail jobs are the
#: mail side's (workers/mail_jobs.py), named here only to be queued.
FANOUT = "workers.notification_jobs.fan_out_game"
MESSAGE_FANOUT = "workers.notification_jobs.fan_out_messages"
WEBHOOK_DELIVERY = "workers.notification_jobs.deliver_webhook"
MAIL_NOTIFICATION = "workers.mail_jobs.mail_notification"
WEBHOOK_DISABLED = "workers.mail_jobs.webhook_disabled"
#: Ratings (service/lobby/ratings.py): the projection of a finished game, after its commit.
RATE_GAME = "workers.rating_jobs.rate_game"


def ai_queue(queue_name: str) -> str:
    """The queue of computer moves: a search may think for a second or more, so clocks,
    mail and other short jobs keep their own queue and never wait behind one."""
    return f"{queue_name}-ai"


def clock_queue(queue_name: str) -> str:
    """The queue of the clocks' jobs (timers, vacation starts), first in every worker's
    list: ahead of fan-outs, deliveries and mail, which may lag while a deadline may not,
    and first in first out among themselves. (Pushed to the front of one shared queue
    instead, a backlog of timer jobs ran newest first: each new slot's job jumped ahead of
    the older ones, which waited seconds; docs/correspondence.md, "Measured".)"""
    return f"{queue_name}-clock"


def timer_channel(queue_name: str) -> str:
    """The Redis channel that wakes the workers' timer loops, asleep until their next
    timer, when a timer or a job for later is set (its time, ISO 8601 by the clock port)."""
    return f"{queue_name}:timers"


def watched_queues(queue_name: str) -> tuple[str, ...]:
    """The queues whose depth, timers, failures and workers the metrics report."""
    return clock_queue(queue_name), queue_name, ai_queue(queue_name)


def webhook_queue(queue_name: str) -> str:
    """The queue of webhook deliveries: an attempt may take its whole deadline
    (Settings.webhook_timeout_seconds) whatever the receiver does, so deliveries have
    workers of their own and clocks and mail never wait behind a slow receiver."""
    return f"{queue_name}-webhooks"


def fanout_job_id(game_id: str, version: int) -> str:
    """The RQ job of a game's fan-out, queued with tracing on (RQJobQueue.queue_fanout)."""
    return f"fanout-{game_id}-{version}"


def fanouts_key(queue_name: str) -> str:
    """The Redis sorted set of the games whose fan-out waits: each game once, however many
    commits it had meanwhile (its id; the score is when it began to wait, by the clock
    port), taken oldest first by the workers' fan-out loop (workers/__main__.py)."""
    return f"{queue_name}:fanouts"


#: Jobs that go to a queue of their own rather than the main queue.
OWN_QUEUE = {WEBHOOK_DELIVERY: webhook_queue}
#: Jobs whose outcome RQ does not keep: the fan-outs (a game's, as a job with tracing on; a
#: message's), whose outcome is the game's fan-out progress in PostgreSQL (game_fanouts).
#: Keeping it is a Redis stream entry and a registry write a job (bench/worker_jobs.py).
NO_RESULT_KEPT = frozenset({FANOUT, MESSAGE_FANOUT})


class JobQueue(Protocol):
    def enqueue_computer_move(self, game_id: str, version: int, seat: int) -> None: ...

    def schedule_timer(self, game_id: str, version: int, at: datetime, again: bool = False) -> None: ...

    def schedule_vacation(self, vacation_id: str, at: datetime) -> None: ...

    def requeue_orphaned_clock_jobs(self) -> int: ...

    def move_due_jobs(self) -> int: ...

    def enqueue_job(self, func: str, args: tuple, job_id: str, at: datetime | None = None) -> bool: ...

    def enqueue_missing(self, jobs: list[tuple[str, tuple, str]]) -> int: ...

    def queue_fanout(self, game_id: str, version: int) -> None: ...

    def take_fanout(self, timeout: float | None) -> tuple[str, float] | None: ...


#: the id of the job whose enqueue RQ records for a RecordedEnqueue (never sent)
_SAMPLE_ID = "entrepot-sample-job-never-sent"


class RecordedEnqueue:
    """RQ's enqueue of a job (a function on a queue, with given options), recorded once
    and replayed for each job with its own id, arguments and times: the same Redis
    commands, keys and fields RQ sends (the queue's registration, the job's hash, its
    status, the push), without building an RQ Job each time (about half of what the
    fan-out's enqueue cost a command: bench/README.md, issue 24 section 7). Recorded
    from RQ itself (its enqueue on a pipeline that is never sent), so it follows RQ.

    Replayed only for jobs queued now, without tracing (a TracedJob carries its sender's
    trace context in its meta: RQ's own enqueue then); tests/service/test_job_records.py
    holds a replayed job equal to the one RQ enqueues, and a worker runs it."""

    #: the fields of the job's hash that differ from job to job (the rest are the recording's)
    PER_JOB = ("created_at", "data", "description", "enqueued_at")

    def __init__(self, redis: Redis, queue: Queue, func: str, options: dict):
        self.redis = redis
        self.serializer = queue.serializer
        self.func = func
        pipe = redis.pipeline()
        try:
            queue.enqueue(func, job_id=_SAMPLE_ID, pipeline=pipe, **options)
            self.commands = [list(args) for args, _ in pipe.command_stack]
        finally:
            pipe.reset()
        #: per command, the positions of the job's id and of the per-job fields' values
        self.slots: list[tuple[list[int], dict[int, str]]] = []
        for args in self.commands:
            ids = [i for i, a in enumerate(args) if isinstance(a, str) and _SAMPLE_ID in a]
            fields = {i + 1: a for i, a in enumerate(args[:-1]) if i >= 2 and i % 2 == 0 and a in self.PER_JOB}
            self.slots.append((ids, fields))
        self._encoder = redis.connection_pool.get_encoder()
        self._packed = self._packing(self._encoder)

    def _packing(self, encoder) -> list[bytes | tuple[str, str | None]]:
        """MULTI, the recorded commands and EXEC in Redis's protocol (RESP), as redis-py's
        pipeline packs them (each argument by the pool's own encoder): runs of bytes that
        are the same for every job, and between them the slots of what is not, a job id
        (with the text around it in its argument) or a per-job field's value."""
        parts: list[bytes | tuple[str, str | None]] = []
        run: list[bytes] = []
        for args, (ids, fields) in zip([["MULTI"], *self.commands, ["EXEC"]],
                                       [([], {}), *self.slots, ([], {})]):
            run.append(b"*%d\r\n" % len(args))
            for i, value in enumerate(args):
                if i in ids or i in fields:
                    parts.append(b"".join(run))
                    run = []
                    parts.append(("id", value) if i in ids else (fields[i], None))
                else:
                    run.append(_bulk(encoder.encode(value)))
        parts.append(b"".join(run))
        return parts

    def enqueue(self, job_id: str, args: tuple) -> None:
        """Queue the job ``job_id`` (``func(*args)``) now, in one round trip."""
        at = utcformat(rq_now())
        values = {"created_at": at, "enqueued_at": at,
                  "data": zlib.compress(self.serializer.dumps((self.func, None, args, {}))),
                  "description": get_call_string(self.func, args, {}, max_length=75)}
        self._send(self.packed(job_id, values))

    def packed(self, job_id: str, values: dict) -> bytes:
        """The transaction that queues ``job_id`` with the per-job fields' ``values``, packed."""
        out = []
        for part in self._packed:
            if type(part) is bytes:
                out.append(part)
                continue
            name, around = part
            value = around.replace(_SAMPLE_ID, job_id) if name == "id" else values[name]
            out.append(_bulk(self._encoder.encode(value)))
        return b"".join(out)

    def _send(self, packed: bytes) -> None:
        """One round trip, as redis-py's pipeline sends a transaction (retried as it would
        be on a lost connection), without its per-command bookkeeping: MULTI's answer, one
        per command, then EXEC's; any error is raised (a connection left with answers
        unread is closed, never reused)."""
        pool = self.redis.connection_pool
        conn = pool.get_connection()
        try:
            conn.retry.call_with_retry(lambda: self._exchange(conn, packed), lambda _error: conn.disconnect())
        except BaseException:
            conn.disconnect()
            raise
        finally:
            pool.release(conn)

    def _exchange(self, conn, packed: bytes) -> None:
        conn.send_packed_command([packed])
        for _ in range(len(self.commands) + 1):  # MULTI's OK, then QUEUED per command
            conn.read_response()
        answers = conn.read_response()  # EXEC's
        if answers is None or len(answers) != len(self.commands):
            raise ResponseError(f"the job's transaction answered {answers!r}")
        for answer in answers:
            if isinstance(answer, Exception):
                raise answer


def _bulk(value: bytes) -> bytes:
    """One argument of a command in Redis's protocol (a RESP bulk string)."""
    return b"$%d\r\n%s\r\n" % (len(value), value)


class RQJobQueue:
    def __init__(self, redis: Redis, queue_name: str, clock: Clock | None = None, wire: Wire | None = None):
        self.redis = redis
        #: a commit's own commands (the fan-out's ZADD, the timer loops' wake-up call),
        #: without redis-py's per-command cost (service/redis_wire.py)
        self.wire = wire or Wire(redis)
        #: the clock port: whether a job's time has come already (queued now, not scheduled)
        self.clock = clock or SystemClock()
        # TracedJob: a job carries its sender's trace context when tracing is on (service/observability/tracing.py)
        self.queue = Queue(queue_name, connection=redis, job_class=TracedJob)
        self.ai_queue = Queue(ai_queue(queue_name), connection=redis, job_class=TracedJob)
        self.clock_queue = Queue(clock_queue(queue_name), connection=redis, job_class=TracedJob)
        self.own_queues = {func: Queue(name(queue_name), connection=redis, job_class=TracedJob)
                           for func, name in OWN_QUEUE.items()}
        self.clock_started_key = StartedJobRegistry(queue=self.clock_queue).key
        self.fanouts_key = fanouts_key(queue_name)
        self.timer_channel = timer_channel(queue_name)
        #: RecordedEnqueue per (queue, function, options), made at its first use
        self._recorded: dict[tuple, RecordedEnqueue] = {}

    def enqueue_computer_move(self, game_id: str, version: int, seat: int) -> None:
        try:
            with self.redis.pipeline() as pipe:  # one round trip (as _schedule)
                self.ai_queue.enqueue(
                    COMPUTER_MOVE,
                    game_id,
                    version,
                    seat,
                    job_id=f"computer-{game_id}-{version}-{seat}",
                    result_ttl=60,
                    failure_ttl=24 * 3600,
                    job_timeout=120,
                    pipeline=pipe,
                )
                pipe.execute()
        except Exception:  # Redis down: the commit stands, the sweeper re-queues later
            log.exception("could not enqueue a computer move for %s v%s", game_id, version)

    def queue_fanout(self, game_id: str, version: int) -> None:
        """Have the game's fan-out (the notifications of its versions up to now) run soon:
        the game joins the set of those waiting (one Redis command; a game already there
        stays there, once), which the workers' fan-out loop empties. Not an RQ job a
        commit: RQ's bookkeeping of a job (about 15 round trips) cost a worker more than
        the fan-out itself (bench/worker_jobs.py). Lost (Redis down, a worker killed
        after taking it), the sweeper fans the game out after its patience, as before.

        With tracing on, an RQ job of its own (FANOUT): its span joins the command's
        trace, which a set of game ids cannot carry."""
        if tracing.enabled():
            self.enqueue_job(FANOUT, (game_id, version), fanout_job_id(game_id, version))
            return
        try:
            self.wire.send("ZADD", self.fanouts_key, "NX", self.clock.now().timestamp(), game_id)
        except Exception:  # Redis down: the commit stands, the sweeper fans it out
            log.exception("could not queue the fan-out of %s v%s", game_id, version)

    def take_fanout(self, timeout: float | None) -> tuple[str, float] | None:
        """For the workers' fan-out loop: the game waiting longest, taken from the set
        (by one worker only), and the seconds it has waited; waits up to ``timeout``
        seconds for one; None for none. ``timeout`` None: only a game waiting now (a
        burst worker)."""
        if timeout is None:
            taken = self.redis.zpopmin(self.fanouts_key, 1)
            game_id, since = taken[0] if taken else (None, None)
        else:
            taken = self.redis.bzpopmin(self.fanouts_key, timeout=timeout)
            _, game_id, since = taken if taken else (None, None, None)
        if game_id is None:
            return None
        return game_id.decode(), max(0.0, self.clock.now().timestamp() - since)

    def schedule_timer(self, game_id: str, version: int, at: datetime, again: bool = False) -> None:
        """Nothing to queue: the game's ``timer_at``, written by its commit, is what the
        workers' timer loop reads (``ClockService.run_due_timers``, on PostgreSQL), so a
        timer cannot be lost between the commit and a queue. Only a wake-up call: a loop
        asleep until a later timer sleeps until this one instead."""
        self._wake(at)

    def _wake(self, at: datetime) -> None:
        try:
            self.wire.send("PUBLISH", self.timer_channel, at.isoformat())
        except Exception:  # lost, the timer is late at most a loop's longest sleep
            log.warning("could not wake the timer loops for %s", at)

    def schedule_vacation(self, vacation_id: str, at: datetime) -> None:
        self._schedule(at, VACATION_START, (vacation_id,), f"vacation-{vacation_id}", self.clock_queue)

    def requeue_orphaned_clock_jobs(self) -> int:
        """For the workers' watch (every 0.2 s): queue again, at the front of the clock
        queue, each clock job (a vacation's start) started more than ORPHAN_AFTER ago by a
        worker whose connection is gone (killed while running it). Returns how many."""
        try:
            entries = self.redis.zrange(self.clock_started_key, 0, -1)  # "{job id}:{execution id}"
            if not entries:
                return 0
            job_ids = [entry.decode().rsplit(":", 1)[0] for entry in entries]
            with self.redis.pipeline(transaction=False) as pipe:
                for job_id in job_ids:
                    pipe.hmget(f"rq:job:{job_id}", "status", "worker_name", "started_at")
                jobs = pipe.execute()
            # RQ stamps a job's start with the machine's time (its own bookkeeping, not the
            # application's time): compared with the machine's time
            since = datetime.now(UTC) - timedelta(seconds=ORPHAN_AFTER)
            long_running = [(entry, job_id, (worker or b"").decode())
                            for entry, job_id, (status, worker, started) in zip(entries, job_ids, jobs)
                            if status == b"started" and started and _rq_time(started) < since]
            present = workers_present(self.redis) if long_running else None
            if present is None:
                return 0
            queued = 0
            for entry, job_id, worker in long_running:
                # every worker's watch looks: one of them queues it
                if worker in present or not self.redis.set(b"entrepot:orphan:" + entry, 1, nx=True, px=60_000):
                    continue
                self.clock_queue.enqueue_job(Job.fetch(job_id, connection=self.redis), at_front=True)
                self.redis.zrem(self.clock_started_key, entry)
                trace("orphan", job=job_id, worker=worker)
                queued += 1
            return queued
        except Exception:
            log.exception("could not look for orphaned clock jobs")
            return 0

    def move_due_jobs(self) -> int:
        """For every worker's timer loop: queue the jobs scheduled for later (vacation starts,
        webhook retries, mail follow-ups) whose time has come, by RQ's public registry API
        (no scheduler process of RQ's runs: one lived on after its worker's kill -9, holding
        RQ's lock). Returns how many."""
        moved = 0
        try:
            due_by = int(datetime.now(UTC).timestamp())  # RQ scores in the machine's whole seconds
            for queue in (self.clock_queue, self.queue, *self.own_queues.values()):
                registry = ScheduledJobRegistry(queue=queue)
                for job_id in registry.get_jobs_to_schedule(due_by, chunk_size=200):
                    moved += self._move(registry, queue, job_id)
        except Exception:
            log.exception("could not move the scheduled jobs")
        return moved

    def _move(self, registry: ScheduledJobRegistry, queue: Queue, job_id: str) -> int:
        """Take one due job out of its registry and into its queue in one MULTI/EXEC, so
        that no crash leaves it in neither (RQ's own scheduler moves its jobs the same way),
        and by one worker only: the transaction watches the job's hash, which the winner's
        move rewrites (status "queued"), so a second mover's EXEC is refused."""
        with self.redis.pipeline() as pipe:
            try:
                pipe.watch(Job.key_for(job_id))
                if pipe.zscore(registry.key, job_id) is None:
                    return 0  # another worker moved it
                try:
                    job = Job.fetch(job_id, connection=self.redis)
                except Exception:  # expired or deleted meanwhile: nothing to run
                    pipe.multi()
                    registry.remove(job_id, pipeline=pipe)
                    pipe.execute()
                    return 0
                pipe.multi()
                registry.remove(job, pipeline=pipe)
                queue.enqueue_job(job, pipeline=pipe)
                pipe.execute()
            except WatchError:
                return 0  # another worker moved it meanwhile
        return 1

    def enqueue_job(self, func: str, args: tuple, job_id: str, at: datetime | None = None) -> bool:
        """A short job on the main queue (a webhook delivery on its own: OWN_QUEUE), now or
        at ``at``, keyed by ``job_id`` (what it does): the job re-checks its premise, so a
        second copy does nothing. False when Redis refused it (the sweeper queues it again)."""
        queue = self._queue_of(func)
        trace("enqueue", job=job_id, queue=queue.name)
        # its outcome kept a minute: `rq info` (and tests) can see that it ran
        result_ttl = 0 if func in NO_RESULT_KEPT else 60
        return self._schedule(at or self.clock.now(), func, args, job_id, queue, result_ttl=result_ttl)

    def _queue_of(self, func: str) -> Queue:
        """The queue of enqueue_job's jobs: their own (OWN_QUEUE) or the main queue."""
        return self.own_queues.get(func, self.queue)

    def enqueue_missing(self, jobs: list[tuple[str, tuple, str]]) -> int:
        """For sweepers: queue now each (func, args, job_id) whose job is neither waiting
        in the queue, scheduled in its registry, nor running (a lost job, or one that died
        with its worker is queued again; a busy queue is not flooded with copies)."""
        if not jobs:
            return 0
        try:
            with self.redis.pipeline(transaction=False) as pipe:
                for func, _, job_id in jobs:
                    pipe.hget(Job.key_for(job_id), "status")
                    pipe.zscore(ScheduledJobRegistry(queue=self._queue_of(func)).key, job_id)
                statuses = pipe.execute()
        except Exception:
            log.exception("could not read the jobs to sweep")
            return 0
        queued = 0
        for (func, args, job_id), (status, scheduled) in zip(jobs, zip(statuses[::2], statuses[1::2])):
            # "scheduled" counts only while the job is in a registry the timer loop moves
            # from: a job whose hash says so but which no registry holds is lost
            if status in (b"queued", b"started", b"deferred") or (status == b"scheduled" and scheduled):
                continue
            queued += self.enqueue_job(func, args, job_id)
        return queued

    def _schedule(self, at: datetime, func: str, args: tuple, job_id: str, queue: Queue | None = None,
                  result_ttl: int = 0, at_front: bool = False) -> bool:
        """``queue``: the main queue unless told (the clocks' jobs go to the clock queue)."""
        queue = queue or self.queue
        # result_ttl=0 by default: a timer's outcome is in the game's stream, not worth a Redis write
        options = {"job_id": job_id, "result_ttl": result_ttl, "failure_ttl": 24 * 3600, "at_front": at_front}
        try:
            # A time already past goes to the queue at once: the scheduler would only add
            # its polling delay.
            now = self.clock.now()
            if at <= now and not at_front and not tracing.enabled():
                # RQ's enqueue, recorded once and replayed (the same commands and job)
                recorded_as = (queue.name, func, result_ttl)
                recorded = self._recorded.get(recorded_as)
                if recorded is None:
                    recorded = self._recorded[recorded_as] = RecordedEnqueue(
                        self.redis, queue, func, {k: v for k, v in options.items() if k != "job_id"})
                recorded.enqueue(job_id, args)
            elif at <= now:
                # one round trip: RQ's own enqueue sends the queue's registration (SADD)
                # and the job (its hash, status, push) as two pipelines; given one, it
                # queues the same commands on it (the same keys and job)
                with self.redis.pipeline() as pipe:
                    queue.enqueue(func, *args, pipeline=pipe, **options)
                    pipe.execute()
            else:
                # the workers' timer loop queues it when due by the machine's time
                # (move_due_jobs), as far ahead as ``at`` is of the clock port's time. RQ
                # counts whole seconds: a job may start up to a second early, and re-checks
                # its premise (a vacation not started yet waits for the sweeper, a
                # webhook's retry is only a retry)
                queue.enqueue_in(at - now, func, *args, **options)
                self._wake(at)
        except Exception:  # Redis down: the commit stands, the sweeper fires it when due
            log.exception("could not schedule %s %s", func, args)
            return False
        return True


class RecordingJobQueue:
    """A queue that only remembers: for service tests that do not run workers."""

    def __init__(self) -> None:
        self.computer_moves: list[tuple[str, int, int]] = []
        self.timers: list[tuple[str, int, datetime]] = []
        self.vacations: list[tuple[str, datetime]] = []
        #: (func, args, job_id, at) of every other job
        self.jobs: list[tuple[str, tuple, str, datetime | None]] = []

    def enqueue_computer_move(self, game_id: str, version: int, seat: int) -> None:
        self.computer_moves.append((game_id, version, seat))

    def schedule_timer(self, game_id: str, version: int, at: datetime, again: bool = False) -> None:
        self.timers.append((game_id, version, at))

    def schedule_vacation(self, vacation_id: str, at: datetime) -> None:
        self.vacations.append((vacation_id, at))

    def requeue_orphaned_clock_jobs(self) -> int:
        return 0

    def move_due_jobs(self) -> int:
        return 0

    def enqueue_job(self, func: str, args: tuple, job_id: str, at: datetime | None = None) -> bool:
        self.jobs.append((func, args, job_id, at))
        return True

    def enqueue_missing(self, jobs: list[tuple[str, tuple, str]]) -> int:
        for func, args, job_id in jobs:
            self.enqueue_job(func, args, job_id)
        return len(jobs)

    def queue_fanout(self, game_id: str, version: int) -> None:
        self.jobs.append((FANOUT, (game_id, version), fanout_job_id(game_id, version), None))

    def take_fanout(self, timeout: float | None) -> tuple[str, float] | None:
        return None


def _rq_time(text: bytes) -> datetime:
    """A time RQ wrote (UTC, ISO 8601)."""
    at = datetime.fromisoformat(text.decode().replace("Z", "+00:00"))
    return at if at.tzinfo else at.replace(tzinfo=UTC)
