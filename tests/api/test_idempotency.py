"""Idempotency-Key: concurrent retries, sealed responses, unguessable anonymous keys, scopes."""

from __future__ import annotations

import secrets
import threading
import uuid

import requests

from api.routes.players import _render_new
from service.games.idempotency import idempotency_key, purge_expired
from tests.refusals import problem

RETRIES = 40


def race(count: int, send) -> list[requests.Response]:
    """``send(session)`` from ``count`` threads released at the same instant."""
    go = threading.Event()
    responses: list[requests.Response] = []
    lock = threading.Lock()

    def one():
        session = requests.Session()
        go.wait()
        response = send(session)
        with lock:
            responses.append(response)

    threads = [threading.Thread(target=one) for _ in range(count)]
    for thread in threads:
        thread.start()
    go.set()
    for thread in threads:
        thread.join()
    return responses


def hot_seat_game(client, new_player) -> tuple[dict, dict]:
    """A Kontor game whose two seats one player holds: nobody else moves it."""
    me = new_player("Idem")
    game = client.post("/v1/games", token=me["token"], json={
        "title": "kontor", "options": {"variant": "basic"},
        "seats": [{"player_id": me["id"]}, {"player_id": me["id"]}]}).json
    return game, me


def database_text(services) -> str:
    """Every row of every table of the application's schema, as text."""
    with services.store.read() as tx:
        tables = [r[0] for r in tx.conn.execute(
            "SELECT tablename FROM pg_tables WHERE schemaname = 'public'").fetchall()]
        rows = []
        for table in tables:
            rows += [r[0] for r in tx.conn.execute(f'SELECT t::text FROM "{table}" t').fetchall()]
            # bytea shows as hex in text; look for the clear text inside binary columns too
            rows += [bytes.fromhex(r[0][2:]).decode("latin-1") for r in tx.conn.execute(
                f"SELECT c::text FROM \"{table}\" t, LATERAL (SELECT value FROM jsonb_each_text(to_jsonb(t))) v(c)"
                " WHERE c LIKE '\\\\x%%'").fetchall()]
    return "\n".join(rows)


def test_concurrent_retries_of_a_command_all_get_the_first_response(live_server, client, new_player):
    game, me = hot_seat_game(client, new_player)
    seat = game["to_act"][0]
    legal = client.get(f"/v1/games/{game['id']}/legal-commands", token=me["token"], query_string={"seat": seat}).json
    body = {"seat": seat, "command": legal["commands"][0], "expected_version": legal["version"]}
    headers = {"Authorization": f"Bearer {me['token']}", "Idempotency-Key": str(uuid.uuid4())}
    url = f"{live_server}/v1/games/{game['id']}/commands"
    responses = race(RETRIES, lambda s: s.post(url, json=body, headers=headers, timeout=60))
    assert [r.status_code for r in responses] == [201] * RETRIES, [r.text for r in responses if r.status_code != 201]
    assert len({r.text for r in responses}) == 1, "every retry gets the first response"
    assert sum(r.headers.get("Idempotent-Replayed") == "true" for r in responses) == RETRIES - 1
    after = client.get(f"/v1/games/{game['id']}").json
    assert after["version"] == responses[0].json()["version"], "the command was appended once"


def test_concurrent_retries_of_creating_a_player_or_a_game_do_it_once(live_server, services):
    key = str(uuid.uuid4())
    responses = race(RETRIES, lambda s: s.post(f"{live_server}/v1/players", json={"name": "Racer"},
                                               headers={"Idempotency-Key": key}, timeout=60))
    assert {r.status_code for r in responses} == {201}
    assert len({r.json()["token"] for r in responses}) == 1
    player = responses[0].json()
    headers = {"Authorization": f"Bearer {player['token']}", "Idempotency-Key": key}
    body = {"title": "speicherstadt", "seats": [{"player_id": player["id"]}, {"open": True}]}
    games = race(RETRIES, lambda s: s.post(f"{live_server}/v1/games", json=body, headers=headers, timeout=60))
    assert {r.status_code for r in games} == {201} and len({r.json()["id"] for r in games}) == 1
    with services.store.read() as tx:
        made = tx.conn.execute("SELECT count(*) FROM players WHERE id = %s", (player["id"],)).fetchone()[0]
        created = tx.conn.execute("SELECT count(*) FROM games WHERE created_by = %s", (player["id"],)).fetchone()[0]
    assert made == 1 and created == 1


def test_no_token_or_key_is_in_clear_anywhere_in_the_database(client, services, new_player):
    secrets_sent = []
    for _ in range(3):
        key = str(uuid.uuid4())
        created = client.post("/v1/players", json={"name": "Sealed"}, headers={"Idempotency-Key": key}).json
        replayed = client.post("/v1/players", json={"name": "Sealed"}, headers={"Idempotency-Key": key}).json
        assert replayed["token"] == created["token"]  # the key's holder gets it back
        secrets_sent += [created["token"], key]
    plain = new_player("Plain")
    game_key = str(uuid.uuid4())
    game = client.post("/v1/games", token=plain["token"], headers={"Idempotency-Key": game_key}, json={
        "title": "kontor", "options": {"variant": "basic"}, "seats": [{"player_id": plain["id"]}, {"open": True}]})
    assert game.status_code == 201
    secrets_sent += [plain["token"], game_key]
    dump = database_text(services)
    assert "Sealed" in dump  # the scan does see the rows
    for secret in secrets_sent:
        assert secret not in dump


def test_anonymous_keys_must_be_unguessable(client):
    for weak in ["1", "retry-me", "a" * 40, "0123456789" * 3, "x" * 31 + "é"]:
        response = client.post("/v1/players", json={"name": "Weak"}, headers={"Idempotency-Key": weak})
        assert response.status_code == 422 and response.json["code"] == "idempotency_key_too_weak", weak
        assert "Idempotency-Key" in response.json["errors"]
    for strong in [str(uuid.uuid4()), secrets.token_urlsafe(24), secrets.token_hex(16)]:
        response = client.post("/v1/players", json={"name": "Strong"}, headers={"Idempotency-Key": strong})
        assert response.status_code == 201, strong


def test_nobody_else_gets_a_players_token_back(client, new_player):
    key = str(uuid.uuid4())
    victim = client.post("/v1/players", json={"name": "Victim"}, headers={"Idempotency-Key": key}).json
    # the same key from a signed-in client is that client's own key
    attacker = new_player("Attacker")
    same_key = client.post("/v1/players", token=attacker["token"], json={"name": "Victim"},
                           headers={"Idempotency-Key": key})
    assert same_key.status_code == 201 and same_key.headers.get("Idempotent-Replayed") is None
    assert same_key.json["token"] != victim["token"] and same_key.json["id"] != victim["id"]
    # guessing keys: a weak guess is refused, a strong guess is another key
    guess = client.post("/v1/players", json={"name": "Victim"}, headers={"Idempotency-Key": "1234"})
    assert problem(guess, 422, "idempotency_key_too_weak") and "token" not in guess.json
    other = client.post("/v1/players", json={"name": "Victim"}, headers={"Idempotency-Key": str(uuid.uuid4())})
    assert other.json["token"] != victim["token"]
    # the key with another body tells nothing either
    reused = client.post("/v1/players", json={"name": "Mallory"}, headers={"Idempotency-Key": key})
    assert reused.status_code == 422 and reused.json["code"] == "idempotency_key_reused"
    assert victim["token"] not in reused.text


def test_the_same_key_on_another_route_or_game_is_another_key(client, new_player):
    first, me = hot_seat_game(client, new_player)
    second = client.post("/v1/games", token=me["token"], json={
        "title": "kontor", "options": {"variant": "basic"},
        "seats": [{"player_id": me["id"]}, {"player_id": me["id"]}]}).json
    key = {"Idempotency-Key": "move-1"}  # a signed-in caller's key needs no randomness
    answers = []
    for game in (first, second):
        seat = game["to_act"][0]
        legal = client.get(f"/v1/games/{game['id']}/legal-commands", token=me["token"], query_string={"seat": seat}).json
        body = {"seat": seat, "command": legal["commands"][-1]}
        response = client.post(f"/v1/games/{game['id']}/commands", token=me["token"], json=body, headers=key)
        assert response.status_code == 201 and response.headers.get("Idempotent-Replayed") is None
        again = client.post(f"/v1/games/{game['id']}/commands", token=me["token"], json=body, headers=key)
        assert again.status_code == 201 and again.json == response.json
        assert again.headers["Idempotent-Replayed"] == "true"
        answers.append(response.json)
    assert answers[0] != answers[1]
    # the same key on another route (creating a game) is another key too
    created = client.post("/v1/games", token=me["token"], headers=key, json={
        "title": "kontor", "options": {"variant": "basic"}, "seats": [{"player_id": me["id"]}, {"open": True}]})
    assert created.status_code == 201


def test_expired_keys_are_forgotten_and_purged(services):
    key = str(uuid.uuid4())

    def expired_key(name):
        return idempotency_key(None, "POST", "/v1/players", key, {"name": name}, 0.0, _render_new,
                               at=services.clock.now())

    first = services.players.create("Ephemeral", None, expired_key("Ephemeral"))
    # expired at once: a retry is new work (the expired row is purged on access) ...
    again = services.players.create("Ephemeral", None, expired_key("Ephemeral"))
    assert again.player.id != first.player.id
    # ... and the sweeper's purge removes every expired row
    assert purge_expired(services.store, services.clock.now()) >= 1
    with services.store.read() as tx:
        left = tx.conn.execute("SELECT count(*) FROM idempotency_requests WHERE expires_at <= %s",
                              (services.clock.now(),)).fetchone()[0]
    assert left == 0


def test_a_refusal_is_an_answer_too_and_every_retry_gets_it(live_server, client, new_player):
    game, me = hot_seat_game(client, new_player)
    seat = game["to_act"][0]
    legal = client.get(f"/v1/games/{game['id']}/legal-commands", token=me["token"], query_string={"seat": seat}).json
    stale = {"seat": seat, "command": legal["commands"][0], "expected_version": legal["version"] - 1}
    headers = {"Authorization": f"Bearer {me['token']}", "Idempotency-Key": str(uuid.uuid4())}
    url = f"{live_server}/v1/games/{game['id']}/commands"
    responses = race(RETRIES // 2, lambda s: s.post(url, json=stale, headers=headers, timeout=60))
    assert {r.status_code for r in responses} == {409}
    assert len({r.text for r in responses}) == 1 and responses[0].json()["code"] == "version_conflict"
    assert all(r.headers["Content-Type"] == "application/problem+json" for r in responses)
    assert sum(r.headers.get("Idempotent-Replayed") == "true" for r in responses) == RETRIES // 2 - 1
    # the key keeps its answer: the same key for a corrected request is refused
    fixed = client.post(f"/v1/games/{game['id']}/commands", token=me["token"], headers={
        "Idempotency-Key": headers["Idempotency-Key"]}, json={**stale, "expected_version": legal["version"]})
    assert fixed.status_code == 422 and fixed.json["code"] == "idempotency_key_reused"
