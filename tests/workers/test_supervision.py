"""Issue 26, items 9 and 10: a dead worker is started again, leaving no process of its own
behind, and /v1/health checks each kind of worker.

Real `entrepot serve` (its worker processes, RQ's scheduler processes), PostgreSQL and
Redis. Before: kill -9 of the computer-move worker stopped the whole server ("a child
process exited with -9; stopping"), its scheduler process lived on under PID 1 holding
`rq:scheduler-lock:<queue>-ai`; and with the clock-and-mail worker stopped /v1/health
still said "worker": "ok" (one heartbeat key for every kind). Since issue 32 a worker runs
no RQ scheduler process at all (its timer loop moves scheduled jobs): nothing to orphan."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import pytest
from redis import Redis
from rq import Queue, Worker

from api import create_app
from service.job_queue import ai_queue
from service.runtime.container import build
from tests.conftest import ROOT
from tests.e2e.live import Served, engine_env
from tests.openapi_check import ValidatingClient

pytestmark = pytest.mark.slow(seconds=30)  # started first: tests/conftest.py

SEEN_WITHIN = 1.5


def children_of(pid: int) -> list[tuple[int, str]]:
    """(pid, command line) of the live processes whose parent is ``pid``."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
            found.append((int(entry.name), cmdline))
    return found


def alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def wait_for(predicate, timeout: float):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError("timed out")


def test_a_killed_worker_is_started_again_and_leaves_no_process_behind(settings, tmp_path):
    env = engine_env(settings, "-supervised")
    queue = env["ENTREPOT_QUEUE"]
    served = Served(["--workers", "1", "--rq-workers", "1", "--data-dir", str(tmp_path)], env,
                    tmp_path / "serve.log").wait_healthy()
    redis = Redis.from_url(settings.redis_url)
    try:
        def ai_worker() -> int | None:
            return next((pid for pid, cmd in children_of(served.process.pid) if "--queues ai" in cmd), None)

        worker = wait_for(ai_worker, 30)
        wait_for(lambda: Worker.count(connection=redis, queue=Queue(ai_queue(queue), connection=redis)), 30)
        assert children_of(worker) == []  # no scheduler process (nor any other) to outlive it
        assert not redis.exists(f"rq:scheduler-lock:{ai_queue(queue)}")
        os.kill(worker, signal.SIGKILL)
        # serve goes on, with a new worker of that kind
        replacement = wait_for(lambda: (w := ai_worker()) not in (None, worker) and w, 20)
        assert served.process.poll() is None, served.log()[-2000:]
        wait_for(lambda: any(w.pid == replacement for w in Worker.all(
            connection=redis, queue=Queue(ai_queue(queue), connection=redis))), 30)
        assert children_of(replacement) == []
        wait_for(lambda: "started it again" in served.log(), 10)  # serve says so (its own stream)
    finally:
        served.stop()
        redis.close()


def health_of(settings):
    services = build(settings)
    try:
        return ValidatingClient(create_app(services).test_client()).get("/v1/health")
    finally:
        services.close()


def start_worker(settings, queues: str) -> subprocess.Popen:
    env = {**os.environ, "DATABASE_URL": settings.database_url, "REDIS_URL": settings.redis_url,
           "ENTREPOT_MIGRATE_DATABASE_URL": settings.owner_database_url,
           "ENTREPOT_QUEUE": settings.queue_name, "ENTREPOT_WORKER_SEEN_WITHIN": str(SEEN_WITHIN)}
    return subprocess.Popen([sys.executable, "-m", "workers", "--queues", queues], cwd=ROOT, env=env,
                            start_new_session=True)


def stop(process: subprocess.Popen) -> None:
    os.killpg(process.pid, signal.SIGKILL)
    process.wait(timeout=20)


def test_health_checks_each_kind_of_worker(settings):
    checked = replace(settings, queue_name=f"{settings.queue_name}-kinds", worker_seen_within_seconds=SEEN_WITHIN,
                      health_timeout_seconds=1.0)
    others = [start_worker(checked, "ai"), start_worker(checked, "webhooks")]
    main = None
    try:
        missing = wait_for(lambda: (r := health_of(checked)).json["checks"]["worker"] != "no worker has been seen"
                           " recently" and r, 30)
        assert missing.status_code == 503 and missing.json["down"] == ["worker"]
        assert "main (clocks and mail)" in missing.json["checks"]["worker"], missing.json
        main = start_worker(checked, "main")
        assert wait_for(lambda: health_of(checked).status_code == 200, 30)
        stop(main)  # the clock-and-mail worker dies; the others beat on
        main = None
        gone = wait_for(lambda: (r := health_of(checked)).status_code == 503 and r, SEEN_WITHIN * 4)
        assert "main (clocks and mail)" in gone.json["checks"]["worker"]
    finally:
        for process in [*others, *([main] if main else [])]:
            stop(process)
