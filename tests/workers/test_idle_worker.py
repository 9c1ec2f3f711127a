"""A worker left idle takes the next job at once: its blocking dequeue (BLPOP, up to 405 s)
is not cut by redis-py's 5-second socket timeout. It was, on the connection the services
had made before the worker (workers/__main__.py, ``dequeue_connection``): every 5 s of
quiet the worker logged "could not connect to Redis instance", then slept 1, 2, 4... up
to 60 s before it looked at the queues again, and a move on a quiet server waited that long
for its notifications."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import uuid
from dataclasses import replace

import pytest
from redis import Redis
from rq import Queue

from service.clock import SystemClock
from service.job_queue import MAIL_NOTIFICATION, RQJobQueue
from tests.conftest import ROOT

pytestmark = pytest.mark.slow(seconds=20)

#: longer than redis-py's 5-second socket timeout, and than the first sleep after it
QUIET_SECONDS = 7.5


def test_a_worker_quiet_for_longer_than_the_socket_timeout_takes_the_next_job_at_once(settings, tmp_path):
    settings = replace(settings, queue_name=settings.queue_name + "-idle")
    env = {**os.environ, "DATABASE_URL": settings.database_url, "REDIS_URL": settings.redis_url,
           "ENTREPOT_QUEUE": settings.queue_name, "ENTREPOT_JOB_LOG_LEVEL": "INFO"}
    log_path = tmp_path / "worker.log"
    redis = Redis.from_url(settings.redis_url)
    queue = Queue(settings.queue_name, connection=redis)
    with open(log_path, "wb") as log_file:
        process = subprocess.Popen([sys.executable, "-m", "workers", "--queues", "main"], cwd=ROOT, env=env,
                                   stdout=log_file, stderr=log_file)
    try:
        deadline = time.monotonic() + 60
        while b"Listening on" not in log_path.read_bytes():
            assert process.poll() is None and time.monotonic() < deadline, log_path.read_text(errors="replace")
            time.sleep(0.1)
        time.sleep(QUIET_SECONDS)
        # a mail of a notification that does not exist: a job that only looks, and whose
        # outcome RQ keeps
        job_id = f"idle-probe-{uuid.uuid4().hex}"
        queued_at = time.monotonic()
        assert RQJobQueue(redis, settings.queue_name, SystemClock()).enqueue_job(MAIL_NOTIFICATION, (2**62,), job_id)
        while queue.fetch_job(job_id) is None or queue.fetch_job(job_id).get_status() != "finished":
            assert time.monotonic() - queued_at < 3.0, log_path.read_text(errors="replace")
            time.sleep(0.02)
        log = log_path.read_text(errors="replace")
        assert "could not connect to Redis" not in log, log
    finally:
        process.terminate()
        process.wait(timeout=20)
        redis.close()
