"""A live `entrepot serve` (gunicorn + an RQ worker) on a free loopback port, per module."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time

import pytest
import requests

from tests.conftest import ROOT


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server(settings, tmp_path_factory):
    port = free_port()
    # a file, not a pipe: nobody reads a pipe here, and a full one would block the server
    log = open(tmp_path_factory.mktemp("serve") / "serve.log", "w+b")
    env = {**os.environ, "DATABASE_URL": settings.database_url, "REDIS_URL": settings.redis_url,
           "ENTREPOT_QUEUE": settings.queue_name + "-e2e",
           "ENTREPOT_AI_SECONDS": "0.2",  # strong seats: the same search, a quick game
           "ENTREPOT_SIGNING_KEY_FILE": str(tmp_path_factory.mktemp("keys") / "signing-key")}
    process = subprocess.Popen(
        [sys.executable, "-m", "service.cli", "serve", "--port", str(port), "--workers", "2"],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if requests.get(base + "/v1/health", timeout=1).ok:
                break
        except requests.RequestException:
            if process.poll() is not None:
                log.seek(0)
                raise AssertionError(log.read().decode()[-2000:]) from None
            time.sleep(0.2)
    else:
        process.kill()
        raise AssertionError("entrepot serve did not start")
    yield base
    process.terminate()
    process.wait(timeout=30)
    log.close()
