"""POST /commands?include=legal_commands: the answer also tells the sender what it may play
next (api/routes/games.py, service/games/service.py ``legal_commands_after``), exactly as
GET legal-commands would at the version it names, and nothing of another seat's."""

from __future__ import annotations

import random
import uuid

import pytest

from tests.api.seating import accept_invitations
from tests.refusals import problem


@pytest.fixture
def game(client, new_player):
    red, black = new_player("Red"), new_player("Black")
    created = client.post("/v1/games", token=red["token"], json={
        "title": "kontor", "options": {"variant": "basic"},
        "seats": [{"player_id": red["id"]}, {"player_id": black["id"]}]}).json
    accept_invitations(client, created, [black], red)
    return created["id"], [red["token"], black["token"]]


def asked(client, game_id, token) -> dict:
    response = client.get(f"/v1/games/{game_id}/legal-commands", token=token)
    assert response.status_code == 200, response.json
    return response.json


def send(client, game_id, token, command, version, include="legal_commands", headers=None):
    return client.post(f"/v1/games/{game_id}/commands", token=token, headers=headers or {},
                       query_string={"include": include} if include else None,
                       json={"command": command, "expected_version": version})


def test_each_answer_tells_its_sender_what_a_get_would_and_a_client_plays_on_from_it(client, game):
    game_id, tokens = game
    rng = random.Random(3)
    to_act = client.get(f"/v1/games/{game_id}").json["to_act"]
    told, played_on, empty = None, 0, 0
    for _ in range(80):
        seat = rng.choice(to_act)
        if told is not None and told["seat"] == seat and told["commands"]:
            legal, played_on = told, played_on + 1
        else:
            legal = asked(client, game_id, tokens[seat])
        response = send(client, game_id, tokens[seat], rng.choice(legal["commands"]), legal["version"])
        assert response.status_code == 201, response.json
        answer = response.json
        told, to_act = answer["legal_commands"], answer["to_act"]
        assert told == asked(client, game_id, tokens[seat]), "the answer's moves are the GET's, words and all"
        assert told["version"] == answer["version"] and told["seat"] == seat
        # the other seat's moves are never in it: empty whenever the sender is not to act
        assert bool(told["commands"]) == (seat in to_act)
        empty += not told["commands"]
        if answer["status"] != "active":
            break
    assert played_on > 5 and empty > 5, (played_on, empty)


def test_without_include_the_answer_is_as_before(client, game):
    game_id, tokens = game
    legal = asked(client, game_id, tokens[0])
    response = send(client, game_id, tokens[0], legal["commands"][0], legal["version"], include=None)
    assert response.status_code == 201 and "legal_commands" not in response.json


@pytest.mark.parametrize("include", ["everything", "legal_commands,events", ""])
def test_an_unknown_include_is_refused_before_anything_is_written(client, game, include):
    game_id, tokens = game
    legal = asked(client, game_id, tokens[0])
    response = client.post(f"/v1/games/{game_id}/commands?include={include}", token=tokens[0],
                           json={"command": legal["commands"][0], "expected_version": legal["version"]})
    assert "include" in problem(response, 422, "validation_error")["errors"]
    assert client.get(f"/v1/games/{game_id}").json["version"] == legal["version"]


def test_a_replayed_answer_tells_the_moves_of_now_and_keeps_none_under_its_key(client, game):
    game_id, tokens = game
    legal = asked(client, game_id, tokens[0])
    key = {"Idempotency-Key": str(uuid.uuid4())}
    command, version = legal["commands"][0], legal["version"]
    first = send(client, game_id, tokens[0], command, version, headers=key)
    assert first.status_code == 201, first.json
    while first.json["version"] == client.get(f"/v1/games/{game_id}").json["version"]:
        # the game moves on: whoever is to act plays
        seat = client.get(f"/v1/games/{game_id}").json["to_act"][0]
        legal = asked(client, game_id, tokens[seat])
        assert send(client, game_id, tokens[seat], legal["commands"][0], legal["version"]).status_code == 201
    again = send(client, game_id, tokens[0], command, version, headers=key)
    assert again.status_code == 201 and again.headers["Idempotent-Replayed"] == "true"
    body = dict(again.json)
    fresh = body.pop("legal_commands")
    assert body == {k: v for k, v in first.json.items() if k != "legal_commands"}
    assert fresh == asked(client, game_id, tokens[0]) and fresh["version"] > first.json["version"]
    plain = send(client, game_id, tokens[0], command, version, include=None, headers=key)
    assert plain.status_code == 201 and "legal_commands" not in plain.json


def test_a_process_that_no_longer_holds_the_state_reads_it(client, services, game, monkeypatch):
    """After its own commit a process holds the new state; if it was evicted meanwhile the
    moves are read, as GET legal-commands reads them."""
    game_id, tokens = game
    looked = []
    monkeypatch.setattr(services.games, "seen", lambda game_id, version: looked.append(version))
    told_some = False
    while not told_some:
        seat = client.get(f"/v1/games/{game_id}").json["to_act"][0]
        legal = asked(client, game_id, tokens[seat])
        response = send(client, game_id, tokens[seat], legal["commands"][0], legal["version"])
        assert response.status_code == 201, response.json
        assert response.json["legal_commands"] == asked(client, game_id, tokens[seat])
        assert looked[-2:] == [legal["version"], response.json["version"]], "the command's and the answer's look"
        told_some = bool(response.json["legal_commands"]["commands"])
