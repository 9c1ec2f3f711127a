"""Joins raced through a real HTTP server: atomic per game, one seat per player, one start."""

from __future__ import annotations

import random
import threading
from collections import Counter

import requests

GAMES = 10
JOINERS = 5
SEATS = 4  # Speicherstadt: the creator holds seat 0, three seats are open


def new_player(base: str, name: str) -> dict:
    response = requests.post(f"{base}/v1/players", json={"name": name}, timeout=10)
    assert response.status_code == 201, response.text
    return response.json()


def test_racing_joins_start_every_game_exactly_once_and_seat_nobody_twice(live_server):
    base = live_server
    creator = new_player(base, "Host")
    joiners = [new_player(base, f"Joiner{i}") for i in range(JOINERS)]
    games = []
    for _ in range(GAMES):
        response = requests.post(f"{base}/v1/games", headers={"Authorization": f"Bearer {creator['token']}"}, json={
            "title": "speicherstadt", "seats": [{"player_id": creator["id"]}] + [{"open": True}] * (SEATS - 1),
        }, timeout=10)
        assert response.status_code == 201, response.text
        games.append(response.json()["id"])

    go = threading.Event()
    statuses: list[int] = []
    lock = threading.Lock()

    def join_any_seat(game_id: str, player: dict, seed: int) -> None:
        session = requests.Session()
        session.headers["Authorization"] = f"Bearer {player['token']}"
        seats = list(range(1, SEATS))
        random.Random(seed).shuffle(seats)
        go.wait()
        for index in seats:  # every joiner tries every open seat of the game until one holds
            response = session.post(f"{base}/v1/games/{game_id}/seats/{index}/join", timeout=60)
            with lock:
                statuses.append(response.status_code)
            if response.status_code == 200:
                return

    threads = [
        threading.Thread(target=join_any_seat, args=(game_id, player, g * JOINERS + p))
        for g, game_id in enumerate(games) for p, player in enumerate(joiners)
    ]
    for thread in threads:
        thread.start()
    go.set()
    for thread in threads:
        thread.join()

    counts = Counter(statuses)
    assert set(counts) <= {200, 409}, counts  # never a 5xx, never anything else
    assert counts[200] == GAMES * (SEATS - 1)
    for game_id in games:
        game = requests.get(f"{base}/v1/games/{game_id}", timeout=10).json()
        held = [s["player_id"] for s in game["seats"]]
        assert None not in held, f"a seat stayed open: {game['seats']}"
        assert len(set(held)) == SEATS, f"a player holds two seats by joining: {held}"
        assert game["status"] == "active", "every seat is filled, yet the game waits"
        events = requests.get(f"{base}/v1/games/{game_id}/events", params={"limit": 1000}, timeout=10).json()["events"]
        assert [e["seq"] for e in events] == list(range(1, game["version"] + 1))
        first_type = events[0]["type"]
        assert [e["type"] for e in events].count(first_type) == 1, "the game was set up twice"


def test_the_creator_may_seat_themself_twice_but_nobody_joins_twice(live_server):
    base = live_server
    host, guest = new_player(base, "HotSeat"), new_player(base, "Guest")
    auth = {"Authorization": f"Bearer {host['token']}"}
    response = requests.post(f"{base}/v1/games", headers=auth, json={
        "title": "speicherstadt",
        "seats": [{"player_id": host["id"]}, {"player_id": host["id"]}, {"open": True}, {"open": True}],
    }, timeout=10)
    assert response.status_code == 201 and response.json()["your_seats"] == [0, 1]
    game_id = response.json()["id"]
    guest_auth = {"Authorization": f"Bearer {guest['token']}"}
    assert requests.post(f"{base}/v1/games/{game_id}/seats/2/join", headers=guest_auth, timeout=10).status_code == 200
    second = requests.post(f"{base}/v1/games/{game_id}/seats/3/join", headers=guest_auth, timeout=10)
    assert second.status_code == 409 and second.json()["code"] == "seat_taken"
    third = requests.post(f"{base}/v1/games/{game_id}/seats/3/join", headers=auth, timeout=10)
    assert third.status_code == 409 and third.json()["code"] == "seat_taken"
