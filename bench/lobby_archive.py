"""The lobby and the archive at size: 10,000 open seeks and 1,000,000 finished games.

Creates its own database (``entrepot_bench_lobby``, dropped first), migrates it, and loads
the read models directly with generate_series (not the write path: no events are needed
to read the lobby or the archive): 100,000 players, 10,000 waiting games with an open seat
(three titles, created over 7 days, some with a rating range), 1,000,000 finished two-seat
games over two years (2% private) with their 2,000,000 seats and archive rows, and a
rating per player and title. Players' game counts are skewed (seat holders drawn as
floor(100000 * u^2)): the busiest players have thousands of games.

Then it times, through the service's own queries (service/lobby/service.py) on a warm pool, the
lobby (all titles, one title, the second page), and the archive (a random player's
latest, won, lost, one title; the busiest player's; every player's by title and form),
``--samples`` times each, and prints p50/p99 in milliseconds next to the floor measured in
the same run (``SELECT 1`` through the same pool), and the index each query uses.

    python bench/lobby_archive.py [--games 1000000] [--seeks 10000] [--samples 300]

DATABASE_URL names the server (default postgresql://postgres@127.0.0.1:5432/postgres).
"""

from __future__ import annotations

import argparse
import os
import random
import re
import statistics
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import psycopg
from psycopg.conninfo import make_conninfo

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from anywhere

from service.clock import SystemClock  # noqa: E402
from service.games.store import Store  # noqa: E402
from service.lobby.ratings import RatingService  # noqa: E402
from service.lobby.service import LobbyService  # noqa: E402
from service.runtime.migrate import migrate  # noqa: E402

DB = "entrepot_bench_lobby"
PLAYERS = 100_000


def load(url: str, seeks: int, games: int) -> None:
    started = time.perf_counter()
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("SET synchronous_commit = off")
        # loaded as the read models' rows directly: the seats' trigger (open_seats) is set by hand
        conn.execute("ALTER TABLE seats DISABLE TRIGGER seats_open")
        conn.execute("SET maintenance_work_mem = '256MB'")
        # secondary indexes are built once after the load (faster than row by row): the same indexes
        indexes = conn.execute("SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'public'"
                               " AND tablename IN ('games', 'seats', 'archive') AND indexname NOT LIKE '%pkey'"
                               ).fetchall()
        for name, _ in indexes:
            conn.execute(f'DROP INDEX "{name}"')
        conn.execute(
            "INSERT INTO players (id, name, token_hash)"
            " SELECT md5('player' || n)::uuid, 'player' || n, md5('token' || n) FROM generate_series(0, %s) n",
            (PLAYERS - 1,))
        conn.execute(
            "INSERT INTO ratings (player_id, title, mu, sigma, rating, games)"
            " SELECT md5('player' || n)::uuid, t, 25 + (n %% 17) - 8, 2 + (n %% 5), 900 + (n %% 600), 10 + n %% 50"
            " FROM generate_series(0, %s) n, unnest(ARRAY['kontor', 'speicherstadt', 'amsterdam']) t",
            (PLAYERS - 1,))
        print(f"  players and ratings: {time.perf_counter() - started:.0f} s", flush=True)
        conn.execute(
            "INSERT INTO games (id, title, rules_version, options, status, seat_count, seed_commitment,"
            " seed_source, created_by, created_at, updated_at, rated, private, min_rating, max_rating, expires_at,"
            " open_seats)"
            " SELECT md5('seek' || n)::uuid, (ARRAY['kontor', 'speicherstadt', 'amsterdam'])[1 + n %% 3], 'bench',"
            "  '{\"variant\": \"basic\"}', 'waiting', 2, md5('c' || n), 'server', md5('player' || (n * 7 %% %s))::uuid,"
            "  now() - make_interval(secs => n * 60.0), now() - make_interval(secs => n * 60.0), true, false,"
            "  CASE WHEN n %% 10 = 0 THEN 800 END, CASE WHEN n %% 10 = 0 THEN 1400 END,"
            "  now() + interval '7 days' - make_interval(secs => n * 60.0), 1"
            " FROM generate_series(0, %s) n", (PLAYERS, seeks - 1))
        conn.execute(
            "INSERT INTO seats (game_id, index, player_id)"
            " SELECT md5('seek' || n)::uuid, i, CASE WHEN i = 0 THEN md5('player' || (n * 7 %% %s))::uuid END"
            " FROM generate_series(0, %s) n, generate_series(0, 1) i", (PLAYERS, seeks - 1))
        print(f"  {seeks} seeks: {time.perf_counter() - started:.0f} s", flush=True)
        conn.execute("CREATE TEMP TABLE gen AS SELECT n, md5('game' || n)::uuid AS id,"
                     " (ARRAY['kontor', 'speicherstadt', 'amsterdam'])[1 + n % 3] AS title,"
                     " CASE WHEN n % 3 = 0 AND n % 2 = 1 THEN 'advanced' WHEN n % 3 = 0 THEN 'basic' END AS variant,"
                     " floor(power(random(), 2) * 100000)::int AS a, floor(random() * 100000)::int AS b,"
                     " (n % 2) AS winner, n % 50 = 0 AS private,"
                     " now() - make_interval(secs => (n * 63.0)) AS finished_at"
                     f" FROM generate_series(0, {games - 1}) n")
        conn.execute("UPDATE gen SET b = (b + 1) % 100000 WHERE a = b")
        conn.execute(
            "INSERT INTO games (id, title, rules_version, options, status, seat_count, version, seed_commitment,"
            " seed_source, created_by, created_at, updated_at, rated, private, result)"
            " SELECT id, title, 'bench', coalesce(jsonb_build_object('variant', variant), '{}'), 'finished', 2, 60,"
            "  md5('c' || n), 'server', md5('player' || a)::uuid, finished_at - interval '3 days', finished_at,"
            "  true, private, jsonb_build_object('scores', jsonb_build_array(10, 20), 'winners',"
            "  jsonb_build_array(winner), 'detail', '{}'::jsonb) FROM gen")
        print(f"  {games} finished games: {time.perf_counter() - started:.0f} s", flush=True)
        conn.execute("INSERT INTO seats (game_id, index, player_id)"
                     " SELECT id, 0, md5('player' || a)::uuid FROM gen UNION ALL"
                     " SELECT id, 1, md5('player' || b)::uuid FROM gen")
        print(f"  their seats: {time.perf_counter() - started:.0f} s", flush=True)
        conn.execute(
            "INSERT INTO archive (player_id, game_id, title, variant, seat_count, finished_at, won, rated, private)"
            " SELECT md5('player' || a)::uuid, id, title, variant, 2, finished_at, winner = 0, true, private FROM gen"
            " UNION ALL"
            " SELECT md5('player' || b)::uuid, id, title, variant, 2, finished_at, winner = 1, true, private FROM gen")
        print(f"  their archive rows: {time.perf_counter() - started:.0f} s", flush=True)
        for _, definition in indexes:
            conn.execute(definition)
        print(f"  indexes built: {time.perf_counter() - started:.0f} s", flush=True)
        conn.execute("ALTER TABLE seats ENABLE TRIGGER seats_open")
        conn.execute("VACUUM ANALYZE")
    print(f"loaded in {time.perf_counter() - started:.0f} s", flush=True)


def timed(samples: int, call) -> tuple[float, float]:
    for _ in range(5):  # warm
        call(0)
    times = []
    for i in range(samples):
        start = time.perf_counter()
        call(i)
        times.append((time.perf_counter() - start) * 1000)
    times.sort()
    return statistics.median(times), times[min(len(times) - 1, int(len(times) * 0.99))]


def index_of(conn, sql: str, params) -> str:
    plan = "\n".join(r[0] for r in conn.execute("EXPLAIN " + sql, params).fetchall())
    found = sorted(set(re.findall(r"(?:Index|Index Only) Scan(?: Backward)? using (\w+)", plan)))
    return ", ".join(found) or "(no index)"


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--seeks", type=int, default=10_000)
    parser.add_argument("--samples", type=int, default=300)
    parser.add_argument("--keep", action="store_true", help="reuse the loaded database if it is there")
    args = parser.parse_args()
    admin = os.environ.get("DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/postgres")
    url = make_conninfo(admin, dbname=DB)
    with psycopg.connect(admin, autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (DB,)).fetchone()
        if not (args.keep and exists):
            conn.execute(f'DROP DATABASE IF EXISTS "{DB}"')
            conn.execute(f'CREATE DATABASE "{DB}"')
            fresh = True
        else:
            fresh = False
    if fresh:
        migrate(url)
        print(f"loading {args.seeks} seeks and {args.games} finished games", flush=True)
        load(url, args.seeks, args.games)

    store = Store(url, min_size=2, max_size=2)
    lobby = LobbyService(store, SystemClock(), RatingService(store))
    rng = random.Random(1)
    with psycopg.connect(url) as conn:
        busiest = conn.execute("SELECT player_id::text, count(*) FROM archive GROUP BY player_id"
                               " ORDER BY count(*) DESC LIMIT 1").fetchone()
        counts = conn.execute("SELECT count(*) FILTER (WHERE status = 'waiting'),"
                              " count(*) FILTER (WHERE status = 'finished') FROM games").fetchone()
    players = [f"{__import__('hashlib').md5(f'player{n}'.encode()).hexdigest()}" for n in range(PLAYERS)]
    players = [f"{p[:8]}-{p[8:12]}-{p[12:16]}-{p[16:20]}-{p[20:]}" for p in players]
    first_page = lobby.seeks(None, 50)
    cursor = (first_page[-1].game.created_at, first_page[-1].game.id)
    day = datetime.now(UTC) - timedelta(days=200)

    def floor(_i):
        with store.read() as tx:
            tx.conn.execute("SELECT 1").fetchone()

    cases = [
        ("floor: SELECT 1 through the pool", floor),
        ("lobby, all titles, 50 newest", lambda i: lobby.seeks(None, 50)),
        ("lobby, one title, 50 newest", lambda i: lobby.seeks(("kontor", "speicherstadt", "amsterdam")[i % 3], 50)),
        ("lobby, second page", lambda i: lobby.seeks(None, 50, cursor)),
        ("archive, a random player, 50 latest", lambda i: lobby.archive(None, rng.choice(players), None, "any",
                                                                          None, None, None, 50)),
        ("archive, a random player, won", lambda i: lobby.archive(None, rng.choice(players), None, "won",
                                                                    None, None, None, 50)),
        ("archive, a random player, lost, one title", lambda i: lobby.archive(
            None, rng.choice(players), "kontor", "lost", None, None, None, 50)),
        (f"archive, the busiest player ({busiest[1]} games)", lambda i: lobby.archive(
            None, busiest[0], None, "any", None, None, None, 50)),
        ("archive, the busiest player, lost, before a date", lambda i: lobby.archive(
            None, busiest[0], None, "lost", None, None, (day, "00000000-0000-0000-0000-000000000000"), 50)),
        ("archive, everyone's, one title", lambda i: lobby.archive(None, None, "speicherstadt", "any", None, None,
                                                                   None, 50)),
        ("archive, everyone's, one title and form", lambda i: lobby.archive(None, None, "kontor", "any", "advanced",
                                                                            None, None, 50)),
    ]
    print(f"\n{counts[0]} waiting games, {counts[1]} finished games, {PLAYERS} players;"
          f" {args.samples} samples each, one connection at a time\n")
    print(f"{'query':<52} {'p50 ms':>8} {'p99 ms':>8}")
    for name, call in cases:
        p50, p99 = timed(args.samples, call)
        print(f"{name:<52} {p50:8.2f} {p99:8.2f}", flush=True)
    with psycopg.connect(url) as conn:
        print("\nindexes used:")
        print("  lobby:", index_of(conn, "SELECT g.id FROM games g WHERE g.status = 'waiting'"
                                         " AND NOT g.private AND g.open_seats > 0 ORDER BY g.created_at DESC,"
                                         " g.id DESC LIMIT 50", ()))
        print("  lobby, one title:", index_of(conn, "SELECT g.id FROM games g WHERE g.status = 'waiting'"
                                                    " AND NOT g.private AND g.open_seats > 0 AND g.title = 'kontor'"
                                                    " ORDER BY g.created_at DESC, g.id DESC LIMIT 50", ()))
        print("  archive by player:", index_of(conn, "SELECT game_id FROM archive a WHERE a.player_id = %s AND"
                                                     " a.won = false ORDER BY a.finished_at DESC, a.game_id DESC"
                                                     " LIMIT 50", (busiest[0],)))
        print("  archive by title:", index_of(conn, "SELECT id FROM games g WHERE g.status = 'finished' AND NOT"
                                                    " g.private AND g.title = 'kontor' ORDER BY g.updated_at DESC,"
                                                    " g.id DESC LIMIT 50", ()))
    store.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
