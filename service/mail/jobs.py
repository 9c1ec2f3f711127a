"""The mail jobs' queue: RQ on the short queue ("main"), job ids keyed on what they do so
a job enqueued twice runs once. The jobs themselves are in workers/mail_jobs.py."""

from __future__ import annotations

import logging
from datetime import UTC, datetime, timedelta
from typing import Protocol

from redis import Redis
from rq import Queue
from rq.registry import ScheduledJobRegistry

log = logging.getLogger(__name__)

MAIL_NOTIFICATION = "workers.mail_jobs.mail_notification"
MAIL_FOLLOWUP = "workers.mail_jobs.mail_followup"
MAIL_VERIFICATION = "workers.mail_jobs.mail_verification"
MAIL_DIGEST = "workers.mail_jobs.send_digest"
MAIL_RESEND = "workers.mail_jobs.resend_mail"


class MailQueue(Protocol):
    def enqueue(self, func: str, args: tuple, job_id: str, at: datetime | None = None) -> None: ...


class RQMailQueue:
    def __init__(self, redis: Redis, queue_name: str):
        self.redis = redis
        self.queue = Queue(queue_name, connection=redis)
        self.scheduled_key = ScheduledJobRegistry(queue=self.queue).key

    def enqueue(self, func: str, args: tuple, job_id: str, at: datetime | None = None) -> None:
        options = {"job_id": job_id, "result_ttl": 600, "failure_ttl": 24 * 3600}
        try:
            if at is None or at <= datetime.now(UTC):
                self.queue.enqueue(func, *args, **options)
            else:
                # as service/jobs.py: RQ counts whole seconds, the workers' scheduler the exact score
                self.queue.enqueue_at(at + timedelta(seconds=1), func, *args, **options)
                self.redis.zadd(self.scheduled_key, {job_id: at.timestamp()})
        except Exception:  # Redis down: the mail's claim or the sweeper finds it later
            log.exception("could not enqueue %s %s", func, args)


class RecordingMailQueue:
    def __init__(self) -> None:
        self.jobs: list[tuple[str, tuple, str, datetime | None]] = []

    def enqueue(self, func: str, args: tuple, job_id: str, at: datetime | None = None) -> None:
        self.jobs.append((func, args, job_id, at))
