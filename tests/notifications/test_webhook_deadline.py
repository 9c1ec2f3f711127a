"""Issue 26, item 1: a webhook receiver cannot stall the clocks, mail or other deliveries.

Each attempt has a hard wall-clock deadline whatever the receiver does (drips bytes, never
answers), and deliveries run on their own queue and worker: a 2-second clock times out on
time while every delivery stalls at a hostile receiver. Real PostgreSQL, Redis, RQ worker
processes (started as `entrepot serve` starts them) and a real socket receiver."""

from __future__ import annotations

import time
from dataclasses import replace
from datetime import datetime

import pytest

from service.runtime.container import build
from tests.notifications.conftest import new_player, start_worker, stop_worker, wait_for
from tests.notifications.drip import DripReceiver

pytestmark = pytest.mark.slow(seconds=20)  # started first: tests/conftest.py


@pytest.fixture
def drip():
    receiver = DripReceiver(every=0.1, for_seconds=60).start()
    yield receiver
    receiver.stop()


@pytest.mark.parametrize("silent", [False, True], ids=["drips", "never-answers"])
def test_an_attempt_ends_at_its_deadline_whatever_the_receiver_does(notify_settings, silent):
    receiver = DripReceiver(every=0.1, for_seconds=30, silent=silent).start()
    services = build(replace(notify_settings, webhook_timeout_seconds=1.0))
    try:
        started = time.monotonic()
        status, error = services.webhooks._send("00000000-0000-0000-0000-000000000001", receiver.url + "/x",
                                                "whsec_" + "a" * 44, "{}")
        took = time.monotonic() - started
    finally:
        services.close()
        receiver.stop()
    assert took < 1.6, f"an attempt with a 1 s deadline took {took:.1f} s"
    assert status is None and "deadline of 1 s" in error
    # the receiver saw the connection end at the deadline, not when it chose to stop
    wait_for(lambda: receiver.connections and receiver.connections[0][1] is not None, 5)


def at(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def test_a_stalling_receiver_delays_no_clock(client, notify_settings, drip):
    # long attempts: on the old code every delivery held the one short-jobs worker for the
    # whole drip, and the timer queued behind it fired many seconds late
    slow = replace(notify_settings, webhook_timeout_seconds=20.0)
    main = start_worker(slow, "main")
    hooks = start_worker(slow, "webhooks")
    try:
        a, b = new_player(client, "Stalled"), new_player(client, "Clocked")
        for player in (a, b):
            created = client.post("/v1/players/me/webhooks", token=player["token"],
                                  json={"url": drip.url + "/hook", "events": ["your_turn", "finished", "message"]})
            assert created.status_code == 201, created.json
        created = client.post("/v1/games", token=a["token"], json={
            "title": "kontor", "options": {"variant": "basic"},
            "seats": [{"player_id": a["id"]}, {"player_id": b["id"]}],
            "time_control": {"per_move": "PT2S", "on_timeout": "forfeit", "reminders": []}})
        assert created.status_code == 201, created.json
        game_id = created.json["id"]
        for i in range(4):  # messages: each a delivery to the stalling receiver
            client.post(f"/v1/games/{game_id}/messages", token=a["token"], json={"text": f"stall {i}"})
        accepted = client.post(f"/v1/games/{game_id}/seats/1/accept", token=b["token"])
        assert accepted.status_code == 200, accepted.json
        wait_for(lambda: drip.connections, 15)  # a delivery is stalled now

        def finished():
            game = client.get(f"/v1/games/{game_id}").json
            return game if game["status"] == "finished" else None

        wait_for(finished, 30)
        events = client.get(f"/v1/games/{game_id}/events").json["events"]
        [timeout] = [e for e in events if e["type"] == "TimedOut"]
        late = (at(timeout["at"]) - at(timeout["data"]["deadline"])).total_seconds()
        assert late < 1.5, f"the clock fired {late:.1f} s late behind a stalled webhook"
        assert all(closed is None or closed - opened < 21 for opened, closed in drip.connections)
    finally:
        stop_worker(hooks)
        stop_worker(main)
