"""`GET /v1/games/{id}/board.svg` over the REST API on real PostgreSQL and Redis."""

from __future__ import annotations

import xml.etree.ElementTree as ET


def hot_seat_game(client, player, title="kontor", options=None, seats=2):
    body = {"title": title, "options": options or {}, "seed": "77" * 32,
            "seats": [{"player_id": player["id"]} for _ in range(seats)]}
    response = client.post("/v1/games", token=player["token"], json=body)
    assert response.status_code == 201, response.json
    return response.json


def test_the_board_as_a_picture_now_and_at_an_earlier_version(client, new_player):
    ada = new_player("Ada")
    game = hot_seat_game(client, ada, options={"variant": "basic"})
    legal = client.get(f"/v1/games/{game['id']}/legal-commands", token=ada["token"],
                       query_string={"seat": 0}).json
    played = client.post(f"/v1/games/{game['id']}/commands", token=ada["token"],
                         json={"seat": 0, "command": legal["commands"][0]})
    assert played.status_code == 201, played.json

    now = client.get(f"/v1/games/{game['id']}/board.svg", token=ada["token"],
                     query_string={"seat": 0})
    assert now.status_code == 200 and now.mimetype == "image/svg+xml"
    assert ET.fromstring(now.data).tag == "{http://www.w3.org/2000/svg}svg"
    before = client.get(f"/v1/games/{game['id']}/board.svg", query_string={"at": game["version"]})
    assert before.status_code == 200 and before.data != now.data
    assert b'class="hand"' not in before.data  # a spectator sees no hand


def test_every_title_has_a_picture(client, new_player):
    ada = new_player("Ada")
    game = hot_seat_game(client, ada, title="speicherstadt", seats=3)
    picture = client.get(f"/v1/games/{game['id']}/board.svg")
    assert picture.status_code == 200 and b"Speicherstadt" in picture.data


def test_a_version_the_game_never_had_is_a_404_problem(client, new_player):
    ada = new_player("Ada")
    game = hot_seat_game(client, ada, options={"variant": "basic"})
    response = client.get(f"/v1/games/{game['id']}/board.svg", query_string={"at": 10_000})
    assert response.status_code == 404 and response.json["code"] == "not_found"
