"""What the HTTP edge costs a plain request: the API processes' CPU per request, and the
latency, of plain GETs against `entrepot serve` (one API process) on real PostgreSQL.

CPU is read from /proc (user + system time of the uvicorn processes, the RQ workers left
out) before and after a fixed number of requests, so a busy shared machine slows the run
but hardly moves the figure: compare two trees by running this script from each, in turns.

    python bench/edge_cost.py [--requests 3000] [--clients 4] [--rounds 3]

Routes: GET /v1/health/live (the cheapest Flask route: nearly all of it is the edge) and
GET /v1/games/{id} (an id in the path, a read). DATABASE_URL / REDIS_URL as
bench/http_games.py (ENTREPOT_BENCH_DATABASE names the scratch database; this script
appends _edge).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import threading
import time
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from http_games import (  # noqa: E402
    bench_database,
    drop_database,
    free_port,
    fresh_database,
    load,
    start_server,
    tree_pids,
)

TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS  # utime, stime


def api_processes(serve_pid: int) -> list[int]:
    """The uvicorn process serve started and its workers."""
    pids = tree_pids(serve_pid, "uvicorn")
    if not pids:
        raise SystemExit("no uvicorn process under serve")
    return pids


def measure(base: str, path: str, total: int, clients: int, pids: list[int]) -> tuple[float, float, float]:
    """(API CPU ms per request, p50 ms, p99 ms) of ``total`` GETs of ``path``."""
    latencies: list[float] = []
    lock = threading.Lock()
    each = total // clients

    def run() -> None:
        session, mine = requests.Session(), []
        for _ in range(each):
            t0 = time.perf_counter()
            session.get(base + path).raise_for_status()
            mine.append(time.perf_counter() - t0)
        with lock:
            latencies.extend(mine)

    before = sum(cpu_seconds(p) for p in pids)
    threads = [threading.Thread(target=run) for _ in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    used = sum(cpu_seconds(p) for p in pids) - before
    latencies.sort()
    return (used * 1000 / len(latencies), statistics.median(latencies) * 1000,
            latencies[int(len(latencies) * 0.99) - 1] * 1000)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int, default=3000)
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    name = bench_database() + "_edge"
    database_url, redis_url = fresh_database(name)
    port = free_port()
    print(f"tree {ROOT}, {load()}")
    server = start_server(port, database_url, redis_url, workers=1, threads=8, queue=name.replace("_", "-"))
    base = f"http://127.0.0.1:{port}"
    try:
        pids = api_processes(server.pid)
        player = requests.post(base + "/v1/players", json={"name": "Edge"}).json()
        game = requests.post(base + "/v1/games", headers={"Authorization": f"Bearer {player['token']}"}, json={
            "title": "kontor", "seats": [{"player_id": player["id"]}, {"ai": "easy"}]}).json()
        paths = ["/v1/health/live", f"/v1/games/{game['id']}"]
        for path in paths:  # warm up
            measure(base, path, 200, args.clients, pids)
        results: dict[str, list[tuple[float, float, float]]] = {p: [] for p in paths}
        for _ in range(args.rounds):
            for path in paths:
                results[path].append(measure(base, path, args.requests, args.clients, pids))
        for path, runs in results.items():
            label = path.replace(game["id"], "{id}")
            cpu = statistics.median(r[0] for r in runs)
            print(f"GET {label}: API CPU {cpu:.3f} ms/request (rounds: {', '.join(f'{r[0]:.3f}' for r in runs)}); "
                  f"p50 {statistics.median(r[1] for r in runs):.2f} ms, p99 {statistics.median(r[2] for r in runs):.2f} ms")
        print(load())
    finally:
        server.terminate()
        server.wait(timeout=30)
        drop_database(name)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
