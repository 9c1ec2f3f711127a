"""Hostile input answers a 4xx problem+json with a stable code, never a 500 (issue 9, items 7-8).

Each case here answered 500 (or was silently accepted) before input decoding was made
strict in one place (api/io.py) and ids were parsed in one place (api/ids.py)."""

from __future__ import annotations

import json
import random

import pytest

from tests.api.seating import accept_invitations
from tests.api.test_games import play_to_the_end

pytestmark = pytest.mark.slow(seconds=20)  # started first: tests/conftest.py


def problem_of(response, status: int, code: str) -> dict:
    assert response.status_code == status, (response.status_code, response.data[:500])
    assert response.headers["Content-Type"] == "application/problem+json"
    assert response.json["code"] == code, response.json
    return response.json


def post_raw(client, path: str, raw: bytes | str, token: str | None = None, **headers):
    headers = {"Content-Type": "application/json", **headers}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    return client.post(path, data=raw, headers=headers)


@pytest.fixture
def red_and_game(client, new_player):
    red, black = new_player("InRed"), new_player("InBlack")
    game = client.post("/v1/games", token=red["token"], json={
        "title": "kontor", "options": {"variant": "basic"},
        "seats": [{"player_id": red["id"]}, {"player_id": black["id"]}]}).json
    return red, game


def test_nul_characters_are_refused(client):
    body = problem_of(post_raw(client.client, "/v1/players", '{"name": "a\\u0000b"}'), 422, "validation_error")
    assert "NUL" in body["detail"] and body["errors"] == {"name": ["contains a NUL character"]}
    # unescaped, a NUL is a control character JSON does not allow in a string
    problem_of(post_raw(client.client, "/v1/players", b'{"name": "a\x00b"}'), 400, "malformed_json")


@pytest.mark.parametrize("raw", ['{"name": "\\ud800"}', '{"name": "x\\udfff"}', '{"\\ud800": 1}'])
def test_lone_surrogates_are_refused(client, raw):
    body = problem_of(post_raw(client.client, "/v1/players", raw), 422, "validation_error")
    assert "surrogate" in body["detail"]


def test_nul_in_a_command_and_a_query(client, red_and_game):
    red, game = red_and_game
    response = post_raw(client.client, f"/v1/games/{game['id']}/commands",
                        json.dumps({"command": {"type": "Choose\u0000Card"}}), red["token"])
    problem_of(response, 422, "validation_error")
    response = client.client.get("/v1/games", query_string={"title": "kon\x00tor"})
    problem_of(response, 422, "validation_error")


@pytest.mark.parametrize("depth", [100, 1000, 20_000])
def test_deeply_nested_json_is_refused(client, red_and_game, depth):
    red, game = red_and_game
    raw = '{"command": ' + "[" * depth + "]" * depth + "}"
    body = problem_of(post_raw(client.client, f"/v1/games/{game['id']}/commands", raw, red["token"]),
                      400, "malformed_json")
    assert "nested" in body["detail"]


@pytest.mark.parametrize("spelling", [
    "urn:uuid:{}", "{{{}}}", str.upper, lambda u: u.replace("-", ""),
])
def test_ids_in_other_uuid_spellings_are_not_found(client, red_and_game, spelling):
    red, game = red_and_game
    other = spelling.format(game["id"]) if isinstance(spelling, str) else spelling(game["id"])
    for path in [f"/v1/games/{other}", f"/v1/games/{other}/events", f"/v1/games/{other}/state",
                 f"/v1/games/{other}/export", f"/v1/games/{other}/messages"]:
        problem_of(client.client.get(path), 404, "not_found")
    problem_of(client.client.post(f"/v1/games/{other}/seats/1/join",
                                  headers={"Authorization": f"Bearer {red['token']}"}), 404, "not_found")
    problem_of(client.client.get("/v1/games", query_string={"player": "urn:uuid:" + red["id"]}),
               422, "validation_error")
    response = client.post("/v1/games", token=red["token"], json={
        "title": "kontor", "seats": [{"player_id": "urn:uuid:" + red["id"]}, {"ai": "easy"}]})
    problem_of(response, 422, "validation_error")
    # a trailing newline is another spelling too (a pattern ending in $ lets it through)
    response = client.post("/v1/games", token=red["token"], json={
        "title": "kontor", "seats": [{"player_id": red["id"] + "\n"}, {"ai": "easy"}]})
    problem_of(response, 422, "validation_error")
    problem_of(client.client.get("/v1/games", query_string={"player": red["id"] + "\n"}),
               422, "validation_error")
    response = client.post("/v1/games", token=red["token"], json={
        "title": "kontor", "seats": [{"player_id": red["id"]}, {"ai": "easy"}], "seed": "0" * 64 + "\n"})
    problem_of(response, 422, "validation_error")


def test_a_join_with_an_idempotency_key_and_an_invalid_body(client, new_player):
    red, blue = new_player("JoinRed"), new_player("JoinBlue")
    game = client.post("/v1/games", token=red["token"], json={
        "title": "kontor", "seats": [{"player_id": red["id"]}, {"open": True}]}).json
    for raw in [b"{", b"\xff\xfe", b'{"x": "\\ud800"}', b"[" * 5000]:
        response = post_raw(client.client, f"/v1/games/{game['id']}/seats/1/join", raw, blue["token"],
                            **{"Idempotency-Key": "join-1"})
        assert 400 <= response.status_code < 500, response.data
        assert response.headers["Content-Type"] == "application/problem+json"
    # the seat is still free: none of these joined
    assert client.get(f"/v1/games/{game['id']}").json["seats"][1]["player_id"] is None


@pytest.mark.parametrize("when", ["0001-01-01T00:00:00+00:00", "0001-01-01T00:00:00+14:00",
                                  "9999-12-31T23:59:59-12:00", "2026-02-30T00:00:00Z"])
def test_a_vacation_date_out_of_range(client, new_player, when):
    player = new_player("Vacationer")
    response = client.patch("/v1/players/me", token=player["token"], json={"vacation_until": when})
    body = problem_of(response, 422, "validation_error")
    assert "vacation_until" in body["errors"]


def test_a_plausible_vacation_date_is_kept(client, new_player):
    player = new_player("Vacationer")
    response = client.patch("/v1/players/me", token=player["token"],
                            json={"vacation_until": "2031-07-01T00:00:00Z"})
    assert response.status_code == 200 and response.json["vacation_until"].startswith("2031-07-01")


def test_every_version_of_a_speicherstadt_game_has_a_state(client, new_player):
    """Folding to a version in the middle of a multi-event batch used to raise IndexError."""
    players = [new_player(f"S{i}") for i in range(3)]
    game = client.post("/v1/games", token=players[0]["token"], json={
        "title": "speicherstadt", "seats": [{"player_id": p["id"]} for p in players]}).json
    accept_invitations(client, game, players)
    final, _ = play_to_the_end(client, game["id"], [p["token"] for p in players], random.Random(4))
    for version in range(1, final["version"] + 1):
        response = client.get(f"/v1/games/{game['id']}/state", query_string={"at": version})
        assert response.status_code == 200, (version, response.json)
        assert response.json["version"] == version


# item 8: strict types ----------------------------------------------------------------------
@pytest.mark.parametrize("value", [0, 1, "false", "true", "", None, "0"])
def test_booleans_are_only_true_and_false(client, new_player, value):
    player = new_player("Strict")
    response = client.patch("/v1/players/me", token=player["token"], json={"notify_by_email": value})
    problem_of(response, 422, "validation_error")
    response = client.post("/v1/games", token=player["token"], json={
        "title": "kontor", "seats": [{"player_id": player["id"]}, {"open": value}]})
    problem_of(response, 422, "validation_error")


def test_real_booleans_still_work(client, new_player):
    player = new_player("Strict")
    response = client.patch("/v1/players/me", token=player["token"], json={"notify_by_email": False})
    assert response.status_code == 200 and response.json["notify_by_email"] is False


@pytest.mark.parametrize("content_type", [None, "text/plain", "application/x-www-form-urlencoded",
                                          "multipart/form-data; boundary=x", "application/jsonx"])
def test_bodies_that_are_not_json_are_refused_with_415(client, content_type):
    headers = {"Content-Type": content_type} if content_type else {}
    response = client.client.post("/v1/players", data=b'{"name": "Plain"}', headers=headers)
    problem_of(response, 415, "unsupported_media_type")


@pytest.mark.parametrize("content_type", ["application/json", "application/json; charset=utf-8",
                                          "APPLICATION/JSON"])
def test_json_content_types_are_accepted(client, content_type):
    response = client.client.post("/v1/players", data=b'{"name": "Json"}',
                                  headers={"Content-Type": content_type})
    assert response.status_code == 201, response.json


def test_a_waiting_game_has_no_board_picture_yet(client, red_and_game):
    """Found by schemathesis (tests/e2e/test_schemathesis.py): it answered 500."""
    _, game = red_and_game  # waiting: its second seat is an invitation not yet accepted
    assert game["status"] == "waiting"
    problem_of(client.get(f"/v1/games/{game['id']}/board.svg"), 404, "not_found")


@pytest.mark.parametrize("when", ["0001-01-01T00:00:00+14:00", "9999-12-31T23:59:59-12:00"])
def test_a_vacation_period_out_of_range(client, new_player, when):
    player = new_player("Traveller")
    for body in ({"until": when}, {"from": when, "until": "2031-01-01T00:00:00Z"}):
        response = client.client.put("/v1/players/me/vacation", json=body,
                                      headers={"Authorization": f"Bearer {player['token']}"})
        problem_of(response, 422, "validation_error")
    problem_of(client.client.get("/v1/exports", query_string={"finished_after": when}), 422, "validation_error")


@pytest.mark.parametrize("path, body", [("commands", {"command": {"type": "Convert"}}), ("resign", {})])
def test_acting_in_a_waiting_game(client, new_player, path, body):
    """Found by schemathesis: a command or resignation before the game starts was a 500.
    (An abort cancels a waiting game: tests/api/test_invitations.py.)"""
    me = new_player("Early")
    game = client.post("/v1/games", token=me["token"], json={
        "title": "kontor", "seats": [{"player_id": me["id"]}, {"open": True}]}).json
    kwargs = {"json": body} if body is not None else {}
    response = client.client.post(f"/v1/games/{game['id']}/{path}",
                                  headers={"Authorization": f"Bearer {me['token']}"}, **kwargs)
    assert 400 <= response.status_code < 500, response.data
    assert response.headers["Content-Type"] == "application/problem+json"
