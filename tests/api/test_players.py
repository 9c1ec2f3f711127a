"""Players, tokens and the error contract on real PostgreSQL."""

from __future__ import annotations

import uuid

from tests.refusals import problem


def test_create_player_returns_the_token_once_and_it_authenticates(client, new_player):
    player = new_player("Ada")
    assert player["name"] == "Ada" and player["token"]
    me = client.get("/v1/players/me", token=player["token"])
    assert me.status_code == 200
    assert me.json["id"] == player["id"] and "token" not in me.json
    assert me.json["notify_by_email"] is True and me.json["vacation_until"] is None


def test_tokens_are_stored_only_as_hashes(services, new_player):
    player = new_player()
    with services.store.tx() as tx:
        stored = tx.conn.execute("SELECT token_hash FROM players WHERE id = %s", (player["id"],)).fetchone()[0]
    assert player["token"] not in stored and len(stored) == 64


def test_a_bad_token_is_401_problem(client):
    response = client.get("/v1/players/me", token="nope")
    problem(response, 401, "unauthorized")
    assert response.headers["Content-Type"] == "application/problem+json"
    assert response.json["code"] == "unauthorized"
    problem(client.get("/v1/players/me"), 401, "unauthorized")
    wrong_scheme = client.get("/v1/players/me", headers={"Authorization": "Basic abc"})
    problem(wrong_scheme, 401, "unauthorized")


def test_unknown_fields_and_wrong_types_are_422_with_field_errors(client):
    response = client.post("/v1/players", json={"name": "A", "colour": "red"})
    assert response.status_code == 422 and response.json["code"] == "validation_error"
    assert "colour" in response.json["errors"]
    response = client.post("/v1/players", json={"name": 42})
    assert problem(response, 422, "validation_error") and "name" in response.json["errors"]
    response = client.post("/v1/players", json={})
    assert problem(response, 422, "validation_error") and "name" in response.json["errors"]


def test_malformed_json_is_400(client):
    for body in (b"{not json", b"", b"[1, 2]", b"\xff\xfe"):
        response = client.post("/v1/players", data=body, headers={"Content-Type": "application/json"})
        assert response.status_code == 400, body
        assert response.json["code"] == "malformed_json"


def test_a_body_over_the_limit_is_413(client):
    response = client.post("/v1/players", json={"name": "x" * 100_000})
    assert response.status_code == 413 and response.json["code"] == "payload_too_large"


def test_idempotent_retry_creates_one_player(client, services):
    key = str(uuid.uuid4())
    first = client.post("/v1/players", json={"name": "Once"}, headers={"Idempotency-Key": key})
    second = client.post("/v1/players", json={"name": "Once"}, headers={"Idempotency-Key": key})
    assert first.status_code == second.status_code == 201
    assert first.json == second.json and second.headers["Idempotent-Replayed"] == "true"
    other = client.post("/v1/players", json={"name": "Twice"}, headers={"Idempotency-Key": key})
    assert other.status_code == 422 and other.json["code"] == "idempotency_key_reused"


def test_settings_can_be_changed(client, new_player):
    token = new_player()["token"]
    response = client.patch("/v1/players/me", token=token,
                            json={"notify_by_email": False, "vacation_until": "2027-01-01T00:00:00Z"})
    assert response.status_code == 200
    assert response.json["notify_by_email"] is False
    assert response.json["vacation_until"].startswith("2027-01-01")


def test_unknown_route_and_method_are_problems(client):
    assert client.client.get("/v1/nowhere").json["code"] == "not_found"
    assert client.client.delete("/v1/players").json["code"] == "method_not_allowed"


def test_health_and_openapi_are_served(client):
    health = client.get("/v1/health")  # no worker runs for these tests: 503, naming it
    assert health.status_code == 503 and health.json["down"] == ["worker"]
    assert b"openapi: 3.1.0" in client.get("/v1/openapi.yaml").data
