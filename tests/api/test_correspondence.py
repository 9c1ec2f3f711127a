"""Correspondence play over HTTP: every response is checked against openapi.yaml."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from tests.refusals import problem


def two_players(new_player):
    return new_player("Red"), new_player("Black")


def create(client, red, black, time_control, title="kontor"):
    body = {"title": title, "options": {"variant": "basic"} if title == "kontor" else {},
            "seats": [{"player_id": red["id"]}, {"player_id": black["id"]}]}
    if time_control is not ...:
        body["time_control"] = time_control
    created = client.post("/v1/games", token=red["token"], json=body)
    if created.status_code != 201:
        return created
    return client.post(f"/v1/games/{created.json['id']}/seats/1/accept", token=black["token"])


def test_a_game_with_a_time_control_shows_each_seats_clock(client, new_player):
    red, black = two_players(new_player)
    created = create(client, red, black, {"per_move": "P2D", "on_timeout": "computer"})
    assert created.status_code == 200, created.json  # the accepted invitation: the game started
    game = created.json
    assert game["time_control"] == {"per_move": "P2D", "per_move_seconds": 172800.0,
                                    "on_timeout": "computer", "reminders": [0.8], "level": "normal",
                                    "max_stand_ins": 2}
    assert [c["seat"] for c in game["clocks"]] == [0, 1]
    assert game["deadline"] is not None and all(c["paused_until"] is None for c in game["clocks"])
    assert game["away"] == [] and game["out"] == [] and game["abort_requests"] == []
    types = [e["type"] for e in client.get(f"/v1/games/{game['id']}/events").json["events"]]
    assert "TimeControlSet" in types and types.count("ClockStarted") == 2
    record = client.get(f"/v1/games/{game['id']}/export").json
    exported = [e for step in record["steps"] for e in step["events"]]
    assert [e["type"] for e in exported] == types
    started = next(e for e in exported if e["type"] == "ClockStarted")
    assert set(started["data"]) == {"seat", "started_at", "deadline", "paused"}


def test_a_bad_time_control_is_a_clear_422(client, new_player):
    red, black = two_players(new_player)
    refused = create(client, red, black, {"per_move": "PT0S", "on_timeout": "later", "level": "expert"})
    assert refused.status_code == 422
    assert refused.json["code"] == "validation_error"
    assert set(refused.json["errors"]) == {"time_control.per_move", "time_control.on_timeout",
                                           "time_control.level"}
    problem(create(client, red, black, {"per_move": 3}), 422, "validation_error")
    problem(create(client, red, black, "P2D"), 422, "validation_error")


def test_resign_over_http(client, new_player):
    red, black = two_players(new_player)
    gid = create(client, red, black, ...).json["id"]
    resigned = client.post(f"/v1/games/{gid}/resign", token=black["token"])
    assert resigned.status_code == 201 and resigned.json["status"] == "finished"
    game = client.get(f"/v1/games/{gid}").json
    assert game["result"]["winners"] == [0] and game["out"] == [1]
    again = client.post(f"/v1/games/{gid}/resign", token=red["token"], json={})
    assert again.status_code == 409 and again.json["code"] == "game_not_active"
    stranger = new_player("Stranger")
    gid2 = create(client, red, black, ...).json["id"]
    problem(client.post(f"/v1/games/{gid2}/resign", token=stranger["token"]), 403, "not_your_seat")
    problem(client.post(f"/v1/games/{gid2}/resign"), 401, "unauthorized")
    problem(client.post(f"/v1/games/{gid2}/resign", token=red["token"], json={"seat": 1}), 403, "not_your_seat")
    problem(client.post(f"/v1/games/{gid2}/resign", token=red["token"], json={"seat": "x"}), 422, "validation_error")
    problem(client.post("/v1/games/nope/resign", token=red["token"]), 404, "not_found")


def test_abort_over_http(client, new_player):
    red, black = two_players(new_player)
    gid = create(client, red, black, {"per_move": "PT1H"}).json["id"]
    aborted = client.post(f"/v1/games/{gid}/abort", token=red["token"],
                          headers={"Idempotency-Key": "abort-1"})
    assert aborted.status_code == 201 and aborted.json["status"] == "aborted"
    replay = client.post(f"/v1/games/{gid}/abort", token=red["token"], headers={"Idempotency-Key": "abort-1"})
    assert replay.status_code == 201 and replay.headers.get("Idempotent-Replayed") == "true"
    game = client.get(f"/v1/games/{gid}").json
    assert game["status"] == "aborted" and game["clocks"] == [] and game["deadline"] is None
    record = client.get(f"/v1/games/{gid}/export").json
    assert record["seed"] is None and record["status"] == "aborted"  # it keeps its secrets


def test_vacation_over_http(client, new_player):
    red, black = two_players(new_player)
    gid = create(client, red, black, {"per_move": "P2D"}).json["id"]
    until = (datetime.now(UTC) + timedelta(days=5)).isoformat()
    declared = client.put("/v1/players/me/vacation", token=red["token"], json={"until": until})
    assert declared.status_code == 200, declared.json
    assert declared.json["current"]["until"] and declared.json["allowance_days"] == 30.0
    game = client.get(f"/v1/games/{gid}").json
    assert game["away"] == [{"seat": 0, "until": game["away"][0]["until"]}]
    mine = {c["seat"]: c for c in game["clocks"]}
    assert mine[0]["paused_until"] is not None and mine[1]["paused_until"] is None
    assert client.get("/v1/players/me/vacation", token=red["token"]).json["current"] is not None
    too_long = (datetime.now(UTC) + timedelta(days=45)).isoformat()
    refused = client.put("/v1/players/me/vacation", token=red["token"], json={"until": too_long})
    assert refused.status_code == 422 and refused.json["code"] == "vacation_allowance_exceeded"
    problem(client.put("/v1/players/me/vacation", token=red["token"], json={"from": until}), 422, "validation_error")
    problem(client.put("/v1/players/me/vacation", token=red["token"], json={"until": "soon"}), 422, "validation_error")
    ended = client.delete("/v1/players/me/vacation", token=red["token"])
    assert ended.status_code == 200 and ended.json["current"] is None
    game = client.get(f"/v1/games/{gid}").json
    assert game["away"] == [] and all(c["paused_until"] is None for c in game["clocks"])
    problem(client.delete("/v1/players/me/vacation", token=red["token"]), 404, "not_found")
    types = [e["type"] for e in client.get(f"/v1/games/{gid}/events").json["events"]]
    assert types[-2:] == ["VacationStarted", "VacationEnded"]


def test_my_turn_lists_the_games_waiting_for_me_most_urgent_first(client, new_player):
    red, black = two_players(new_player)
    slow = create(client, red, black, {"per_move": "P3D"}).json["id"]
    fast = create(client, red, black, {"per_move": "PT3H"}).json["id"]
    found = client.get("/v1/games", token=red["token"], query_string={"player": "me", "to_act": "me"})
    assert found.status_code == 200
    assert [g["id"] for g in found.json["games"]] == [fast, slow] and found.json["next_cursor"] is None
    problem(client.get("/v1/games", query_string={"to_act": "me"}), 401, "unauthorized")
    problem(client.get("/v1/games", token=red["token"], query_string={"to_act": "you"}), 422, "validation_error")
