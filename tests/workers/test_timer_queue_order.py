"""The order in which workers take the clocks' jobs, on real Redis with the workers'
scheduler: first in first out among the clocks' jobs, all ahead of the other short jobs.

Pushed to the front of the shared short queue instead, a batch of slot jobs moved at once
(by a scheduler taking over from a killed one) ran newest first, and every new slot's job
went ahead of the waiting ones: under load the earliest timers waited seconds
(docs/correspondence.md, "Measured").
"""

from __future__ import annotations

import time
import uuid
from datetime import UTC, datetime, timedelta

from redis import Redis
from rq import Queue

from service.jobs import FANOUT, RQJobQueue
from service.timer_slots import SLOT, slot_bounds, slot_of
from workers.__main__ import queue_names
from workers.timer_worker import TimerScheduler


def test_timer_jobs_due_together_run_earliest_first_and_ahead_of_other_short_jobs(redis_url):
    redis = Redis.from_url(redis_url)
    name = f"entrepot-order-{uuid.uuid4().hex[:8]}"
    jobs = RQJobQueue(redis, name)
    queues = [Queue(n, connection=redis) for n in queue_names(name, "main,ai")]
    scheduler = TimerScheduler(queue_names(name, "main,ai"), connection=redis)
    try:
        jobs.enqueue_job(FANOUT, ("g", 3), f"fanout-{name}")  # a short job waiting already
        first = slot_of(datetime.now(UTC) + timedelta(seconds=0.3))
        slots = [first, first + 1, first + 2]
        for n, slot in enumerate(slots):
            jobs.schedule_timer(f"{name}-{n}", 1, slot_bounds(slot)[1] - SLOT / 2)
        time.sleep(max(0.0, (slot_bounds(slots[-1])[1] - datetime.now(UTC)).total_seconds()) + 0.05)
        # all three due at once, moved in one batch (as by a scheduler that just took over)
        assert scheduler.acquire_locks()
        scheduler.enqueue_scheduled_jobs()
        jobs.schedule_timer(f"{name}-late", 1, datetime.now(UTC) - timedelta(seconds=1))  # due since a while
        taken = []
        while (result := Queue.dequeue_any(queues, None, connection=redis)) is not None:
            taken.append(result[0].id)
    finally:
        scheduler.release_locks()
        for queue in queues:
            queue.empty()
        redis.delete(jobs.scheduled_key)
    assert taken == [*(f"timers-{slot}" for slot in slots), f"timer-{name}-late-1", f"fanout-{name}"]
