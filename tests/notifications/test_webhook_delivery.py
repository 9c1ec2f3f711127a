"""Webhook deliveries through a real worker to a real receiver that verifies each signature
with the Standard Webhooks library: delivered, retried after a 500, failed and the webhook
disabled after persistent failure, and the address checked again at delivery time."""

from __future__ import annotations

from dataclasses import replace

import pytest
from rq.job import Job

from service.games.service import SeatRequest
from service.job_queue import RecordingJobQueue
from service.notifications.webhooks import WebhookService, message_id
from service.runtime.container import build
from tests.notifications.conftest import (
    fanned_out,
    hooked_deliveries,
    new_player,
    notifications,
    play,
    two_player_game,
    wait_for,
)
from tests.notifications.receiver import Receiver
from tests.tls import localhost_server_context

pytestmark = pytest.mark.slow(seconds=15)  # started first: tests/conftest.py


def hook(client, receiver, player, path, events=("your_turn", "finished", "message")) -> dict:
    created = client.post("/v1/players/me/webhooks", token=player["token"],
                          json={"url": receiver.url + path, "events": list(events)})
    assert created.status_code == 201, created.json
    receiver.secrets[path] = created.json["secret"]
    return created.json


def deliveries(client, player, webhook) -> list[dict]:
    response = client.get(f"/v1/players/me/webhooks/{webhook['id']}/deliveries", token=player["token"])
    assert response.status_code == 200
    return response.json["deliveries"]


def settled(client, player, webhook, count: int) -> list[dict]:
    found = deliveries(client, player, webhook)
    return found if len(found) >= count and all(d["state"] in ("delivered", "failed") for d in found) else []


def test_deliveries_are_signed_and_carry_the_notification(client, worker, receiver, owner_db):
    a, b = new_player(client, "Signer"), new_player(client, "Hooked")
    webhook = hook(client, receiver, b, "/b")
    game = two_player_game(client, a, b)
    play(client, game["id"], [a, b], 6)
    client.post(f"/v1/games/{game['id']}/messages", token=a["token"], json={"text": "hello Bob"})
    wait_for(lambda: fanned_out(owner_db, game["id"]))

    def bobs():
        mine = [x for x in notifications(owner_db, game["id"]) if x["player_id"] == b["id"]]
        return mine if any(x["type"] == "message" for x in mine) else None

    told = wait_for(bobs)
    log = wait_for(lambda: settled(client, b, webhook, len(told)))
    assert {d["notification_id"] for d in log} == {n["id"] for n in told}
    assert all(d["state"] == "delivered" and d["attempts"] == 1 and d["last_status"] == 200 for d in log)
    got = receiver.at("/b")
    assert len(got) == len(told) and all(r.verified for r in got)
    by_id = {r.headers["webhook-id"]: r for r in got}
    assert set(by_id) == {message_id(d["id"]) for d in log}
    for d in log:
        body = by_id[message_id(d["id"])].body
        n = next(x for x in told if x["id"] == d["notification_id"])
        assert body["type"] == n["type"] == d["type"] and body["game_id"] == game["id"]
        assert body["seat"] == 1 and body["version"] == n["version"] and body["data"] == n["data"]
        assert set(body) == {"type", "game_id", "seat", "version", "at", "data"}
    assert any(r.body["type"] == "message" and r.body["data"]["message"]["text"] == "hello Bob" for r in got)
    assert not receiver.at("/a")


def test_a_delivery_answered_500_is_retried_with_the_same_webhook_id(client, worker, receiver, owner_db):
    receiver.answer = lambda path, msg_id, nth: (500 if nth == 0 else 204, 0.0)
    a, b = new_player(client, "Flaky"), new_player(client, "Retried")
    webhook = hook(client, receiver, b, "/retry", ["your_turn"])
    game = two_player_game(client, a, b)
    play(client, game["id"], [a, b], 3)
    wait_for(lambda: fanned_out(owner_db, game["id"]))
    count = len([n for n in notifications(owner_db, game["id"]) if n["player_id"] == b["id"]])
    log = wait_for(lambda: settled(client, b, webhook, count))
    assert count >= 1 and len(log) == count
    assert all(d["state"] == "delivered" and d["attempts"] == 2 and d["last_status"] == 204 for d in log)
    got = receiver.at("/retry")
    assert all(r.verified for r in got)
    per_id: dict[str, int] = {}
    for r in got:
        per_id[r.headers["webhook-id"]] = per_id.get(r.headers["webhook-id"], 0) + 1
    assert per_id == {message_id(d["id"]): 2 for d in log}


def test_persistent_failure_fails_the_delivery_and_disables_the_webhook(client, worker, receiver, owner_db,
                                                                         redis, notify_settings):
    receiver.answer = lambda path, msg_id, nth: (503, 0.0)
    a, b = new_player(client, "Down"), new_player(client, "Unreachable")
    webhook = hook(client, receiver, b, "/down", ["your_turn"])
    game = two_player_game(client, a, b)
    log = wait_for(lambda: settled(client, b, webhook, 1))
    schedule = notify_settings.webhook_retry_schedule
    assert log[0]["state"] == "failed" and log[0]["attempts"] == len(schedule) and log[0]["last_status"] == 503
    listed = client.get("/v1/players/me/webhooks", token=b["token"]).json["webhooks"]
    assert listed[0]["active"] is False and listed[0]["disabled_reason"]
    job = Job.fetch(f"webhook-disabled-{webhook['id']}", connection=redis)
    assert job.func_name == "workers.mail_jobs.webhook_disabled" and job.args == (webhook["id"],)
    assert job.origin == notify_settings.queue_name
    # a disabled webhook gets nothing more
    sent = len(receiver.at("/down"))
    play(client, game["id"], [a, b], 4)
    wait_for(lambda: fanned_out(owner_db, game["id"]))
    assert len(deliveries(client, b, webhook)) == 1 and len(receiver.at("/down")) == sent


def test_the_address_is_checked_again_at_delivery_time(notify_settings, receiver, owner_db):
    """A webhook registered while its name resolved to a public address (here: while the
    server allowed private ones) is not called once it resolves to loopback."""
    jobs = RecordingJobQueue()
    services = build(replace(notify_settings, queue_name=notify_settings.queue_name + "-rebind"), jobs=jobs)
    try:
        [delivery_id] = hooked_deliveries(services, owner_db, receiver, "/rebind")
        guarded = WebhookService(services.store, jobs, services.webhooks.sealer, allow_private=False,
                                 schedule=(0.0, 60.0))
        assert guarded.deliver(delivery_id) == "retry"
        state, error = owner_db.execute("SELECT state, last_error FROM webhook_deliveries WHERE id = %s",
                                        (delivery_id,)).fetchone()
        assert state == "pending" and "not a public address" in error  # the reason only in the log
        assert not receiver.at("/rebind")
    finally:
        services.close()


def test_a_delivery_whose_job_was_lost_is_sent_by_the_workers_sweeper(notify_settings, worker, receiver, owner_db):
    """The fan-out commits its deliveries, then its queue loses their jobs (here: a queue
    that only records): the running worker's sweeper finds them due and sends them."""
    jobs = RecordingJobQueue()
    services = build(notify_settings, jobs=jobs)
    try:
        a = services.players.create("Lossy", None).player
        b = services.players.create("Patient", None).player
        receiver.secrets["/lost"] = services.webhooks.register(b, receiver.url + "/lost", ["your_turn"]).secret
        game = services.games.create(a, "kontor", {"variant": "basic"},
                                     [SeatRequest(player_id=a.id), SeatRequest(player_id=b.id)])
        services.games.accept(b, game.game.id, 1)
        assert services.notifications.fan_out_game(game.game.id, 1) >= 1
        queued = [job for job in jobs.jobs if job[0] == "workers.notification_jobs.deliver_webhook"]
        assert queued  # ...and lost: never in Redis
        got = wait_for(lambda: receiver.at("/lost"), 15)
        assert len(got) == 1 and got[0].verified and got[0].body["type"] == "your_turn"

        def recorded():
            # the worker records the delivery once the receiver has answered: just after
            # the receiver saw it, the row may still say "sending"
            row = owner_db.execute(
                "SELECT d.state, d.attempts FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id"
                " WHERE w.player_id = %s", (b.id,)).fetchone()
            return row if row[0] != "sending" else None

        assert wait_for(recorded, 15) == ("delivered", 1)
    finally:
        services.close()


def test_https_deliveries_check_the_receivers_certificate(notify_settings, owner_db, tmp_path, monkeypatch):
    """Over https the delivery connects to the address it checked, yet verifies the
    certificate under the URL's host name: a trusted certificate is delivered to, an
    untrusted one is a failed attempt (retried), never a silent plain-text fallback."""
    context, cert = localhost_server_context(tmp_path)
    receiver = Receiver(tls=context).start()
    jobs = RecordingJobQueue()
    services = build(replace(notify_settings, queue_name=notify_settings.queue_name + "-tls"), jobs=jobs)
    try:
        first, second = hooked_deliveries(services, owner_db, receiver, "/tls", games=2)
        monkeypatch.setenv("SSL_CERT_FILE", str(cert))
        assert services.webhooks.deliver(first) == "delivered"
        [got] = receiver.at("/tls")
        assert got.verified and got.body["type"] == "your_turn"
        monkeypatch.delenv("SSL_CERT_FILE")
        assert services.webhooks.deliver(second) == "retry"
        error = owner_db.execute("SELECT last_error FROM webhook_deliveries WHERE id = %s", (second,)).fetchone()[0]
        assert "certificate" in error.lower() and len(receiver.at("/tls")) == 1
    finally:
        services.close()
        receiver.stop()
