"""Whatever a client sends, the answer is never a 500 and is a problem+json when it fails."""

from __future__ import annotations

import json
import random

import pytest

from tests.api.seating import accept_invitations

SCALARS = [None, True, False, 0, -1, 2**40, 1.5, "", "x", "ChooseCard", "00" * 32, [], {}]


def random_json(rng: random.Random, depth: int = 0):
    roll = rng.random()
    if depth > 2 or roll < 0.5:
        return rng.choice(SCALARS)
    if roll < 0.75:
        return [random_json(rng, depth + 1) for _ in range(rng.randint(0, 3))]
    keys = ["type", "card", "x", "y", "seat", "command", "expected_version", "title", "seats",
            "options", "name", "email", "seed", "player_id", "ai", "open", "variant", "column", "good"]
    return {rng.choice(keys): random_json(rng, depth + 1) for _ in range(rng.randint(0, 4))}


def mutate(rng: random.Random, value):
    """A valid body with one part replaced by noise."""
    if isinstance(value, dict) and value and rng.random() < 0.8:
        key = rng.choice(list(value))
        return {**value, key: mutate(rng, value[key])}
    if isinstance(value, list) and value and rng.random() < 0.8:
        i = rng.randrange(len(value))
        return value[:i] + [mutate(rng, value[i])] + value[i + 1:]
    return random_json(rng)


@pytest.fixture
def live_game(client, new_player):
    red, black = new_player("FuzzRed"), new_player("FuzzBlack")
    game = client.post("/v1/games", token=red["token"], json={
        "title": "kontor", "options": {"variant": "basic"},
        "seats": [{"player_id": red["id"]}, {"player_id": black["id"]}]}).json
    return accept_invitations(client, game, [black], red), red


def test_no_500_whatever_the_body(client, live_game):
    game, red = live_game
    gid = game["id"]
    legal = client.get(f"/v1/games/{gid}/legal-commands", token=red["token"]).json
    valid = {
        "/v1/players": {"name": "Z", "email": "z@example.org"},
        "/v1/games": {"title": "kontor", "options": {"variant": "basic"},
                      "seats": [{"player_id": red["id"]}, {"ai": "easy"}], "seed": "00" * 32},
        f"/v1/games/{gid}/commands": {"seat": 0, "expected_version": legal["version"],
                                      "command": legal["commands"][0]},
    }
    rng = random.Random(2026)
    for i in range(600):
        path = rng.choice(list(valid))
        body = mutate(rng, valid[path]) if i % 3 else random_json(rng)
        response = client.client.post(path, data=json.dumps(body), headers={
            "Authorization": f"Bearer {red['token']}", "Content-Type": "application/json"})
        assert response.status_code < 500, (path, body, response.data)
        if response.status_code >= 400:
            assert response.headers["Content-Type"] == "application/problem+json"
            assert response.json["code"]


def test_no_500_whatever_the_query(client, live_game):
    game, red = live_game
    rng = random.Random(7)
    paths = [f"/v1/games/{game['id']}", f"/v1/games/{game['id']}/events", f"/v1/games/{game['id']}/state",
             f"/v1/games/{game['id']}/legal-commands", "/v1/games", f"/v1/games/{game['id']}/export"]
    values = ["", "-1", "0", "1", "99999999999999999999", "x", "me", "finished", "%00", "1.5"]
    for _ in range(300):
        query = {k: rng.choice(values) for k in rng.sample(
            ["seat", "after", "limit", "at", "player", "status", "title", "cursor"], rng.randint(0, 3))}
        response = client.client.get(rng.choice(paths), query_string=query,
                                     headers={"Authorization": f"Bearer {red['token']}"})
        assert response.status_code < 500, (query, response.data)
