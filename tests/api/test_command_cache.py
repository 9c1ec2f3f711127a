"""Two apps stand for two API processes (each its own services, so its own caches)
sharing PostgreSQL and Redis: what one appends, the other's cache does not know, and its
answers must be the ones a read gives; a process whose cache is ahead of the database (a
failover that lost a commit) writes nothing onto the older game. Also: the command's
answer and body, written out and checked by hand (api/routes/games.py), are the schemas'.

A command that names the version this process holds the folded state of is decided on
that state without reading the game first; the append then checks both the version and
the event its new events chain to, and any refusal is only a doubt: the game is read and
the command decided again (service/games/service.py, ``execute``)."""

from __future__ import annotations

import uuid

import psycopg
import pytest
from marshmallow import ValidationError

from api import create_app
from api.routes.games import COMMAND_OUTCOME_OUT, COMMAND_REQUEST, _render_outcome, command_fields
from service.errors import Unavailable, VersionConflict
from service.games import store as store_module
from service.games.service import CommandOutcome
from service.games.store import NewEvent
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


def test_a_process_whose_cache_is_ahead_of_the_database_writes_no_gap(processes, owner_database_url):
    """The database went back one command (failed over to a replica that had not seen the
    last commit, or restored) while a process still holds the state it folded after it:
    a command at the process's version must not be appended onto the older game (a gap in
    the events and a chain linked to an event that is not there). It is the conflict a
    read finds, and the game goes on from what the database holds."""
    first, _, _ = processes
    game_id, tokens = new_game(first)
    owner = psycopg.connect(owner_database_url, autocommit=True)
    owner.execute("SET session_replication_role = replica")  # past the append-only trigger
    for _ in range(2):
        seat, token, command, version = turn(first, game_id, tokens)
        assert post(first, game_id, token, seat, command, version).status_code == 201
    row = owner.execute("SELECT version, status, to_act FROM games WHERE id = %s", (game_id,)).fetchone()
    seat, token, command, version = turn(first, game_id, tokens)
    assert post(first, game_id, token, seat, command, version).status_code == 201
    # the next command, as the process offers it (read before the database goes back: any
    # read after it would fold the process's state again from what the database holds)
    seat, token, command, held = turn(first, game_id, tokens)
    before = row[0]
    owner.execute("DELETE FROM events WHERE game_id = %s AND seq > %s", (game_id, before))
    owner.execute("DELETE FROM commands WHERE game_id = %s AND version >= %s", (game_id, before))
    owner.execute("UPDATE games SET version = %s, status = %s, to_act = %s WHERE id = %s", (*row, game_id))
    assert before < held
    response = post(first, game_id, token, seat, command, held)
    problem(response, 409, "version_conflict")
    seqs = [r[0] for r in owner.execute("SELECT seq FROM events WHERE game_id = %s ORDER BY seq", (game_id,))]
    assert seqs == list(range(1, before + 1)), "nothing was written past the database's version"
    owner.close()
    seat, token, command, version = turn(first, game_id, tokens)
    assert version == before
    assert post(first, game_id, token, seat, command, version).status_code == 201
    audit = first.get(f"/v1/games/{game_id}/events").json
    assert [e["seq"] for e in audit["events"]] == list(range(1, len(audit["events"]) + 1))


def test_an_append_onto_a_version_the_game_is_not_at_writes_nothing(processes, owner_database_url):
    """The store's own guard, below any cache: events decided at a version the game's row
    is not at (it went back, or never got there) are refused whole, with no gap written,
    even where the events' keys are free."""
    first, _, services = processes
    game_id, _ = new_game(first)
    version = first.get(f"/v1/games/{game_id}").json["version"]
    event = NewEvent("kontor.RoundStarted", 1, None, {"round": 9, "idle_rounds": 0})
    with pytest.raises(VersionConflict):
        with services.games.store.tx() as tx:
            tx.append(game_id, version + 2, "0" * 64, services.games.clock.now(), [event], "active", [0], None)
    with psycopg.connect(owner_database_url) as conn:
        last = conn.execute("SELECT max(seq) FROM events WHERE game_id = %s", (game_id,)).fetchone()[0]
    assert last == version
    assert first.get(f"/v1/games/{game_id}").json["version"] == version


def test_a_process_whose_cache_diverged_from_the_database_chains_onto_what_it_holds(processes, heads,
                                                                                      owner_database_url):
    """The database went back one command and another process then made the same move
    again: the game is at the version the first process folded, but its last event is not
    the one that process holds (its time differs, so its hash). A command at that version
    must not be chained onto the event the database no longer holds: the append refuses
    it, the game is read, and the command is decided on what the database holds."""
    first, second, _ = processes
    game_id, tokens = new_game(first)
    owner = psycopg.connect(owner_database_url, autocommit=True)
    owner.execute("SET session_replication_role = replica")  # past the append-only trigger
    row = owner.execute("SELECT version, status, to_act FROM games WHERE id = %s", (game_id,)).fetchone()
    seat, token, command, version = turn(first, game_id, tokens)
    assert post(first, game_id, token, seat, command, version).status_code == 201
    # the first process's next move, read while it still holds the game
    next_seat, next_token, next_command, held = turn(first, game_id, tokens)
    held_hash = owner.execute("SELECT hash FROM events WHERE game_id = %s AND seq = %s", (game_id, held)).fetchone()[0]
    owner.execute("DELETE FROM events WHERE game_id = %s AND seq > %s", (game_id, row[0]))
    owner.execute("DELETE FROM commands WHERE game_id = %s AND version >= %s", (game_id, row[0]))
    owner.execute("UPDATE games SET version = %s, status = %s, to_act = %s WHERE id = %s", (*row, game_id))
    assert post(second, game_id, token, seat, command, version).status_code == 201
    events = owner.execute("SELECT seq, prev_hash, hash FROM events WHERE game_id = %s ORDER BY seq",
                           (game_id,)).fetchall()
    assert events[-1][0] == held and events[-1][2] != held_hash, "the same version, another last event"
    heads.clear()
    response = post(first, game_id, next_token, next_seat, next_command, held)
    assert response.status_code == 201, response.json
    assert heads == [game_id], "the refused append made the process read the game"
    events = owner.execute("SELECT seq, prev_hash, hash FROM events WHERE game_id = %s ORDER BY seq",
                           (game_id,)).fetchall()
    owner.close()
    assert [e[0] for e in events] == list(range(1, len(events) + 1))
    assert all(later[1] == earlier[2] for earlier, later in zip(events, events[1:])), "one unbroken chain"


def test_an_outage_on_the_cached_state_is_answered_once_not_tried_again(processes, monkeypatch):
    """The database gone while a command decided on the cached state is appended: that is
    no doubt about the state, and reading the game again would only wait for the outage a
    second time. The caller is told at once (503), nothing retried."""
    first, _, _ = processes
    game_id, tokens = new_game(first)
    seat, token, command, version = turn(first, game_id, tokens)  # the process holds the game at version
    appends = []

    def down(self, *args, **kwargs):
        appends.append(args[0])
        raise Unavailable("the database is unavailable; try again later")

    monkeypatch.setattr(store_module.Tx, "append", down)
    problem(post(first, game_id, token, seat, command, version), 503, "unavailable")
    assert appends == [game_id], "one append, no second attempt after reading the game"
