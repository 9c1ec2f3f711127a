"""Private notes on a game over HTTP: only their writer reads them, and no view, event,
stream or export holds them, before or after the end."""

from __future__ import annotations

from tests.refusals import problem

SECRET = "plan: keep the 37 for the east bank"


def start(client, new_player):
    red, black = new_player("Red"), new_player("Black")
    created = client.post("/v1/games", token=red["token"], json={
        "title": "kontor", "options": {"variant": "basic"},
        "seats": [{"player_id": red["id"]}, {"player_id": black["id"]}]})
    assert created.status_code == 201, created.json
    assert client.post(f"/v1/games/{created.json['id']}/seats/1/accept", token=black["token"]).status_code == 200
    return created.json["id"], red, black


def everything_public(client, game_id, players):
    """What any reader can get of the game, as text: views, events, the export."""
    texts = [client.get(f"/v1/games/{game_id}").get_data(as_text=True),
             client.get(f"/v1/games/{game_id}/events").get_data(as_text=True),
             client.get(f"/v1/games/{game_id}/export").get_data(as_text=True)]
    for player in players:
        texts.append(client.get(f"/v1/games/{game_id}", token=player["token"]).get_data(as_text=True))
        texts.append(client.get(f"/v1/games/{game_id}/export", token=player["token"]).get_data(as_text=True))
    return "\n".join(texts)


def test_notes_are_private_to_their_writer_and_in_no_export_before_or_after_the_end(client, new_player):
    game_id, red, black = start(client, new_player)
    empty = client.get(f"/v1/games/{game_id}/notes", token=red["token"])
    assert empty.status_code == 200 and empty.json == {"game_id": game_id, "text": "", "updated_at": None}
    put = client.put(f"/v1/games/{game_id}/notes", token=red["token"], json={"text": SECRET})
    assert put.status_code == 200 and put.json["text"] == SECRET and put.json["updated_at"]
    assert client.get(f"/v1/games/{game_id}/notes", token=red["token"]).json["text"] == SECRET
    assert client.get(f"/v1/games/{game_id}/notes", token=black["token"]).json["text"] == ""  # their own
    assert SECRET not in everything_public(client, game_id, [red, black])
    client.put(f"/v1/games/{game_id}/notes", token=black["token"], json={"text": "Black's own"})
    assert client.post(f"/v1/games/{game_id}/resign", token=black["token"]).status_code == 201
    assert client.get(f"/v1/games/{game_id}").json["status"] == "finished"
    public = everything_public(client, game_id, [red, black])
    assert SECRET not in public and "Black's own" not in public
    assert client.get(f"/v1/games/{game_id}/notes", token=red["token"]).json["text"] == SECRET  # still kept
    replaced = client.put(f"/v1/games/{game_id}/notes", token=red["token"], json={"text": ""})
    assert replaced.status_code == 200 and replaced.json["text"] == ""


def test_notes_refuse_strangers_bad_bodies_and_long_texts(client, new_player):
    game_id, red, _ = start(client, new_player)
    stranger = new_player("Stranger")
    assert client.get(f"/v1/games/{game_id}/notes", token=stranger["token"]).json["code"] == "not_your_seat"
    refused = client.put(f"/v1/games/{game_id}/notes", token=stranger["token"], json={"text": "mine"})
    assert refused.status_code == 403 and refused.json["code"] == "not_your_seat"
    problem(client.get(f"/v1/games/{game_id}/notes"), 401, "unauthorized")
    problem(client.get("/v1/games/not-a-game/notes", token=red["token"]), 404, "not_found")
    too_long = client.put(f"/v1/games/{game_id}/notes", token=red["token"], json={"text": "x" * 10_001})
    assert problem(too_long, 422, "validation_error") and "text" in too_long.json["errors"]
    for body in ({}, {"text": 5}, {"text": None}, {"text": "a", "extra": 1}):
        bad = client.put(f"/v1/games/{game_id}/notes", token=red["token"], json=body)
        assert bad.status_code == 422 and bad.json["code"] == "validation_error", body
    problem(client.put(f"/v1/games/{game_id}/notes", token=red["token"], json=["x"]), 400, "malformed_json")
    assert client.get(f"/v1/games/{game_id}/notes", token=red["token"]).json["text"] == ""  # nothing half written
