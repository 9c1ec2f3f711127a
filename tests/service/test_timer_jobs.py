"""The RQ adapter's clock jobs on real Redis: times read from the clock port, and the clock
jobs of dead workers queued again. (The table's timers are no RQ jobs: the workers' timer
loop runs them from PostgreSQL; tests/service/test_clocks.py.)"""

from __future__ import annotations

import time
import uuid
from datetime import UTC, datetime, timedelta

import pytest
from redis import Redis
from rq import Queue
from rq.registry import ScheduledJobRegistry

from service.clock import FixedClock
from service.job_queue import RQJobQueue
from service.observability.presence import announce

LONG_AGO = datetime(2001, 3, 4, 5, 6, 7, tzinfo=UTC)


@pytest.fixture
def clock():
    return FixedClock(LONG_AGO)


@pytest.fixture
def jobs(redis_url, clock):
    queue = RQJobQueue(Redis.from_url(redis_url), f"entrepot-timers-{uuid.uuid4().hex[:8]}", clock)
    yield queue
    for q in (queue.queue, queue.clock_queue):
        registry = ScheduledJobRegistry(queue=q)
        for job_id in registry.get_job_ids():
            queue.redis.delete(f"rq:job:{job_id}")
        queue.redis.delete(registry.key)
        Queue(q.name, connection=queue.redis).empty()


def test_a_timer_is_no_job_the_timer_loop_reads_the_games_time(jobs, clock):
    jobs.schedule_timer("g", 3, clock.now() - timedelta(seconds=1))
    jobs.schedule_timer("h", 3, clock.now() + timedelta(seconds=30))
    assert jobs.clock_queue.job_ids == [] and ScheduledJobRegistry(queue=jobs.clock_queue).get_job_ids() == []


def test_a_jobs_time_is_read_on_the_clock_port_not_the_machines(jobs, clock):
    # the clock port says 2001: a vacation starting an hour after it is an hour away, and
    # one that started a minute before it is due now, whatever the machine's time
    jobs.schedule_vacation("later", clock.now() + timedelta(hours=1))
    jobs.schedule_vacation("now", clock.now() - timedelta(minutes=1))
    assert jobs.clock_queue.job_ids == ["vacation-now"]
    registry = ScheduledJobRegistry(queue=jobs.clock_queue)
    assert registry.get_job_ids() == ["vacation-later"]
    in_an_hour = time.time() + 3600
    score = jobs.redis.zscore(registry.key, "vacation-later")
    assert in_an_hour - 5 <= score <= in_an_hour + 5
    clock.at = datetime(2099, 1, 1, tzinfo=UTC)  # and a clock far ahead: 2030 is long past
    assert jobs.enqueue_job("workers.notification_jobs.fan_out_game", ("g", 3), "fanout-g-3",
                            at=datetime(2030, 1, 1, tzinfo=UTC))
    assert jobs.queue.job_ids == ["fanout-g-3"]


def test_a_clock_job_a_dead_worker_was_running_is_queued_again_at_once(jobs, redis_url):
    alive = f"alive-{uuid.uuid4().hex[:8]}"
    presence = announce(redis_url, alive)
    real_now = datetime.now(UTC)  # RQ's bookkeeping is in the machine's time

    def rq_time(at: datetime) -> str:
        return at.strftime("%Y-%m-%dT%H:%M:%S.%fZ")

    long_ago, just_now = rq_time(real_now - timedelta(seconds=2)), rq_time(real_now - timedelta(seconds=0.1))
    started = {  # vacation: (the worker running its job, since when)
        "v1": (f"gone-{uuid.uuid4().hex[:8]}", long_ago),  # its worker was killed: queued again
        "v2": (alive, long_ago),  # a slow job of a live worker: left alone
        "v3": (f"gone-{uuid.uuid4().hex[:8]}", just_now),  # just started: it may be fine yet
    }
    try:
        for vacation_id, (worker, at) in started.items():
            jobs.schedule_vacation(vacation_id, jobs.clock.now() - timedelta(seconds=1))  # due: queued
            real = f"vacation-{vacation_id}"
            jobs.redis.lrem(jobs.clock_queue.key, 0, real)  # taken by its worker, then started
            jobs.redis.hset(f"rq:job:{real}", mapping={"status": "started", "worker_name": worker, "started_at": at})
            jobs.redis.zadd(jobs.clock_started_key, {f"{real}:execution": time.time() + 60})
        assert jobs.requeue_orphaned_clock_jobs() == 1
        assert jobs.requeue_orphaned_clock_jobs() == 0  # once
    finally:
        presence.close()
        jobs.redis.delete(jobs.clock_started_key, *(f"rq:job:vacation-{j}" for j in started),
                          *(f"entrepot:orphan:vacation-{j}:execution" for j in started))
    assert jobs.clock_queue.job_ids == ["vacation-v1"]
