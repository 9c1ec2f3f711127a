"""The RQ adapter's timer jobs on real Redis: one job per time slot at its exact end, and the
sweeper's re-queueing."""

from __future__ import annotations

import time
import uuid
from datetime import UTC, datetime, timedelta

import pytest
from redis import Redis
from rq import Queue
from rq.utils import now, utcformat

from service.jobs import RQJobQueue
from service.presence import announce, workers_present
from service.timer_slots import slot_bounds, slot_of


@pytest.fixture
def jobs(redis_url):
    queue = RQJobQueue(Redis.from_url(redis_url), f"entrepot-timers-{uuid.uuid4().hex[:8]}")
    yield queue
    Queue(queue.queue.name, connection=queue.redis).empty()
    Queue(queue.clock_queue.name, connection=queue.redis).empty()
    queue.redis.delete("rq:job:fanout-g-3")
    for job_id in queue.redis.zrange(queue.scheduled_key, 0, -1):
        queue.redis.delete(b"rq:job:" + job_id)
    queue.redis.delete(queue.scheduled_key)


def test_a_timer_goes_to_the_job_of_its_slot_scored_with_the_slots_exact_end(jobs):
    at = datetime.now(UTC).replace(microsecond=730_000) + timedelta(seconds=30)
    jobs.schedule_timer("g", 3, at)
    jobs.schedule_timer("h", 7, at + timedelta(milliseconds=50))  # the same slot: the same job
    jobs.schedule_timer("k", 2, at + timedelta(milliseconds=80))  # the next slot
    slot = slot_of(at)
    assert slot_bounds(slot)[0] < at <= slot_bounds(slot)[1]
    assert jobs.redis.zrange(jobs.scheduled_key, 0, -1, withscores=True) == [
        (f"timers-{slot}".encode(), pytest.approx(at.replace(microsecond=800_000).timestamp())),
        (f"timers-{slot + 1}".encode(), pytest.approx(at.replace(microsecond=900_000).timestamp())),
    ]
    jobs.enqueue_job("workers.notification_jobs.fan_out_game", ("g", 3), "fanout-g-3")
    jobs.schedule_timer("g", 4, datetime.now(UTC) - timedelta(seconds=1))  # its slot is over:
    # its own job, queued now, on the clock queue (which workers serve before the other
    # short jobs: a deadline may not lag)
    assert jobs.clock_queue.job_ids == ["timer-g-4"]
    assert jobs.queue.job_ids == ["fanout-g-3"]


def test_the_sweeper_requeues_lost_stranded_and_dead_jobs_but_not_those_on_their_way(jobs, redis_url):
    base = datetime.now(UTC) - timedelta(minutes=1)
    queued, running, dead, orphaned, lost, popped, taking = (slot_of(base) + n for n in range(7))
    alive = f"alive-{uuid.uuid4().hex[:8]}"
    presence = announce(redis_url, alive)  # a worker process that holds its connection
    jobs.redis.hset(f"rq:job:timers-{queued}", "status", "queued")
    jobs.redis.rpush(jobs.clock_queue.key, f"timers-{queued}")
    for slot in (popped, taking):  # "queued", yet off the queue: a worker took it
        jobs.redis.hset(f"rq:job:timers-{slot}", "status", "queued")
    for slot, worker in ((running, alive), (dead, alive), (orphaned, f"gone-{uuid.uuid4().hex[:8]}")):
        jobs.redis.hset(f"rq:job:timers-{slot}", mapping={"status": "started", "worker_name": worker})
    try:
        assert alive in workers_present(jobs.redis)
        requeued = jobs.requeue_timers([
            ("queued", 1, slot_bounds(queued)[1], 30.0),  # in the queue: left alone however late
            ("running", 1, slot_bounds(running)[1], 1.0),  # started a moment ago, its worker alive
            ("dead", 1, slot_bounds(dead)[1], 30.0),  # "started" 30 s after its time: a lost machine
            ("orphaned", 1, slot_bounds(orphaned)[1], 1.0),  # its worker's connection is gone
            ("lost", 1, slot_bounds(lost)[1], 0.6),  # no job at all (a flushed Redis)
            ("lost-too", 1, slot_bounds(lost)[1] - timedelta(milliseconds=1), 0.6),  # the same slot
            ("popped", 1, slot_bounds(popped)[1], 3.0),  # taken by a worker that died before starting it
            ("taking", 1, slot_bounds(taking)[1], 0.3),  # taken a moment ago: about to start
        ])
    finally:
        presence.close()
        jobs.redis.delete(*(f"rq:job:timers-{slot}" for slot in (queued, running, dead, orphaned, taking)))
    assert requeued == 4
    # the re-queued ones, older than any job waiting, go to the front, the earliest first
    assert jobs.clock_queue.job_ids == [f"timers-{s}" for s in (dead, orphaned, lost, popped, queued)]
    deadline = time.monotonic() + 5  # Redis forgets a closed connection's name at once
    while alive in workers_present(jobs.redis) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert alive not in workers_present(jobs.redis)


def test_a_clock_job_a_dead_worker_was_running_is_queued_again_at_once(jobs, redis_url):
    alive = f"alive-{uuid.uuid4().hex[:8]}"
    presence = announce(redis_url, alive)
    long_ago, just_now = utcformat(now() - timedelta(seconds=2)), utcformat(now() - timedelta(seconds=0.1))
    started = {  # game: (the worker running its timer job, since when)
        "g1": (f"gone-{uuid.uuid4().hex[:8]}", long_ago),  # its worker was killed: queued again
        "g2": (alive, long_ago),  # a slow job of a live worker: left alone
        "g3": (f"gone-{uuid.uuid4().hex[:8]}", just_now),  # just started: it may be fine yet
    }
    try:
        for game_id, (worker, at) in started.items():
            jobs.schedule_timer(game_id, 1, datetime.now(UTC) - timedelta(seconds=1))  # a job of the clock queue
            real = f"timer-{game_id}-1"
            jobs.redis.lrem(jobs.clock_queue.key, 0, real)  # taken by its worker, then started
            jobs.redis.hset(f"rq:job:{real}", mapping={"status": "started", "worker_name": worker, "started_at": at})
            jobs.redis.zadd(jobs.clock_started_key, {f"{real}:execution": time.time() + 60})
        assert jobs.requeue_orphaned_clock_jobs() == 1
        assert jobs.requeue_orphaned_clock_jobs() == 0  # once
    finally:
        presence.close()
        jobs.redis.delete(jobs.clock_started_key, *(f"rq:job:timer-{j}-1" for j in started),
                          *(f"entrepot:orphan:timer-{j}-1:execution" for j in started))
    assert jobs.clock_queue.job_ids == ["timer-g1-1"]
