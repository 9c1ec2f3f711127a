"""The lobby and watching on the live server (`entrepot serve`: uvicorn, the Redis fan-out,
a real RQ worker), and the CLI's lobby commands as a user runs them (issue 30)."""

from __future__ import annotations

import json
import random
import threading
import time
import uuid

import requests

from clients.sdk import Client
from domain.rng import Rng
from service.games.states import Folded, decode, fold_stored
from service.games.titles import title as title_of
from service.runtime.container import build
from tests.e2e.test_clients import run
from tests.e2e.test_stream import parse, stream
from tests.refusals import problem


def lobby_messages(server, seconds, **params):
    """Read the lobby stream for ``seconds`` in a thread; returns the reader, the (arrival
    time, message) pairs, and an event set when the first (the lobby as it is) arrived."""
    response = requests.get(f"{server}/v1/lobby/stream", params={"timeout": seconds, "keepalive": 5, **params},
                            stream=True, timeout=30)
    assert response.status_code == 200 and response.headers["Content-Type"].startswith("text/event-stream")
    found: list[tuple[float, dict]] = []
    first = threading.Event()

    def read():
        block: dict = {}
        for line in response.iter_lines(decode_unicode=True):
            if not line:
                if block.get("event") == "lobby":
                    found.append((time.monotonic(), json.loads(block["data"])))
                    first.set()
                block = {}
            elif not line.startswith(":"):
                key, _, value = line.partition(": ")
                block[key] = value

    reader = threading.Thread(target=read)
    reader.start()
    return reader, found, first


def test_the_lobby_stream_follows_seeks_live(server):
    host, guest = Client(server), Client(server)
    host.create_player("LiveSeeker")
    guest.create_player("LiveJoiner")
    reader, found, first = lobby_messages(server, 4, title="speicherstadt")
    assert first.wait(10), "the lobby as it is comes first"
    posted_at = time.monotonic()
    game = host.create_game("speicherstadt", [{"player_id": host.me()["id"]}, {"open": True}],
                            time_control={"per_move": "P1D"})
    deadline = time.monotonic() + 3
    while time.monotonic() < deadline and not any(game["id"] in [g["id"] for g in m["games"]] for _, m in found):
        time.sleep(0.05)
    seen = [(at, m) for at, m in found if game["id"] in [g["id"] for g in m["games"]]]
    assert seen and seen[0][0] - posted_at < 2.0  # woken by the post, not by the 5 s keep-alive
    entry = next(g for g in seen[0][1]["games"] if g["id"] == game["id"])
    assert entry["creator"]["name"] == "LiveSeeker" and entry["creator"]["rating"] == 1000
    assert guest.join(game["id"], 1)["status"] == "active"
    reader.join(10)
    assert game["id"] not in [g["id"] for g in found[-1][1]["games"]]  # started: gone from the lobby
    for response, status, code in [
        (requests.get(f"{server}/v1/lobby/stream", params={"limit": 0}, timeout=10), 422, "validation_error"),
        (requests.get(f"{server}/v1/lobby/stream", params={"title": "chess"}, timeout=10), 422, "validation_error"),
        (requests.post(f"{server}/v1/lobby/stream", timeout=10), 405, "method_not_allowed"),
    ]:
        assert response.status_code == status and response.json()["code"] == code, response.text
        assert response.headers["Content-Type"] == "application/problem+json"


def test_a_spectator_watches_live_and_sees_nothing_hidden(server, server_settings):
    """The re-deal attack: whatever a spectator is served of a live game (the game, its
    state, its stream) is the same for every re-deal of what no spectator may see."""
    red, black = Client(server), Client(server)
    red.create_player("WatchedRed")
    black.create_player("WatchedBlack")
    game = red.create_game("kontor", [{"player_id": red.me()["id"]}, {"open": True}], {"variant": "basic"})
    black.join(game["id"], 1)
    players, rng = [red, black], random.Random(11)
    for _ in range(6):
        current = red.game(game["id"])
        seat = rng.choice(current["to_act"])
        legal = players[seat].legal_commands(game["id"], seat)
        players[seat].command(game["id"], rng.choice(legal["commands"]), seat=seat, expected_version=legal["version"])
    live = requests.get(f"{server}/v1/games", params={"status": "active", "limit": 200}, timeout=10).json()
    assert game["id"] in [g["id"] for g in live["games"]]
    watched = requests.get(f"{server}/v1/games/{game['id']}", timeout=10).json()
    assert watched["status"] == "active" and watched["viewer_seat"] is None
    served_stream = parse(stream(server, game["id"], timeout=1).text)
    assert [int(m["id"]) for m in served_stream] == list(range(1, watched["version"] + 1))

    services = build(server_settings)
    try:
        with services.store.read() as tx:
            stored = tx.events(game["id"], upto=watched["version"])
    finally:
        services.close()
    title = title_of("kontor")
    state = fold_stored(title, stored, Folded(None, 0, "")).state
    hidden_events = 0
    for message, event in zip(served_stream, stored):
        data = json.loads(message["data"])["data"]
        if data != event.data:
            hidden_events += 1
        assert data == title.redact_event(decode(title, event), None)
    assert hidden_events > 0, "the game holds hidden events the spectator's stream redacted"
    redeals = [title.redetermine(state, None, Rng(f"{n + 1:064x}")) for n in range(5)]
    assert all(title.view(other, None) == watched["view"] for other in redeals)
    state_view = requests.get(f"{server}/v1/games/{game['id']}/state", timeout=10).json()["view"]
    assert state_view == watched["view"]
    # control: the re-deals do change what is hidden (a seat's own view tells them apart)
    assert any(title.view(other, 0) != title.view(state, 0) for other in redeals)

    # a private game is nobody's to watch but its players'
    hidden = red.create_game("kontor", [{"player_id": red.me()["id"]}, {"open": True}], {"variant": "basic"},
                             private=True)
    black.join(hidden["id"], 1)
    problem(stream(server, hidden["id"], timeout=0.5), 404, "not_found")
    assert stream(server, hidden["id"], token=black.token, timeout=0.5).status_code == 200
    live = requests.get(f"{server}/v1/games", params={"status": "active", "limit": 200}, timeout=10).json()
    assert hidden["id"] not in [g["id"] for g in live["games"]]


def test_the_cli_lobby_commands(server):
    tag = uuid.uuid4().hex[:5]
    host = json.loads(run("clients.cli", "player", f"CliHost{tag}", ENTREPOT_URL=server).stdout)
    guest = json.loads(run("clients.cli", "player", f"CliGuest{tag}", ENTREPOT_URL=server).stdout)
    as_host = {"ENTREPOT_URL": server, "ENTREPOT_TOKEN": host["token"]}
    as_guest = {"ENTREPOT_URL": server, "ENTREPOT_TOKEN": guest["token"]}
    posted = run("clients.cli", "seek", "kontor", "--options", '{"variant": "basic"}', "--per-move", "P2D", **as_host)
    assert posted.returncode == 0 and "posted kontor game" in posted.stdout, posted.stderr
    seek_id = posted.stdout.split()[3]
    lobby = run("clients.cli", "lobby", "--title", "kontor", **as_guest).stdout
    line = next(ln for ln in lobby.splitlines() if ln.startswith(seek_id))
    assert f"CliHost{tag} (1000?)" in line and "P2D a move" in line and "rated" in line
    assert run("clients.cli", "join", seek_id, "1", **as_guest).returncode == 0
    challenged = run("clients.cli", "challenge", f"CliGuest{tag}", "kontor", "--options", '{"variant": "basic"}',
                     **as_host)
    assert challenged.returncode == 0 and f"challenged CliGuest{tag}" in challenged.stdout, challenged.stderr
    invitations = run("clients.cli", "invitations", **as_guest).stdout
    assert f"from CliHost{tag} (1000?)" in invitations and "no clock" in invitations
    assert run("clients.cli", "resign", seek_id, **as_guest).returncode == 0
    deadline = time.monotonic() + 20  # the worker's rating job
    while time.monotonic() < deadline:
        profile = run("clients.cli", "profile", f"CliHost{tag}", **as_guest).stdout
        if "rating" in profile:
            break
        time.sleep(0.2)
    assert "kontor" in profile and "1 rated games" in profile and "played 1, won 1, lost 0" in profile
    assert f"CliHost{tag}" in run("clients.cli", "leaderboard", "kontor", **as_guest).stdout
    archive = run("clients.cli", "archive", "--player", "me", "--result", "lost", **as_guest).stdout
    assert seek_id in archive and f"won by CliHost{tag}" in archive
    assert seek_id not in run("clients.cli", "archive", "--player", "me", "--result", "won", **as_guest).stdout
    unknown = run("clients.cli", "profile", f"Nobody{tag}", **as_guest)
    assert unknown.returncode == 2 and "no player is named" in unknown.stderr
