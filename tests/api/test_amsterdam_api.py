"""Amsterdam over the REST API, validated against openapi.yaml: the title's options schema
and component data, refusals at creation, a whole game of people, and a game against a
computer seat played by a real RQ worker to the end."""

from __future__ import annotations

import random

import pytest

from tests.api.seating import accept_invitations
from tests.api.test_games import play_to_the_end
from tests.refusals import problem
from tests.workers.test_worker import _seat_turn_or_over, wait_for, worker, worker_settings  # noqa: F401
from tests.workers.test_worker import client as worker_client  # noqa: F401

pytestmark = pytest.mark.slow(seconds=30)  # started first: tests/conftest.py


def test_the_title_lists_its_options_and_components(client):
    titles = {t["id"]: t for t in client.get("/v1/titles").json}
    assert "amsterdam" in titles
    detail = client.get("/v1/titles/amsterdam").json
    assert detail["options_schema"]["properties"]["rounds"]["enum"] == [12, 10]
    components = detail["components"]
    assert len(components["cards"]) == 132 and len(components["city"]["blocks"]) == 36
    assert components["provenance"]["harbour"].startswith("reconstructed")
    assert "EndTurn" in detail["commands"]


@pytest.mark.parametrize("options, field", [
    ({"tasks": "all"}, "options.tasks"),
    ({"dice_choice": "both"}, "options.dice_choice"),
    ({"rounds": 11}, "options.rounds"),
])
def test_unimplemented_or_bad_options_are_refused(client, new_player, options, field):
    p = new_player()
    r = client.post("/v1/games", token=p["token"], json={
        "title": "amsterdam", "options": options, "seats": [{"player_id": p["id"]}, {"ai": "easy"}]})
    assert r.status_code == 422 and r.json["code"] == "invalid_options"
    assert field in r.json["errors"], r.json


def test_the_solo_game_against_tom(client, new_player):
    p = new_player()
    r = client.post("/v1/games", token=p["token"], json={
        "title": "amsterdam", "seats": [{"player_id": p["id"]}]})
    assert r.status_code == 201, r.json
    assert r.json["view"]["tom"]["florins"] == 0
    r = client.post("/v1/games", token=p["token"], json={
        "title": "amsterdam", "options": {"expansions": ["tasks"], "tasks": "open1"}, "seats": [{"player_id": p["id"]}]})
    assert problem(r, 422, "invalid_options") and "options.expansions" in r.json["errors"], r.json


def test_people_play_the_opening_and_the_piles_stay_hidden(client, new_player):
    players = [new_player(f"P{i}") for i in range(3)]
    game = client.post("/v1/games", token=players[0]["token"], json={
        "title": "amsterdam", "options": {"rounds": 10},
        "seats": [{"player_id": p["id"]} for p in players]}).json
    game = accept_invitations(client, game, players, players[0])
    assert game["view"]["round"] == 3 and len(game["view"]["city"]) == 36
    events = client.get(f"/v1/games/{game['id']}/events", token=players[1]["token"]).json["events"]
    dealt = next(e for e in events if e["type"] == "amsterdam.BoardDealt")["data"]
    assert isinstance(dealt["plans"], int) and len(dealt["market_stack"]) == 1  # piles hidden
    with pytest.raises(AssertionError, match="did not end"):  # the opening and round 3's cards
        play_to_the_end(client, game["id"], [p["token"] for p in players], random.Random(3),
                        max_commands=9)
    view = client.get(f"/v1/games/{game['id']}", token=players[0]["token"]).json["view"]
    assert view["phase"] in ("dice", "actions") and all(len(s["inactive"]) == 2 for s in view["seats"])


def test_a_game_against_the_computer_to_the_end(worker_client, worker):  # noqa: F811
    me = worker_client.post("/v1/players", json={"name": "Anne"}).json
    created = worker_client.post("/v1/games", token=me["token"], json={
        "title": "amsterdam", "options": {"rounds": 10},
        "seats": [{"player_id": me["id"]}, {"ai": "normal"}]})
    assert created.status_code == 201, created.json
    gid = created.json["id"]
    rng = random.Random(11)
    for _ in range(3000):
        game = wait_for(lambda: _seat_turn_or_over(worker_client, gid, me["token"], 0))
        if game["status"] == "finished":
            break
        legal = worker_client.get(f"/v1/games/{gid}/legal-commands", token=me["token"]).json
        ends = [c for c in legal["commands"] if c["type"] == "EndTurn"]
        command = ends[0] if ends and rng.random() < 0.3 else rng.choice(legal["commands"])
        response = worker_client.post(f"/v1/games/{gid}/commands", token=me["token"],
                                      json={"command": command, "expected_version": legal["version"]})
        assert response.status_code in (201, 409), response.json
    final = worker_client.get(f"/v1/games/{gid}").json
    assert final["status"] == "finished" and len(final["result"]["scores"]) == 2
    assert {"penalties", "laurel_cards", "city", "districts", "surplus", "total"} <= set(
        final["result"]["detail"]["breakdown"][0])
    events = worker_client.get(f"/v1/games/{gid}/events", query_string={"limit": 1000}).json["events"]
    assert any(e["seat"] == 1 for e in events), "the computer seat never acted"
