"""The RQ adapter's timer jobs on real Redis: exact times, and the sweeper's re-queueing."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta

import pytest
from redis import Redis
from rq import Queue

from service.jobs import RQJobQueue


@pytest.fixture
def jobs(redis_url):
    queue = RQJobQueue(Redis.from_url(redis_url), f"entrepot-timers-{uuid.uuid4().hex[:8]}")
    yield queue
    Queue(queue.queue.name, connection=queue.redis).empty()
    queue.redis.delete(queue.scheduled_key)


def test_a_timer_is_scored_with_its_exact_time_not_rqs_whole_second(jobs):
    at = datetime.now(UTC).replace(microsecond=700_000) + timedelta(seconds=30)
    jobs.schedule_timer("g", 3, at)
    assert jobs.redis.zscore(jobs.scheduled_key, "timer-g-3") == pytest.approx(at.timestamp())
    jobs.schedule_timer("g", 4, datetime.now(UTC) - timedelta(seconds=1))  # already due: queued now
    assert jobs.queue.job_ids == ["timer-g-4"]


def test_the_sweeper_requeues_lost_stranded_and_dead_jobs_but_not_those_on_their_way(jobs):
    jobs.schedule_timer("queued", 1, datetime.now(UTC) - timedelta(seconds=1))
    jobs.redis.hset("rq:job:timer-running-1", "status", "started")
    jobs.redis.hset("rq:job:timer-dead-1", "status", "started")
    queued = jobs.requeue_timers([
        ("queued", 1, 30.0),   # in the queue: left alone however late
        ("running", 1, 1.0),   # started a moment ago: left alone
        ("dead", 1, 30.0),     # "started" 30 s after its time: its worker died
        ("lost", 1, 0.6),      # no job at all (a flushed Redis)
    ])
    assert queued == 2
    assert sorted(jobs.queue.job_ids) == ["timer-dead-1", "timer-lost-1", "timer-queued-1"]
