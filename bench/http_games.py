"""Full Kontor games over HTTP against `entrepot serve` on real PostgreSQL.

Prints: commands/s (over the games and the time the workers then took to catch up with
their notifications: a rate that leaves fan-outs behind is not one the server keeps up),
p50/p99 of POST /commands, and in the same run, with the same
keep-alive clients: the req/s of the floor of the stack (bench/bare_asgi.py, the smallest
ASGI app, under the same uvicorn command as `entrepot serve`, measured before and after the
games), the req/s of a trivial GET (/v1/health) on Entrepot, and commands/s as a share of
the floor's req/s. Prints the machine's load average before and after (a shared machine).

Each client plays both seats of its games as a bot would: it sends each command with
``?include=legal_commands`` and asks GET legal-commands only when the last answer did not
tell the moves of a seat that may act now (another seat's turn: the client plays on with
the seat whose moves it was told, when several may act); ``--ask-each-time`` asks before
every command, as clients did before answers told the next moves.

    python bench/http_games.py [--clients 8] [--seconds 30] [--workers N] [--threads T] [--ask-each-time]

ENTREPOT_BENCH_DATABASE names the scratch database (default entrepot_bench): engineers
sharing one PostgreSQL give theirs different names.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from importlib.util import find_spec
from pathlib import Path

import psycopg
import requests
from psycopg.conninfo import make_conninfo

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def bench_database() -> str:
    return os.environ.get("ENTREPOT_BENCH_DATABASE", "entrepot_bench")


def empty_queues(redis_url: str, queue: str) -> None:
    """Drop the jobs an earlier run left in the queues named ``queue`` (a run cut short
    leaves fan-outs of games its dropped database no longer holds): the workers of this
    run would spend its time failing them."""
    sys.path.insert(0, str(ROOT))
    from redis import Redis
    from rq import Queue

    from service import job_queue

    redis = Redis.from_url(redis_url)
    for name in (*job_queue.watched_queues(queue), job_queue.webhook_queue(queue)):
        Queue(name, connection=redis).empty()
    if hasattr(job_queue, "fanouts_key"):  # the games waiting for their fan-out (a tree before it: none)
        redis.delete(job_queue.fanouts_key(queue))


def bench_env(database_url: str, redis_url: str, queue: str) -> dict[str, str]:
    """The settings of a bench's Entrepot: its database, Redis and queue, and rate limits
    that one loopback address driving the whole load never reaches (they are counted, not
    what is measured)."""
    return {"DATABASE_URL": database_url, "REDIS_URL": redis_url, "ENTREPOT_QUEUE": queue,
            "ENTREPOT_RATE_LIMIT_PER_IP": "1000000/second", "ENTREPOT_RATE_LIMIT_PER_TOKEN": "1000000/second"}


def start_server(port: int, database_url: str, redis_url: str, workers: int, threads: int,
                 queue: str | None = None) -> subprocess.Popen:
    queue = queue or bench_database().replace("_", "-")
    empty_queues(redis_url, queue)
    env = {**os.environ, **bench_env(database_url, redis_url, queue)}
    # a data directory of its own: its log (and its signing key) apart from other servers'
    data_dir = tempfile.mkdtemp(prefix="entrepot-bench-")
    cmd = [sys.executable, "-m", "service.runtime.cli", "serve", "--port", str(port),
           "--workers", str(workers), "--threads", str(threads), "--data-dir", data_dir]
    server = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    # serve starts its workers too: on a shared machine under load that takes a minute or more
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline:
        try:
            if requests.get(f"http://127.0.0.1:{port}/v1/health", timeout=1).ok:
                return server
        except requests.RequestException:
            time.sleep(0.2)
    server.kill()
    raise SystemExit(f"the server did not start (its log: {data_dir})")


def start_app(factory: str, workers: int, probe: str = "/", env: dict | None = None) -> tuple[subprocess.Popen, str]:
    """An ASGI app of bench/ (``module:factory``, or the API's own) under the same uvicorn
    command as `entrepot serve`, once ``probe`` answers: (its process, its base URL)."""
    sys.path.insert(0, str(ROOT))
    from service.runtime.cli import uvicorn_command

    port = free_port()
    cmd = uvicorn_command(factory, "127.0.0.1", port, workers) + ["--app-dir", str(ROOT / "bench")]
    env = env or {**os.environ, "PYTHONPATH": str(ROOT)}
    server = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 240  # a loaded machine
    while time.monotonic() < deadline:
        try:
            if requests.get(base + probe, timeout=1).ok:
                return server, base
        except requests.RequestException:
            time.sleep(0.2)
    server.kill()
    raise SystemExit(f"{factory} did not start")


def floor_reads(workers: int, clients: int, seconds: float) -> tuple[float, float, float]:
    """(req/s, server CPU ms per request, the load generator's own CPU ms per request) of
    the floor: bench/bare_asgi.py."""
    floor, base = start_app("bare_asgi:create_app", workers)
    try:
        cpu, own = tree_cpu(floor.pid), own_cpu()
        rate, count = trivial_reads(base, clients, seconds, "/", counted=True)
        return rate, (tree_cpu(floor.pid) - cpu) / count * 1000, (own_cpu() - own) / count * 1000
    finally:
        floor.terminate()
        floor.wait(timeout=30)


def own_cpu() -> float:
    """This process's CPU seconds (the load generator's: its client threads)."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def proc_stats() -> dict[int, tuple[str, list[str]]]:
    """Every live process's name (comm) and the fields of /proc/<pid>/stat after it."""
    stats = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                comm, rest = f.read().split(" (", 1)[1].rsplit(")", 1)
        except (OSError, ValueError):
            continue
        stats[int(entry)] = comm, rest.split()
    return stats


def cpu_seconds(fields: list[str]) -> float:
    """User + system CPU seconds of a process, from its /proc stat fields (after comm)."""
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def tree_pids(pid: int, only: str | None = None, stats: dict | None = None) -> list[int]:
    """``pid`` and every live descendant (``stats``: proc_stats() already read).
    ``only``: just the subtrees of processes whose command line contains it."""
    stats = proc_stats() if stats is None else stats
    children: dict[int, list[int]] = {}
    for child, (_, fields) in stats.items():
        children.setdefault(int(fields[1]), []).append(child)
    found, todo = [], [(pid, only is None)]
    while todo:
        p, counted = todo.pop()
        if not counted:
            try:
                with open(f"/proc/{p}/cmdline", "rb") as f:
                    counted = only.encode() in f.read()
            except OSError:
                pass
        if counted and p in stats:
            found.append(p)
        todo.extend((child, counted) for child in children.get(p, []))
    return found


def tree_cpu(pid: int, only: str | None = None) -> float:
    """CPU seconds (user + system) used so far by ``pid`` and every live descendant, from
    /proc: the server's own CPU, which a loaded machine slows far less than its wall rate.
    ``only``: just the subtrees of processes whose command line contains it."""
    stats = proc_stats()
    return sum(cpu_seconds(stats[p][1]) for p in tree_pids(pid, only, stats))


def process_cpu(name: str) -> float:
    """CPU seconds used so far by every live process whose name (comm) is ``name``
    (PostgreSQL's backends, Redis): the machine's other parts, which the server's tree
    does not hold."""
    return sum(cpu_seconds(fields) for comm, fields in proc_stats().values() if comm == name)


def busy_cpu() -> float:
    """CPU seconds the whole machine has been busy (every core, /proc/stat)."""
    with open("/proc/stat") as f:
        values = [int(v) for v in f.readline().split()[1:]]
    return (sum(values) - values[3] - values[4]) / os.sysconf("SC_CLK_TCK")


def load() -> str:
    return "load average " + " ".join(f"{x:.2f}" for x in os.getloadavg())


def admin_url() -> str:
    return os.environ.get("DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/postgres")


def fresh_database(name: str) -> tuple[str, str]:
    """(a new empty database ``name``, the Redis URL): DATABASE_URL / REDIS_URL when set,
    else the machine's servers at 127.0.0.1."""
    drop_database(name)
    with psycopg.connect(admin_url(), autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    return make_conninfo(admin_url(), dbname=name), os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")


def drop_database(name: str) -> None:
    with psycopg.connect(admin_url(), autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def fanouts_behind(database_url: str) -> int:
    """Games whose notifications have not caught up with their last version yet."""
    with psycopg.connect(database_url, autocommit=True) as conn:
        return conn.execute(
            "SELECT count(*) FROM games g LEFT JOIN game_fanouts f ON f.game_id = g.id"
            " WHERE g.version > coalesce(f.notified_version, 0)").fetchone()[0]


def drain(database_url: str, limit: float = 300.0) -> tuple[int, float]:
    """(games behind when the games stopped, seconds until none is): the fan-outs the
    workers had not done yet belong to the commands measured. A rate that leaves them
    for later is not one the server can keep up (the queue grows without end)."""
    behind = fanouts_behind(database_url)
    start = time.monotonic()
    left = behind
    while left and time.monotonic() - start < limit:
        time.sleep(0.1)
        left = fanouts_behind(database_url)
    if left:
        raise SystemExit(f"{left} games still behind {limit:.0f} s after the games")
    return behind, time.monotonic() - start if behind else 0.0


def run_clients(clients: int, run) -> float:
    """Run ``run(i)`` in ``clients`` threads at once; the wall time they took."""
    threads = [threading.Thread(target=run, args=(i,)) for i in range(clients)]
    start = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return time.monotonic() - start


def trivial_reads(base: str, clients: int, seconds: float, path: str = "/v1/health", counted: bool = False):
    counts = [0] * clients
    stop = time.monotonic() + seconds

    def run(i: int):
        session = requests.Session()
        while time.monotonic() < stop:
            session.get(base + path).raise_for_status()
            counts[i] += 1

    elapsed = run_clients(clients, run)  # the threads fill ``counts``: read them after
    return (sum(counts) / elapsed, sum(counts)) if counted else sum(counts) / elapsed


def two_players(session: requests.Session, base: str, suffix: str = "") -> list[dict]:
    """Red and Black, new players: each with its ``token`` and ``id``."""
    return [session.post(base + "/v1/players", json={"name": f"{name}{suffix}"}).json() for name in ("Red", "Black")]


def start_kontor_game(session: requests.Session, base: str, players: list[dict]) -> dict:
    """A two-seat Kontor basic game of ``players`` (two_players), started: Red creates it,
    Black's seat is an invitation, and the game starts when Black accepts it."""
    red, black = players
    game = session.post(base + "/v1/games", headers={"Authorization": f"Bearer {red['token']}"}, json={
        "title": "kontor", "options": {"variant": "basic"},
        "seats": [{"player_id": red["id"]}, {"player_id": black["id"]}],
    }).json()
    return session.post(f"{base}/v1/games/{game['id']}/seats/1/accept",
                        headers={"Authorization": f"Bearer {black['token']}"}).json()


def play_games(base: str, clients: int, seconds: float, ask_each_time: bool = False):
    latencies: list[float] = []
    commands = [0] * clients
    games = [0] * clients
    asked = [0] * clients  # GET legal-commands
    errors: list[str] = []
    lock = threading.Lock()
    stop = time.monotonic() + seconds

    def run(i: int):
        rng = random.Random(i)
        session = requests.Session()
        players = two_players(session, base, str(i))
        tokens = [player["token"] for player in players]
        while time.monotonic() < stop:
            game = start_kontor_game(session, base, players)
            gid, to_act, status = game["id"], game["to_act"], game["status"]
            told = None  # the last answer's legal commands: its sender's next moves
            while status == "active" and time.monotonic() < stop:
                knows = told is not None and told["commands"] and told["seat"] in to_act
                seat = told["seat"] if knows else rng.choice(to_act)  # plays on where it knows the moves
                auth = {"Authorization": f"Bearer {tokens[seat]}"}
                if knows:
                    legal = told
                else:
                    legal = session.get(f"{base}/v1/games/{gid}/legal-commands", headers=auth).json()
                    asked[i] += 1
                body = {"command": rng.choice(legal["commands"]), "expected_version": legal["version"]}
                t0 = time.perf_counter()
                response = session.post(f"{base}/v1/games/{gid}/commands", headers=auth, json=body,
                                        params=None if ask_each_time else {"include": "legal_commands"})
                elapsed = time.perf_counter() - t0
                if response.status_code != 201:
                    with lock:
                        errors.append(f"{response.status_code} {response.text[:200]}")
                    break
                outcome = response.json()
                to_act, status, told = outcome["to_act"], outcome["status"], outcome.get("legal_commands")
                with lock:
                    latencies.append(elapsed)
                commands[i] += 1
            if status == "finished":
                games[i] += 1

    elapsed = run_clients(clients, run)
    return sum(commands), sum(games), sum(asked), elapsed, latencies, errors


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--workers", type=int, default=None, help="API processes (default: serve's)")
    parser.add_argument("--threads", type=int, default=8, help="threads per API process (default: serve's)")
    parser.add_argument("--ask-each-time", action="store_true",
                        help="a GET legal-commands before every command, as clients did before the "
                             "command's answer could tell its sender's next moves")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    from service.runtime.cli import _workers_default

    load_before = load()
    database_url, redis_url = fresh_database(bench_database())
    workers = args.workers or _workers_default()
    reads_seconds = min(10.0, args.seconds)
    floor_before, floor_cpu_before, client_before = floor_reads(workers, args.clients, reads_seconds)
    port = free_port()
    server = start_server(port, database_url, redis_url, workers, args.threads)
    base = f"http://127.0.0.1:{port}"
    try:
        cpu0 = own_cpu()
        api0 = tree_cpu(server.pid, "uvicorn")
        trivial, trivial_count = trivial_reads(base, args.clients, reads_seconds, counted=True)
        cpu1 = own_cpu()
        server1, api1 = tree_cpu(server.pid), tree_cpu(server.pid, "uvicorn")
        parts1 = process_cpu("postgres"), process_cpu("redis-server"), busy_cpu()
        commands, games, asked, played, latencies, errors = play_games(base, args.clients, args.seconds,
                                                                       args.ask_each_time)
        cpu2 = own_cpu()
        behind, drained = drain(database_url)
        elapsed = played + drained  # the commands' whole work: their fan-outs too
        server2, api2 = tree_cpu(server.pid), tree_cpu(server.pid, "uvicorn")
        parts2 = process_cpu("postgres"), process_cpu("redis-server"), busy_cpu()
    finally:
        server.terminate()
        server.wait(timeout=30)
        drop_database(bench_database())
    floor_after, floor_cpu_after, client_after = floor_reads(workers, args.clients, reads_seconds)
    floor = (floor_before + floor_after) / 2
    floor_cpu = (floor_cpu_before + floor_cpu_after) / 2
    rate = commands / elapsed
    quantiles = statistics.quantiles(latencies, n=100)
    print(f"machine: {os.cpu_count()} cores; {load_before} before, {load()} after")
    print(f"{workers} API processes x {args.threads} threads; {args.clients} concurrent keep-alive clients; "
          f"PostgreSQL {database_url.split('@')[-1]}")
    print(f"uvicorn's HTTP parser {'httptools' if find_spec('httptools') else 'h11'}, event loop "
          f"{'uvloop' if find_spec('uvloop') else 'asyncio'}; redis-py's parser "
          f"{'hiredis' if find_spec('hiredis') else 'pure Python'} (what this environment has: "
          f"serve and the floor alike)")
    print(f"floor: bare ASGI app under the same uvicorn command: {floor_before:.0f} req/s before the games, "
          f"{floor_after:.0f} after (mean {floor:.0f})")
    print(f"trivial GET /v1/health: {trivial:.0f} req/s ({trivial / floor:.2f} of the floor)")
    print(f"POST /commands: {commands} commands in {played:.1f} s ({games} games finished; {asked} GET "
          f"legal-commands ({asked / max(commands, 1):.2f} a command: "
          f"{'before every command' if args.ask_each_time else 'where the previous answer had not told them'}); {behind} games' notifications still behind when they stopped, "
          f"caught up {drained:.1f} s later: {rate:.0f} commands/s with their fan-outs done "
          f"({commands / played:.0f} counting the answers alone)")
    print(f"POST /commands latency: p50 {quantiles[49] * 1000:.1f} ms, p99 {quantiles[98] * 1000:.1f} ms")
    print(f"commands/s as a share of the floor's req/s: {rate / floor:.2f} (target 0.25)")
    # CPU is what a loaded machine distorts least: the server's (every process `serve`
    # starts: API processes, its workers) per command, against the floor's per request
    per_command = (api2 - api1) / max(commands, 1) * 1000
    print(f"API processes' CPU (uvicorn): {(api1 - api0) / trivial_count * 1000:.2f} ms per GET /v1/health, "
          f"{per_command:.2f} ms per command (with its GET legal-commands if any); the floor "
          f"{floor_cpu:.2f} ms per request ({floor_cpu_before:.2f} before, {floor_cpu_after:.2f} after); "
          f"serve's whole process tree (its workers too: fan-outs, timers, polling) "
          f"{(server2 - server1) / max(commands, 1) * 1000:.2f} ms per command")
    print(f"the floor's CPU per request over the API's CPU per command: {floor_cpu / per_command:.3f} "
          f"(what the share would be if CPU were all that limits it)")
    reads_cpu, games_cpu = cpu1 - cpu0, cpu2 - cpu1
    print(f"the load generator itself used {reads_cpu / reads_seconds:.2f} cores during the reads "
          f"and {games_cpu / played:.2f} cores during the games (of {os.cpu_count()})")
    # where the machine's CPU went per command during the games: what limits the rate
    # when every part shares the same cores
    per = 1000 / max(commands, 1)
    workers_cpu = (server2 - server1) - (api2 - api1)
    postgres_cpu, redis_cpu, busy = (b - a for a, b in zip(parts1, parts2))
    named = (api2 - api1) + workers_cpu + postgres_cpu + redis_cpu + games_cpu
    print(f"the machine's CPU per command during the games and the fan-outs' catching up: API {(api2 - api1) * per:.2f} ms, "
          f"workers {workers_cpu * per:.2f}, PostgreSQL {postgres_cpu * per:.2f}, Redis {redis_cpu * per:.2f}, "
          f"load generator {games_cpu * per:.2f}, the rest {(busy - named) * per:.2f}; "
          f"all {busy * per:.2f} ms ({busy / elapsed:.2f} of {os.cpu_count()} cores busy)")
    # the floor is the load generator's limit, not the bare server's: one process, its
    # client threads under one GIL, so at most one core over its CPU a request; a command's
    # rate is the busy cores over the machine's CPU a command (the load generator's two
    # requests in it): the share is about their product
    client = (client_before + client_after) / 2
    print(f"the load generator's own CPU a floor request: {client:.2f} ms ({client_before:.2f} before, "
          f"{client_after:.2f} after): its one GIL allows at most {1000 / client:.0f} req/s, where the bare server's "
          f"CPU a request would allow about {1000 * os.cpu_count() / max(floor_cpu, 1e-9):.0f} on all cores; "
          f"the share this predicts, "
          f"{client:.2f} ms x {busy / elapsed:.2f} busy cores / {busy * per:.2f} ms a command: "
          f"{client * (busy / elapsed) / max(busy * per, 1e-9):.2f}")
    print(f"errors: {len(errors)}" + (f" (first: {errors[0]})" if errors else ""))
    return 1 if errors else 0


if __name__ == "__main__":
    raise SystemExit(main())
