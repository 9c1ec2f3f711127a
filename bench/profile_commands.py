"""Where a command's CPU goes: Kontor games played through the Flask app in-process (no
HTTP server, no sockets: the API's own CPU), real PostgreSQL and Redis, profiled with cProfile.

Prints the API CPU per POST /commands (process time, the profiler off), then the profile of
the same commands grouped by the part of the path they belong to, and the top functions.

    python bench/profile_commands.py [--commands 600] [--top 25] [--no-profile] [--steps]

DATABASE_URL / REDIS_URL as bench/http_games.py (ENTREPOT_BENCH_DATABASE names the
scratch database; this script appends _profile).
"""

from __future__ import annotations

import argparse
import cProfile
import dataclasses
import os
import pstats
import random
import sys
import time
import types
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from http_games import admin_url, bench_database, bench_env, drop_database, fresh_database  # noqa: E402

#: the parts of a command's path, by the file a function lives in (first match wins)
PARTS = [
    ("hash chain, receipt signature", ("service/audit/chain.py", "service/audit/signing.py", "nacl/", "hashlib", "_hashlib")),
    ("sockets (send, recv)", ("<method 'sendall'", "<method 'recv'", "<method 'send'", "socket")),
    ("RQ (notification jobs)", ("rq/",)),
    ("idempotency", ("service/games/idempotency.py",)),
    ("SQL (psycopg, pool)", ("psycopg", "service/games/store.py", "service/correspondence/records.py")),
    ("Redis (notify, rate limits)", ("redis/", "service/notifications/pubsub.py", "limits/", "flask_limiter")),
    ("decode / encode (codecs)", ("codec",)),
    ("decide / fold / view (domain)", ("domain/",)),
    ("JSON", ("json/",)),
    ("marshmallow", ("marshmallow",)),
    ("Flask, Werkzeug", ("flask/", "werkzeug/")),
    ("api/ (auth, io, problems)", ("api/",)),
    ("service/ (other)", ("service/",)),
]


#: the steps of POST /commands, by the function that does each (cumulative time: a step
#: includes what it calls); (file suffix, function name)
STEPS = [
    ("the request in all (Flask test client)", [("flask/testing.py", "open")]),
    ("rate limits (one Redis round trip)", [("api/limits.py", "rate_limit"), ("api/limits.py", "rate_limit_headers")]),
    ("auth (token -> player: from memory under the credential epoch)", [("api/auth.py", "required_player")]),
    ("body: JSON, checks, load (marshmallow, or the command's own check)",
     [("api/io.py", "load_body"), ("api/io.py", "json_body"), ("api/routes/games.py", "command_fields")]),
    ("load and fold (cached state + tail, 1 round trip; or the cached state alone)",
     [("service/games/service.py", "live"), ("service/games/service.py", "seen")]),
    ("decode the command", [("domain/common/envelope.py", "decode_command")]),
    ("decide (the title's rules)", [("domain/decider.py", "decide"), ("domain/common/table.py", "decide")]),
    ("append: encode, fold, read model, SQL write", [("service/games/service.py", "_append")]),
    ("  of which the SQL write and hash chain", [("service/games/store.py", "append")]),
    ("  of which the hash chain (link)", [("verifier/chain.py", "link")]),
    ("redact the events for the sender", [("service/games/service.py", "_redacted")]),
    ("receipt signature (Ed25519)", [("service/audit/signing.py", "receipt")]),
    ("idempotency (without a key: the unit of work)", [("service/games/idempotency.py", "once")]),
    ("  of which the players' notifications", [("service/notifications/service.py", "_version_notices")]),
    ("after commit: cache, wake streams, tell the players", [("service/games/service.py", "_after_commit")]),
    ("  of which the players told", [("service/notifications/service.py", "told")]),
    ("  of which the fan-out queued (behind only)", [("service/notifications/service.py", "appended")]),
    ("response: render (written out) + JSON", [("api/routes/games.py", "_render_outcome"), ("api/io.py", "send_json")]),
]


def steps(stats: pstats.Stats) -> list[tuple[str, float]]:
    out = []
    for name, targets in STEPS:
        total = 0.0
        for (filename, _line, func), (_cc, _nc, _tt, cumtime, _callers) in stats.stats.items():
            if any(filename.endswith(suffix) and func == wanted for suffix, wanted in targets):
                total += cumtime
        out.append((name, total))
    return out


class StepClock:
    """The CPU of a few named steps of POST /commands, without a profiler: each step's
    function is wrapped to add up the process time it takes (its callees included), only
    while a counted request runs. cProfile's figures above weigh steps of many small
    calls (the rules, Werkzeug's headers) up to three times too heavy; these do not. The
    process time is the whole process's: a thread of its own that runs meanwhile (the
    streams' publisher, service/notifications/pubsub.py) falls in the step then running."""

    def __init__(self):
        self.active = False
        self.seconds: dict[str, float] = {}

    def wrap(self, owner, name: str, label: str) -> None:
        original = getattr(owner, name, None)
        if original is None:  # a step the tree measured does not have (an older one, alternated)
            return
        self.seconds.setdefault(label, 0.0)

        def timed(*args, **kwargs):
            if not self.active:
                return original(*args, **kwargs)
            t0 = time.process_time()
            try:
                return original(*args, **kwargs)
            finally:
                self.seconds[label] += time.process_time() - t0

        if isinstance(owner, type) or not dataclasses.is_dataclass(owner):
            setattr(owner, name, timed)
        else:  # a GameDefinition is frozen: its decide is set as dataclasses set fields
            object.__setattr__(owner, name, timed)

    def wrap_hooks(self, app) -> None:
        """Flask's before- and after-request functions (rate limits, headers), each a step."""
        for hooks, when in ((app.before_request_funcs, "before"), (app.after_request_funcs, "after")):
            for funcs in hooks.values():
                for i, func in enumerate(funcs):
                    box = types.SimpleNamespace(func=func)
                    self.wrap(box, "func", f"{when} request: {func.__name__}")
                    funcs[i] = box.func


def clock_steps(services, app) -> StepClock:
    from service.audit.signing import Signer
    from service.games import service as game_service
    from service.games import store
    from service.games.titles import title

    clock = StepClock()
    clock.wrap(services.games, "execute", "the service's execute (all of what follows but the hooks)")
    clock.wrap(services.games, "seen", "  the cached state (seen)")
    clock.wrap(services.games, "live", "  the game read and folded (live: after a doubt only)")
    clock.wrap(game_service, "decode_command", "  decode the command")
    clock.wrap(title("kontor"), "decide", "  decide (Kontor's rules)")
    clock.wrap(game_service.GameService, "_append", "  append: encode, fold, read model, hash chain, SQL")
    clock.wrap(store.Tx, "append", "    of which the hash chain and the SQL statement")
    clock.wrap(services.notifications, "_version_notices", "      of which the players' notifications worked out")
    clock.wrap(Signer, "receipt", "  receipt signature (Ed25519)")
    clock.wrap(game_service.GameService, "_after_commit", "  after the commit: cache, wake streams, players told")
    clock.wrap(services.notifications, "told", "    of which the players told (their streams woken)")
    clock.wrap(services.notifications, "appended", "    of which the fan-out queued (one ZADD: behind only)")
    clock.wrap(services.games, "legal_commands", "GET legal-commands: the service's legal_commands")
    clock.wrap(title("kontor"), "legal_commands", "  the rules' legal commands")
    clock.wrap(title("kontor"), "view", "  the seat's view (for the commands in words; before words_view)")
    clock.wrap(title("kontor"), "words_view", "  the seat's words view (what the commands in words read)")
    clock.wrap(game_service, "describe_all", "  the commands in words")
    clock.wrap_hooks(app)
    return clock


class InsideTheApp:
    """The app's own CPU: its WSGI call and its answer's body, as a server runs them,
    without what Werkzeug's test client adds around them (building the request's
    environ, encoding its JSON, wrapping the answer): a server does that part in its own
    way (bench/http_games.py measures the whole over HTTP)."""

    def __init__(self, wsgi_app):
        self.wsgi_app = wsgi_app
        self.counting = False
        self.cpu = 0.0
        #: the app's own CPU in the GET legal-commands that precede the POSTs (kept apart)
        self.legal_cpu = 0.0
        self.steps: StepClock | None = None

    def __call__(self, environ, start_response):
        if not self.counting:
            return self.wsgi_app(environ, start_response)
        if self.steps:
            self.steps.active = True
        t0 = time.process_time()
        answer = self.wsgi_app(environ, start_response)
        try:
            body = list(answer)
        finally:
            if hasattr(answer, "close"):  # what a server calls last (the request's teardown)
                answer.close()
            if self.steps:
                self.steps.active = False
        self.cpu += time.process_time() - t0
        return body


def part_of(filename: str, func: str) -> str:
    where = filename if filename != "~" else func  # a builtin: its name says what it is
    for name, needles in PARTS:
        if any(n in where for n in needles):
            return name
    return "other"


def jsonb_written(play) -> list:
    """Every json/jsonb parameter the store sends while ``play()`` runs (psycopg's dumps
    function wrapped: the store's own still writes them)."""
    from psycopg.types.json import set_json_dumps

    from service.games.store import json_dumps

    written: list = []

    def keeping(value):
        written.append(value)
        return json_dumps(value)

    set_json_dumps(keeping)
    try:
        play()
    finally:
        set_json_dumps(json_dumps)
    return written


def print_jsonb(written: list, commands: int) -> None:
    """The CPU of encoding ``written`` again, by json.dumps and by the store's json_dumps
    (five rounds each, the best kept)."""
    import json

    from service.games.store import json_dumps

    def best(dumps) -> float:
        runs = []
        for _ in range(5):
            t0 = time.process_time()
            for value in written:
                dumps(value)
            runs.append(time.process_time() - t0)
        return min(runs)

    size = sum(len(json.dumps(value)) for value in written)
    print(f"\njsonb parameters: {len(written) / commands:.1f} a command ({size / commands:.0f} bytes of JSON; "
          f"the new games' own included; the GETs write none): the standard library's json.dumps "
          f"{best(json.dumps) / commands * 1e6:.1f} us a command, the store's json_dumps (orjson) "
          f"{best(json_dumps) / commands * 1e6:.1f} us")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--commands", type=int, default=600)
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--no-profile", action="store_true",
                        help="only the CPU per command (for a sampling profiler: py-spy record -- python ...)")
    parser.add_argument("--email", action="store_true",
                        help="players with an address: each notification's mail job is queued after the commit")
    parser.add_argument("--steps", action="store_true",
                        help="then the CPU of each step, measured without a profiler (StepClock)")
    parser.add_argument("--jsonb", action="store_true",
                        help="then the jsonb parameters a command writes, encoded again by the standard "
                             "library and by the store's json_dumps: CPU of each a command")
    args = parser.parse_args()
    name = bench_database() + "_profile"
    admin = admin_url()
    database_url, redis_url = fresh_database(name)
    os.environ.update(bench_env(database_url, redis_url, name.replace("_", "-")))
    from api import create_app
    from service.config import Settings
    from service.runtime.container import build
    from service.runtime.migrate import migrate

    migrate(database_url, database_url)
    services = build(Settings.from_env())
    app = create_app(services)
    inside = InsideTheApp(app.wsgi_app)
    app.wsgi_app = inside
    client = app.test_client()
    rng = random.Random(1)
    players = [client.post("/v1/players", json={"name": n, **({"email": f"{n.lower()}@example.org"}
                                                              if args.email else {})}).get_json()
               for n in ("Red", "Black")]
    auths = [{"Authorization": f"Bearer {p['token']}"} for p in players]

    def new_game():
        game = client.post("/v1/games", headers=auths[0], json={
            "title": "kontor", "options": {"variant": "basic"},
            "seats": [{"player_id": players[0]["id"]}, {"player_id": players[1]["id"]}]}).get_json()
        started = client.post(f"/v1/games/{game['id']}/seats/1/accept", headers=auths[1]).get_json()
        # the start's fan-out, as a worker runs it: from then on each append tells the
        # players itself (docs/notifications.md), as in a deployment whose workers keep up
        services.notifications.fan_out_game(started["id"], started["version"])
        return started

    def commands(n: int, profile: cProfile.Profile | None) -> float:
        """Play n commands; the process CPU of the POSTs alone (the app's part of it
        counted by ``inside``)."""
        cpu = 0.0
        inside.cpu = inside.legal_cpu = 0.0
        game = new_game()
        done = 0
        while done < n:
            if game["status"] != "active":
                game = new_game()
                continue
            seat = rng.choice(game["to_act"])
            before = inside.cpu
            inside.counting = True
            legal = client.get(f"/v1/games/{game['id']}/legal-commands", headers=auths[seat]).get_json()
            inside.counting = False
            inside.legal_cpu += inside.cpu - before
            inside.cpu = before
            body = {"command": rng.choice(legal["commands"]), "expected_version": legal["version"]}
            t0 = time.process_time()
            if profile:
                profile.enable()
            inside.counting = True
            response = client.post(f"/v1/games/{game['id']}/commands", headers=auths[seat], json=body)
            inside.counting = False
            if profile:
                profile.disable()
            cpu += time.process_time() - t0
            assert response.status_code == 201, response.get_data(as_text=True)
            outcome = response.get_json()
            game = {**game, "status": outcome["status"], "to_act": outcome["to_act"]}
            done += 1
        return cpu

    try:
        commands(50, None)  # warm: imports, caches, the pool
        cpu = commands(args.commands, None)
        app_cpu, legal_cpu = inside.cpu, inside.legal_cpu
        step_clock = None
        if args.steps:  # a run of its own: the wrappers' own cost stays out of the figures above
            step_clock = inside.steps = clock_steps(services, app)
            commands(args.commands, None)
            steps_app_cpu = inside.cpu
        written = jsonb_written(lambda: commands(args.commands, None)) if args.jsonb else None
        profile = None if args.no_profile else cProfile.Profile(time.process_time)  # CPU, not waits
        if profile:
            inside.steps = None
            commands(args.commands, profile)
    finally:
        services.close()
        os.environ["DATABASE_URL"] = admin
        drop_database(name)
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"API CPU per POST /commands (Kontor basic, in-process, profiler off): "
          f"{cpu / args.commands * 1000:.2f} ms over {args.commands} commands, "
          f"of which the app's own (its WSGI call, without the test client): {app_cpu / args.commands * 1000:.2f} ms")
    print(f"the app's own CPU per GET legal-commands (the one before each command): "
          f"{legal_cpu / args.commands * 1000:.2f} ms")
    if step_clock is not None:
        print(f"\nby step, the process time of each (no profiler; the app's own {steps_app_cpu / args.commands * 1000:.2f}"
              " ms a command in this run, the steps' wrappers included):")
        for label, seconds in step_clock.seconds.items():
            print(f"  {label:62} {seconds / args.commands * 1000:6.3f} ms/command")
    if written is not None:
        print_jsonb(written, args.commands)
    if profile is None:
        return 0
    stats = pstats.Stats(profile)
    parts: dict[str, float] = {}
    total = 0.0
    for (filename, _line, func), (_cc, _nc, tottime, _ct, _callers) in stats.stats.items():
        part = part_of(filename, func)
        parts[part] = parts.get(part, 0.0) + tottime
        total += tottime
    print(f"\nprofiled ({total / args.commands * 1000:.2f} ms a command with the profiler's overhead), "
          f"own time by part of the path:")
    for part, seconds in sorted(parts.items(), key=lambda kv: -kv[1]):
        print(f"  {part:34} {seconds / total * 100:5.1f}%  {seconds / args.commands * 1000:6.3f} ms/command")
    print("\nby step of POST /commands (cumulative: a step includes what it calls; the"
          " profiler's overhead inflates steps of many small calls):")
    for name, seconds in steps(stats):
        print(f"  {name:58} {seconds / args.commands * 1000:6.3f} ms/command")
    print()
    stats.sort_stats("cumulative").print_stats(args.top)
    stats.sort_stats("tottime").print_stats(args.top)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
