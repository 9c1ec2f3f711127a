"""Clocks on real time through real workers (their timer loop on PostgreSQL, RQ for the other jobs), Redis and PostgreSQL.

The few tests of correspondence play that wait for real seconds: 1- and 2-second clocks.
They use Redis database index 9 (ENTREPOT_TEST_REDIS_URL with its db replaced), which
this file flushes with FLUSHDB: no other test session may use that index.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from dataclasses import replace
from datetime import datetime

import pytest
from redis import Redis
from rq import Queue, Worker
from rq.registry import FinishedJobRegistry

from api import create_app
from service.job_queue import ai_queue, clock_queue
from service.runtime.container import build
from service.runtime.lifeline import die_with_parent
from tests.conftest import ROOT, with_db
from tests.openapi_check import ValidatingClient

pytestmark = pytest.mark.slow(seconds=55)  # started first: tests/conftest.py

#: The Redis database index these tests own (they FLUSHDB it).
FLUSHED_DB = 9


@pytest.fixture(scope="module")
def clock_settings(settings):
    return replace(settings, redis_url=with_db(settings.redis_url, FLUSHED_DB),
                   queue_name=f"entrepot-clocks-{uuid.uuid4().hex[:8]}")


def start_worker(settings, *options: str) -> subprocess.Popen:
    env = {
        **os.environ,
        "DATABASE_URL": settings.database_url,
        "REDIS_URL": settings.redis_url,
        "ENTREPOT_QUEUE": settings.queue_name,
        "ENTREPOT_SWEEP_AFTER": "1",
        "ENTREPOT_TIMER_GRACE": "0.5",
    }
    # its own session: kill -9 of the group takes the worker and its scheduler process
    process = subprocess.Popen([sys.executable, "-m", "workers", "--sweep-every", "0.5", *options], cwd=ROOT, env=env,
                               start_new_session=True, preexec_fn=die_with_parent)
    redis = Redis.from_url(settings.redis_url)
    wait_for(lambda: Worker.count(connection=redis, queue=Queue(f"{clock_queue(settings.queue_name)}", connection=redis)) or process.poll() is not None,
             60)
    return process


def stop(process: subprocess.Popen, sig=signal.SIGTERM) -> None:
    try:
        os.killpg(process.pid, sig)
        process.wait(timeout=20)
    except ProcessLookupError:
        return
    except subprocess.TimeoutExpired:  # a warm shutdown waits for the job at hand: enough
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=20)


@pytest.fixture
def worker(clock_settings):
    process = start_worker(clock_settings)
    yield process
    stop(process)


@pytest.fixture(scope="module")
def client(clock_settings):
    services = build(clock_settings)
    yield ValidatingClient(create_app(services).test_client())
    services.close()


def wait_for(predicate, timeout: float):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError("timed out")


def finished(client, gid, timeout=90.0):
    return wait_for(lambda: (g := client.get(f"/v1/games/{gid}").json)["status"] == "finished" and g, timeout)


def events(client, gid):
    return client.get(f"/v1/games/{gid}/events", query_string={"limit": 1000}).json["events"]


def at(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def new_game(client, seats_for, time_control):
    me = client.post("/v1/players", json={"name": "Absent"}).json
    other = client.post("/v1/players", json={"name": "Present"}).json
    created = client.post("/v1/games", token=me["token"], json={
        "title": "kontor", "options": {"variant": "basic"}, "seats": seats_for(me, other),
        "time_control": time_control,
    })
    assert created.status_code == 201, created.json
    game = created.json
    for seat in game["seats"]:  # the invited accept: the game starts
        if seat["player_id"] == other["id"] and seat.get("status") == "invited":
            game = client.post(f"/v1/games/{game['id']}/seats/{seat['index']}/accept", token=other["token"]).json
    return game, me, other


def test_no_winning_by_absence_real_workers_forfeit_a_silent_seat_after_two_stand_ins(client, worker):
    """Real 1-second clocks and workers: the computer covers two timeouts of a player who
    never moves (its moves are jobs of the computers' queue), the third puts the seat out
    and the computer seat wins."""
    game, me, _ = new_game(client, lambda me, _: [{"player_id": me["id"]}, {"ai": "easy"}],
                           {"per_move": "PT1S", "on_timeout": "computer", "reminders": []})
    final = finished(client, game["id"], timeout=60)
    assert final["result"]["reason"] == "timeout" and final["result"]["winners"] == [1]
    assert final["result"]["out"] == [{"seat": 0, "reason": "timeout"}]
    timeouts = [e["data"]["on_timeout"] for e in events(client, game["id"]) if e["type"] == "TimedOut"]
    assert timeouts == ["computer", "computer", "forfeit"]
    assert final["to_act"] == [] and final["view"]["to_act"] == []


def test_under_computer_a_player_who_never_moves_is_played_by_the_server_to_the_end(client, worker,
                                                                                    clock_settings):
    game, me, _ = new_game(client, lambda me, _: [{"player_id": me["id"]}, {"ai": "easy"}],
                           # no stand-in limit here: this is about the server making every move
                           # (the default limit forfeits a silent seat: test_correspondence_rules.py)
                           {"per_move": "PT1S", "on_timeout": "computer", "reminders": [], "max_stand_ins": 100})
    redis = Redis.from_url(clock_settings.redis_url)
    stand_ins = set()  # the AI queue's jobs that made seat 0's moves (kept a minute once done)
    give_up = time.monotonic() + 150
    while client.get(f"/v1/games/{game['id']}").json["status"] == "active" and time.monotonic() < give_up:
        done = FinishedJobRegistry(ai_queue(clock_settings.queue_name), connection=redis).get_job_ids()
        stand_ins |= {j for j in done if j.startswith(f"computer-{game['id']}-") and j.endswith("-0")}
        time.sleep(0.5)
    final = finished(client, game["id"], timeout=5)
    assert final["result"]["winners"]
    history = events(client, game["id"])
    timeouts = [e for e in history if e["type"] == "TimedOut"]
    assert timeouts and all(e["seat"] == 0 and e["data"]["on_timeout"] == "computer" for e in timeouts)
    # the timer job records the timeout; the seat's move is a job of the AI queue
    assert stand_ins and len(stand_ins) >= len(timeouts) - 1
    # every move of the absent seat follows its TimedOut: the server moved, and says why
    for e in history:
        if e["seat"] == 0 and e["type"].startswith("kontor."):
            before = [p for p in history if p["seq"] < e["seq"] and p["type"] in ("TimedOut", "ClockStarted")]
            assert before and before[-1]["type"] == "TimedOut"
    # nothing doubled: one timeout per clock started
    deadlines = [e["data"]["deadline"] for e in timeouts]
    assert len(deadlines) == len(set(deadlines))
    for e in timeouts:
        assert 0 <= (at(e["at"]) - at(e["data"]["deadline"])).total_seconds() < 3


def test_under_forfeit_the_absent_seat_loses_after_one_reminder_at_eighty_percent(client, worker):
    # the 2-second game finishes by itself; the reminder is checked on a 5-second one, whose
    # 80% leaves the reminder job a whole second before the deadline on a loaded machine
    games = []
    for per_move in ("PT2S", "PT5S"):
        game, me, other = new_game(client, lambda me, other: [{"player_id": other["id"]}, {"player_id": me["id"]}],
                                   {"per_move": per_move, "on_timeout": "forfeit"})
        legal = client.get(f"/v1/games/{game['id']}/legal-commands", token=other["token"]).json
        assert client.post(f"/v1/games/{game['id']}/commands", token=other["token"],
                           json={"command": legal["commands"][0]}).status_code == 201
        games.append(game["id"])
    for gid in games:
        final = finished(client, gid, timeout=30)
        assert final["result"]["winners"] == [0] and final["out"] == [1]
        history = events(client, gid)
        [timeout] = [e for e in history if e["type"] == "TimedOut"]
        assert timeout["seat"] == 1
        assert [e["type"] for e in history][-3:] == ["TimedOut", "SeatOut", "WonByDefault"]
    history = events(client, games[1])
    started = next(e for e in history if e["type"] == "ClockStarted" and e["seat"] == 1)
    reminders = [e for e in history if e["type"] == "ReminderSent" and e["seat"] == 1]
    assert len(reminders) == 1 and reminders[0]["data"]["fraction"] == 0.8
    sent_after = (at(reminders[0]["at"]) - at(started["data"]["started_at"])).total_seconds()
    assert 4.0 <= sent_after < 5.0
    assert reminders[0]["seq"] < next(e["seq"] for e in history if e["type"] == "TimedOut")


def test_kill_9_of_the_worker_and_a_flushed_redis_lose_no_timeout(client, clock_settings):
    first = start_worker(clock_settings)  # it holds RQ's scheduler lock
    try:
        games = [new_game(client, lambda me, other: [{"player_id": me["id"]}, {"player_id": other["id"]}],
                          {"per_move": "PT2S", "on_timeout": "forfeit", "reminders": []})[0]["id"]
                 for _ in range(3)]
    finally:
        stop(first, signal.SIGKILL)  # the worker and its scheduler, mid-flight
    redis = Redis.from_url(clock_settings.redis_url)
    # the deadlines are no jobs: PostgreSQL holds them (each game's timer_at), Redis nothing
    assert redis.zcard(f"rq:scheduled:{clock_queue(clock_settings.queue_name)}") == 0
    redis.flushdb()  # ... every job and the scheduler lock gone all the same
    time.sleep(2.5)  # the deadlines pass with no worker at all
    second = start_worker(clock_settings)
    try:
        for gid in games:
            final = finished(client, gid, timeout=30)
            assert final["result"]["detail"]["ended_by"] == "timeout" and final["result"]["reason"] == "timeout"
            assert sum(e["type"] == "TimedOut" for e in events(client, gid)) == 1  # the first ends it
    finally:
        stop(second)


def test_a_sleeping_timer_loop_is_woken_by_an_earlier_timer(client, clock_settings):
    """The loop sleeps until its next timer (here up to 30 s: nothing else is due, and the
    sweeper, every 60 s, does not run it); the commit that sets a 2-second deadline wakes
    it, and the timeout comes on time."""
    sleeper = start_worker(clock_settings, "--timer-longest-sleep", "30", "--sweep-every", "60")
    try:
        time.sleep(1.0)  # asleep by now
        game, _, _ = new_game(client, lambda me, other: [{"player_id": me["id"]}, {"player_id": other["id"]}],
                              {"per_move": "PT2S", "on_timeout": "forfeit", "reminders": []})
        final = finished(client, game["id"], timeout=20)
        [timeout] = [e for e in events(client, game["id"]) if e["type"] == "TimedOut"]
        assert final["result"]["reason"] == "timeout"
        assert 0 <= (at(timeout["at"]) - at(timeout["data"]["deadline"])).total_seconds() < 1.5
    finally:
        stop(sleeper)
