"""Racing clients against `entrepot serve` on loopback: conflicting and retried joins and
commands across many games, then an audit of every game's stream.

Phase 1 (joins): 50 Speicherstadt games of 4 seats: the creator's, one invitation and two
open seats. At the same time the invitee accepts and 6 joiners race for the open seats of
every game; every request is sent twice at once with the same Idempotency-Key (a retry).
Phase 2 (commands): rounds on every game: the seat to act is raced by 3 contenders, each
sending a legal command of its own choice with the version it read (each twice at once,
same key), and by one contender with a stale expected_version (one behind).

Checks, printed with the figures: 0 lost (every 201 command's events are in the stream,
at the seqs it was told), 0 doubled (no two commands own one seq; every retry of a key
got the same answer; no key appended twice), 0 stuck games (every game active or
finished; none waiting with its seats full), 0 5xx; every round has exactly one winner.

    python bench/races.py [--requests 10000] [--games 50] [--drivers 8] [--workers 3] [--threads 4]

Uses DATABASE_URL / REDIS_URL when set, else the machine's servers at 127.0.0.1 (it
creates and drops its own database `entrepot_bench_races`).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import threading
import time
import uuid
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import requests

sys.path.insert(0, str(Path(__file__).resolve().parent))
from http_games import drop_database, free_port, fresh_database, start_server  # noqa: E402

SEATS = 4
JOINERS = 6
COPIES = 2  # each request is sent this many times at once with the same key
CONTENDERS = 3


class Tally:
    """Every response, by kind; a thread-safe counter of statuses and anomalies."""

    def __init__(self):
        self.lock = threading.Lock()
        self.statuses: Counter = Counter()
        self.sent = 0
        self.anomalies: list[str] = []

    def record(self, kind: str, response: requests.Response) -> None:
        with self.lock:
            self.sent += 1
            self.statuses[(kind, response.status_code)] += 1

    def anomaly(self, text: str) -> None:
        with self.lock:
            self.anomalies.append(text)

    def server_errors(self) -> int:
        return sum(n for (_, status), n in self.statuses.items() if status >= 500)


def send_copies(pool: ThreadPoolExecutor, tally: Tally, kind: str, url: str, token: str, body=None):
    """One request with a fresh Idempotency-Key, sent COPIES times at the same instant;
    returns the responses (all must be the same answer)."""
    key = str(uuid.uuid4())
    headers = {"Authorization": f"Bearer {token}", "Idempotency-Key": key}
    go = threading.Barrier(COPIES)
    session = requests.Session()

    def one(_):
        go.wait()
        response = session.post(url, json=body, headers=headers, timeout=120)
        tally.record(kind, response)
        return response

    responses = list(pool.map(one, range(COPIES)))
    if len({(r.status_code, r.text if r.status_code < 300 else r.json().get("code")) for r in responses}) != 1:
        tally.anomaly(f"{kind}: retries of one key got different answers: {[r.status_code for r in responses]}")
    return responses


def new_player(base: str, name: str) -> dict:
    response = requests.post(f"{base}/v1/players", json={"name": name},
                             headers={"Idempotency-Key": str(uuid.uuid4())}, timeout=30)
    response.raise_for_status()
    return response.json()


def race_joins(base: str, games: int, tally: Tally) -> tuple[list[str], dict[str, dict[int, dict]]]:
    """Create the games and race the acceptances and joins; returns the games and who holds
    which seat of each."""
    host, invitee = new_player(base, "Host"), new_player(base, "Invitee")
    joiners = [new_player(base, f"Joiner{i}") for i in range(JOINERS)]
    game_ids = []
    for _ in range(games):
        response = requests.post(f"{base}/v1/games", headers={"Authorization": f"Bearer {host['token']}"}, json={
            "title": "speicherstadt",
            "seats": [{"player_id": host["id"]}, {"player_id": invitee["id"]}, {"open": True}, {"open": True}],
        }, timeout=30)
        response.raise_for_status()
        game_ids.append(response.json()["id"])
    holders = {gid: {0: host, 1: invitee} for gid in game_ids}
    lock = threading.Lock()
    with ThreadPoolExecutor(max_workers=(JOINERS + 1) * COPIES * 4) as pool, \
            ThreadPoolExecutor(max_workers=(JOINERS + 1) * 4) as drivers:
        def joiner(gid: str, player: dict, seed: int):
            seats = [2, 3]
            random.Random(seed).shuffle(seats)
            for index in seats:
                answers = send_copies(pool, tally, "join", f"{base}/v1/games/{gid}/seats/{index}/join", player["token"])
                if answers[0].status_code == 200:
                    with lock:
                        holders[gid][index] = player
                    return

        def accept(gid: str):
            answers = send_copies(pool, tally, "accept", f"{base}/v1/games/{gid}/seats/1/accept", invitee["token"])
            if answers[0].status_code != 200:
                tally.anomaly(f"accept {gid}: {answers[0].status_code} {answers[0].text[:200]}")

        jobs = []
        for g, gid in enumerate(game_ids):
            jobs.append(drivers.submit(accept, gid))
            jobs += [drivers.submit(joiner, gid, p, g * JOINERS + i) for i, p in enumerate(joiners)]
        for job in jobs:
            job.result()
    return game_ids, holders


def race_commands(base: str, game_ids, holders, budget: int, drivers: int, tally: Tally):
    """Rounds of contended commands until ``budget`` command requests were sent; returns
    the winning answers by game and the number of rounds."""
    wins: dict[str, list[dict]] = {gid: [] for gid in game_ids}
    rounds = Counter()
    sent = [0]
    lock = threading.Lock()
    with ThreadPoolExecutor(max_workers=drivers * (CONTENDERS + 1) * COPIES) as pool, \
            ThreadPoolExecutor(max_workers=drivers * (CONTENDERS + 1)) as contenders:
        def drive(driver: int):  # one thread per driver; it waits on its contenders
            rng = random.Random(driver)
            mine = game_ids[driver::drivers]
            while mine:
                with lock:
                    if sent[0] >= budget:
                        return
                gid = rng.choice(mine)
                game = requests.get(f"{base}/v1/games/{gid}", timeout=60).json()
                if game["status"] != "active":
                    mine.remove(gid)
                    continue
                seat = rng.choice(game["to_act"])
                token = holders[gid][seat]["token"]
                legal = requests.get(f"{base}/v1/games/{gid}/legal-commands", params={"seat": seat},
                                     headers={"Authorization": f"Bearer {token}"}, timeout=60).json()
                version = legal["version"]
                url = f"{base}/v1/games/{gid}/commands"
                bodies = [{"seat": seat, "expected_version": version, "command": rng.choice(legal["commands"])}
                          for _ in range(CONTENDERS)]
                bodies.append({**bodies[0], "expected_version": version - 1})  # a stale client
                answers = [job.result()[0] for job in [
                    contenders.submit(send_copies, pool, tally, "command", url, token, body) for body in bodies]]
                with lock:
                    sent[0] += len(bodies) * COPIES
                    rounds[gid] += 1
                won = [a for a in answers if a.status_code == 201]
                if len(won) != 1:
                    tally.anomaly(f"round at {gid} v{version}: {len(won)} winners "
                                  f"({[a.status_code for a in answers]})")
                if answers[-1].status_code != 409:
                    tally.anomaly(f"a stale expected_version got {answers[-1].status_code}")
                with lock:
                    wins[gid] += [a.json() for a in won]

        threads = [threading.Thread(target=drive, args=(d,)) for d in range(drivers)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    return wins, sum(rounds.values())


def audit(base: str, game_ids, holders, wins, tally: Tally) -> dict:
    """Compare every game's stream with the answers the clients got."""
    lost = doubled = stuck = 0
    for gid in game_ids:
        game = requests.get(f"{base}/v1/games/{gid}", timeout=60).json()
        seated = [s["player_id"] for s in game["seats"]]
        if game["status"] not in ("active", "finished") or None in seated or len(set(seated)) != SEATS:
            stuck += 1
            tally.anomaly(f"game {gid} is {game['status']} with seats {game['seats']}")
        events, after = [], 0
        while True:
            page = requests.get(f"{base}/v1/games/{gid}/events", params={"after": after, "limit": 1000},
                                timeout=60).json()
            events += page["events"]
            if not page["events"]:
                break
            after = page["next_after"]
        stream = {e["seq"]: e["type"] for e in events}
        if sorted(stream) != list(range(1, game["version"] + 1)):
            tally.anomaly(f"game {gid}: the stream has gaps")
        owned: Counter = Counter()
        for answer in wins[gid]:
            for event in answer["events"]:
                owned[event["seq"]] += 1
                if stream.get(event["seq"]) != event["type"]:
                    lost += 1
        doubled += sum(n - 1 for n in owned.values() if n > 1)
        setup = min(owned) - 1 if owned else game["version"]
        unowned = [seq for seq in stream if seq > setup and seq not in owned]
        if unowned:  # events nobody was told they appended: a doubled (or phantom) command
            doubled += len(unowned)
        if [t for s, t in stream.items() if s <= setup].count(stream[1]) != 1:
            doubled += 1  # set up twice
    return {"lost": lost, "doubled": doubled, "stuck": stuck}


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int, default=10_000, help="racing joins and commands to send")
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--drivers", type=int, default=8, help="games raced at once")
    parser.add_argument("--workers", type=int, default=3, help="API processes (uvicorn)")
    parser.add_argument("--threads", type=int, default=4, help="threads per API process")
    args = parser.parse_args()
    database_url, redis_url = fresh_database("entrepot_bench_races")
    port = free_port()
    server = start_server(port, database_url, redis_url, args.workers, args.threads, queue="entrepot-bench-races")
    base = f"http://127.0.0.1:{port}"
    tally = Tally()
    try:
        started = time.monotonic()
        game_ids, holders = race_joins(base, args.games, tally)
        joined_at = time.monotonic()
        join_requests = tally.sent
        wins, rounds = race_commands(base, game_ids, holders, args.requests - join_requests, args.drivers, tally)
        ended = time.monotonic()
        result = audit(base, game_ids, holders, wins, tally)
    finally:
        server.terminate()
        server.wait(timeout=30)
        drop_database("entrepot_bench_races")
    print(f"server: entrepot serve, uvicorn {args.workers} x {args.threads} threads, loopback; "
          f"{os.cpu_count()} cores")
    print(f"joins: {join_requests} racing requests (accepts + joins, each sent {COPIES}x at once with one key) "
          f"over {args.games} games in {joined_at - started:.1f} s")
    print(f"commands: {tally.sent - join_requests} racing requests in {rounds} contended rounds "
          f"({CONTENDERS} contenders + 1 stale per round, each sent {COPIES}x with one key) in {ended - joined_at:.1f} s")
    print("statuses: " + ", ".join(f"{kind} {status}: {n}" for (kind, status), n in sorted(tally.statuses.items())))
    finished = sum(1 for gid in game_ids if wins[gid] and wins[gid][-1]["status"] == "finished")
    print(f"total {tally.sent} requests; games finished: {finished}/{args.games}")
    print(f"lost: {result['lost']}, doubled: {result['doubled']}, stuck games: {result['stuck']}, "
          f"5xx: {tally.server_errors()}, anomalies: {len(tally.anomalies)}")
    for text in tally.anomalies[:10]:
        print("  " + text)
    bad = result["lost"] or result["doubled"] or result["stuck"] or tally.server_errors() or tally.anomalies
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
