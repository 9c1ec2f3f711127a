"""A webhook retry lost on its way to the queue is sent by the sweeper, once.

Two points where a worker's death could lose a retry: between the failed attempt's record
and the scheduling of the next (the retry never reached Redis), and between the retry's
removal from RQ's scheduled registry and its push to the queue (the timer loop's move,
service/job_queue.py). The services run in this process on a clock moved by hand, on real
PostgreSQL and Redis, and send to a real receiver; the jobs are run as a worker would."""

from __future__ import annotations

import time
import uuid
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest
from rq import Queue
from rq.job import Job
from rq.registry import ScheduledJobRegistry

from service.clock import FixedClock
from service.job_queue import webhook_queue
from service.notifications.webhooks import delivery_job_id, message_id
from service.runtime.container import build
from tests.notifications.conftest import hooked_deliveries, wait_for


class Killed(BaseException):
    """The worker's death at that point: nothing after it runs, no handler catches it."""


@pytest.fixture
def lossy(notify_settings, receiver, owner_db):
    """(services on a hand-moved clock and a queue of their own, the webhook queue, a
    delivery whose first attempt the receiver answered 500)."""
    # the sweeper sweeps every delivery of its database: those other modules left pending
    # in the session's shared database are closed first, so that it counts only this one
    owner_db.execute("UPDATE webhook_deliveries SET state = 'failed' WHERE state IN ('pending', 'sending')")
    clock = FixedClock(datetime.now(UTC))
    settings = replace(notify_settings, queue_name=f"entrepot-lost-{uuid.uuid4().hex[:8]}")
    services = build(settings, clock=clock)
    receiver.answer = lambda path, msg_id, nth: (500 if nth == 0 else 204, 0.0)
    [delivery_id] = hooked_deliveries(services, owner_db, receiver, "/lost")
    queue = Queue(webhook_queue(settings.queue_name), connection=services.redis)
    assert queue.job_ids == [delivery_job_id(delivery_id, 1)]
    queue.remove(delivery_job_id(delivery_id, 1))  # taken by "the worker" below
    yield services, clock, queue, delivery_id
    services.close()


def run_queued(services, queue: Queue) -> list[str]:
    """What a worker would do with the webhook queue's jobs now."""
    outcomes = []
    for job_id in queue.job_ids:
        queue.remove(job_id)
        outcomes.append(services.webhooks.deliver(*Job.fetch(job_id, connection=services.redis).args))
    return outcomes


def sent_once_more(services, clock, queue, delivery_id, receiver, owner_db) -> None:
    """The sweeper, past the retry's time and its patience, queues the lost retry; run, it
    delivers; a later sweep queues nothing more: the receiver got two attempts, one id."""
    assert services.webhooks.sweep(services.settings.fanout_patience_seconds) == 0  # not due yet
    clock.at += timedelta(seconds=services.settings.fanout_patience_seconds + 1)
    assert services.webhooks.sweep(services.settings.fanout_patience_seconds) == 1
    assert queue.job_ids == [delivery_job_id(delivery_id, 2)]
    assert run_queued(services, queue) == ["delivered"]
    clock.at += timedelta(seconds=60)
    assert services.webhooks.sweep(services.settings.fanout_patience_seconds) == 0
    assert queue.job_ids == []
    assert owner_db.execute("SELECT state, attempts FROM webhook_deliveries WHERE id = %s",
                            (delivery_id,)).fetchone() == ("delivered", 2)
    got = receiver.at("/lost")
    assert [r.headers["webhook-id"] for r in got] == [message_id(delivery_id)] * 2
    assert all(r.verified for r in got)


def test_a_retry_lost_between_the_attempt_and_its_scheduling_is_sent_by_the_sweeper(
        lossy, receiver, owner_db, monkeypatch):
    services, clock, queue, delivery_id = lossy

    def killed(*_args, **_kwargs):
        raise Killed

    # the worker dies once the failed attempt is recorded, before the retry is scheduled
    monkeypatch.setattr(services.webhooks, "queue_deliveries", killed)
    with pytest.raises(Killed):
        services.webhooks.deliver(delivery_id)
    monkeypatch.undo()
    assert owner_db.execute("SELECT state, attempts FROM webhook_deliveries WHERE id = %s",
                            (delivery_id,)).fetchone() == ("pending", 1)
    assert not services.redis.exists(Job.key_for(delivery_job_id(delivery_id, 2)))
    sent_once_more(services, clock, queue, delivery_id, receiver, owner_db)


def test_a_retry_lost_between_its_registry_and_its_queue_is_sent_by_the_sweeper(lossy, receiver, owner_db):
    """The move from RQ's scheduled registry to the queue is one MULTI/EXEC: interrupted,
    the retry stays scheduled. A record lost all the same (here: deleted from the registry,
    as the old two-step move left it when killed between them) is healed by the sweeper."""
    services, clock, queue, delivery_id = lossy
    assert services.webhooks.deliver(delivery_id) == "retry"
    retry = delivery_job_id(delivery_id, 2)
    registry = ScheduledJobRegistry(queue=queue)
    assert registry.get_job_ids() == [retry]
    # RQ's scores are the machine's whole seconds: wait until the retry is due by them
    wait_for(lambda: registry.get_jobs_to_schedule(int(time.time())), 5)
    enqueue_job = Queue.enqueue_job

    def killed(self, job, pipeline=None, **kwargs):
        enqueue_job(self, job, pipeline=pipeline, **kwargs)  # queued in the transaction, not sent
        raise Killed

    Queue.enqueue_job = killed
    try:
        with pytest.raises(Killed):
            services.jobs.move_due_jobs()
    finally:
        Queue.enqueue_job = enqueue_job
    assert registry.get_job_ids() == [retry] and queue.job_ids == []  # neither lost nor queued
    # the old move's crash: out of the registry, never pushed; the job's hash still says "scheduled"
    registry.remove(retry)
    assert Job.fetch(retry, connection=services.redis).get_status() == "scheduled"
    assert services.jobs.move_due_jobs() == 0 and queue.job_ids == []
    sent_once_more(services, clock, queue, delivery_id, receiver, owner_db)

