"""No double delivery after a worker is killed with SIGKILL in the middle of a delivery: a
claimed delivery whose worker died is re-sent (same webhook-id) only after its lease ends,
and a delivery recorded as delivered is never sent again."""

from __future__ import annotations

import signal
from dataclasses import replace

import pytest

from service.notifications.webhooks import message_id
from tests.notifications.conftest import (
    fanned_out,
    new_player,
    play,
    start_worker,
    stop_worker,
    two_player_game,
    wait_for,
)
from tests.notifications.test_webhook_delivery import hook

pytestmark = pytest.mark.slow(seconds=25)  # started first: tests/conftest.py


@pytest.fixture(scope="module")
def kill_settings(notify_settings):
    # a 1 s timeout: a claim's lease is 3 s, so the test waits seconds, not minutes
    return replace(notify_settings, webhook_timeout_seconds=1.0)


def test_a_worker_killed_mid_delivery_sends_nothing_twice_that_was_recorded(client, receiver, owner_db,
                                                                           kill_settings):
    receiver.answer = lambda path, msg_id, nth: (200, 0.4)  # every answer takes a while
    a, b = new_player(client, "Killer"), new_player(client, "Survivor")
    hook(client, receiver, a, "/a", ["your_turn"])
    hook(client, receiver, b, "/b", ["your_turn"])
    game = two_player_game(client, a, b)
    play(client, game["id"], [a, b], 10)  # queued, while no worker runs

    first = start_worker(kill_settings)
    try:
        wait_for(lambda: len(receiver.received) >= 2, 30)  # killed while answers are slow: mid-delivery
    finally:
        stop_worker(first, signal.SIGKILL)
    delivered_before = {row[0] for row in owner_db.execute(
        "SELECT d.id::text FROM webhook_deliveries d JOIN notifications n ON n.id = d.notification_id"
        " WHERE n.game_id = %s AND d.state = 'delivered'", (game["id"],))}
    received_before = len(receiver.received)

    second = start_worker(kill_settings)
    try:
        wait_for(lambda: fanned_out(owner_db, game["id"]), 30)

        def all_settled():
            rows = owner_db.execute(
                "SELECT d.id::text, d.state FROM webhook_deliveries d JOIN notifications n ON n.id = d.notification_id"
                " WHERE n.game_id = %s", (game["id"],)).fetchall()
            return rows if rows and all(state == "delivered" for _, state in rows) else None

        rows = wait_for(all_settled, 40)
    finally:
        stop_worker(second)
    counts: dict[str, int] = {}
    for r in receiver.received:
        assert r.verified
        counts[r.headers["webhook-id"]] = counts.get(r.headers["webhook-id"], 0) + 1
    ids = {message_id(d) for d, _ in rows}
    assert set(counts) == ids, "a delivery never arrived, or something unknown did"
    assert received_before < len(rows), "the worker was killed after it had sent everything"
    for delivery_id in delivered_before:
        assert counts[message_id(delivery_id)] == 1, "a delivery recorded as delivered was sent again"
    repeated = [i for i, n in counts.items() if n > 1]
    # one worker sends one delivery at a time: at most the one in flight at the kill repeats
    assert len(repeated) <= 1 and all(counts[i] == 2 for i in repeated)
