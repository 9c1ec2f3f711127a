"""Issue 26, items 8 and 15, through the real ASGI server (uvicorn in this process, as
`entrepot serve` runs it), PostgreSQL and Redis: the three 500s are 4xx problems; the web
client carries its security headers and one Date header; the stream routes have the rate
limits of every route; the async pool behind the streams bounds every statement."""

from __future__ import annotations

import asyncio
import base64
import threading
import time
import uuid
from dataclasses import replace

import psycopg
import pytest
import requests
import uvicorn

from api.asgi import create_asgi_app
from service.container import build
from service.store import AsyncReader
from tests.e2e.live import free_port
from tests.refusals import problem


def serve(services) -> tuple[str, uvicorn.Server]:
    port = free_port()
    config = uvicorn.Config(create_asgi_app(services, threads=4), host="127.0.0.1", port=port,
                            log_level="warning", lifespan="on")
    running = uvicorn.Server(config)
    threading.Thread(target=running.run, daemon=True).start()
    deadline = time.monotonic() + 20
    while not running.started:
        assert time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.05)
    return f"http://127.0.0.1:{port}", running


@pytest.fixture(scope="module")
def limited(settings):
    """A server whose per-address budget is 5 requests a minute (its own queue name: its
    own counters)."""
    services = build(replace(settings, rate_limit_per_ip="5/minute",
                             queue_name=f"entrepot-edge-{uuid.uuid4().hex[:8]}"))
    base, running = serve(services)
    yield base
    running.should_exit = True
    services.close()


@pytest.fixture(scope="module")
def server(services):
    base, running = serve(services)
    yield base
    running.should_exit = True


def test_the_three_500s_are_problems(server, new_player):
    player = new_player("Edge")
    game = requests.post(f"{server}/v1/games", headers={"Authorization": f"Bearer {player['token']}"},
                         json={"title": "kontor", "seats": [{"player_id": player["id"]}, {"ai": "easy"}]},
                         timeout=30).json()
    cases = [
        requests.post(f"{server}/v1/unsubscribe/%C3%A9.all.x", timeout=10),
        requests.get(f"{server}/v1/games/{game['id']}/stream", headers={"Last-Event-ID": "²"}, timeout=10),
        requests.get(f"{server}/v1/players/me/stream",
                     headers={"Last-Event-ID": "²", "Authorization": f"Bearer {player['token']}"}, timeout=10),
        requests.get(f"{server}/v1/exports", timeout=10, params={
            "cursor": base64.urlsafe_b64encode(f"2026-W01-1|{uuid.uuid4()}".encode()).decode()}),
    ]
    for response in cases:
        assert 400 <= response.status_code < 500, (response.url, response.status_code, response.text[:300])
        assert response.headers["Content-Type"] == "application/problem+json"


def test_the_web_client_carries_its_security_headers_and_one_date(server):
    for path in ("/", "/web/app.js", "/web/style.css", "/v1/titles"):
        response = requests.get(server + path, timeout=10)
        assert response.status_code == 200, path
        raw = response.raw.headers  # every header as sent, repeats kept
        assert len(raw.getlist("Date")) == 1, (path, raw.getlist("Date"))
        assert response.headers["X-Content-Type-Options"] == "nosniff"
        assert response.headers["X-Frame-Options"] == "DENY"
    page = requests.get(server + "/", timeout=10)
    policy = page.headers["Content-Security-Policy"]
    assert "frame-ancestors 'none'" in policy and "script-src 'self'" in policy
    assert "'unsafe-inline'" not in policy.split("script-src", 1)[1].split(";", 1)[0]
    stream = requests.get(f"{server}/v1/players/me/stream", timeout=10)  # a problem from a stream route
    assert problem(stream, 401, "unauthorized") and stream.headers["X-Content-Type-Options"] == "nosniff"


def test_stream_opens_are_rate_limited_like_every_route(limited):
    statuses = []
    for _ in range(8):  # unauthenticated opens: each answered at once (401), each counted
        response = requests.get(f"{limited}/v1/players/me/stream", timeout=10)
        statuses.append(response.status_code)
    assert statuses[:5] == [401] * 5 and statuses[5:] == [429] * 3, statuses
    assert response.headers["Content-Type"] == "application/problem+json"
    assert response.json()["code"] == "rate_limited" and int(response.headers["Retry-After"]) >= 1
    game = requests.get(f"{limited}/v1/games/{uuid.uuid4()}/stream", timeout=10)
    problem(game, 429, "rate_limited")


def test_the_streams_pool_bounds_every_statement(settings):
    async def run() -> None:
        reader = AsyncReader(settings.database_url, max_size=1, statement_timeout_ms=300)
        await reader.open()
        try:
            async with reader.pool.connection() as conn:
                with pytest.raises(psycopg.errors.QueryCanceled):
                    await conn.execute("SELECT pg_sleep(2)")
        finally:
            await reader.close()

    started = time.monotonic()
    asyncio.run(run())
    assert time.monotonic() - started < 1.8
