"""GET /v1/health checks PostgreSQL, Redis and the workers for real (issue 9, item 10)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from dataclasses import replace

import pytest

from api import create_app
from service.games.store import Store
from service.runtime.container import build
from service.runtime.health import HealthCheck
from tests.conftest import ROOT
from tests.openapi_check import ValidatingClient

SEEN_WITHIN = 1.5  # seconds: the workers' heartbeat time to live in these tests


def closed_port() -> int:
    """A loopback port nobody listens on."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def health_settings(settings, request):
    return replace(settings, queue_name=f"{settings.queue_name}-health-{request.node.name[-20:]}",
                   worker_seen_within_seconds=SEEN_WITHIN, health_timeout_seconds=1.0)


def health_of(settings):
    services = build(settings)
    try:
        return ValidatingClient(create_app(services).test_client()).get("/v1/health")
    finally:
        services.close()


def start_worker(settings) -> subprocess.Popen:
    env = {**os.environ, "DATABASE_URL": settings.database_url, "REDIS_URL": settings.redis_url,
           "ENTREPOT_MIGRATE_DATABASE_URL": settings.owner_database_url,
           "ENTREPOT_QUEUE": settings.queue_name, "ENTREPOT_WORKER_SEEN_WITHIN": str(SEEN_WITHIN)}
    return subprocess.Popen([sys.executable, "-m", "workers"], cwd=ROOT, env=env)


def wait_for_status(settings, status: int, timeout: float = 30.0):
    deadline = time.monotonic() + timeout
    while True:
        response = health_of(settings)
        if response.status_code == status or time.monotonic() > deadline:
            return response
        time.sleep(0.2)


def test_healthy_with_a_live_worker_then_503_when_it_stops(health_settings):
    assert health_of(health_settings).json["down"] == ["worker"]  # no worker yet
    worker = start_worker(health_settings)
    try:
        healthy = wait_for_status(health_settings, 200)
        assert healthy.status_code == 200, healthy.json
        assert healthy.json == {"status": "ok", "checks": {"postgres": "ok", "redis": "ok", "worker": "ok"}}
    finally:
        worker.terminate()
        worker.wait(timeout=20)
    gone = wait_for_status(health_settings, 503, timeout=SEEN_WITHIN * 4)
    assert gone.status_code == 503
    assert gone.headers["Content-Type"] == "application/problem+json"
    assert gone.json["code"] == "unavailable" and gone.json["down"] == ["worker"]
    assert "worker" in gone.json["detail"]


def test_503_when_postgresql_is_down(health_settings):
    # the app starts with its database (it reads its signing keys), which then goes away:
    # the health check's connections point at a port nobody listens on
    services = build(health_settings)
    gone = Store(f"postgresql://nobody@127.0.0.1:{closed_port()}/none", min_size=1, max_size=1)
    services.health = HealthCheck(gone, health_settings.redis_url, health_settings.queue_name, 1.0)
    try:
        response = ValidatingClient(create_app(services).test_client()).get("/v1/health")
    finally:
        gone.close()
        services.close()
    assert response.status_code == 503
    assert "postgres" in response.json["down"] and response.json["checks"]["postgres"].startswith("down")


def test_503_when_redis_is_down(health_settings):
    down = replace(health_settings, redis_url=f"redis://127.0.0.1:{closed_port()}/0")
    response = health_of(down)
    assert response.status_code == 503
    assert response.json["down"] == ["redis", "worker"]
    assert response.json["checks"]["postgres"] == "ok"
