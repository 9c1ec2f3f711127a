"""The archive of finished games (issue 30): by player, title, form, result and date,
private games to their players only, and any finished game's history and board at any
version. Real PostgreSQL; every response checked against openapi.yaml."""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta

import pytest

from tests.api.seating import accept_invitations
from tests.refusals import problem


def finish(client, title, options, winner, loser, **extra) -> dict:
    body = {"title": title, "options": options, "seats": [{"player_id": winner["id"]}, {"player_id": loser["id"]}],
            **extra}
    created = client.post("/v1/games", token=winner["token"], json=body)
    assert created.status_code == 201, created.json
    accept_invitations(client, created.json, [loser], winner)
    assert client.post(f"/v1/games/{created.json['id']}/resign", token=loser["token"], json={}).status_code == 201
    return client.get(f"/v1/games/{created.json['id']}", token=winner["token"]).json


def ids(client, token=None, **query) -> list[str]:
    response = client.get("/v1/games", token=token, query_string={"limit": 200, **query})
    assert response.status_code == 200, response.json
    assert all(g["status"] == "finished" for g in response.json["games"])
    return [g["id"] for g in response.json["games"]]


@pytest.fixture
def history(client, new_player):
    tag = uuid.uuid4().hex[:5]
    ann, bob, eve = new_player(f"Ann{tag}"), new_player(f"Bob{tag}"), new_player(f"Eve{tag}")
    games = {
        "ann_beats_bob_basic": finish(client, "kontor", {"variant": "basic"}, ann, bob),
        "bob_beats_ann_advanced": finish(client, "kontor", {"variant": "advanced"}, bob, ann),
        "ann_beats_bob_speicherstadt": finish(client, "speicherstadt", {}, ann, bob),
        "ann_beats_eve_private": finish(client, "kontor", {"variant": "basic"}, ann, eve, private=True),
    }
    return {"ann": ann, "bob": bob, "eve": eve}, {k: g["id"] for k, g in games.items()}, games


def test_archive_by_player_title_result_and_form(client, history):
    people, g, _ = history
    ann, bob = people["ann"], people["bob"]
    public = [g["ann_beats_bob_speicherstadt"], g["bob_beats_ann_advanced"], g["ann_beats_bob_basic"]]
    assert ids(client, player=ann["id"], status="finished") == public  # latest finished first
    assert ids(client, player=ann["id"], result="any") == public
    assert ids(client, player=ann["id"], result="won") == [g["ann_beats_bob_speicherstadt"], g["ann_beats_bob_basic"]]
    assert ids(client, player=ann["id"], result="lost") == [g["bob_beats_ann_advanced"]]
    assert ids(client, player=bob["id"], result="won") == [g["bob_beats_ann_advanced"]]
    assert ids(client, player=ann["id"], title="kontor") == [g["bob_beats_ann_advanced"], g["ann_beats_bob_basic"]]
    assert ids(client, player=ann["id"], title="speicherstadt", result="lost") == []
    assert ids(client, player=ann["id"], form="advanced") == [g["bob_beats_ann_advanced"]]
    assert ids(client, player=ann["id"], title="kontor", form="basic", result="won") == [g["ann_beats_bob_basic"]]
    # without a player: every public finished game, by title and form
    everyone = ids(client, status="finished", title="kontor", form="advanced")
    assert g["bob_beats_ann_advanced"] in everyone and g["ann_beats_bob_basic"] not in everyone


def test_archive_by_date_and_pages(client, history):
    people, g, games = history
    ann = people["ann"]
    finished = {k: datetime.fromisoformat(v["updated_at"]) for k, v in games.items()}
    cut = finished["bob_beats_ann_advanced"]
    assert ids(client, player=ann["id"], before=cut.isoformat()) == [g["ann_beats_bob_basic"]]
    assert ids(client, player=ann["id"], after=cut.isoformat()) == [
        g["ann_beats_bob_speicherstadt"], g["bob_beats_ann_advanced"]]
    assert ids(client, player=ann["id"], after=(cut + timedelta(days=1)).isoformat()) == []
    page = client.get("/v1/games", query_string={"player": ann["id"], "status": "finished", "limit": 2}).json
    assert len(page["games"]) == 2 and page["next_cursor"]
    rest = client.get("/v1/games", query_string={"player": ann["id"], "status": "finished", "limit": 2,
                                                  "cursor": page["next_cursor"]}).json
    assert [x["id"] for x in page["games"] + rest["games"]] == ids(client, player=ann["id"], status="finished")
    for bad in ({"result": "draw"}, {"before": "yesterday"}, {"after": "2026-13-01T00:00:00Z"},
                {"status": "active", "result": "won", "player": ann["id"]}, {"result": "won"},
                {"title": "chess", "status": "finished"}):
        response = client.get("/v1/games", query_string=bad)
        assert response.status_code == 422 and response.json["code"] == "validation_error", bad


def test_a_private_game_is_in_its_players_archive_only(client, history):
    people, g, _ = history
    ann, bob, eve = people["ann"], people["bob"], people["eve"]
    private = g["ann_beats_eve_private"]
    for token in (None, bob["token"]):
        assert private not in ids(client, token, player=ann["id"], status="finished")
        assert private not in ids(client, token, status="finished", title="kontor")
        problem(client.get(f"/v1/games/{private}", token=token), 404, "not_found")
    assert private in ids(client, ann["token"], player=ann["id"], status="finished")
    assert private in ids(client, eve["token"], player=eve["id"], result="lost")
    # stats count it (the player's own record), the public profile lists only public games
    profile = client.get(f"/v1/players/{eve['id']}").json
    assert profile["stats"]["kontor"] == {"played": 1, "won": 0, "lost": 1}
    assert private not in [x["id"] for x in profile["recent_games"]]


def test_any_finished_game_at_any_version(client, history):
    people, g, _ = history
    gid = g["ann_beats_bob_basic"]
    game = client.get(f"/v1/games/{gid}").json
    assert game["status"] == "finished" and game["seed"] is not None
    events = client.get(f"/v1/games/{gid}/events", query_string={"limit": 1000}).json["events"]
    assert [e["seq"] for e in events] == list(range(1, game["version"] + 1))
    for version in range(1, game["version"] + 1):
        state = client.get(f"/v1/games/{gid}/state", query_string={"at": version})
        assert state.status_code == 200 and state.json["version"] == version
        board = client.get(f"/v1/games/{gid}/board.svg", query_string={"at": version})
        assert board.status_code == 200 and board.data.startswith(b"<svg")
    problem(client.get(f"/v1/games/{gid}/state", query_string={"at": game["version"] + 1}), 404, "not_found")
