"""A live `entrepot serve` (gunicorn + an RQ worker) on a free loopback port, for tests."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

import requests

from tests.conftest import ROOT, UNTHROTTLED


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def running_server(settings, directory: Path, name: str, workers: int = 2):
    """The server's base URL once /v1/health answers 200 (PostgreSQL, Redis and a worker)."""
    port = free_port()
    # a file, not a pipe: nobody reads a pipe here, and a full one would block the server
    log = open(directory / f"{name}.log", "w+b")
    env = {**os.environ, "DATABASE_URL": settings.database_url, "REDIS_URL": settings.redis_url,
           "ENTREPOT_MIGRATE_DATABASE_URL": settings.owner_database_url,
           "ENTREPOT_QUEUE": f"{settings.queue_name}-{name}",
           "ENTREPOT_SIGNING_KEY_FILE": str(directory / f"{name}-signing-key"),
           "ENTREPOT_RATE_LIMIT_PER_IP": UNTHROTTLED, "ENTREPOT_RATE_LIMIT_PER_TOKEN": UNTHROTTLED}
    process = subprocess.Popen(
        [sys.executable, "-m", "service.cli", "serve", "--port", str(port), "--workers", str(workers)],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            if process.poll() is not None:
                log.seek(0)
                raise AssertionError(log.read().decode()[-2000:])
            try:
                if requests.get(base + "/v1/health", timeout=1).ok:
                    break
            except requests.RequestException:
                pass
            if time.monotonic() > deadline:
                raise AssertionError("entrepot serve did not become healthy")
            time.sleep(0.2)
        yield base
    finally:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
        log.close()
