"""Where a plain request's CPU goes, layer by layer of the API's stack: four servers under
serve's own uvicorn command (one process each), loaded in turns by the same keep-alive
clients, so that a busy machine slows each alike:

1. the floor: bench/bare_asgi.py, the smallest ASGI app;
2. a one-route Flask app behind the bridge to its threads (api/bridge.py);
3. the same inside what api/asgi.py wraps around the bridge (request ids and the access
   log line, the security headers, Starlette's router);
4. Entrepot's own app on GET /v1/health/live, its cheapest route: everything above plus
   Flask's hooks (rate limits with their Redis round trip, ids, auth, problems, metrics).

Prints each layer's CPU per request (user + system of its process, read from /proc; the
median of the rounds) and what each adds to the one below. DATABASE_URL / REDIS_URL as
bench/http_games.py (the database gets the suffix _layers).

    python bench/stack_layers.py [--rounds 8] [--seconds 3] [--clients 8]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT))

from edge_cost import cpu_seconds  # noqa: E402
from http_games import (  # noqa: E402
    bench_database,
    bench_env,
    drop_database,
    fresh_database,
    load,
    start_app,
    trivial_reads,
)

LAYERS = [
    ("the floor: a bare ASGI app", "bare_asgi:create_app", "/"),
    ("+ Flask behind the bridge (one route)", "stack_layer_apps:bridged", "/"),
    ("+ request ids, log line, headers, router", "stack_layer_apps:wrapped", "/"),
    ("Entrepot: GET /v1/health/live", "api.asgi:create_asgi_app", "/v1/health/live"),
]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--clients", type=int, default=8)
    args = parser.parse_args()
    from service.runtime.migrate import migrate

    name = bench_database() + "_layers"
    database_url, redis_url = fresh_database(name)
    migrate(database_url, database_url)
    env = {**os.environ, "PYTHONPATH": str(ROOT), **bench_env(database_url, redis_url, name.replace("_", "-"))}
    print(f"{load()}; {args.clients} keep-alive clients, {args.rounds} rounds of {args.seconds:.0f} s per layer")
    running: list[tuple[str, str, subprocess.Popen, str]] = []
    try:
        for label, factory, path in LAYERS:
            server, base = start_app(factory, 1, path, env)
            running.append((label, path, server, base))
            trivial_reads(base, args.clients, 1.0, path)  # warm up
        per_request: dict[str, list[float]] = {label: [] for label, _, _ in LAYERS}
        for _ in range(args.rounds):
            for label, path, server, base in running:
                before = cpu_seconds(server.pid)
                _, count = trivial_reads(base, path=path, clients=args.clients, seconds=args.seconds, counted=True)
                per_request[label].append((cpu_seconds(server.pid) - before) * 1000 / count)
        below = None
        for label, _, _ in LAYERS:
            cpu = statistics.median(per_request[label])
            added = f" (+{cpu - below:.3f})" if below is not None else ""
            print(f"  {label:44} {cpu:.3f} ms CPU a request{added}; rounds "
                  f"{', '.join(f'{x:.2f}' for x in per_request[label])}")
            below = cpu
        print(load())
    finally:
        for _, _, server, _ in running:
            server.terminate()
            server.wait(timeout=30)
        drop_database(name)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
