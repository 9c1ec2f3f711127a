"""The state at any version: p50 of GET /v1/games/{id}/state?at=V and board.svg?at=V at 4
points of a long game per title, with the checkpoints (service/games/checkpoints.py) and, in the
same run, without them (every request folds from the first event, as before).

Through the Flask app in-process (no HTTP server: the request's own cost), real PostgreSQL
and Redis. Each title's game is played to its end by random legal commands at the most
seats the title takes (the longest games).

    python bench/state_at.py [--requests 30]

DATABASE_URL / REDIS_URL as bench/http_games.py (ENTREPOT_BENCH_DATABASE names the
scratch database; this script appends _state_at).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from http_games import admin_url, bench_database, bench_env, drop_database, fresh_database  # noqa: E402

OPTIONS = {"kontor": {"variant": "basic"}, "speicherstadt": {}, "amsterdam": {}}
MODES = ("without", "with")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int, default=30, help="per point, path and mode")
    args = parser.parse_args()
    name = bench_database() + "_state_at"
    admin = admin_url()
    database_url, redis_url = fresh_database(name)
    os.environ.update(bench_env(database_url, redis_url, name.replace("_", "-")))
    from api import create_app
    from domain.registry import titles
    from service.config import Settings
    from service.games.checkpoints import INTERVAL
    from service.runtime.container import build
    from service.runtime.migrate import migrate

    migrate(database_url, database_url)
    services = build(Settings.from_env())
    client = create_app(services).test_client()
    checkpoints = services.games.checkpoints
    nearest = checkpoints.nearest

    def use(mode: str) -> None:
        """with: the checkpoints; without: none read, none written (as before them)"""
        checkpoints.interval = INTERVAL if mode == "with" else 10**9
        checkpoints.nearest = nearest if mode == "with" else (lambda *_: None)
    load_before = os.getloadavg()
    lines = []
    try:
        for title_id in sorted(OPTIONS):
            seats = 2 if title_id == "kontor" else titles()[title_id].max_players  # the basic game: 2
            game_id = play_long_game(client, title_id, seats, random.Random(7))
            end = client.get(f"/v1/games/{game_id}").get_json()["version"]
            points = [1, end // 3, 2 * end // 3, end - 1]
            for path in ("state", "board.svg"):
                wall: dict = {}
                cpu: dict = {}
                for at in points:
                    url = f"/v1/games/{game_id}/{path}?at={at}"
                    for mode in MODES:  # warm (with: writes the checkpoints it passes)
                        use(mode)
                        assert client.get(url).status_code == 200
                    for _ in range(args.requests):
                        for mode in MODES:  # interleaved: a loaded machine slows both alike
                            use(mode)
                            t0, c0 = time.perf_counter(), time.process_time()
                            response = client.get(url)
                            wall.setdefault((mode, at), []).append(time.perf_counter() - t0)
                            cpu.setdefault((mode, at), []).append(time.process_time() - c0)
                            assert response.status_code == 200

                def p50(samples: dict, mode: str, at: int) -> float:
                    return statistics.median(samples[mode, at]) * 1000

                lines.append(f"{title_id} ({seats} seats, {end} events) {path}?at=V, p50 wall / CPU ms: " + "; ".join(
                    f"V={at}: {p50(wall, 'with', at):.1f} / {p50(cpu, 'with', at):.1f} "
                    f"(without {p50(wall, 'without', at):.1f} / {p50(cpu, 'without', at):.1f})" for at in points))
    finally:
        services.close()
        os.environ["DATABASE_URL"] = admin
        drop_database(name)
    print(f"load average {' '.join(f'{x:.2f}' for x in load_before)} before, "
          f"{' '.join(f'{x:.2f}' for x in os.getloadavg())} after")
    print(f"p50 of {args.requests} requests each, with checkpoints every {INTERVAL} versions "
          f"(and without: folding from the first event)")
    for line in lines:
        print(line)
    return 0


def play_long_game(client, title_id: str, seats: int, rng: random.Random) -> str:
    players = [client.post("/v1/players", json={"name": f"P{i}"}).get_json() for i in range(seats)]
    auths = [{"Authorization": f"Bearer {p['token']}"} for p in players]
    game = client.post("/v1/games", headers=auths[0], json={
        "title": title_id, "options": OPTIONS[title_id],
        "seats": [{"player_id": p["id"]} for p in players]}).get_json()
    assert "id" in game, game
    for seat in range(1, seats):
        client.post(f"/v1/games/{game['id']}/seats/{seat}/accept", headers=auths[seat])
    while True:
        game = client.get(f"/v1/games/{game['id']}").get_json()
        if game["status"] != "active":
            return game["id"]
        seat = rng.choice(game["to_act"])
        legal = client.get(f"/v1/games/{game['id']}/legal-commands?seat={seat}", headers=auths[seat]).get_json()
        response = client.post(f"/v1/games/{game['id']}/commands", headers=auths[seat], json={
            "seat": seat, "command": rng.choice(legal["commands"]), "expected_version": legal["version"]})
        assert response.status_code == 201, response.get_data(as_text=True)

if __name__ == "__main__":
    raise SystemExit(main())
