"""Open live streams must not slow the API: p50/p99 of a plain GET with 0 and with N open
streams, against `entrepot serve` on real PostgreSQL and Redis (loopback only, bounded).

    python bench/streams.py [--streams 500] [--requests 3000] [--clients 4] [--workers N]

The streams are held by another process (one asyncio loop on raw sockets); the GETs come
from ``--clients`` threads, the same number of requests in each phase: before the streams
open, while they are open, and after they closed (to show the machine's drift); a move
every second in one of the watched games wakes its streams throughout. Prints the latency
profiles, the ratio, and the stream messages delivered.

3,000 requests a phase: the p99 of 600 (the default before) was their 6th slowest, and on
a 2-core machine it read 1.08 to 3.5 in runs minutes apart, the same code, old or new
(bench/README.md, section 21).
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import statistics
import threading
import time

import requests
from http_games import bench_database, free_port, fresh_database, run_clients, start_server

GAMES = 10


def setup_games(base: str) -> tuple[list[str], list[str]]:
    """GAMES Kontor games between two players (an open seat joined); (ids, both tokens)."""
    red = requests.post(base + "/v1/players", json={"name": "BenchRed"}).json()
    black = requests.post(base + "/v1/players", json={"name": "BenchBlack"}).json()
    ids = []
    for _ in range(GAMES):
        game = requests.post(base + "/v1/games", headers={"Authorization": f"Bearer {red['token']}"}, json={
            "title": "kontor", "options": {"variant": "basic"},
            "seats": [{"player_id": red["id"]}, {"open": True}]}).json()
        requests.post(f"{base}/v1/games/{game['id']}/seats/1/join",
                      headers={"Authorization": f"Bearer {black['token']}"}).raise_for_status()
        ids.append(game["id"])
    return ids, [red["token"], black["token"]]


def get_latencies(base: str, game_ids: list[str], clients: int, total: int) -> list[float]:
    latencies: list[float] = []
    lock = threading.Lock()

    def run(i: int):
        session = requests.Session()
        mine = []
        for n in range(total // clients):
            t0 = time.perf_counter()
            session.get(f"{base}/v1/games/{game_ids[(i + n) % len(game_ids)]}", timeout=30).raise_for_status()
            mine.append(time.perf_counter() - t0)
        with lock:
            latencies.extend(mine)

    run_clients(clients, run)
    return latencies


class Mover(threading.Thread):
    """One move a second in the first game, whoever is to act: wakes its streams."""

    def __init__(self, base: str, game_id: str, tokens: list[str]):
        super().__init__(daemon=True)
        self.base, self.game_id, self.tokens = base, game_id, tokens
        self.stopping = threading.Event()
        self.moves = 0

    def run(self) -> None:
        session = requests.Session()
        while not self.stopping.wait(1.0):
            game = session.get(f"{self.base}/v1/games/{self.game_id}").json()
            if game["status"] != "active":
                return
            seat = game["to_act"][0]
            auth = {"Authorization": f"Bearer {self.tokens[seat]}"}
            legal = session.get(f"{self.base}/v1/games/{self.game_id}/legal-commands",
                                params={"seat": seat}, headers=auth).json()
            response = session.post(f"{self.base}/v1/games/{self.game_id}/commands", headers=auth, json={
                "seat": seat, "command": legal["commands"][0], "expected_version": legal["version"]})
            self.moves += response.status_code == 201


class Streams:
    """``count`` open streams spread over the games, held by another process (one asyncio
    loop on raw sockets), so that reading them takes no CPU from the GETs' measurement."""

    def __init__(self, port: int, game_ids: list[str], count: int):
        self.count = count
        self.ready, self.stopping = multiprocessing.Event(), multiprocessing.Event()
        self.opened, self.events, self.failures = (multiprocessing.Value("i", 0) for _ in range(3))
        self.process = multiprocessing.Process(target=hold_streams, daemon=True, args=(
            port, game_ids, count, self.ready, self.stopping, self.opened, self.events, self.failures))

    def start(self) -> None:
        self.process.start()

    def stop(self) -> None:
        self.stopping.set()
        self.process.join(30)


def hold_streams(port, game_ids, count, ready, stopping, opened, events, failures) -> None:
    async def one(game_id: str) -> None:
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(f"GET /v1/games/{game_id}/stream?keepalive=15&timeout=600 HTTP/1.1\r\n"
                         f"Host: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n".encode())
            if b" 200 " not in await reader.readline():
                failures.value += 1
                return
            opened.value += 1
            if opened.value == count:
                ready.set()
            while line := await reader.readline():
                if line.startswith(b"id:"):
                    events.value += 1
            failures.value += 1  # closed by the server before the end of the run
        except OSError:
            failures.value += 1

    async def main() -> None:
        tasks = [asyncio.create_task(one(game_ids[i % len(game_ids)])) for i in range(count)]
        while not stopping.is_set():
            await asyncio.sleep(0.2)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    asyncio.run(main())


def profile(latencies: list[float]) -> tuple[float, float]:
    q = statistics.quantiles(latencies, n=100)
    return q[49] * 1000, q[98] * 1000


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--streams", type=int, default=500)
    parser.add_argument("--requests", type=int, default=3000, help="plain GETs per phase")
    parser.add_argument("--clients", type=int, default=4, help="threads sending the GETs")
    parser.add_argument("--workers", type=int, default=None, help="API processes (default: serve's)")
    args = parser.parse_args()
    database_url, redis_url = fresh_database(bench_database() + "_streams")
    workers = args.workers or max(2, os.cpu_count() or 1)
    port = free_port()
    server = start_server(port, database_url, redis_url, workers, 8)
    base = f"http://127.0.0.1:{port}"
    try:
        game_ids, tokens = setup_games(base)
        get_latencies(base, game_ids, args.clients, 200)  # warm up caches and pools
        mover = Mover(base, game_ids[0], tokens)
        mover.start()
        without = get_latencies(base, game_ids, args.clients, args.requests)
        streams = Streams(port, game_ids, args.streams)
        streams.start()
        t0 = time.monotonic()
        if not streams.ready.wait(180):
            print(f"only {streams.opened.value} of {args.streams} streams opened "
                  f"({streams.failures.value} failures)")
            return 1
        print(f"{args.streams} streams opened in {time.monotonic() - t0:.1f} s", flush=True)
        events_before = streams.events.value
        with_streams = get_latencies(base, game_ids, args.clients, args.requests)
        delivered = streams.events.value - events_before
        failures = streams.failures.value
        streams.stop()
        after = get_latencies(base, game_ids, args.clients, args.requests)
        mover.stopping.set()
    finally:
        server.terminate()
        server.wait(timeout=30)
    p50_0, p99_0 = profile(without)
    p50_n, p99_n = profile(with_streams)
    p50_a, p99_a = profile(after)
    print(f"machine: {os.cpu_count()} cores (load average {os.getloadavg()[0]:.1f}); entrepot serve "
          f"with {workers} API processes; {args.clients} GET clients, {args.requests} "
          f"GET /v1/games/{{id}} per phase; a move a second in one of the {GAMES} watched games")
    print(f"0 open streams:   p50 {p50_0:.1f} ms, p99 {p99_0:.1f} ms")
    print(f"{args.streams} open streams: p50 {p50_n:.1f} ms, p99 {p99_n:.1f} ms "
          f"({delivered} events delivered to them meanwhile, {mover.moves} moves in all)")
    print(f"0 open streams again: p50 {p50_a:.1f} ms, p99 {p99_a:.1f} ms")
    print(f"p99 with streams / p99 without (before): {p99_n / p99_0:.2f}")
    print(f"stream failures: {failures}")
    return 0 if p99_n <= 2 * p99_0 and not failures else 1


if __name__ == "__main__":
    raise SystemExit(main())
