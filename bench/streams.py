"""Open live streams must not slow the API: p50/p99 of a plain GET with 0 and with N open
streams, against `entrepot serve` on real PostgreSQL and Redis (loopback only, bounded).

    python bench/streams.py [--streams 500] [--requests 800] [--clients 4] [--workers N]

The streams are read by one asyncio client (httpx); the GETs come from ``--clients``
threads, the same number of requests in both phases; a move every second on one of the
watched games wakes its streams in both phases as well. Prints both latency profiles, their
ratio, and the stream messages received.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import threading
import time

import httpx
import psycopg
import requests
from http_games import free_port, run_clients, start_server
from psycopg.conninfo import make_conninfo

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


class Streams(threading.Thread):
    """``count`` open streams spread over the games, read by one asyncio client."""

    def __init__(self, base: str, game_ids: list[str], count: int):
        super().__init__(daemon=True)
        self.base, self.game_ids, self.count = base, game_ids, count
        self.open = 0
        self.events = 0
        self.ready = threading.Event()
        self.failures: list[str] = []
        self._stopping: asyncio.Event | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    def run(self) -> None:
        asyncio.run(self._main())

    def stop(self) -> None:
        if self._loop and self._stopping:
            self._loop.call_soon_threadsafe(self._stopping.set)
        self.join(30)

    async def _main(self) -> None:
        self._loop, self._stopping = asyncio.get_running_loop(), asyncio.Event()
        limits = httpx.Limits(max_connections=self.count + 10, max_keepalive_connections=0)
        async with httpx.AsyncClient(limits=limits, timeout=httpx.Timeout(30, read=None)) as client:
            tasks = [asyncio.create_task(self._one(client, self.game_ids[i % len(self.game_ids)]))
                     for i in range(self.count)]
            await self._stopping.wait()
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

    async def _one(self, client: httpx.AsyncClient, game_id: str) -> None:
        try:
            async with client.stream("GET", f"{self.base}/v1/games/{game_id}/stream",
                                     params={"keepalive": 15, "timeout": 600}) as response:
                if response.status_code != 200:
                    self.failures.append(str(response.status_code))
                    return
                self.open += 1
                if self.open == self.count:
                    self.ready.set()
                async for line in response.aiter_lines():
                    if line.startswith("id:"):
                        self.events += 1
        except asyncio.CancelledError:
            raise
        except Exception as err:
            self.failures.append(repr(err))


def profile(latencies: list[float]) -> tuple[float, float]:
    q = statistics.quantiles(latencies, n=100)
    return q[49] * 1000, q[98] * 1000


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--streams", type=int, default=500)
    parser.add_argument("--requests", type=int, default=800, help="plain GETs per phase")
    parser.add_argument("--clients", type=int, default=4, help="threads sending the GETs")
    parser.add_argument("--workers", type=int, default=None, help="API processes (default: serve's)")
    args = parser.parse_args()
    admin = os.environ.get("DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/postgres")
    redis_url = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute("DROP DATABASE IF EXISTS entrepot_bench_streams WITH (FORCE)")
        conn.execute("CREATE DATABASE entrepot_bench_streams")
    database_url = make_conninfo(admin, dbname="entrepot_bench_streams")
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
        streams = Streams(base, game_ids, args.streams)
        streams.start()
        t0 = time.monotonic()
        if not streams.ready.wait(120):
            print(f"only {streams.open} of {args.streams} streams opened; failures: {streams.failures[:3]}")
            return 1
        opened_events = streams.events
        print(f"{args.streams} streams opened in {time.monotonic() - t0:.1f} s", flush=True)
        with_streams = get_latencies(base, game_ids, args.clients, args.requests)
        still_open = streams.open
        delivered = streams.events - opened_events
        mover.stopping.set()
        streams.stop()
    finally:
        server.terminate()
        server.wait(timeout=30)
    p50_0, p99_0 = profile(without)
    p50_n, p99_n = profile(with_streams)
    print(f"machine: {os.cpu_count()} cores; entrepot serve with {workers} API processes; "
          f"{args.clients} GET clients, {args.requests} GET /v1/games/{{id}} per phase; a move a second")
    print(f"0 open streams:   p50 {p50_0:.1f} ms, p99 {p99_0:.1f} ms")
    print(f"{args.streams} open streams: p50 {p50_n:.1f} ms, p99 {p99_n:.1f} ms "
          f"({still_open} open throughout, {delivered} events delivered to them meanwhile, "
          f"{mover.moves} moves in all)")
    print(f"p99 with streams / p99 without: {p99_n / p99_0:.2f}")
    print(f"stream failures: {len(streams.failures)}")
    return 0 if p99_n <= 2 * p99_0 and not streams.failures else 1


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(__file__))
    raise SystemExit(main())
