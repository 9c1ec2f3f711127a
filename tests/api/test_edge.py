"""Issue 26, items 8 and 15, and issue 32, item 3, through the real ASGI server (uvicorn in
this process, as `entrepot serve` runs it), PostgreSQL and Redis: the three 500s are 4xx
problems; the web client carries its security headers and one Date header; one edge policy
for both stacks: a stream route answers as a Flask route does to an id in another
spelling, to a caller over its rate limit (one budget, one 429) and to a request id, good,
bad or oversized; the async pool behind the streams bounds every statement."""

from __future__ import annotations

import asyncio
import base64
import json
import re
import threading
import time
import uuid
from dataclasses import replace

import psycopg
import pytest
import requests
import uvicorn

from api.asgi import create_asgi_app
from api.bridge import FlaskBridge
from api.live import GameStreams
from service.games.store import AsyncReader
from service.observability import metrics
from service.runtime.container import build
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


@pytest.fixture
def limited(settings):
    """``limited(rate_limit_per_ip=..., rate_limit_per_token=...)``: the base URL of a server
    with these budgets, and its own queue name (its own counters)."""
    started = []

    def start(**budgets) -> str:
        services = build(replace(settings, queue_name=f"entrepot-edge-{uuid.uuid4().hex[:8]}", **budgets))
        base, running = serve(services)
        started.append((running, services))
        return base

    yield start
    for running, services in started:
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
    limited = limited(rate_limit_per_ip="5/minute")
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


# one edge policy for both stacks (issue 32, item 3) ------------------------------------
FRESH_ID = re.compile(r"[0-9a-f]{32}")


def assert_same_problem(flask, stream, status: int) -> None:
    """A Flask route's answer and a stream route's: the same problem, each with its own request id."""
    for response in (flask, stream):
        assert response.status_code == status, (response.url, response.status_code, response.text[:300])
        assert response.headers["Content-Type"] == "application/problem+json", response.url
        assert response.json()["request_id"] == response.headers["X-Request-Id"]
        assert response.headers["X-Content-Type-Options"] == "nosniff"
    # counted alike: both (an id in another spelling: neither, as Flask refuses it before counting)
    assert ("RateLimit-Limit" in flask.headers) == ("RateLimit-Limit" in stream.headers)
    bodies = [{k: v for k, v in r.json().items() if k != "request_id"} for r in (flask, stream)]
    assert bodies[0] == bodies[1], bodies


def authorized(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_a_stream_answers_an_id_in_another_spelling_as_the_flask_routes_do(server, new_player):
    player = new_player("Spelling")
    game = requests.post(f"{server}/v1/games", headers=authorized(player["token"]), timeout=30,
                         json={"title": "kontor", "seats": [{"player_id": player["id"]}, {"ai": "easy"}]}).json()
    canonical = game["id"]
    with requests.get(f"{server}/v1/games/{canonical}/stream", headers=authorized(player["token"]),
                      stream=True, timeout=10) as opened:  # the game's stream, spelled as the API spells it
        assert opened.status_code == 200 and opened.headers["Content-Type"].startswith("text/event-stream")
    hexed = uuid.UUID(canonical).hex
    spellings = [canonical.upper(), "{" + canonical + "}", "urn:uuid:" + canonical, hexed, hexed.upper(),
                 "{" + canonical.upper() + "}", canonical + "\n", "not-an-id"]
    for spelling in spellings:
        path = f"/v1/games/{requests.utils.quote(spelling, safe=':')}"
        flask = requests.get(server + path, headers=authorized(player["token"]), timeout=10)
        with requests.get(server + path + "/stream", headers=authorized(player["token"]), stream=True,
                          timeout=10) as stream:
            assert stream.status_code == 404, (spelling, stream.status_code)  # not the game's stream
            assert stream.content  # the problem, read while the connection is open
        assert_same_problem(flask, stream, 404)
        assert stream.json()["code"] == "not_found" and stream.json()["detail"] == f"no game {spelling}"


def test_a_stream_path_with_a_control_character_is_the_404_flask_gives(server, new_player):
    """Starlette's route patterns end in $, which matches before a final newline: without
    the edge's check /v1/lobby/stream%0A opened the lobby's stream."""
    player = new_player("Newline")
    for path in ("/v1/lobby/stream%0A", "/v1/players/me/stream%0A", "/v1/lobby/stream%00"):
        flask = requests.get(server + path.replace("stream", "nothing-here"),
                             headers=authorized(player["token"]), timeout=10)
        with requests.get(server + path, headers=authorized(player["token"]), stream=True, timeout=10) as stream:
            assert stream.status_code == 404, (path, stream.status_code)
            assert stream.content
        assert_same_problem(flask, stream, 404)
        assert stream.json()["code"] == "not_found"


def test_stream_opens_and_plain_requests_share_one_budget_and_one_429(limited, new_player):
    base = limited(rate_limit_per_ip="6/minute")
    token = new_player("Budget")["token"]  # made by the unthrottled app
    remaining = []
    for path in ("/v1/titles", "/v1/players/me/stream", "/v1/titles", "/v1/lobby/stream"):
        with requests.get(base + path, headers=authorized(token), stream=True, timeout=10) as response:
            assert response.status_code == 200, (path, response.status_code)
            remaining.append(int(response.headers["RateLimit-Remaining"]))
            assert response.headers["RateLimit-Limit"] == "6"
    # each request counted once, whichever stack served it (Flask's own hooks stand aside)
    assert remaining == [5, 4, 3, 2]
    assert requests.get(f"{base}/v1/games/{uuid.uuid4()}/stream", timeout=10).status_code == 404
    assert requests.get(f"{base}/v1/games/{uuid.uuid4()}", timeout=10).status_code == 404
    stream = requests.get(base + "/v1/players/me/stream", headers=authorized(token), timeout=10)
    flask = requests.get(base + "/v1/players/me", headers=authorized(token), timeout=10)
    assert_same_problem(flask, stream, 429)
    assert stream.json()["code"] == "rate_limited" and stream.json()["title"] == "Too many requests"
    for response in (flask, stream):
        assert 1 <= int(response.headers["Retry-After"]) <= 60
        assert response.headers["RateLimit-Limit"] == "6" and response.headers["RateLimit-Remaining"] == "0"
    game_stream = requests.get(f"{base}/v1/games/{uuid.uuid4()}/stream", timeout=10)
    lobby_stream = requests.get(f"{base}/v1/lobby/stream", timeout=10)
    assert game_stream.status_code == lobby_stream.status_code == 429


def test_a_token_over_its_budget_gets_the_same_429_on_a_stream(limited, new_player):
    base = limited(rate_limit_per_token="3/minute")
    token = new_player("Token")["token"]
    assert requests.get(base + "/v1/players/me", headers=authorized(token), timeout=10).status_code == 200
    with requests.get(base + "/v1/players/me/stream", headers=authorized(token), stream=True, timeout=10) as opened:
        assert opened.status_code == 200 and opened.headers["RateLimit-Remaining"] == "1"
    assert requests.get(base + "/v1/titles", headers=authorized(token), timeout=10).status_code == 200
    stream = requests.get(base + "/v1/players/me/stream", headers=authorized(token), timeout=10)
    flask = requests.get(base + "/v1/players/me", headers=authorized(token), timeout=10)
    assert_same_problem(flask, stream, 429)
    assert stream.headers["RateLimit-Limit"] == flask.headers["RateLimit-Limit"] == "3"
    assert int(stream.headers["Retry-After"]) >= 1 and int(flask.headers["Retry-After"]) >= 1
    # the caller's address is not the token's bucket: without the token it is served
    assert requests.get(base + "/v1/titles", timeout=10).status_code == 200


def test_request_ids_on_streams_as_on_flask_routes(server, new_player):
    player = new_player("Ids")
    given = f"proxy:{uuid.uuid4().hex}.1-a"
    with requests.get(f"{server}/v1/players/me/stream", headers={**authorized(player["token"]), "X-Request-Id": given},
                      stream=True, timeout=10) as opened:  # an open stream echoes it
        assert opened.status_code == 200 and opened.headers["X-Request-Id"] == given
    longest = "r" * 128
    for sent, kept in [(given, True), (longest, True), ("r" * 129, False), ("bad id", False), ("a/b", False),
                       ("caf\u00e9", False), ("", False)]:
        missing = str(uuid.uuid4())
        flask = requests.get(f"{server}/v1/games/{missing}", headers={"X-Request-Id": sent}, timeout=10)
        stream = requests.get(f"{server}/v1/games/{missing}/stream", headers={"X-Request-Id": sent}, timeout=10)
        assert_same_problem(flask, stream, 404)
        for response in (flask, stream):
            echoed = response.headers["X-Request-Id"]
            assert echoed == sent if kept else FRESH_ID.fullmatch(echoed), (sent, echoed)
        if not kept:
            assert flask.headers["X-Request-Id"] != stream.headers["X-Request-Id"]  # each its own


def test_an_error_escaping_a_stream_route_is_a_500_problem(services, monkeypatch):
    async def broken(_self, _request):
        raise RuntimeError("a bug")

    monkeypatch.setattr(GameStreams, "endpoint", broken)
    _assert_500_problem(create_asgi_app(services, threads=1), f"/v1/games/{uuid.uuid4()}/stream")


def test_an_error_escaping_the_flask_bridge_is_a_500_problem(services, monkeypatch):
    """Plain requests skip Starlette's router (api/asgi.py): the last-resort problem still holds."""
    def broken(_self, _environ):
        raise RuntimeError("a bug")

    monkeypatch.setattr(FlaskBridge, "_run", broken)
    _assert_500_problem(create_asgi_app(services, threads=1), f"/v1/games/{uuid.uuid4()}")


def test_a_method_of_no_http_standard_is_counted_under_one_series(services):
    """A parser that takes any token as a method (h11 does) must not let a client make a
    metric series per request: such methods are counted as "other"."""
    app = create_asgi_app(services, threads=1)

    def counted(method: str) -> float:
        return sum(sample.value for metric in metrics.REQUESTS.collect() for sample in metric.samples
                   if sample.name.endswith("_total") and sample.labels["method"] == method)

    before = counted("other")
    for method in ("BREW", "WHEN", "BREW"):
        start, _body = _answer(app, "/v1/health/live", method)
        assert start["status"] == 405
    assert counted("other") == before + 3
    assert counted("BREW") == counted("WHEN") == 0


def _answer(app, path: str, method: str = "GET", sent: list | None = None) -> list[dict]:
    """The messages ``app`` (the application `entrepot serve` runs) sends in answer to one
    request, into ``sent`` (which keeps them when an error escapes)."""
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": method,
             "scheme": "http", "path": path, "raw_path": path.encode(), "query_string": b"", "root_path": "",
             "headers": [(b"x-request-id", b"broken-1")], "client": ("127.0.0.1", 5000),
             "server": ("127.0.0.1", 80)}
    sent = [] if sent is None else sent

    async def receive():
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message):
        sent.append(message)

    asyncio.run(app(scope, receive, send))
    return sent


def _assert_500_problem(app, path: str) -> None:
    """``app`` answers ``path`` with a 500 problem that names the request and says nothing
    of the error, then re-raises it for the server to log."""
    sent: list[dict] = []
    with pytest.raises(RuntimeError):  # re-raised for the server to log, as every unexpected error
        _answer(app, path, sent=sent)
    start, body = sent
    headers = {name.decode(): value.decode() for name, value in start["headers"]}
    assert start["status"] == 500 and headers["content-type"] == "application/problem+json"
    problem = json.loads(body["body"])
    assert problem["code"] == "internal_error" and problem["request_id"] == headers["x-request-id"] == "broken-1"
    assert "a bug" not in body["body"].decode()
