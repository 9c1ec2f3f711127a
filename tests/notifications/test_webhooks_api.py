"""Registering webhooks: the secret shown once and stored only sealed; private and loopback
URLs refused (no SSRF) unless the server allows them; a player sees only their own."""

from __future__ import annotations

import base64
import socket
from dataclasses import replace

import pytest
from psycopg import sql

from api import create_app
from service.runtime.container import build
from tests.notifications.conftest import new_player
from tests.openapi_check import ValidatingClient
from tests.refusals import problem


@pytest.fixture(scope="module")
def guarded(notify_settings):
    """A server with the default rule: webhooks call public addresses only."""
    services = build(replace(notify_settings, webhook_allow_private=False))
    app = create_app(services)
    app.testing = True
    yield ValidatingClient(app.test_client())
    services.close()


def register(client, player, url, events=("your_turn",)):
    return client.post("/v1/players/me/webhooks", token=player["token"], json={"url": url, "events": list(events)})


def test_a_webhook_is_registered_listed_and_deleted_and_its_secret_shown_once(client, owner_db):
    me = new_player(client, "Hooked")
    created = register(client, me, "http://127.0.0.1:9/hook", ["your_turn", "finished"])
    assert created.status_code == 201, created.json
    hook = created.json
    secret = hook["secret"]
    assert secret.startswith("whsec_") and len(base64.b64decode(secret[6:])) >= 24
    assert hook["events"] == ["your_turn", "finished"] and hook["active"] is True
    listed = client.get("/v1/players/me/webhooks", token=me["token"])
    assert [w["id"] for w in listed.json["webhooks"]] == [hook["id"]]
    assert "secret" not in listed.json["webhooks"][0] and secret not in listed.text
    assert client.get(f"/v1/players/me/webhooks/{hook['id']}/deliveries", token=me["token"]).json == {"deliveries": []}
    assert client.delete(f"/v1/players/me/webhooks/{hook['id']}", token=me["token"]).status_code == 204
    assert client.get("/v1/players/me/webhooks", token=me["token"]).json == {"webhooks": []}
    gone = client.delete(f"/v1/players/me/webhooks/{hook['id']}", token=me["token"])
    assert gone.status_code == 404 and gone.json["code"] == "not_found"


def test_no_secret_is_stored_in_clear(client, owner_db):
    me = new_player(client, "Secretive")
    secret = register(client, me, "http://127.0.0.1:9/hook").json["secret"]
    raw = base64.b64decode(secret[6:])
    forms = [secret, secret[6:], raw.hex()]
    tables = owner_db.execute(
        "SELECT table_name, column_name, data_type FROM information_schema.columns"
        " WHERE table_schema = 'public' AND data_type IN ('text', 'bytea', 'jsonb', 'character varying')").fetchall()
    assert any(t == "webhooks" for t, _, _ in tables)
    for table, column, data_type in tables:
        found = owner_db.execute(sql.SQL(
            "SELECT count(*) FROM {t} WHERE position(%s in {c}::text) > 0 OR position(%s in {c}::text) > 0"
            " OR position(%s in {c}::text) > 0" + (" OR position(%s in {c}) > 0" if data_type == "bytea" else "")
        ).format(t=sql.Identifier(table), c=sql.Identifier(column)),
            [*forms, raw] if data_type == "bytea" else forms).fetchone()[0]
        assert found == 0, f"the secret is in {table}.{column}"


def test_another_players_webhook_is_not_found(client):
    me, other = new_player(client, "Mine"), new_player(client, "Theirs")
    hook = register(client, me, "http://127.0.0.1:9/hook").json
    for response in (client.delete(f"/v1/players/me/webhooks/{hook['id']}", token=other["token"]),
                     client.get(f"/v1/players/me/webhooks/{hook['id']}/deliveries", token=other["token"]),
                     client.get("/v1/players/me/webhooks/not-an-id/deliveries", token=other["token"])):
        problem(response, 404, "not_found")
    assert client.get("/v1/players/me/webhooks", token=other["token"]).json == {"webhooks": []}


@pytest.mark.parametrize("url", [
    "http://127.0.0.1/hook",
    "http://10.1.2.3/hook",
    "http://192.168.0.10:8080/hook",
    "http://169.254.169.254/latest/meta-data",
    "http://[::1]/hook",
    "http://[::ffff:127.0.0.1]/hook",
    "http://0.0.0.0/hook",
    "http://224.0.0.1/hook",
    "http://localhost:8000/hook",
])
def test_private_and_loopback_urls_are_refused(guarded, url):
    me = new_player(guarded, "Ssrf")
    refused = register(guarded, me, url)
    assert refused.status_code == 422, refused.json
    assert refused.json["code"] == "webhook_url_refused" and "url" in refused.json["errors"]
    assert guarded.get("/v1/players/me/webhooks", token=me["token"]).json == {"webhooks": []}


def test_a_name_that_resolves_to_loopback_is_refused(guarded):
    me = new_player(guarded, "Rebind")
    names = ["localhost", socket.gethostname()]
    for name in names:
        try:
            addresses = {info[4][0] for info in socket.getaddrinfo(name, 80)}
        except socket.gaierror:
            continue
        if not all(a.startswith("127.") or a == "::1" for a in addresses):
            continue  # this machine's name points elsewhere: not a loopback name here
        refused = register(guarded, me, f"http://{name}:8000/hook")
        assert refused.status_code == 422 and refused.json["code"] == "webhook_url_refused"
        # the refusal tells nothing of how the name resolves (tests/notifications/test_url_guard.py)
        assert "loopback" not in refused.json["detail"] and "127." not in refused.json["detail"], refused.json


@pytest.mark.parametrize("url, events", [
    ("ftp://example.org/hook", ["your_turn"]),
    ("file:///etc/passwd", ["your_turn"]),
    ("http://user:pw@example.org/hook", ["your_turn"]),
    ("not a url", ["your_turn"]),
])
def test_urls_that_are_not_http_are_refused(guarded, url, events):
    me = new_player(guarded, "Scheme")
    refused = register(guarded, me, url, events)
    assert refused.status_code == 422 and refused.json["code"] == "webhook_url_refused"


@pytest.mark.parametrize("body", [
    {"url": "http://127.0.0.1/hook", "events": []},
    {"url": "http://127.0.0.1/hook", "events": ["everything"]},
    {"url": "http://127.0.0.1/hook"},
    {"events": ["your_turn"]},
    {"url": 7, "events": ["your_turn"]},
    {"url": "http://127.0.0.1/hook", "events": ["your_turn"], "extra": 1},
])
def test_bad_bodies_are_validation_errors(client, body):
    me = new_player(client, "Sloppy")
    response = client.post("/v1/players/me/webhooks", token=me["token"], json=body)
    assert response.status_code == 422 and response.json["code"] == "validation_error"


def test_webhooks_need_a_token(client):
    problem(client.get("/v1/players/me/webhooks"), 401, "unauthorized")
    problem(client.post("/v1/players/me/webhooks", json={"url": "http://127.0.0.1/h", "events": ["message"]}), 401, "unauthorized")
