"""The Server-Sent Events stream, woken by Redis pub/sub after each commit."""

from __future__ import annotations

import json
import random
import threading
import time

from tests.api.seating import accept_invitations
from tests.api.test_games import play_to_the_end


def parse(chunks) -> list[dict]:
    """The SSE messages of a byte stream as dicts of their fields."""
    text = b"".join(chunks).decode()
    messages = []
    for block in text.split("\n\n"):
        fields = {}
        for line in block.splitlines():
            if line and not line.startswith(":"):
                key, _, value = line.partition(": ")
                fields[key] = value
        if "id" in fields or fields.get("event") == "end":
            messages.append(fields)
    return messages


def new_game(client, new_player):
    red, black = new_player("StreamRed"), new_player("StreamBlack")
    game = client.post("/v1/games", token=red["token"], json={
        "title": "kontor", "options": {"variant": "basic"},
        "seats": [{"player_id": red["id"]}, {"player_id": black["id"]}]}).json
    return accept_invitations(client, game, [black], red), red, black


def test_a_finished_game_streams_every_event_then_ends(client, new_player):
    game, red, black = new_game(client, new_player)
    final, _ = play_to_the_end(client, game["id"], [red["token"], black["token"]], random.Random(4))
    response = client.client.get(f"/v1/games/{game['id']}/stream", query_string={"after": 3})
    assert response.status_code == 200 and response.mimetype == "text/event-stream"
    messages = parse(response.response)
    assert [int(m["id"]) for m in messages if "id" in m] == list(range(4, final["version"] + 1))
    assert messages[-1]["event"] == "end"
    resumed = client.client.get(f"/v1/games/{game['id']}/stream", headers={"Last-Event-ID": str(final["version"] - 1)})
    assert [m.get("id") for m in parse(resumed.response)] == [str(final["version"]), None]


def test_a_live_stream_is_woken_by_a_move_and_redacted_for_its_reader(client, new_player):
    game, red, black = new_game(client, new_player)
    gid = game["id"]
    response = client.client.get(f"/v1/games/{gid}/stream", headers={"Authorization": f"Bearer {black['token']}"},
                                 query_string={"after": game["version"], "keepalive": 5, "timeout": 3})
    chunks: list[bytes] = []
    arrived: list[float] = []

    def read():
        for chunk in response.response:
            chunks.append(chunk)
            if chunk.startswith(b"id:"):
                arrived.append(time.monotonic())

    reader = threading.Thread(target=read)
    reader.start()
    time.sleep(0.3)
    legal = client.get(f"/v1/games/{gid}/legal-commands", token=red["token"]).json
    choose = next(c for c in legal["commands"] if c["type"] == "ChooseCard")
    moved = time.monotonic()
    client.post(f"/v1/games/{gid}/commands", token=red["token"], json={"command": choose})
    reader.join(10)
    assert not reader.is_alive(), "the stream did not close at its timeout"
    messages = parse(chunks)
    assert messages and messages[0]["event"] == "kontor.CardChosen"
    data = json.loads(messages[0]["data"])
    assert data["seat"] == 0 and data["data"]["card"] is None  # black may not see red's card
    assert arrived and arrived[0] - moved < 2.0  # woken by the move, not by the 5 s keep-alive


def test_stream_errors(client):
    assert client.client.get("/v1/games/00000000-0000-0000-0000-000000000000/stream").status_code == 404
    bad = client.client.get("/v1/games/00000000-0000-0000-0000-000000000000/stream", headers={"Last-Event-ID": "x"})
    assert bad.status_code == 422
