"""Games over the REST API on real PostgreSQL and Redis; every response checked against openapi.yaml."""

from __future__ import annotations

import random
import uuid

import pytest

from domain.rng import seed_commitment
from tests.api.seating import accept_invitations
from tests.refusals import problem

SEED = "ab" * 32


@pytest.fixture
def two_players(new_player):
    return new_player("Red"), new_player("Black")


def create_game(client, creator, seats, **extra):
    body = {"title": "kontor", "options": {"variant": "basic"}, "seats": seats, **extra}
    return client.post("/v1/games", token=creator["token"], json=body)


@pytest.fixture
def game(client, two_players):
    red, black = two_players
    response = create_game(client, red, [{"player_id": red["id"]}, {"player_id": black["id"]}], seed=SEED)
    assert response.status_code == 201, response.json
    return accept_invitations(client, response.json, [black], red), red, black


def play_to_the_end(client, game_id, tokens, rng, max_commands=2000):
    """Each seat to act sends one of its legal commands until the game is over."""
    sent = 0
    while sent < max_commands:
        game = client.get(f"/v1/games/{game_id}").json
        if game["status"] == "finished":
            return game, sent
        seat = rng.choice(game["to_act"])
        legal = client.get(f"/v1/games/{game_id}/legal-commands", token=tokens[seat],
                           query_string={"seat": seat}).json
        assert legal["commands"], f"seat {seat} is to act and has no command"
        command = rng.choice(legal["commands"])
        response = client.post(f"/v1/games/{game_id}/commands", token=tokens[seat],
                               json={"seat": seat, "command": command, "expected_version": legal["version"]})
        assert response.status_code == 201, response.json
        assert response.json["version"] > legal["version"]
        sent += 1
    raise AssertionError("the game did not end")


def test_a_whole_game_between_two_people(client, game):
    created, red, black = game
    assert created["status"] == "active" and created["version"] > 0
    assert created["seed_commitment"] == seed_commitment(SEED) and created["seed_source"] == "client"
    assert created["your_seats"] == [0] and created["view"]["players"][0]["color"] == "red"
    final, sent = play_to_the_end(client, created["id"], [red["token"], black["token"]], random.Random(7))
    assert sent > 20
    assert final["result"] is not None and final["to_act"] == []
    assert set(final["result"]["winners"]) <= {0, 1}
    # once finished, everything is public: the seed too
    export = client.get(f"/v1/games/{created['id']}/export").json
    assert export["complete"] and export["seed"] == SEED and export["checkable"] == {"chain": True, "seed": True, "events": True}
    assert client.get(f"/v1/games/{created['id']}").json["seed"] == SEED
    assert export["steps"][-1]["events"][-1]["seq"] == final["version"]
    events = client.get(f"/v1/games/{created['id']}/events", query_string={"limit": 1000}).json["events"]
    assert [e["seq"] for e in events] == list(range(1, final["version"] + 1))
    assert events[0]["data"]["seed"] == SEED


def listed(client, token=None, **query) -> list[str]:
    return [g["id"] for g in client.get("/v1/games", token=token, query_string={"limit": 200, **query}).json["games"]]


def test_listing_games(client, game, new_player):
    created, red, black = game
    lobby = create_game(client, red, [{"player_id": red["id"]}, {"open": True}]).json
    nosy = new_player("Nosy")
    invitation = create_game(client, red, [{"player_id": red["id"]}, {"player_id": nosy["id"]}]).json
    mine = client.get("/v1/games", token=red["token"], query_string={"player": "me", "status": "active"}).json
    assert created["id"] in [g["id"] for g in mine["games"]]
    hidden = create_game(client, red, [{"player_id": red["id"]}, {"open": True}], private=True).json
    # others see only public games (an open seat, under way to watch, or finished), never
    # a private one nor an invitation to someone else (issue 30: watching, privacy)
    for token in (nosy["token"], None):
        seen = listed(client, token)
        assert lobby["id"] in seen and created["id"] in seen and hidden["id"] not in seen
        assert created["id"] in listed(client, token, player=red["id"])
        assert hidden["id"] not in listed(client, token, player=red["id"])
    assert invitation["id"] in listed(client, nosy["token"], player="me")  # invited: it is theirs
    assert invitation["id"] not in listed(client, black["token"])
    assert {created["id"], lobby["id"], invitation["id"], hidden["id"]} <= set(listed(client, red["token"], player="me"))
    page = client.get("/v1/games", token=red["token"], query_string={"limit": 1}).json
    assert len(page["games"]) == 1 and page["next_cursor"]
    following = client.get("/v1/games", token=red["token"], query_string={"limit": 1, "cursor": page["next_cursor"]}).json
    assert following["games"][0]["id"] != page["games"][0]["id"]
    problem(client.get("/v1/games", query_string={"cursor": "???"}), 422, "validation_error")
    problem(client.get("/v1/games", query_string={"player": "me"}), 401, "unauthorized")


def test_secrets_stay_secret_until_the_end(client, game):
    created, red, black = game
    gid = created["id"]
    red_view = client.get(f"/v1/games/{gid}", token=red["token"]).json["view"]
    black_view = client.get(f"/v1/games/{gid}", token=black["token"]).json["view"]
    public = client.get(f"/v1/games/{gid}").json["view"]
    assert red_view["you"]["hand"] and black_view["you"]["hand"]
    assert "you" not in public or not public["you"]
    text_public = str(public)
    # the opponent's hand never appears in my view or my events
    events = client.get(f"/v1/games/{gid}/events", token=black["token"]).json["events"]
    assert events[0]["data"].get("seed") is None
    red_hand = {c["number"] if isinstance(c, dict) else c for c in red_view["you"]["hand"]}
    black_hand = {c["number"] if isinstance(c, dict) else c for c in black_view["you"]["hand"]}
    assert red_hand.isdisjoint(black_hand)
    assert "seed" not in text_public and SEED not in str(events)
    # a spectator reading the export before the end gets no seed and redacted data
    export = client.get(f"/v1/games/{gid}/export").json
    assert export["complete"] is False and export["seed"] is None and SEED not in str(export)


def test_state_at_an_earlier_version(client, game):
    created, red, _ = game
    gid = created["id"]
    legal = client.get(f"/v1/games/{gid}/legal-commands", token=red["token"]).json
    client.post(f"/v1/games/{gid}/commands", token=red["token"], json={"command": legal["commands"][0]})
    now = client.get(f"/v1/games/{gid}/state", token=red["token"]).json
    then = client.get(f"/v1/games/{gid}/state", token=red["token"], query_string={"at": created["version"]}).json
    assert now["version"] == created["version"] + 1 and then["version"] == created["version"]
    assert then["view"] == created["view"]
    problem(client.get(f"/v1/games/{gid}/state", query_string={"at": 10_000}), 404, "not_found")


def test_idempotent_retry_appends_nothing(client, game):
    created, red, _ = game
    gid = created["id"]
    legal = client.get(f"/v1/games/{gid}/legal-commands", token=red["token"]).json
    body = {"command": legal["commands"][0]}
    key = {"Idempotency-Key": str(uuid.uuid4())}
    first = client.post(f"/v1/games/{gid}/commands", token=red["token"], json=body, headers=key)
    again = client.post(f"/v1/games/{gid}/commands", token=red["token"], json=body, headers=key)
    assert first.status_code == again.status_code == 201 and first.json == again.json
    assert client.get(f"/v1/games/{gid}").json["version"] == first.json["version"]


def test_error_cases(client, game, new_player):
    created, red, black = game
    gid = created["id"]
    stranger = new_player("Stranger")
    legal = client.get(f"/v1/games/{gid}/legal-commands", token=red["token"]).json
    command = legal["commands"][0]
    url = f"/v1/games/{gid}/commands"
    # 401: no token, bad token
    problem(client.post(url, json={"command": command}), 401, "unauthorized")
    problem(client.post(url, token="forged", json={"command": command}), 401, "unauthorized")
    # 403: a seat that is not yours
    r = client.post(url, token=black["token"], json={"seat": 0, "command": command})
    assert r.status_code == 403 and r.json["code"] == "not_your_seat"
    r = client.post(url, token=stranger["token"], json={"command": command})
    assert r.status_code == 403 and r.json["code"] == "not_your_seat"
    assert client.get(f"/v1/games/{gid}/legal-commands", token=black["token"],
                      query_string={"seat": 0}).status_code == 403
    # 404: no such game
    problem(client.get(f"/v1/games/{uuid.uuid4()}"), 404, "not_found")
    problem(client.get("/v1/games/not-a-uuid"), 404, "not_found")
    assert client.post(f"/v1/games/{uuid.uuid4()}/commands", token=red["token"],
                       json={"command": command}).status_code == 404
    # 409: a stale expected_version
    r = client.post(url, token=red["token"], json={"command": command, "expected_version": created["version"] + 7})
    assert r.status_code == 409 and r.json["code"] == "version_conflict"
    assert r.json["current_version"] == created["version"]
    # 413: too large
    r = client.post(url, token=red["token"], json={"command": {"type": "ChooseCard", "pad": "x" * 70_000}})
    problem(r, 413, "payload_too_large")
    # 422: unknown fields, wrong types, unknown command, illegal command
    for bad in ({"command": command, "extra": 1}, {"command": "ChooseCard"}, {"command": command, "seat": "0"},
                {"command": {"type": "Teleport"}}, {"command": {"type": "ChooseCard", "card": "x"}},
                {"command": {"type": "ChooseCard"}}, {"command": {**command, "bogus": True}}):
        r = client.post(url, token=red["token"], json=bad)
        assert r.status_code == 422 and r.json["code"] == "validation_error", (bad, r.json)
        assert r.json["errors"]
    r = client.post(url, token=red["token"], json={"command": {"type": "ChooseCard", "card": 99999}})
    assert r.status_code == 422 and r.json["code"] == "illegal_command" and r.json["rule"]
    # malformed JSON
    r = client.post(url, token=red["token"], data=b'{"command": ', headers={"Content-Type": "application/json"})
    assert r.status_code == 400 and r.json["code"] == "malformed_json"
    # nothing of the above was written
    assert client.get(f"/v1/games/{gid}").json["version"] == created["version"]


def test_not_your_turn_is_403(client, game):
    created, red, black = game
    gid = created["id"]
    # both choose in the first phase; after red chose, red may not act again
    legal = client.get(f"/v1/games/{gid}/legal-commands", token=red["token"]).json
    choose = next(c for c in legal["commands"] if c["type"] == "ChooseCard")
    assert client.post(f"/v1/games/{gid}/commands", token=red["token"], json={"command": choose}).status_code == 201
    assert client.get(f"/v1/games/{gid}/legal-commands", token=red["token"]).json["commands"] == []
    r = client.post(f"/v1/games/{gid}/commands", token=red["token"], json={"command": {"type": "Pass"}})
    assert r.status_code == 403 and r.json["code"] == "not_your_turn"


def test_creation_errors(client, two_players):
    red, black = two_players
    r = create_game(client, red, [{"player_id": red["id"]}])
    assert problem(r, 422, "validation_error") and "seats" in r.json["errors"]
    r = create_game(client, red, [{"player_id": red["id"]}, {"player_id": black["id"]}, {"ai": "easy"}])
    problem(r, 422, "invalid_options")
    r = create_game(client, red, [{"player_id": red["id"]}, {"ai": "genius"}])
    problem(r, 422, "validation_error")
    r = create_game(client, red, [{"player_id": red["id"]}, {"player_id": red["id"], "ai": "easy"}])
    problem(r, 422, "validation_error")
    r = create_game(client, red, [{"open": True}, {"open": True}])
    problem(r, 422, "validation_error")  # the creator must hold a seat
    r = create_game(client, red, [{"player_id": red["id"]}, {"player_id": str(uuid.uuid4())}])
    problem(r, 422, "validation_error")
    r = client.post("/v1/games", token=red["token"], json={"title": "chess", "seats": [{"open": True}]})
    assert problem(r, 422, "validation_error") and "title" in r.json["errors"]
    r = create_game(client, red, [{"player_id": red["id"]}, {"open": True}], seed="xyz")
    assert problem(r, 422, "validation_error") and "seed" in r.json["errors"]
    r = create_game(client, red, [{"player_id": red["id"]}, {"open": True}], options={"variant": "checkers"})
    assert r.status_code == 422 and r.json["code"] == "invalid_options"
    problem(client.post("/v1/games", json={"title": "kontor", "seats": []}), 401, "unauthorized")


def test_open_seat_join_starts_the_game(client, two_players, new_player):
    red, black = two_players
    r = create_game(client, red, [{"player_id": red["id"]}, {"open": True}])
    assert r.status_code == 201 and r.json["status"] == "waiting" and r.json["version"] == 0
    gid = r.json["id"]
    assert r.json["view"] is None
    problem(client.post(f"/v1/games/{gid}/seats/0/join", token=black["token"]), 409, "seat_taken")
    problem(client.post(f"/v1/games/{gid}/seats/5/join", token=black["token"]), 404, "not_found")
    assert "already hold a seat" in problem(client.post(f"/v1/games/{gid}/seats/1/join", token=red["token"]),
                                            409, "seat_taken")["detail"]
    joined = client.post(f"/v1/games/{gid}/seats/1/join", token=black["token"])
    assert joined.status_code == 200 and joined.json["status"] == "active" and joined.json["version"] > 0
    assert joined.json["your_seats"] == [1]
    late = new_player("Late")
    r = client.post(f"/v1/games/{gid}/seats/1/join", token=late["token"])
    problem(r, 409, "game_not_active")


def test_titles_are_described(client):
    titles = client.get("/v1/titles").json
    kontor = next(t for t in titles if t["id"] == "kontor")
    assert kontor["min_players"] == 2 and "basic" in kontor["variants"]
    assert kontor["options_schema"]["type"] == "object"
    detail = client.get("/v1/titles/kontor").json
    assert detail["components"]
    problem(client.get("/v1/titles/chess"), 404, "not_found")
