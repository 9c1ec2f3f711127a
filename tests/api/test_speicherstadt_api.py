"""Speicherstadt over the REST API: whole games for 2 to 5 seats, validated against openapi.yaml."""

from __future__ import annotations

import random

import pytest

from tests.api.seating import accept_invitations
from tests.api.test_games import play_to_the_end
from tests.refusals import problem

pytestmark = pytest.mark.slow(seconds=35)  # started first: tests/conftest.py


@pytest.mark.parametrize("seats", [2, 3, 5])
def test_a_whole_game(client, new_player, seats):
    players = [new_player(f"P{i}") for i in range(seats)]
    response = client.post("/v1/games", token=players[0]["token"], json={
        "title": "speicherstadt", "seats": [{"player_id": p["id"]} for p in players],
    })
    assert response.status_code == 201, response.json
    assert response.json["status"] == "waiting"  # until the invited players accept
    game = accept_invitations(client, response.json, players, players[0])
    assert game["status"] == "active" and len(game["view"]["seats"]) == seats
    final, sent = play_to_the_end(client, game["id"], [p["token"] for p in players], random.Random(seats))
    assert sent > 20 and final["result"]["winners"]
    assert len(final["result"]["scores"]) == seats


def test_the_stack_order_is_not_served_before_the_end(client, new_player):
    players = [new_player(f"Q{i}") for i in range(3)]
    game = client.post("/v1/games", token=players[0]["token"], json={
        "title": "speicherstadt", "seats": [{"player_id": p["id"]} for p in players],
    }).json
    game = accept_invitations(client, game, players)
    for token in [players[1]["token"], None]:
        events = client.get(f"/v1/games/{game['id']}/events", token=token).json["events"]
        built = [e for e in events if e["type"] == "speicherstadt.DeckBuilt"]
        assert built and built[0]["data"]["deck"] is None
        view = client.get(f"/v1/games/{game['id']}", token=token).json["view"]
        assert "stack_order" not in view


def test_invalid_options_and_seat_counts(client, new_player):
    p = new_player()
    r = client.post("/v1/games", token=p["token"], json={
        "title": "speicherstadt", "seats": [{"player_id": p["id"]}]})
    problem(r, 422, "validation_error")
    r = client.post("/v1/games", token=p["token"], json={
        "title": "speicherstadt", "options": {"fires": "off"}, "seats": [{"player_id": p["id"]}, {"ai": "easy"}]})
    assert r.status_code == 422 and r.json["code"] == "invalid_options" and "options.fires" in r.json["errors"]
