"""Computer seats played by a real RQ worker process on real Redis and PostgreSQL."""

from __future__ import annotations

import os
import random
import subprocess
import sys
import time
import uuid
from dataclasses import replace

import pytest
from redis import Redis
from rq.registry import FinishedJobRegistry

from api import create_app
from api.routes.players import _render_new
from service.games.idempotency import idempotency_key
from service.job_queue import RecordingJobQueue, ai_queue
from service.runtime.container import build
from tests.conftest import ROOT
from tests.openapi_check import ValidatingClient

pytestmark = pytest.mark.slow(seconds=40)  # started first: tests/conftest.py


@pytest.fixture(scope="module")
def worker_settings(settings):
    return replace(settings, queue_name=settings.queue_name + "-worker")


@pytest.fixture(scope="module")
def worker(worker_settings):
    env = {
        **os.environ,
        "DATABASE_URL": worker_settings.database_url,
        "REDIS_URL": worker_settings.redis_url,
        "ENTREPOT_QUEUE": worker_settings.queue_name,
        "ENTREPOT_SWEEP_AFTER": "1",
        # "strong" seats search a handful of iterations: a quick game, same code path
        "ENTREPOT_AI_ITERATIONS": "4",
        "ENTREPOT_INVITATION_TTL": "1",  # the worker's sweeper lapses invitations after 1 s
    }
    process = subprocess.Popen([sys.executable, "-m", "workers", "--sweep-every", "0.5"], cwd=ROOT, env=env)
    yield process
    process.terminate()
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:  # a warm shutdown waits for the job at hand: not forever
        process.kill()
        process.wait(timeout=10)


@pytest.fixture(scope="module")
def client(worker_settings):
    services = build(worker_settings)
    app = create_app(services)
    yield ValidatingClient(app.test_client())
    services.close()


def wait_for(predicate, timeout: float = 60.0, every: float = 0.05):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(every)
    raise AssertionError("timed out")


def test_a_full_game_against_the_computer_finishes(client, worker):
    me = client.post("/v1/players", json={"name": "Human"}).json
    created = client.post("/v1/games", token=me["token"], json={
        "title": "kontor", "options": {"variant": "basic"},
        "seats": [{"player_id": me["id"]}, {"ai": "normal"}],
    })
    assert created.status_code == 201
    gid = created.json["id"]
    rng = random.Random(3)
    for _ in range(500):
        game = wait_for(lambda: _my_turn_or_over(client, gid, me["token"]))
        if game["status"] == "finished":
            break
        legal = client.get(f"/v1/games/{gid}/legal-commands", token=me["token"]).json
        response = client.post(f"/v1/games/{gid}/commands", token=me["token"],
                               json={"command": rng.choice(legal["commands"]), "expected_version": legal["version"]})
        assert response.status_code in (201, 409), response.json  # 409: the computer moved meanwhile
    final = client.get(f"/v1/games/{gid}").json
    assert final["status"] == "finished" and final["result"]
    computer_moves = [e for e in client.get(f"/v1/games/{gid}/events", query_string={"limit": 1000}).json["events"]
                      if e["seat"] == 1]
    assert computer_moves, "the computer seat never acted"


def _my_turn_or_over(client, gid, token):
    game = client.get(f"/v1/games/{gid}", token=token).json
    return game if game["status"] == "finished" or 0 in game["to_act"] else None


def test_the_sweeper_heals_lost_jobs(worker_settings, worker):
    """A game whose computer moves were never enqueued (a crash, a flushed Redis) still ends."""
    services = build(worker_settings, jobs=RecordingJobQueue())  # enqueues nothing in Redis
    try:
        client = ValidatingClient(create_app(services).test_client())
        me = client.post("/v1/players", json={"name": "Watcher"}).json
        created = client.post("/v1/games", token=me["token"], json={
            "title": "kontor", "options": {"variant": "basic"}, "seats": [{"ai": "easy"}, {"ai": "normal"}],
        })
        assert created.status_code == 201
        gid = created.json["id"]
        Redis.from_url(worker_settings.redis_url).delete(f"rq:queue:{ai_queue(worker_settings.queue_name)}")
        final = wait_for(lambda: (g := client.get(f"/v1/games/{gid}").json)["status"] == "finished" and g,
                         timeout=120)
        assert final["result"]["winners"]
    finally:
        services.close()


def test_speicherstadt_with_people_and_computers_mixed(client, worker):
    me = client.post("/v1/players", json={"name": "Trader"}).json
    created = client.post("/v1/games", token=me["token"], json={
        "title": "speicherstadt", "seats": [{"ai": "normal"}, {"player_id": me["id"]}, {"ai": "easy"}],
    })
    assert created.status_code == 201
    gid = created.json["id"]
    rng = random.Random(5)
    for _ in range(2000):
        game = wait_for(lambda: _seat_turn_or_over(client, gid, me["token"], 1))
        if game["status"] == "finished":
            break
        legal = client.get(f"/v1/games/{gid}/legal-commands", token=me["token"]).json
        if not legal["commands"]:
            continue
        response = client.post(f"/v1/games/{gid}/commands", token=me["token"],
                               json={"command": rng.choice(legal["commands"]), "expected_version": legal["version"]})
        assert response.status_code in (201, 409), response.json
    final = client.get(f"/v1/games/{gid}").json
    assert final["status"] == "finished" and len(final["result"]["scores"]) == 3


def _seat_turn_or_over(client, gid, token, seat):
    game = client.get(f"/v1/games/{gid}", token=token).json
    return game if game["status"] == "finished" or seat in game["to_act"] else None


def test_a_strong_computer_seat_plays_a_whole_game_on_the_ai_queue(client, worker, worker_settings):
    """Strong against normal, both computers, through the real worker: every move is a
    job of the computer-move queue, none of the queue kept for short jobs."""
    me = client.post("/v1/players", json={"name": "Spectator"}).json
    created = client.post("/v1/games", token=me["token"], json={
        "title": "kontor", "options": {"variant": "basic"}, "seats": [{"ai": "strong"}, {"ai": "normal"}],
    })
    assert created.status_code == 201
    gid = created.json["id"]
    final = wait_for(lambda: (g := client.get(f"/v1/games/{gid}").json)["status"] == "finished" and g,
                     timeout=120)
    assert final["result"]["winners"]
    events = client.get(f"/v1/games/{gid}/events", query_string={"limit": 1000}).json["events"]
    assert any(e["seat"] == 0 for e in events)
    redis = Redis.from_url(worker_settings.redis_url)
    ai_jobs = FinishedJobRegistry(ai_queue(worker_settings.queue_name), connection=redis).get_job_ids()
    main_jobs = FinishedJobRegistry(worker_settings.queue_name, connection=redis).get_job_ids()
    assert any(gid in job for job in ai_jobs)
    # the short queue runs the game's notification fan-outs, never its computer moves
    assert not any(gid in job and job.startswith("computer-") for job in main_jobs)


def test_a_worker_chooses_its_queues():
    from workers.__main__ import queue_names

    assert queue_names("entrepot", "main,ai") == ["entrepot-clock", "entrepot", "entrepot-ai"]
    assert queue_names("entrepot", "main") == ["entrepot-clock", "entrepot"]
    assert queue_names("entrepot", "ai") == ["entrepot-ai"]
    with pytest.raises(SystemExit):
        queue_names("entrepot", "mail")
def test_the_sweeper_lapses_invitations_and_purges_expired_keys(worker_settings, worker, client):
    host = client.post("/v1/players", json={"name": "Host"}).json
    silent = client.post("/v1/players", json={"name": "Silent"}).json
    game = client.post("/v1/games", token=host["token"], json={
        "title": "kontor", "options": {"variant": "basic"},
        "seats": [{"player_id": host["id"]}, {"player_id": silent["id"]}]}).json
    assert game["seats"][1]["status"] == "invited"
    services = build(worker_settings)
    try:
        key = idempotency_key(None, "POST", "/v1/players", str(uuid.uuid4()), {"name": "Brief"}, 0.0, _render_new,
                              at=services.clock.now())
        services.players.create("Brief", None, key)

        def key_rows() -> int:
            with services.store.read() as tx:
                return tx.conn.execute("SELECT count(*) FROM idempotency_requests WHERE lookup = %s",
                                       (key.lookup,)).fetchone()[0]

        wait_for(lambda: key_rows() == 0, timeout=30)
    finally:
        services.close()
    seat = wait_for(lambda: (s := client.get(f"/v1/games/{game['id']}").json["seats"][1])["status"] == "declined" and s,
                    timeout=30)
    assert seat["player_id"] is None
