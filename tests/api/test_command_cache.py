"""A command that names the version its API process holds the folded state of is decided
on that state without reading the game first (service/games/service.py, _execute_once):
the append is the check. Two apps stand for two API processes (each its own services, so
its own caches) sharing PostgreSQL and Redis: what one appends, the other's cache does not
know, and its answers must be the ones a read would have given."""

from __future__ import annotations

import uuid

import pytest
from marshmallow import ValidationError

from api import create_app
from api.routes.games import COMMAND_OUTCOME_OUT, COMMAND_REQUEST, _render_outcome, command_fields
from service.games import store as store_module
from service.games.service import CommandOutcome
from service.runtime.container import build
from tests.api.seating import accept_invitations
from tests.openapi_check import ValidatingClient
from tests.refusals import problem


@pytest.fixture
def processes(settings):
    first, second = build(settings), build(settings)
    clients = []
    for services in (first, second):
        app = create_app(services)
        app.testing = True
        clients.append(ValidatingClient(app.test_client()))
    yield clients[0], clients[1], first
    first.close()
    second.close()


@pytest.fixture
def heads(monkeypatch):
    """How many times a command's path read the game's head (version, status, tail)."""
    read = []
    head = store_module.Tx.head

    def counted(self, game_id, after):
        read.append(game_id)
        return head(self, game_id, after)

    monkeypatch.setattr(store_module.Tx, "head", counted)
    return read


def new_game(client):
    red, black = (client.post("/v1/players", json={"name": n}).json for n in ("Red", "Black"))
    created = client.post("/v1/games", token=red["token"], json={
        "title": "kontor", "options": {"variant": "basic"},
        "seats": [{"player_id": red["id"]}, {"player_id": black["id"]}]}).json
    game = accept_invitations(client, created, [black], red)
    return game["id"], {0: red["token"], 1: black["token"]}


def turn(client, game_id, tokens):
    """(seat, token, a legal command, the version it is legal at), as ``client`` sees them."""
    seat = client.get(f"/v1/games/{game_id}").json["to_act"][0]
    legal = client.get(f"/v1/games/{game_id}/legal-commands", token=tokens[seat], query_string={"seat": seat}).json
    return seat, tokens[seat], legal["commands"][0], legal["version"]


def post(client, game_id, token, seat, command, version, headers=None):
    return client.post(f"/v1/games/{game_id}/commands", token=token, headers=headers or {},
                       json={"seat": seat, "command": command, "expected_version": version})


def test_a_warm_process_decides_without_reading_and_its_state_is_the_stored_one(processes, heads):
    first, second, _ = processes
    game_id, tokens = new_game(first)
    for _ in range(6):
        seat, token, command, version = turn(first, game_id, tokens)
        heads.clear()
        response = post(first, game_id, token, seat, command, version)
        assert response.status_code == 201, response.json
        assert heads == [], "the command was decided on the state the process held"
    # the other process folds what is stored: the same state, seat by seat
    for token in tokens.values():
        mine = first.get(f"/v1/games/{game_id}/state", token=token)
        theirs = second.get(f"/v1/games/{game_id}/state", token=token)
        assert mine.status_code == theirs.status_code == 200
        assert mine.json == theirs.json


def test_a_process_whose_cache_is_behind_answers_the_true_version(processes, heads):
    first, second, _ = processes
    game_id, tokens = new_game(first)
    seat, token, command, version = turn(second, game_id, tokens)  # the second holds the state at version
    assert post(first, game_id, token, seat, command, version).status_code == 201
    now = first.get(f"/v1/games/{game_id}").json["version"]
    assert now > version
    heads.clear()
    body = problem(post(second, game_id, token, seat, command, version), 409, "version_conflict")
    assert body["current_version"] == now
    assert heads == [game_id], "the cache was doubted and the game read"
    assert first.get(f"/v1/games/{game_id}").json["version"] == now, "nothing was appended"


def test_a_refusal_on_a_stale_cache_is_the_conflict_a_read_finds(processes):
    """Decided on the cache, a command that is not one (or not this seat's) would be a 422 or
    a 403 about an old version: the game moved on, so the answer is the 409, as before."""
    first, second, _ = processes
    game_id, tokens = new_game(first)
    seat, token, command, version = turn(second, game_id, tokens)
    assert post(first, game_id, token, seat, command, version).status_code == 201
    now = first.get(f"/v1/games/{game_id}").json["version"]
    body = problem(post(second, game_id, token, seat, {"type": "no such command"}, version), 409, "version_conflict")
    assert body["current_version"] == now
    other = 1 - seat
    body = problem(post(second, game_id, tokens[other], other, command, version), 409, "version_conflict")
    assert body["current_version"] == now


def test_a_doubted_cache_seals_the_answer_a_read_gives_under_the_key(processes):
    first, second, _ = processes
    game_id, tokens = new_game(first)
    seat, token, command, version = turn(second, game_id, tokens)
    assert post(first, game_id, token, seat, command, version).status_code == 201
    now = first.get(f"/v1/games/{game_id}").json["version"]
    key = {"Idempotency-Key": str(uuid.uuid4())}
    refused = post(second, game_id, token, seat, {"type": "no such command"}, version, key)
    assert problem(refused, 409, "version_conflict")["current_version"] == now
    again = post(second, game_id, token, seat, {"type": "no such command"}, version, key)
    assert (again.status_code, again.json) == (refused.status_code, refused.json)
    # and a key on a warm process: its answer sealed once, the command appended once
    seat, token, command, version = turn(second, game_id, tokens)
    key = {"Idempotency-Key": str(uuid.uuid4())}
    done = post(second, game_id, token, seat, command, version, key)
    assert done.status_code == 201, done.json
    assert post(second, game_id, token, seat, command, version, key).json == done.json
    assert first.get(f"/v1/games/{game_id}").json["version"] == done.json["version"]


def test_a_command_answer_is_the_schemas_dump(processes):
    """api/routes/games.py writes the answer out by hand: the same as CommandOutcomeOut's
    dump, for every command of a whole game (redacted events, the finished game's, receipts)."""
    first, _, services = processes
    game_id, tokens = new_game(first)
    outcomes = []
    execute = services.games.execute

    def kept(*args, **kwargs):
        outcomes.append(execute(*args, **kwargs))
        return outcomes[-1]

    services.games.execute = kept
    status = "active"
    while status == "active" and len(outcomes) < 400:
        seat, token, command, version = turn(first, game_id, tokens)
        response = post(first, game_id, token, seat, command, version)
        assert response.status_code == 201, response.json
        status = response.json["status"]
    assert status == "finished" and outcomes[-1].events and outcomes[-1].receipt
    outcomes.append(CommandOutcome(game_id, 9, "active", (1,), [
        {"seq": 9, "type": "table.clock_set", "schema_version": 1, "seat": None, "at": "2026-11-27T19:00:00Z",
         "data": {"a": [1, {"b": None}]}}], None))  # an event of no seat, a game with no receipt
    for outcome in outcomes:
        assert _render_outcome(outcome) == (201, COMMAND_OUTCOME_OUT.dump(outcome))


@pytest.mark.parametrize("body", [
    {"command": {"type": "pass"}},
    {"command": {}, "seat": 0, "expected_version": 0},
    {"command": {"type": "x", "n": [1, {"a": None}]}, "seat": 3, "expected_version": 12},
    {"command": {"type": "x"}, "seat": None, "expected_version": None},
    {"command": {"type": "x"}, "seat": -1},
    {"command": {"type": "x"}, "expected_version": -5},
    {"command": {"type": "x"}, "seat": True},
    {"command": {"type": "x"}, "expected_version": False},
    {"command": {"type": "x"}, "seat": 1.0},
    {"command": {"type": "x"}, "seat": "1"},
    {"command": {"type": "x"}, "other": 1},
    {"command": ["type", "x"]},
    {"command": None},
    {"command": "pass"},
    {"seat": 0},
    {},
    [{"command": {}}],
    "command",
])
def test_a_command_body_is_loaded_as_the_schema_loads_it(body):
    """api/routes/games.py loads a well-formed command body itself: what the schema loads
    (CommandRequest), and any other body goes to the schema, which refuses it."""
    try:
        loaded = COMMAND_REQUEST.load(body) if isinstance(body, dict) else None
    except ValidationError:
        loaded = None
    assert command_fields(body) == loaded


def test_an_append_refused_on_a_stale_cache_under_a_key_seals_the_true_conflict(processes, heads, monkeypatch):
    """Decided on the cached state, allowed by it, refused by the append's key: the key's
    whole transaction is rolled back (the refused statement left it unusable) and the
    command read and answered again: 409 with the true version, sealed and replayed."""
    first, second, _ = processes
    game_id, tokens = new_game(first)
    seat, token, command, version = turn(second, game_id, tokens)
    assert post(first, game_id, token, seat, command, version).status_code == 201
    now = first.get(f"/v1/games/{game_id}").json["version"]
    appends = []
    append = store_module.Tx.append
    monkeypatch.setattr(store_module.Tx, "append", lambda self, *a, **k: appends.append(a[1]) or append(self, *a, **k))
    heads.clear()
    key = {"Idempotency-Key": str(uuid.uuid4())}
    lost = post(second, game_id, token, seat, command, version, key)
    assert problem(lost, 409, "version_conflict")["current_version"] == now
    assert appends == [version] and heads == [game_id], "decided on the cache, refused, then read"
    again = post(second, game_id, token, seat, command, version, key)
    assert (again.status_code, again.json) == (lost.status_code, lost.json)
    assert first.get(f"/v1/games/{game_id}").json["version"] == now
