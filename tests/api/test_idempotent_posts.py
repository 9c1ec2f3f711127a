"""Issue 26, item 12: Idempotency-Key on every mutating route that creates something. Three
sends of one message with one key made three messages; two registrations of one webhook
made two webhooks and two secrets. Through the API on real PostgreSQL."""

from __future__ import annotations

import uuid
from dataclasses import replace

import pytest

from api import create_app
from service.runtime.container import build
from tests.openapi_check import ValidatingClient


@pytest.fixture(scope="module")
def hooks(settings):
    services = build(replace(settings, webhook_allow_private=True))
    yield ValidatingClient(create_app(services).test_client())
    services.close()


def test_a_message_sent_three_times_with_one_key_is_one_message(client, new_player):
    ada, bob = new_player("Ada"), new_player("Bob")
    game = client.post("/v1/games", token=ada["token"], json={
        "title": "kontor", "seats": [{"player_id": ada["id"]}, {"player_id": bob["id"]}]}).json
    key = {"Idempotency-Key": str(uuid.uuid4())}
    answers = [client.post(f"/v1/games/{game['id']}/messages", token=ada["token"], headers=key,
                           json={"text": "hello once"}) for _ in range(3)]
    assert [a.status_code for a in answers] == [201, 201, 201]
    assert answers[0].json == answers[1].json == answers[2].json
    assert [a.headers.get("Idempotent-Replayed") for a in answers] == [None, "true", "true"]
    listed = client.get(f"/v1/games/{game['id']}/messages", token=ada["token"]).json["messages"]
    assert [m["text"] for m in listed] == ["hello once"]
    # the same key with another text is refused, a new key posts again
    reused = client.post(f"/v1/games/{game['id']}/messages", token=ada["token"], headers=key,
                         json={"text": "something else"})
    assert reused.status_code == 422 and reused.json["code"] == "idempotency_key_reused"
    again = client.post(f"/v1/games/{game['id']}/messages", token=ada["token"],
                        headers={"Idempotency-Key": str(uuid.uuid4())}, json={"text": "hello once"})
    assert again.status_code == 201 and again.json["seq"] != answers[0].json["seq"]


def test_a_webhook_registered_twice_with_one_key_is_one_webhook_and_one_secret(hooks):
    me = hooks.post("/v1/players", json={"name": "Hooker"}).json
    key = {"Idempotency-Key": str(uuid.uuid4())}
    body = {"url": "http://127.0.0.1:9/hook", "events": ["your_turn"]}
    first = hooks.post("/v1/players/me/webhooks", token=me["token"], headers=key, json=body)
    second = hooks.post("/v1/players/me/webhooks", token=me["token"], headers=key, json=body)
    assert first.status_code == second.status_code == 201
    assert first.json["id"] == second.json["id"] and first.json["secret"] == second.json["secret"]
    assert second.headers["Idempotent-Replayed"] == "true"
    assert len(hooks.get("/v1/players/me/webhooks", token=me["token"]).json["webhooks"]) == 1
    # the key is the caller's: another player's same key registers their own
    other = hooks.post("/v1/players", json={"name": "Other"}).json
    theirs = hooks.post("/v1/players/me/webhooks", token=other["token"], headers=key, json=body)
    assert theirs.status_code == 201 and theirs.json["id"] != first.json["id"]
