"""The Server-Sent Events stream of the live server (uvicorn, async): woken by the one
Redis fan-out per process, redacted per reader, and never in the way of other requests."""

from __future__ import annotations

import json
import random
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import requests

from clients.sdk import Client
from service.notifications.pubsub import SilentNotifier
from service.runtime.container import build


def parse(text: str) -> list[dict]:
    """The SSE messages of a stream's text as dicts of their fields."""
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


def two_player_game(server) -> tuple[dict, Client, Client]:
    """A Kontor basic game, Red seated by its creator and Black joining the open seat."""
    red, black = Client(server), Client(server)
    red.create_player("StreamRed")
    black.create_player("StreamBlack")
    game = red.create_game("kontor", [{"player_id": red.me()["id"]}, {"open": True}], {"variant": "basic"})
    black.join(game["id"], 1)
    return red.game(game["id"]), red, black


def play_to_the_end(game_id: str, players: list[Client], rng: random.Random) -> dict:
    for _ in range(2000):
        game = players[0].game(game_id)
        if game["status"] == "finished":
            return game
        seat = rng.choice(game["to_act"])
        legal = players[seat].legal_commands(game_id, seat)
        players[seat].command(game_id, rng.choice(legal["commands"]), seat=seat,
                              expected_version=legal["version"])
    raise AssertionError("the game did not end")


def stream(server, game_id, token=None, headers=None, **params) -> requests.Response:
    headers = dict(headers or {})
    if token:
        headers["Authorization"] = f"Bearer {token}"
    return requests.get(f"{server}/v1/games/{game_id}/stream", params=params, headers=headers,
                        stream=True, timeout=30)


def test_a_finished_game_streams_every_event_then_ends(server):
    game, red, black = two_player_game(server)
    final = play_to_the_end(game["id"], [red, black], random.Random(4))
    response = stream(server, game["id"], after=3)
    assert response.status_code == 200
    assert response.headers["Content-Type"].startswith("text/event-stream")
    messages = parse(response.text)
    assert [int(m["id"]) for m in messages if "id" in m] == list(range(4, final["version"] + 1))
    assert messages[-1]["event"] == "end"
    resumed = stream(server, game["id"], headers={"Last-Event-ID": str(final["version"] - 1)})
    assert [m.get("id") for m in parse(resumed.text)] == [str(final["version"]), None]


def test_a_live_stream_is_woken_by_a_move_and_redacted_for_its_reader(server):
    game, red, black = two_player_game(server)
    gid = game["id"]
    response = stream(server, gid, token=black.token, after=game["version"], keepalive=5, timeout=3)
    chunks: list[str] = []
    arrived: list[float] = []
    opened = threading.Event()

    def read():
        for line in response.iter_lines(decode_unicode=True):
            opened.set()  # its first line: the stream has read (its watch was set before)
            chunks.append(line + "\n")
            if line.startswith("id:"):
                arrived.append(time.monotonic())

    reader = threading.Thread(target=read)
    reader.start()
    assert opened.wait(10), "the stream sent nothing"
    legal = red.legal_commands(gid)
    choose = next(c for c in legal["commands"] if c["type"] == "ChooseCard")
    moved = time.monotonic()
    red.command(gid, choose)
    reader.join(10)
    assert not reader.is_alive(), "the stream did not close at its timeout"
    messages = parse("".join(chunks))
    assert messages and messages[0]["event"] == "kontor.CardChosen"
    data = json.loads(messages[0]["data"])
    assert data["seat"] == 0 and data["data"]["card"] is None  # black may not see red's card
    assert arrived and arrived[0] - moved < 2.0  # woken by the move, not by the 5 s keep-alive
    # red's own stream shows red's card
    mine = parse(stream(server, gid, token=red.token, after=game["version"], timeout=0.5).text)
    assert json.loads(mine[0]["data"])["data"]["card"] == choose["card"]


def test_stream_errors_are_problems(server):
    nobody = "00000000-0000-0000-0000-000000000000"
    cases = [
        (stream(server, nobody), 404, "not_found"),
        (stream(server, "not-a-game"), 404, "not_found"),
        (stream(server, nobody, headers={"Last-Event-ID": "x"}), 422, "validation_error"),
        (stream(server, nobody, keepalive=0), 422, "validation_error"),
        (stream(server, nobody, token="no-such-token"), 401, "unauthorized"),
        (requests.post(f"{server}/v1/games/{nobody}/stream", timeout=10), 405, "method_not_allowed"),
    ]
    for response, status, code in cases:
        assert response.status_code == status, response.text
        assert response.headers["Content-Type"] == "application/problem+json"
        assert response.json()["code"] == code
    assert cases[4][0].headers["WWW-Authenticate"].startswith("Bearer")
    assert cases[5][0].headers["Allow"] == "GET"
    game, red, _ = two_player_game(server)
    foreign = stream(server, game["id"], token=red.token, seat=1)
    assert foreign.status_code == 403 and foreign.json()["code"] == "not_your_seat"


def test_plain_requests_answer_while_twenty_streams_stay_open(server):
    """Each stream used to hold a request thread: with a few open, plain GETs hung."""
    game, red, _ = two_player_game(server)
    gid = game["id"]
    streams = [stream(server, gid, after=game["version"], keepalive=1, timeout=60) for _ in range(20)]
    assert all(s.status_code == 200 for s in streams)
    with ThreadPoolExecutor(20) as pool:
        answers = list(pool.map(lambda _: requests.get(f"{server}/v1/games/{gid}", timeout=10),
                                range(20)))
    assert [a.status_code for a in answers] == [200] * 20
    # and the open streams still deliver: a move reaches every one of them
    red.command(gid, next(c for c in red.legal_commands(gid)["commands"] if c["type"] == "ChooseCard"))
    for s in streams:
        lines = s.iter_lines(decode_unicode=True)
        assert any(line.startswith("id:") for line in lines), "a stream missed the move"
        s.close()


def test_a_move_whose_wake_up_was_lost_still_reaches_the_stream(server, server_settings):
    """A move committed with no publish (as when Redis is down at that moment): the
    per-process resync finds it, though keep-alives never read."""
    silent = build(server_settings)  # the server's database, a write path that publishes nothing
    silent.games.notifier = SilentNotifier()
    try:
        game, red, black = two_player_game(server)
        gid = game["id"]
        response = stream(server, gid, token=black.token, after=game["version"], keepalive=0.2, timeout=20)
        first: list[str] = []
        opened = threading.Event()

        def read():
            for line in response.iter_lines(decode_unicode=True):
                opened.set()  # its first line: the stream has read (its watch was set before)
                if line.startswith("id:"):
                    first.append(line)
                    return

        reader = threading.Thread(target=read)
        reader.start()
        assert opened.wait(10), "the stream sent nothing"
        choose = next(c for c in red.legal_commands(gid)["commands"] if c["type"] == "ChooseCard")
        silent.games.execute(silent.players.authenticate(red.token), gid, 0, choose)
        reader.join(15)
        assert first == [f"id: {game['version'] + 1}"]
        response.close()
    finally:
        silent.close()


def test_the_stream_carries_the_table_events_and_ends_when_the_game_is_aborted(server):
    red, black = Client(server), Client(server)
    red.create_player("ClockRed")
    black.create_player("ClockBlack")
    created = requests.post(f"{server}/v1/games", headers={"Authorization": f"Bearer {red.token}"}, json={
        "title": "kontor", "options": {"variant": "basic"}, "time_control": {"per_move": "PT1H"},
        "seats": [{"player_id": red.me()["id"]}, {"open": True}]}, timeout=30).json()
    gid = created["id"]
    black.join(gid, 1)
    aborted = requests.post(f"{server}/v1/games/{gid}/abort",
                            headers={"Authorization": f"Bearer {black.token}"}, timeout=30)
    assert aborted.ok, aborted.text
    text = stream(server, gid, timeout=5).text
    assert "event: TimeControlSet" in text and "event: ClockStarted" in text and "event: Aborted" in text
    assert text.rstrip().endswith("event: end\ndata: {}")  # over: the stream closes at once
