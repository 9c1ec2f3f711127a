"""Kontor's advanced and team games played to the end over the API (views checked by openapi)."""

from __future__ import annotations

import random

import pytest

from tests.api.seating import accept_invitations
from tests.api.test_games import play_to_the_end

pytestmark = pytest.mark.slow(seconds=40)  # started first: tests/conftest.py


@pytest.mark.parametrize(("variant", "seats"), [("advanced", 2), ("team", 4)])
def test_a_whole_game(client, new_player, variant, seats):
    players = [new_player(f"{variant}{i}") for i in range(seats)]
    response = client.post("/v1/games", token=players[0]["token"], json={
        "title": "kontor", "options": {"variant": variant},
        "seats": [{"player_id": p["id"]} for p in players]})
    assert response.status_code == 201, response.json
    game = accept_invitations(client, response.json, players, players[0])
    gid = game["id"]
    if variant == "team":
        assert game["view"]["teams"][0]["seats"] == [0, 1]
    final, sent = play_to_the_end(client, gid, [p["token"] for p in players], random.Random(seats))
    assert final["result"]["winners"] and sent > 20
    if variant == "team":
        # partners win together
        winners = set(final["result"]["winners"])
        assert winners in ({0, 1}, {2, 3}, {0, 1, 2, 3})


def test_team_messages_become_public_once_the_game_is_over(client, new_player):
    players = [new_player(f"Pub{i}") for i in range(4)]
    gid = accept_invitations(client, client.post("/v1/games", token=players[0]["token"], json={
        "title": "kontor", "options": {"variant": "team"},
        "seats": [{"player_id": p["id"]} for p in players]}).json, players)["id"]
    rng = random.Random(11)
    said = False
    while True:
        game = client.get(f"/v1/games/{gid}").json
        if game["status"] == "finished":
            break
        if not said and game["view"]["phase"] == "place":
            r = client.post(f"/v1/games/{gid}/messages", token=players[2]["token"],
                            json={"text": "our plan", "channel": "team"})
            assert r.status_code == 201
            assert client.get(f"/v1/games/{gid}/messages").json["messages"] == []
            said = True
        seat = rng.choice(game["to_act"])
        legal = client.get(f"/v1/games/{gid}/legal-commands", token=players[seat]["token"]).json
        client.post(f"/v1/games/{gid}/commands", token=players[seat]["token"],
                    json={"command": rng.choice(legal["commands"])})
    assert said
    assert [m["text"] for m in client.get(f"/v1/games/{gid}/messages").json["messages"]] == ["our plan"]
