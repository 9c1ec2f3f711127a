"""1,000 correspondence games on 1-second clocks, played only by timeouts, served the way
deploy/README.md lays out several machines: two API processes and three `entrepot worker`
processes on one PostgreSQL and one Redis (all on loopback here). Midway, the worker that
is first started is killed with SIGKILL (each worker runs the timer loop on PostgreSQL:
the timers it held claimed are taken by the others at their next turn).

Each game is a two-seat Kontor game with {"per_move": "PT1S", "on_timeout": "forfeit"}:
nobody ever moves, so each game ends by exactly one timeout (the first seat to time out
forfeits; the other seat's simultaneous deadline is then moot).

Prints the lateness of every timeout (TimedOut's time minus its deadline: p50, p99, max)
and the machine's load average before and after (it may be shared), and checks: every
game finished (nothing lost), exactly one TimedOut per game (nothing doubled), every
timeout within 2 s of its deadline. Figures: docs/correspondence.md, "Measured".

    python bench/clocks.py [--games 1000] [--clients 8] [--rate GAMES_PER_S] [--sweep-every 1] [--trace]

``--rate`` spaces the creations (and so the deadlines) evenly; without it the clients
create as fast as the two APIs answer.

``--trace`` records every timer job (which worker ran it, when it was queued, started and
ended), every move of the scheduler, every takeover and re-queue, and every 50 ms the
scheduler lock's holder and the queue's depth (service/correspondence/timer_trace.py), in
bench/clocks-trace.jsonl, then prints the story of each timeout more than 1.5 s late.

Uses DATABASE_URL (an admin URL: it creates and drops the database entrepot_bench_clocks)
and REDIS_URL's server with database index 10 (flushed at start), else 127.0.0.1.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

import psycopg
import requests
from http_games import free_port, fresh_database
from redis import Redis
from rq import Queue, Worker

from service.job_queue import clock_queue

ROOT = Path(__file__).resolve().parent.parent
REDIS_DB = 10
TRACE = ROOT / "bench" / "clocks-trace.jsonl"


def start_api(port: int, env: dict) -> subprocess.Popen:
    """One API machine: uvicorn with one process (8 request threads), as deploy/ runs it."""
    cmd = [sys.executable, "-m", "uvicorn", "--factory", "api.asgi:create_asgi_app", "--workers", "1",
           "--host", "127.0.0.1", "--port", str(port), "--no-access-log", "--timeout-graceful-shutdown", "5"]
    return subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)


def start_worker(env: dict, sweep_every: float, log) -> subprocess.Popen:
    """One worker machine: `entrepot worker`, in a session of its own (kill -9 takes its
    scheduler process too)."""
    cmd = [sys.executable, "-m", "service.runtime.cli", "worker", "--sweep-every", str(sweep_every)]
    return subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=log, stderr=log, start_new_session=True)


def wait_ready(port: int) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if requests.get(f"http://127.0.0.1:{port}/v1/health", timeout=1).ok:
                return
        except requests.RequestException:
            time.sleep(0.2)
    raise SystemExit(f"the API on port {port} did not start")


def sample(redis: Redis, queue: str, stop: threading.Event) -> None:
    """Every 50 ms, in the trace: the clock queue's scheduler lock holder and its last
    beat, the depth of the clock queue and of the main queue, the clock jobs due in the
    scheduled registry and those started."""
    with open(TRACE, "a") as out:
        while not stop.wait(0.05):
            t = time.time()
            with redis.pipeline(transaction=False) as pipe:
                pipe.get(f"rq:scheduler-lock:{clock_queue(queue)}")
                pipe.llen(f"rq:queue:{clock_queue(queue)}")
                pipe.llen(f"rq:queue:{queue}")
                pipe.zcount(f"rq:scheduled:{clock_queue(queue)}", 0, t)
                pipe.zcard(f"rq:wip:{clock_queue(queue)}")
                holder, depth, main, due, started = pipe.execute()
            beat = redis.hget(f"rq:scheduler:{holder.decode()}", "last_heartbeat") if holder else None
            out.write(json.dumps({"what": "sample", "t": t, "holder": holder and holder.decode(),
                                  "beat": beat and beat.decode(), "depth": depth, "main": main, "due": due,
                                  "started": started}) + "\n")


def tell_late(rows, killed_wall: float, threshold: float = 1.5) -> None:
    """For each timeout more than ``threshold`` late: its slot's jobs, moves and re-queues
    (times relative to the kill -9), then the samples around the kill."""
    lines = [json.loads(line) for line in TRACE.read_text().splitlines()]
    late = sorted((deadline, seconds) for _, seconds, deadline in rows if float(seconds) > threshold)
    slots = sorted({-int(-float(deadline) // 0.1) for deadline, _ in late})

    def rel(t) -> str:
        return f"{float(t) - killed_wall:+.2f}"

    print(f"trace: {len(lines)} lines; {len(late)} timeouts later than {threshold} s, "
          f"in slots {slots}; times relative to the kill -9")
    for deadline, seconds in late:
        print(f"  deadline {rel(deadline)} late {float(seconds):.2f}")
    for line in lines:
        if line["what"] == "move" and any(int(j.split("-")[1]) in slots for j in line["jobs"]
                                          if j.startswith("timers-")):
            print(f"  move {rel(line['t'])} pid {line['pid']}: {len(line['jobs'])} jobs, due "
                  f"{rel(min(line['due']))}..{rel(max(line['due']))}")
        elif line["what"] == "job" and line.get("slot") in slots:
            print(f"  job {line['job']} by {line['worker']} (pid {line['pid']}): queued {rel(line['enqueued'])} "
                  f"started {rel(line['started'])} ended {rel(line['t'])} {line['outcomes']}")
        elif line["what"] in ("takeover", "requeue"):
            print(f"  {line['what']} {rel(line['t'])} pid {line['pid']}: "
                  f"{ {k: v for k, v in line.items() if k not in ('what', 't', 'pid')} }")
    for line in lines:
        if line["what"] == "sample" and -0.5 <= line["t"] - killed_wall <= 4:
            print(f"  sample {rel(line['t'])}: holder {line['holder']} beat {line['beat']} depth {line['depth']} "
                  f"due {line['due']} started {line['started']}")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--clients", type=int, default=8, help="concurrent creators")
    parser.add_argument("--rate", type=float, default=None, help="games created per second (default: as fast as possible)")
    parser.add_argument("--sweep-every", type=float, default=1.0,
                        help="the workers' sweep interval (s): how late a lost job may fire")
    parser.add_argument("--trace", action="store_true", help=f"trace the timer jobs in {TRACE.name}")
    args = parser.parse_args()
    database_url, redis_url = fresh_database("entrepot_bench_clocks")
    redis_url = redis_url.rsplit("/", 1)[0] + f"/{REDIS_DB}"
    redis = Redis.from_url(redis_url)
    redis.flushdb()
    queue = f"entrepot-bench-clocks-{uuid.uuid4().hex[:6]}"
    env = {**os.environ, "DATABASE_URL": database_url, "REDIS_URL": redis_url, "ENTREPOT_QUEUE": queue,
           "ENTREPOT_TIMER_GRACE": "0.5", "ENTREPOT_POOL_MAX": "6"}
    if args.trace:
        TRACE.unlink(missing_ok=True)
        env["ENTREPOT_TRACE_TIMERS"] = str(TRACE)
    subprocess.run([sys.executable, "-m", "service.runtime.cli", "migrate"], cwd=ROOT, env=env, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    load_before = os.getloadavg()  # the machine may be shared: the figures depend on it
    ports = [free_port(), free_port()]
    apis = [start_api(port, env) for port in ports]
    log = open(ROOT / "bench" / "clocks-workers.log", "w")  # noqa: SIM115 - closed at the end
    workers = [start_worker(env, args.sweep_every, log) for _ in range(3)]
    killed = None
    sampling = threading.Event()
    if args.trace:
        threading.Thread(target=sample, args=(redis, queue, sampling), daemon=True).start()
    try:
        for port in ports:
            wait_ready(port)
        deadline = time.monotonic() + 60
        clocks = Queue(clock_queue(queue), connection=redis)
        while Worker.count(connection=redis, queue=clocks) < len(workers) and time.monotonic() < deadline:
            time.sleep(0.2)
        bases = [f"http://127.0.0.1:{port}" for port in ports]
        created: list[str] = []
        errors: list[str] = []
        lock = threading.Lock()
        half = threading.Event()

        def create(i: int) -> None:
            session = requests.Session()
            base = bases[i % 2]  # the clients spread over the two API machines
            a = session.post(base + "/v1/players", json={"name": f"A{i}"}).json()
            b = session.post(base + "/v1/players", json={"name": f"B{i}"}).json()
            while True:
                with lock:
                    if len(created) >= args.games:
                        return
                    created.append("")
                    n = len(created)
                if args.rate:  # the n-th game is created at n / rate seconds
                    time.sleep(max(0.0, start + n / args.rate - time.monotonic()))
                response = session.post(base + "/v1/games", headers={"Authorization": f"Bearer {a['token']}"},
                                        json={"title": "kontor", "options": {"variant": "basic"},
                                              "seats": [{"player_id": a["id"]}, {"player_id": b["id"]}],
                                              "time_control": {"per_move": "PT1S", "on_timeout": "forfeit"}})
                if response.status_code == 201:  # Black accepts the invitation: the game starts
                    response = session.post(f"{base}/v1/games/{response.json()['id']}/seats/1/accept",
                                            headers={"Authorization": f"Bearer {b['token']}"})
                with lock:
                    if response.status_code not in (200, 201):
                        errors.append(f"{response.status_code} {response.text[:200]}")
                    else:
                        created[n - 1] = response.json()["id"]
                if n == args.games // 2:
                    half.set()

        threads = [threading.Thread(target=create, args=(i,)) for i in range(args.clients)]
        start = time.monotonic() + 2.0  # the clients sign up first
        for t in threads:
            t.start()
        half.wait(timeout=300)
        killed = workers[0]  # each runs the timer loop: likely mid-turn, its claims held
        os.killpg(killed.pid, signal.SIGKILL)  # midway, while deadlines are pending
        killed_wall = time.time()
        killed.wait()
        killed_at = time.monotonic() - start
        for t in threads:
            t.join()
        created_in = time.monotonic() - start
        ids = [g for g in created if g]
        # wait until every game has ended, or 30 s after the last deadline
        with psycopg.connect(database_url, autocommit=True) as conn:
            wait_until = time.monotonic() + 30
            while time.monotonic() < wait_until:
                active = conn.execute("SELECT count(*) FROM games WHERE status = 'active'").fetchone()[0]
                if active == 0:
                    break
                time.sleep(0.5)
            rows = conn.execute(
                "SELECT game_id::text, extract(epoch FROM at - (data ->> 'deadline')::timestamptz),"
                " extract(epoch FROM (data ->> 'deadline')::timestamptz) FROM events WHERE type = 'TimedOut'"
            ).fetchall()
            statuses = dict(conn.execute("SELECT status, count(*) FROM games GROUP BY status").fetchall())
            reminders = conn.execute("SELECT count(*) FROM events WHERE type = 'ReminderSent'").fetchone()[0]
    finally:
        sampling.set()
        for process in apis + workers:
            if process is not killed:
                try:
                    os.killpg(process.pid, signal.SIGTERM)
                except ProcessLookupError:
                    pass
        for process in apis + workers:
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
        log.close()

    load_after = os.getloadavg()
    late = sorted(float(seconds) for _, seconds, _ in rows)
    per_game: dict[str, int] = {}
    for game_id, _, _ in rows:
        per_game[game_id] = per_game.get(game_id, 0) + 1
    doubled = sum(1 for n in per_game.values() if n > 1)
    lost = len(ids) - len(per_game)
    q = statistics.quantiles(late, n=100) if len(late) >= 2 else [late[0]] * 99
    print(f"layout: 2 API processes (uvicorn, 1 process x 8 request threads each), 3 `entrepot worker` processes "
          f"(sweep every {args.sweep_every:g} s, grace 0.5 s), one PostgreSQL, one Redis; "
          f"{os.cpu_count()} cores, loopback; load average {' '.join(f'{x:.2f}' for x in load_before)} before, "
          f"{' '.join(f'{x:.2f}' for x in load_after)} after")
    print(f"games: {len(ids)} created in {created_in:.1f} s by {args.clients} clients over both APIs"
          f"{f' at {args.rate:g}/s' if args.rate else ''} "
          f"({len(errors)} errors{': ' + errors[0] if errors else ''}); clocks PT1S, forfeit")
    print(f"kill -9: one of the three workers (pid {killed.pid}), each running the timer loop, "
          f"{killed_at:.1f} s into the run")
    print(f"games by status: {statuses}; TimedOut events: {len(rows)}; ReminderSent events: {reminders}")
    print(f"timeout lateness (TimedOut at - deadline): p50 {q[49]:.3f} s, p99 {q[98]:.3f} s, "
          f"max {late[-1]:.3f} s, min {late[0]:.3f} s")
    within = sum(1 for s in late if s <= 2.0)
    print(f"within 2 s of the deadline: {within}/{len(late)}; doubled: {doubled}; lost: {lost}")
    if args.trace:
        tell_late(rows, killed_wall)
    ok = not errors and not doubled and not lost and within == len(late) and statuses.get("active", 0) == 0
    print("OK" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
