"""Notifications against real PostgreSQL, Redis, RQ workers (subprocesses) and a real HTTP
receiver. Each module gets its own queue; the workers get the same webhook key and settings
as the test process (short retry schedules, private addresses allowed)."""

from __future__ import annotations

import base64
import os
import signal
import subprocess
import sys
import time
import uuid
from dataclasses import replace

import psycopg
import pytest
from redis import Redis
from rq import Queue, Worker

from api import create_app
from service.games.service import SeatRequest
from service.runtime.container import build
from service.runtime.lifeline import die_with_parent
from tests.conftest import ROOT
from tests.notifications.receiver import Receiver
from tests.openapi_check import ValidatingClient
from workers.__main__ import queue_names

WEBHOOK_KEY = base64.b64encode(b"k" * 32).decode()
RETRY_SCHEDULE = (0.0, 0.3, 0.3)


@pytest.fixture(scope="module")
def notify_settings(settings):
    return replace(settings, queue_name=f"entrepot-notify-{uuid.uuid4().hex[:8]}", webhook_key=WEBHOOK_KEY,
                   webhook_allow_private=True, webhook_retry_schedule=RETRY_SCHEDULE,
                   webhook_timeout_seconds=2.0, fanout_patience_seconds=0.5)


@pytest.fixture(scope="module")
def services(notify_settings):
    services = build(notify_settings)
    yield services
    services.close()


@pytest.fixture(scope="module")
def client(services) -> ValidatingClient:
    app = create_app(services)
    app.testing = True
    return ValidatingClient(app.test_client())


@pytest.fixture(scope="module")
def redis(notify_settings):
    redis = Redis.from_url(notify_settings.redis_url)
    yield redis
    redis.close()


@pytest.fixture
def receiver():
    receiver = Receiver().start()
    yield receiver
    receiver.stop()


@pytest.fixture(scope="module")
def owner_db(owner_database_url):
    with psycopg.connect(owner_database_url, autocommit=True) as conn:
        yield conn


def worker_env(settings) -> dict[str, str]:
    return {
        **os.environ, "PYTHONPATH": str(ROOT),
        "DATABASE_URL": settings.database_url, "REDIS_URL": settings.redis_url,
        "ENTREPOT_QUEUE": settings.queue_name, "ENTREPOT_SWEEP_AFTER": "1",
        "ENTREPOT_WEBHOOK_KEY": settings.webhook_key, "ENTREPOT_WEBHOOK_ALLOW_PRIVATE": "1",
        "ENTREPOT_WEBHOOK_RETRY_SCHEDULE": ",".join(str(s) for s in settings.webhook_retry_schedule),
        "ENTREPOT_WEBHOOK_TIMEOUT": str(settings.webhook_timeout_seconds),
        "ENTREPOT_FANOUT_PATIENCE": str(settings.fanout_patience_seconds),
        "ENTREPOT_TIMER_GRACE": "0.5",
    }


def start_worker(settings, queues: str = "main,webhooks") -> subprocess.Popen:
    """`python -m workers` on the module's queue; its own process group, so kill -9 of the
    group takes its scheduler too."""
    process = subprocess.Popen([sys.executable, "-m", "workers", "--sweep-every", "0.5", "--queues", queues],
                               cwd=ROOT, env=worker_env(settings), start_new_session=True,
                               preexec_fn=die_with_parent,  # gone with pytest, however it ends
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    redis = Redis.from_url(settings.redis_url)
    first = queue_names(settings.queue_name, queues)[-1]
    wait_for(lambda: Worker.count(connection=redis, queue=Queue(f"{first}", connection=redis)) or process.poll() is not None, 60)
    assert process.poll() is None, "the worker did not start"
    return process


def stop_worker(process: subprocess.Popen, sig=signal.SIGTERM) -> None:
    try:
        os.killpg(process.pid, sig)
        process.wait(timeout=3)  # a warm shutdown may wait on RQ's scheduler: not worth more
    except ProcessLookupError:
        return
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=20)


@pytest.fixture(scope="module")
def worker(notify_settings):
    process = start_worker(notify_settings)
    yield process
    stop_worker(process)


def wait_for(predicate, timeout: float = 15.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError("timed out")


def hooked_deliveries(services, owner_db, receiver, path: str, games: int = 1) -> list[str]:
    """A new player's webhook to ``receiver``'s ``path`` (its secret told to the receiver),
    and the ids of its deliveries, oldest first: one per new game's first notification,
    fanned out by ``services`` (a game of another new player's, the hooked one invited)."""
    a = services.players.create("Sender", None).player
    b = services.players.create("Hooked", None).player
    receiver.secrets[path] = services.webhooks.register(b, receiver.url + path, ["your_turn"]).secret
    for _ in range(games):
        game = services.games.create(a, "kontor", {"variant": "basic"},
                                     [SeatRequest(player_id=a.id), SeatRequest(player_id=b.id)])
        services.games.accept(b, game.game.id, 1)
        services.notifications.fan_out_game(game.game.id, 1)
    return [row[0] for row in owner_db.execute(
        "SELECT d.id::text FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id"
        " WHERE w.player_id = %s ORDER BY d.created_at, d.id", (b.id,)).fetchall()]


def new_player(client, name: str, email: str | None = None) -> dict:
    response = client.post("/v1/players", json={"name": name, **({"email": email} if email else {})})
    assert response.status_code == 201, response.json
    return response.json


def two_player_game(client, a: dict, b: dict, time_control: dict | None = None) -> dict:
    """A Kontor basic game of a (seat 0) and b (seat 1), started (b accepted)."""
    body = {"title": "kontor", "options": {"variant": "basic"},
            "seats": [{"player_id": a["id"]}, {"player_id": b["id"]}]}
    if time_control:
        body["time_control"] = time_control
    created = client.post("/v1/games", token=a["token"], json=body)
    assert created.status_code == 201, created.json
    accepted = client.post(f"/v1/games/{created.json['id']}/seats/1/accept", token=b["token"])
    assert accepted.status_code == 200, accepted.json
    return accepted.json


def play(client, game_id: str, players: list[dict], moves: int) -> list[tuple[int, int, list[int]]]:
    """Play ``moves`` legal commands (the first legal one of a seat to act); returns
    (seat, version, seats to act after) of each."""
    played = []
    for _ in range(moves):
        game = client.get(f"/v1/games/{game_id}").json
        if game["status"] != "active":
            break
        seat = game["to_act"][0]
        legal = client.get(f"/v1/games/{game_id}/legal-commands", token=players[seat]["token"],
                           query_string={"seat": seat}).json
        response = client.post(f"/v1/games/{game_id}/commands", token=players[seat]["token"], json={
            "seat": seat, "command": legal["commands"][0], "expected_version": legal["version"]})
        assert response.status_code == 201, response.json
        played.append((seat, response.json["version"], response.json["to_act"]))
    return played


def notifications(db, game_id: str) -> list[dict]:
    rows = db.execute(
        "SELECT id, player_id::text, seat, type, version, ref, data FROM notifications"
        " WHERE game_id = %s ORDER BY id", (game_id,)).fetchall()
    return [dict(zip(("id", "player_id", "seat", "type", "version", "ref", "data"), row)) for row in rows]


def fanned_out(db, game_id: str) -> bool:
    """The game's notifications are worked out up to its version."""
    row = db.execute("SELECT g.version, f.notified_version FROM games g LEFT JOIN game_fanouts f"
                     " ON f.game_id = g.id WHERE g.id = %s", (game_id,)).fetchone()
    return row[1] is not None and row[1] >= row[0]
