"""The lobby (issue 30): seeks, joining, expiry, challenges by name, privacy, watching.
Real PostgreSQL and Redis; every response checked against openapi.yaml."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta

from service.clock import FixedClock
from service.lobby.service import LobbyService
from tests.api.test_games import create_game
from tests.refusals import problem


def lobby_ids(client, **query) -> list[str]:
    response = client.get("/v1/lobby", query_string={"limit": 200, **query})
    assert response.status_code == 200, response.json
    return [g["id"] for g in response.json["games"]]


def test_a_seek_is_in_the_lobby_until_joined_and_the_game_starts_when_full(client, new_player):
    host, guest = new_player("SeekHost"), new_player("SeekGuest")
    seek = create_game(client, host, [{"player_id": host["id"]}, {"open": True}],
                       time_control={"per_move": "P2D"}).json
    assert seek["status"] == "waiting" and seek["rated"] is True and seek["private"] is False
    assert seek["expires_at"] is not None
    lobby = client.get("/v1/lobby", query_string={"title": "kontor", "limit": 200}).json["games"]
    entry = next(g for g in lobby if g["id"] == seek["id"])
    assert entry["creator"] == {"id": host["id"], "name": "SeekHost", "rating": 1000, "provisional": True}
    assert entry["time_control"]["per_move"] == "P2D" and entry["options"] == {"variant": "basic"}
    assert seek["id"] not in lobby_ids(client, title="speicherstadt")
    joined = client.post(f"/v1/games/{seek['id']}/seats/1/join", token=guest["token"])
    assert joined.status_code == 200 and joined.json["status"] == "active" and joined.json["version"] > 0
    assert seek["id"] not in lobby_ids(client)


def test_rated_defaults_and_refusals(client, new_player):
    me = new_player("Defaults")
    with_computer = create_game(client, me, [{"player_id": me["id"]}, {"ai": "easy"}]).json
    assert with_computer["rated"] is False
    hot_seat = create_game(client, me, [{"player_id": me["id"]}, {"player_id": me["id"]}]).json
    assert hot_seat["rated"] is False
    refused = create_game(client, me, [{"player_id": me["id"]}, {"ai": "easy"}], rated=True)
    assert refused.status_code == 422 and refused.json["code"] == "validation_error"
    assert "rated" in refused.json["errors"]
    unrated = create_game(client, me, [{"player_id": me["id"]}, {"open": True}], rated=False).json
    assert unrated["rated"] is False
    bad = create_game(client, me, [{"player_id": me["id"]}, {"open": True}], rating_range={"min": 1200, "max": 900})
    assert bad.status_code == 422 and bad.json["code"] == "validation_error"
    for body in ({"rated": "yes"}, {"private": 1}, {"rating_range": {"min": "a"}}, {"rating_range": {"low": 3}}):
        wrong = create_game(client, me, [{"player_id": me["id"]}, {"open": True}], **body)
        assert wrong.status_code == 422 and wrong.json["code"] == "validation_error", body


def test_a_rating_range_keeps_out_players_rated_outside_it(client, new_player):
    host, newcomer = new_player("RangeHost"), new_player("Newcomer")
    seek = create_game(client, host, [{"player_id": host["id"]}, {"open": True}],
                       rating_range={"min": 1100, "max": 1500}).json
    assert seek["rating_range"] == {"min": 1100, "max": 1500}
    refused = client.post(f"/v1/games/{seek['id']}/seats/1/join", token=newcomer["token"])
    assert refused.status_code == 403 and refused.json["code"] == "rating_out_of_range"
    assert seek["id"] in lobby_ids(client)  # still open
    easy = create_game(client, host, [{"player_id": host["id"]}, {"open": True}], rating_range={"max": 1000}).json
    assert client.post(f"/v1/games/{easy['id']}/seats/1/join", token=newcomer["token"]).status_code == 200


def test_a_seek_nobody_joined_expires_after_seven_days(client, services, new_player):
    host = new_player("Patient")
    seek = create_game(client, host, [{"player_id": host["id"]}, {"open": True}]).json
    created = datetime.fromisoformat(seek["expires_at"]) - timedelta(days=7)
    assert abs((created - datetime.now(UTC)).total_seconds()) < 60

    def sweep_at(moment):
        return LobbyService(services.store, FixedClock(moment), services.ratings, services.notifier).expire()

    sweep_at(datetime.fromisoformat(seek["expires_at"]) - timedelta(seconds=1))
    assert client.get(f"/v1/games/{seek['id']}").json["status"] == "waiting"
    assert sweep_at(datetime.fromisoformat(seek["expires_at"])) >= 1
    gone = client.get(f"/v1/games/{seek['id']}").json
    assert gone["status"] == "aborted"
    assert seek["id"] not in lobby_ids(client)
    late = client.post(f"/v1/games/{seek['id']}/seats/1/join", token=new_player("Late")["token"])
    assert late.status_code == 409 and late.json["code"] == "game_not_active"


def test_challenge_by_name_shows_the_challenger_rating_and_clock(client, new_player):
    suffix = uuid.uuid4().hex[:6]
    challenger, target = new_player(f"Challenger{suffix}"), new_player(f"Zoë_{suffix}")
    new_player(f"zoë_{suffix}x")
    found = client.get("/v1/players", query_string={"name": f"ZOË_{suffix}"}).json["players"]
    assert [p["name"] for p in found] == [f"Zoë_{suffix}", f"zoë_{suffix}x"]
    assert client.get("/v1/players", query_string={"name": "%"}).json["players"] == [] or all(
        p["name"].startswith("%") for p in client.get("/v1/players", query_string={"name": "%"}).json["players"])
    problem(client.get("/v1/players", query_string={"name": ""}), 422, "validation_error")
    game = create_game(client, challenger, [{"player_id": challenger["id"]}, {"player_id": found[0]["id"]}],
                       time_control={"per_move": "P3D"}).json
    invitations = client.get("/v1/players/me/invitations", token=target["token"]).json["invitations"]
    mine = next(i for i in invitations if i["game"]["id"] == game["id"])
    assert mine["seat"] == 1 and mine["challenger"]["name"] == f"Challenger{suffix}"
    assert mine["challenger"]["rating"] == 1000 and mine["time_control"]["per_move"] == "P3D"
    assert game["id"] not in lobby_ids(client)  # a challenge is no seek
    problem(client.get("/v1/players/me/invitations"), 401, "unauthorized")
    accepted = client.post(f"/v1/games/{game['id']}/seats/1/accept", token=target["token"])
    assert accepted.json["status"] == "active"
    assert client.get("/v1/players/me/invitations", token=target["token"]).json["invitations"] == [
        i for i in invitations if i["game"]["id"] != game["id"]]


def test_a_private_game_is_its_players_only(client, new_player):
    red, black, stranger = new_player("PrivRed"), new_player("PrivBlack"), new_player("Nosy")
    game = create_game(client, red, [{"player_id": red["id"]}, {"open": True}], private=True).json
    assert game["private"] is True and game["id"] not in lobby_ids(client)
    # joined by its id (a link shared by hand)
    assert client.post(f"/v1/games/{game['id']}/seats/1/join", token=black["token"]).status_code == 200
    gid = game["id"]
    for path in (f"/v1/games/{gid}", f"/v1/games/{gid}/events", f"/v1/games/{gid}/state",
                 f"/v1/games/{gid}/messages", f"/v1/games/{gid}/export", f"/v1/games/{gid}/board.svg"):
        assert problem(client.get(path), 404, "not_found"), path
        assert problem(client.get(path, token=stranger["token"]), 404, "not_found"), path
        assert client.get(path, token=black["token"]).status_code == 200, path
    live = client.get("/v1/games", query_string={"status": "active", "limit": 200}).json["games"]
    assert gid not in [g["id"] for g in live]
    assert gid in [g["id"] for g in client.get("/v1/games", token=red["token"],
                                                 query_string={"status": "active", "player": "me"}).json["games"]]


def test_live_games_are_listed_for_watching(client, new_player):
    red, black = new_player("LiveRed"), new_player("LiveBlack")
    game = create_game(client, red, [{"player_id": red["id"]}, {"open": True}]).json
    client.post(f"/v1/games/{game['id']}/seats/1/join", token=black["token"])
    live = client.get("/v1/games", query_string={"status": "active", "limit": 200}).json["games"]
    assert game["id"] in [g["id"] for g in live]
    watched = client.get(f"/v1/games/{game['id']}").json
    assert watched["viewer_seat"] is None and watched["your_seats"] == [] and watched["view"] is not None


def test_a_full_seek_leaves_the_lobby_and_a_declined_challenge_does_not_reopen_it(client, new_player):
    host, asked, joiner = new_player("Asker"), new_player("Declines"), new_player("Taker")
    game = create_game(client, host, [{"player_id": host["id"]}, {"player_id": asked["id"]}, {"open": True}],
                       title="speicherstadt", options={}).json
    assert game["id"] in lobby_ids(client)  # one seat open already
    assert client.post(f"/v1/games/{game['id']}/seats/2/join", token=joiner["token"]).status_code == 200
    assert game["id"] not in lobby_ids(client)  # the last open seat taken; the invitation pending
    assert client.post(f"/v1/games/{game['id']}/seats/1/decline", token=asked["token"]).status_code == 200
    # a declined seat is closed, not opened to anyone (issue 26, item 13): the game stays out
    # of the lobby until its creator cancels it
    assert game["id"] not in lobby_ids(client)
