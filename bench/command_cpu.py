"""A Kontor command's API CPU over HTTP, request by request: one keep-alive client plays
Kontor games against `entrepot serve` (its defaults, real PostgreSQL and Redis), one request
at a time, and reads the API processes' CPU (every thread of every uvicorn process, from
/proc's schedstat, in nanoseconds) before and after each GET legal-commands and each POST
/commands (the window held open 2 ms after the answer, for what the server does once it
has sent it). With nothing else in flight, what the API processes spent in that window is
that request's: the HTTP server, the stack around the route, the route, its SQL and Redis
round trips on the API's side. The processes' idle CPU (timers, listeners), measured for a
few seconds before the games, is taken off each window at its rate.

bench/profile_commands.py gives the same requests' CPU in process (no server, no sockets)
and where it goes; bench/http_games.py the rate at 8 clients, where the machine's cores
are shared by everything at once.

    python bench/command_cpu.py [--commands 1500] [--idle 3]

DATABASE_URL / REDIS_URL as bench/http_games.py (the database gets the suffix _cpu).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from functools import partial
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT))

from http_games import (  # noqa: E402
    bench_database,
    drop_database,
    free_port,
    fresh_database,
    load,
    start_app,
    start_kontor_game,
    start_server,
    tree_pids,
    two_players,
)

from service.runtime.cli import _workers_default  # noqa: E402


def cpu_ns(pids: list[int]) -> int:
    """Nanoseconds on a CPU so far of every thread of ``pids`` (schedstat's first field)."""
    total = 0
    for pid in pids:
        try:
            tasks = os.listdir(f"/proc/{pid}/task")
        except OSError:
            continue
        for tid in tasks:
            try:
                with open(f"/proc/{pid}/task/{tid}/schedstat") as f:
                    total += int(f.read().split()[0])
            except (OSError, ValueError, IndexError):
                pass  # a thread that ended meanwhile
    return total


def idle_rate(pids: list[int], seconds: float) -> float:
    """The processes' CPU while nothing is asked of them: nanoseconds a second."""
    before, start = cpu_ns(pids), time.perf_counter()
    time.sleep(seconds)
    return (cpu_ns(pids) - before) / (time.perf_counter() - start)


#: how long a window stays open after the answer: what the server does once it has sent it
#: (the access line, the metrics) still counts for that request
SETTLE = 0.002


def measured(pids: list[int], idle: float, call):
    """(``call()``'s answer, the processes' CPU in its window less their idle CPU, in ms;
    its wall time in ms)."""
    before, t0 = cpu_ns(pids), time.perf_counter()
    response = call()
    t1 = time.perf_counter()
    time.sleep(SETTLE)
    after, t2 = cpu_ns(pids), time.perf_counter()
    return response, (after - before - idle * (t2 - t0)) / 1e6, (t1 - t0) * 1000


def floor_cpu(requests_count: int, idle_seconds: float) -> list[float]:
    """The floor's CPU a request (bench/bare_asgi.py under serve's uvicorn command), asked
    the same way: one keep-alive client, one request at a time."""
    floor, base = start_app("bare_asgi:create_app", _workers_default())
    try:
        pids = tree_pids(floor.pid, "uvicorn")
        session = requests.Session()
        time.sleep(1.0)
        idle = idle_rate(pids, idle_seconds)
        return [measured(pids, idle, lambda: session.get(base + "/"))[1] for _ in range(requests_count)]
    finally:
        floor.terminate()
        floor.wait(timeout=30)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--commands", type=int, default=1500)
    parser.add_argument("--idle", type=float, default=3.0, help="seconds of idle CPU measured first")
    args = parser.parse_args()
    name = bench_database() + "_cpu"
    load_before = load()
    database_url, redis_url = fresh_database(name)
    port = free_port()
    server = start_server(port, database_url, redis_url, workers=_workers_default(), threads=8, queue=name.replace("_", "-"))
    base = f"http://127.0.0.1:{port}"
    try:
        pids = tree_pids(server.pid, "uvicorn")
        session = requests.Session()
        players = two_players(session, base)
        auths = [{"Authorization": f"Bearer {p['token']}"} for p in players]
        time.sleep(1.0)  # the start-up's last work done
        idle = idle_rate(pids, args.idle)
        rng = random.Random(1)
        gets: list[float] = []
        posts: list[float] = []
        post_walls: list[float] = []
        games = 0
        while len(posts) < args.commands:
            state = start_kontor_game(session, base, players)
            to_act, status = state["to_act"], state["status"]
            while status == "active" and len(posts) < args.commands:
                seat = rng.choice(to_act)
                url = f"{base}/v1/games/{state['id']}"
                response, cpu, _ = measured(pids, idle, partial(session.get, url + "/legal-commands",
                                                                        headers=auths[seat]))
                legal = response.json()
                gets.append(cpu)
                body = {"command": rng.choice(legal["commands"]), "expected_version": legal["version"]}
                response, cpu, wall = measured(pids, idle, partial(session.post, url + "/commands",
                                                                            headers=auths[seat], json=body))
                if response.status_code != 201:
                    raise SystemExit(f"a command was refused: {response.status_code} {response.text[:200]}")
                posts.append(cpu)
                post_walls.append(wall)
                outcome = response.json()
                to_act, status = outcome["to_act"], outcome["status"]
            games += status == "finished"
        lives = [measured(pids, idle, lambda: session.get(base + "/v1/health/live"))[1] for _ in range(args.commands)]
    finally:
        server.terminate()
        server.wait(timeout=30)
        drop_database(name)
    floor = floor_cpu(args.commands, args.idle)
    warm = len(posts) // 10  # the first tenth: caches filling, code paths first taken
    print(f"machine: {os.cpu_count()} cores; {load_before} before, {load()} after")
    print(f"one keep-alive client, one request at a time; {len(posts)} commands ({games} games finished); "
          f"the API processes' idle CPU {idle / 1e6:.2f} ms a second, taken off each request's window")
    for label, values in (("POST /commands", posts), ("GET legal-commands", gets),
                          ("GET /v1/health/live (the stack around a route that does nothing)", lives),
                          ("the floor (bare ASGI app, GET /)", floor)):
        rest = values[warm:]
        print(f"{label}: the server processes' CPU a request, over the last {len(rest)}: mean {statistics.fmean(rest):.3f} ms, "
              f"median {statistics.median(rest):.3f} ms, p90 {statistics.quantiles(rest, n=10)[-1]:.3f} ms")
    print(f"a command with its GET legal-commands: {statistics.fmean(posts[warm:]) + statistics.fmean(gets[warm:]):.3f} ms "
          f"(mean); POST wall time median {statistics.median(post_walls[warm:]):.2f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
