"""Chat through a game's stream: a posted message makes each open stream say `event:
message` (no id: it is not an event of the game) with how many messages its reader may
read, for a player and a spectator alike; the web client reads /messages then, and never
polls."""

from __future__ import annotations

import json
import threading

import requests

from tests.e2e.test_stream import stream, two_player_game


def first_message_event(response, found: dict, ready: threading.Event) -> None:
    block: dict = {}
    for line in response.iter_lines(decode_unicode=True):
        if line == "retry: 2000":
            ready.set()
        if line:
            key, _, value = line.partition(": ")
            block[key] = value
            continue
        if block.get("event") == "message":
            found.update(block)
            return
        block = {}


def test_a_message_wakes_the_streams_of_players_and_spectators(server):
    game, red, black = two_player_game(server)
    readers = {"black": black.token, "spectator": None}
    found = {name: {} for name in readers}
    threads = []
    for name, token in readers.items():
        opened = stream(server, game["id"], token=token, after=game["version"], keepalive=1, timeout=20)
        assert opened.status_code == 200
        ready = threading.Event()
        thread = threading.Thread(target=first_message_event, args=(opened, found[name], ready), daemon=True)
        thread.start()
        assert ready.wait(10)
        threads.append(thread)
    said = requests.post(f"{server}/v1/games/{game['id']}/messages", json={"text": "good luck"},
                         headers={"Authorization": f"Bearer {red.token}"}, timeout=30)
    assert said.status_code == 201, said.text
    for thread in threads:
        thread.join(20)
    for name in readers:
        assert found[name], f"{name}'s stream did not say message"
        assert "id" not in found[name]  # Last-Event-ID stays the game's
        assert json.loads(found[name]["data"]) == {"count": 1}
