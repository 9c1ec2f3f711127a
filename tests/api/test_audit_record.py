"""The audit record's header: the rules version of the game's variant, the seed revealed
in the game once it is over (issue 9, item 18)."""

from __future__ import annotations

import random

from domain.rng import seed_commitment
from tests.api.seating import accept_invitations
from tests.api.test_games import play_to_the_end


def test_an_advanced_game_reports_its_own_rules_version(client, new_player):
    red, black = new_player("Red"), new_player("Black")
    game = accept_invitations(client, client.post("/v1/games", token=red["token"], json={
        "title": "kontor", "options": {"variant": "advanced"},
        "seats": [{"player_id": red["id"]}, {"player_id": black["id"]}]}).json, [black])
    started = client.get(f"/v1/games/{game['id']}/events").json["events"][0]
    export = client.get(f"/v1/games/{game['id']}/export").json
    assert game["rules_version"] == export["rules_version"] == "kontor-advanced-2"
    assert started["data"]["rules_version"] == "kontor-advanced-2"
    summary = client.get("/v1/games", token=red["token"], query_string={"player": "me"}).json["games"]
    assert {g["rules_version"] for g in summary if g["id"] == game["id"]} == {"kontor-advanced-2"}


def test_the_game_reveals_its_seed_once_it_is_over(client, new_player):
    red, black = new_player("Red"), new_player("Black")
    game = accept_invitations(client, client.post("/v1/games", token=red["token"], json={
        "title": "kontor", "seats": [{"player_id": red["id"]}, {"player_id": black["id"]}]}).json, [black])
    assert game["seed"] is None
    final, _ = play_to_the_end(client, game["id"], [red["token"], black["token"]], random.Random(3))
    assert final["seed"] is not None and seed_commitment(final["seed"]) == final["seed_commitment"]
    assert client.get(f"/v1/games/{game['id']}/export").json["seed"] == final["seed"]
