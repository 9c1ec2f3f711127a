"""GET /v1/players/me/stream on the async server (uvicorn, in this process): every
notification of the caller and nobody else's, in order, resumable, woken live; and the
"watching" key a seated player's open game stream keeps in Redis."""

from __future__ import annotations

import json
import threading
import time

import pytest
import requests
import uvicorn

from api.asgi import create_asgi_app
from api.live import watching_key
from tests.e2e.live import free_port
from tests.e2e.test_stream import parse
from tests.notifications.conftest import (
    fanned_out,
    new_player,
    notifications,
    play,
    two_player_game,
    wait_for,
)

pytestmark = pytest.mark.slow(seconds=20)  # started first: tests/conftest.py


@pytest.fixture(scope="module")
def server(services):
    port = free_port()
    config = uvicorn.Config(create_asgi_app(services, threads=4), host="127.0.0.1", port=port,
                            log_level="warning", lifespan="on")
    running = uvicorn.Server(config)
    thread = threading.Thread(target=running.run, daemon=True)
    thread.start()
    wait_for(lambda: running.started, 20)
    yield f"http://127.0.0.1:{port}"
    running.should_exit = True
    thread.join(10)


def stream(server, token=None, headers=None, **params) -> requests.Response:
    headers = dict(headers or {})
    if token:
        headers["Authorization"] = f"Bearer {token}"
    return requests.get(f"{server}/v1/players/me/stream", params=params, headers=headers, stream=True, timeout=30)


@pytest.fixture(scope="module")
def played(client, worker, owner_db):
    a, b = new_player(client, "StreamA"), new_player(client, "StreamB")
    game = two_player_game(client, a, b)
    play(client, game["id"], [a, b], 8)
    client.post(f"/v1/games/{game['id']}/messages", token=a["token"], json={"text": "to B"})
    client.post(f"/v1/games/{game['id']}/messages", token=b["token"], json={"text": "to A"})
    wait_for(lambda: fanned_out(owner_db, game["id"]))
    wait_for(lambda: len([n for n in notifications(owner_db, game["id"]) if n["type"] == "message"]) == 2)
    return game, a, b


def test_the_stream_holds_every_notification_of_the_caller_in_order_and_resumes(server, played, owner_db):
    game, a, b = played
    mine = [n for n in notifications(owner_db, game["id"]) if n["player_id"] == b["id"]]
    assert len(mine) >= 3
    response = stream(server, b["token"], timeout=0.5)
    assert response.status_code == 200 and response.headers["Content-Type"].startswith("text/event-stream")
    messages = parse(response.text)
    assert [int(m["id"]) for m in messages] == [n["id"] for n in mine]
    for m, n in zip(messages, mine):
        body = json.loads(m["data"])
        assert m["event"] == body["type"] == n["type"]
        assert body["game_id"] == game["id"] and body["seat"] == 1 and body["version"] == n["version"]
        assert body["data"] == n["data"] and set(body) == {"type", "game_id", "seat", "version", "at", "data"}
    resumed = parse(stream(server, b["token"], headers={"Last-Event-ID": str(mine[1]["id"])}, timeout=0.3).text)
    assert [int(m["id"]) for m in resumed] == [n["id"] for n in mine[2:]]
    by_query = parse(stream(server, b["token"], after=mine[-2]["id"], timeout=0.3).text)
    assert [int(m["id"]) for m in by_query] == [mine[-1]["id"]]


def test_a_player_never_receives_another_players_notifications(server, played, owner_db):
    game, a, b = played
    theirs = {n["id"] for n in notifications(owner_db, game["id"]) if n["player_id"] == a["id"]}
    got = parse(stream(server, a["token"], timeout=0.5).text)
    ids = {int(m["id"]) for m in got}
    assert ids == theirs and theirs
    texts = [json.loads(m["data"])["data"]["message"]["text"] for m in got if m["event"] == "message"]
    assert texts == ["to A"]  # B's message, never A's own
    assert all(json.loads(m["data"])["seat"] == 0 for m in got)


def test_a_live_stream_is_woken_by_a_new_notification(server, client, played):
    game, a, b = played
    start = parse(stream(server, b["token"], timeout=0.2).text)
    last = start[-1]["id"]
    response = stream(server, b["token"], headers={"Last-Event-ID": last}, keepalive=5, timeout=6)
    arrived: list[tuple[float, dict]] = []
    opened = threading.Event()

    def read():
        block: dict = {}
        for line in response.iter_lines(decode_unicode=True):
            opened.set()  # its first line: the stream has read (its watch was set before)
            if line.startswith("id: "):
                block["id"] = line[4:]
            elif line.startswith("data: ") and "id" in block:
                arrived.append((time.monotonic(), json.loads(line[6:])))
                response.close()
                return

    reader = threading.Thread(target=read)
    reader.start()
    assert opened.wait(10), "the stream sent nothing"
    posted = time.monotonic()
    assert client.post(f"/v1/games/{game['id']}/messages", token=a["token"], json={"text": "wake up"}).status_code == 201
    reader.join(10)
    assert arrived, "the stream was not woken"
    at, body = arrived[0]
    assert body["type"] == "message" and body["data"]["message"]["text"] == "wake up"
    assert at - posted < 3.0  # woken by the fan-out, not by the 5 s keep-alive or resync


def test_after_latest_starts_after_the_callers_newest_notification(server, client, played):
    """?after=latest (the web client's dashboard): none of the history, then what comes."""
    game, a, b = played
    assert parse(stream(server, b["token"], after="latest", timeout=0.3).text) == []
    response = stream(server, b["token"], after="latest", keepalive=0.1, timeout=4)
    lines: list[str] = []
    opened = threading.Event()

    def read():
        for line in response.iter_lines(decode_unicode=True):
            opened.set()
            lines.append(line)

    reader = threading.Thread(target=read)
    reader.start()
    assert opened.wait(10), "the stream sent nothing"
    assert client.post(f"/v1/games/{game['id']}/messages", token=a["token"], json={"text": "only this"}).status_code == 201
    reader.join(10)
    got = parse("\n".join(lines) + "\n")
    assert [json.loads(m["data"])["data"]["message"]["text"] for m in got] == ["only this"]
    # a reconnection's Last-Event-ID wins over latest: it resumes
    resumed = parse(stream(server, b["token"], after="latest", headers={"Last-Event-ID": "0"}, timeout=0.3).text)
    assert len(resumed) >= 4 and resumed[-1]["id"] == got[0]["id"]


def test_stream_errors_are_problems(server):
    cases = [
        (stream(server), 401, "unauthorized"),
        (stream(server, "no-such-token"), 401, "unauthorized"),
        (stream(server, headers={"Last-Event-ID": "x", "Authorization": "Bearer x"}), 422, "validation_error"),
        (stream(server, "x", after="-1"), 422, "validation_error"),
        (stream(server, "x", after="later"), 422, "validation_error"),
        (stream(server, "x", after="1" * 19), 422, "validation_error"),
        (requests.post(f"{server}/v1/players/me/stream", timeout=10), 405, "method_not_allowed"),
    ]
    for response, status, code in cases:
        assert response.status_code == status, response.text
        assert response.headers["Content-Type"] == "application/problem+json"
        assert response.json()["code"] == code


def test_a_seated_players_open_game_stream_marks_them_watching(server, played, redis):
    game, a, b = played
    key = watching_key(game["id"], b["id"])
    response = requests.get(f"{server}/v1/games/{game['id']}/stream", params={"timeout": 1.5, "keepalive": 0.5},
                            headers={"Authorization": f"Bearer {b['token']}"}, stream=True, timeout=30)
    assert response.status_code == 200
    seen: list[int] = []

    def read():
        for _ in response.iter_lines():
            seen.append(redis.ttl(key))

    reader = threading.Thread(target=read)
    reader.start()
    reader.join(10)
    assert seen and max(seen) > 0 and max(seen) <= 60, "the key was not kept while the stream was open"
    wait_for(lambda: not redis.exists(key), 3)  # deleted on close
    # a spectator's stream marks nobody
    requests.get(f"{server}/v1/games/{game['id']}/stream", params={"timeout": 0.3}, timeout=30).close()
    assert not redis.keys(f"entrepot:watching:{game['id']}:*")
