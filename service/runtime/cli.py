"""The `entrepot` command: serve, worker, migrate.

`serve` runs everything a player needs: PostgreSQL and Redis (embedded unless
DATABASE_URL / REDIS_URL are set), migrations, the API under uvicorn and an RQ worker.
The API (api.asgi: async streams, the Flask routes in a thread pool) and the worker
(python -m workers) run as their own processes.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from service.observability import logs
from service.runtime.embedded import EmbeddedEngines, default_data_dir
from service.runtime.instance_lock import AlreadyRunning, InstanceLock
from service.runtime.lifeline import die_with_parent
from service.runtime.migrate import migrate

log = logging.getLogger("entrepot")

#: how long `serve` waits for its API to answer before it gives up
START_SECONDS = 120.0


def _workers_default() -> int:
    return max(2, os.cpu_count() or 1)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="entrepot", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    serve = sub.add_parser("serve", help="run the API, a worker, and embedded engines if needed")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--data-dir", type=Path, default=None, help="where embedded engines keep data")
    serve.add_argument("--workers", type=int, default=_workers_default(), help="API processes (uvicorn)")
    serve.add_argument("--threads", type=int, default=8,
                       help="threads per API process for the non-stream routes (streams need none)")
    serve.add_argument("--rq-workers", type=int, default=1,
                       help="RQ worker processes for computer moves (plus one for short jobs)")
    serve.add_argument("--metrics-port", type=int, default=None,
                       help="serve Prometheus metrics of every process on 127.0.0.1:PORT/metrics "
                            "(default: ENTREPOT_METRICS_PORT, else none)")
    serve.add_argument("--smtp-in-port", type=int, default=None,
                       help="also listen for reply mails (moves by email) by SMTP on this port")
    serve.add_argument("--verbose", action="store_true",
                       help="show every process's log here, the embedded engines' setup included"
                            " (otherwise it goes to DATA_DIR/entrepot.log)")
    worker = sub.add_parser("worker", help="run an RQ worker (computer seats, sweeper)")
    worker.add_argument("--burst", action="store_true", help="stop when the queue is empty")
    worker.add_argument("--queues", default="main,ai,webhooks",
                        help="comma-separated: main (short jobs), ai (computer moves), webhooks (deliveries)")
    worker.add_argument("--sweep-every", type=float, default=None,
                        help="seconds between sweeps (default 10): a lost timer job fires at most this late")
    sub.add_parser("migrate", help="apply database migrations")
    sub.add_parser("mail-in", help="handle one reply mail (RFC 5322) from standard input, for an MTA's pipe")
    # dispatched by service.runtime.entry before this parser (the verifier needs no server)
    sub.add_parser("verify", help="check a game's audit record offline (entrepot verify --help)")
    ratings = sub.add_parser("ratings", help="the ratings' projection (service/lobby/ratings.py)")
    ratings.add_argument("--rebuild", action="store_true",
                         help="forget every rating and rate every finished rated game again from its events")
    sub.add_parser("turns", help="the games waiting for you, most urgent first (--url, --token)")
    keys = sub.add_parser("retire-key", help="end the validity of a signing key (after a rotation)")
    keys.add_argument("key_id")
    args = parser.parse_args(argv)
    if args.command != "serve":  # serve sets its own up: a terminal of its own, a log file
        logs.configure()

    if args.command == "migrate":
        app_url = _require("DATABASE_URL")
        for name in migrate(os.environ.get("ENTREPOT_MIGRATE_DATABASE_URL") or app_url, app_url):
            print(f"applied {name}")
        return 0
    if args.command == "ratings":
        return _ratings(args.rebuild)
    if args.command == "retire-key":
        return _retire_key(args.key_id)
    if args.command == "mail-in":
        return _mail_in()
    if args.command == "worker":
        _require("DATABASE_URL")
        _require("REDIS_URL")
        cmd = [sys.executable, "-m", "workers", "--queues", args.queues]
        cmd += ["--burst"] if args.burst else []
        if args.sweep_every is not None:
            cmd += ["--sweep-every", str(args.sweep_every)]
        os.execv(sys.executable, cmd)
    return serve_all(args)


def _ratings(rebuild: bool) -> int:
    from service.games.store import Store
    from service.lobby.ratings import RatingService

    if not rebuild:
        print("entrepot ratings: say what to do (--rebuild)", file=sys.stderr)
        return 2
    store = Store(_require("DATABASE_URL"), min_size=1, max_size=2)
    try:
        print(f"rated {RatingService(store).rebuild()} games")
    finally:
        store.close()
    return 0


def _retire_key(key_id: str) -> int:
    from service.audit.signing import KeyRing
    from service.games.store import Store

    store = Store(_require("DATABASE_URL"), min_size=1, max_size=1)
    try:
        retired = KeyRing(store, None).retire(key_id)
    finally:
        store.close()
    print(f"key {key_id} retired" if retired else f"no signing key {key_id} in service")
    return 0 if retired else 1


def _mail_in() -> int:
    """0 once the message is handled (played, or refused with an answer mail); 1 for
    input that is no mail message or is refused for good (over a bound, or a message the
    parser chokes on: never retried); 75 (EX_TEMPFAIL: the MTA retries) only when a
    backing service is down."""
    from service.config import Settings
    from service.mail.inbound import Inbound, Unparseable, transient
    from service.runtime.container import build

    _require("DATABASE_URL")
    _require("REDIS_URL")
    from service.mail.guard import MAX_MESSAGE_BYTES

    raw = sys.stdin.buffer.read(MAX_MESSAGE_BYTES + 1)  # more is refused unread (service/mail/guard.py)
    services = build(Settings.from_env())
    try:
        outcome = Inbound(services.mailer).handle(raw)
    except Unparseable as err:
        print(f"entrepot mail-in: {err}", file=sys.stderr)
        return 1
    except Exception as err:
        log.exception("entrepot mail-in: could not handle the message")
        return 75 if transient(err) else 1
    finally:
        services.close()
    print(outcome.reason)
    return 0


def _require(name: str) -> str:
    value = os.environ.get(name)
    if not value:
        sys.exit(f"entrepot: {name} is not set")
    return value


def _log_to(data_dir: Path, verbose: bool):
    """Where serve's log (and its children's output) goes: the terminal with --verbose,
    else DATA_DIR/entrepot.log, the terminal showing only warnings. Returns the file
    the children write to (None: the terminal)."""
    root = logging.getLogger()
    root.setLevel(logging.INFO)
    if verbose:
        logs.configure()  # one JSON object per line, on the terminal
        return None
    Path(data_dir).mkdir(parents=True, exist_ok=True)
    path = Path(data_dir) / "entrepot.log"
    to_file = logging.FileHandler(path)
    to_file.setFormatter(logs.JsonFormatter())
    on_screen = logging.StreamHandler(sys.stderr)
    on_screen.setLevel(logging.WARNING)
    on_screen.setFormatter(logging.Formatter("entrepot: %(message)s"))
    root.addHandler(to_file)
    root.addHandler(on_screen)
    logging.captureWarnings(True)  # the engines' libraries' warnings: to the file only
    warnings_log = logging.getLogger("py.warnings")
    warnings_log.propagate = False
    warnings_log.addHandler(to_file)
    return open(path, "ab")


class _Interrupted(Exception):
    pass


def uvicorn_command(factory: str, host: str, port: int, workers: int,
                    log_config: Path | None = None) -> list[str]:
    """The API server `serve` runs (bench/http_games.py runs its bare floor app the same way)."""
    logging_options = ["--log-config", str(log_config)] if log_config is not None else []
    return [
        sys.executable, "-m", "uvicorn", "--factory", factory,
        "--host", host, "--port", str(port),
        "--workers", str(workers),
        # TCP_NODELAY on every connection: without it a kept-alive request waited ~40 ms
        # for a delayed ACK (api/tcp.py)
        "--http", "api.tcp:NoDelayHTTPProtocol",
        "--timeout-graceful-shutdown", "5",  # open streams end; clients resume by Last-Event-ID
        # uvicorn kills a child that does not answer its health ping within this time; its
        # default (5 s) is shorter than a spawned child's start on a busy machine, and serve
        # then never came up (children killed and restarted over and over)
        "--timeout-worker-healthcheck", "60",
        *logging_options,
    ]


def serve_all(args) -> int:
    data_dir = args.data_dir or default_data_dir()
    output = _log_to(data_dir, getattr(args, "verbose", False))
    # Ctrl-C or SIGTERM at any moment, the engines' start included, ends in the cleanup
    # below: nothing of this server is left running
    stopping = _stop_flag()
    engines = EmbeddedEngines(data_dir)
    env = dict(os.environ)
    lock = InstanceLock(data_dir)
    if not (env.get("DATABASE_URL") and env.get("REDIS_URL")):  # an embedded engine will run
        try:
            lock.acquire()
        except AlreadyRunning as err:
            print(f"entrepot: {err}", file=sys.stderr)
            return 1
    if not env.get("ENTREPOT_SIGNING_KEY") and not env.get("ENTREPOT_SIGNING_KEY_FILE"):
        # every process signs receipts with the same key, kept (mode 0600) across restarts
        from service.audit.signing import load_signing_key

        Path(data_dir).mkdir(parents=True, exist_ok=True)
        env["ENTREPOT_SIGNING_KEY_FILE"] = str(Path(data_dir) / "signing-key")
        load_signing_key(None, env["ENTREPOT_SIGNING_KEY_FILE"])  # made once, before the workers
    children: list[Child] = []

    def spawn(command: list[str]) -> subprocess.Popen:
        return subprocess.Popen(command, env=env, stdout=output, stderr=output, preexec_fn=die_with_parent)

    def start(command: list[str]) -> None:
        if stopping():
            raise _Interrupted
        children.append(Child(command, spawn))

    try:
        if not env.get("DATABASE_URL"):
            owner_url = engines.start_postgres()
            env["ENTREPOT_MIGRATE_DATABASE_URL"] = owner_url
            env["DATABASE_URL"] = engines.app_database_url(owner_url)
        if not env.get("REDIS_URL") and not stopping():
            env["REDIS_URL"] = engines.start_redis()
        if stopping():
            raise _Interrupted
        for name in migrate(env.get("ENTREPOT_MIGRATE_DATABASE_URL") or env["DATABASE_URL"], env["DATABASE_URL"]):
            log.info("applied migration %s", name)
        metrics_port = args.metrics_port or int(env.pop("ENTREPOT_METRICS_PORT", "0") or 0)
        if metrics_port:
            _serve_metrics(env, Path(data_dir), metrics_port)
        env["ENTREPOT_THREADS"] = str(args.threads)
        # every process writes mails (without SMTP) to the same folder, and links to this server
        env["ENTREPOT_DATA_DIR"] = str(data_dir)
        env.setdefault("ENTREPOT_PUBLIC_URL", f"http://{args.host}:{args.port}")
        start(uvicorn_command("api.asgi:create_asgi_app", args.host, args.port, args.workers,
                              log_config=_uvicorn_log_config(Path(data_dir))))  # its lines in JSON too
        # short jobs (clocks, mail) get a worker of their own: never behind a search
        start([sys.executable, "-m", "workers", "--queues", "main"])
        for _ in range(args.rq_workers):
            start([sys.executable, "-m", "workers", "--queues", "ai"])
        # webhook deliveries too: a receiver that stalls holds only this worker, never the clocks
        start([sys.executable, "-m", "workers", "--queues", "webhooks"])
        if args.smtp_in_port is not None:
            start([sys.executable, "-m", "service.runtime.mail_listener", "--host", args.host,
                   "--port", str(args.smtp_in_port)])
        if not _answers(args.host, args.port, children, stopping):
            return 1 if not stopping() else 0
        url = f"http://{args.host}:{args.port}"
        log.info("Entrepot is serving on %s", url)
        if output is not None:
            print(f"Log: {Path(data_dir) / 'entrepot.log'}")
        if args.smtp_in_port is not None:
            print(f"Reply mails (moves by email) by SMTP on {args.host}:{args.smtp_in_port}")
        print(f"Entrepot is serving on {url} (Ctrl-C stops it)", flush=True)
        return _supervise(children, stopping)
    except (_Interrupted, KeyboardInterrupt):
        return 0
    finally:
        _stop_children(children)
        engines.stop()
        lock.release()
        if output is not None:
            output.close()


#: A child that died is started again; one that dies this often within RESTART_WINDOW
#: seconds is broken (a bad setting, a missing dependency): serve stops, saying so.
MAX_RESTARTS = 5
RESTART_WINDOW = 60.0


class Child:
    """A child process of serve, started again when it dies (kill -9 of a worker must not
    stop the server, nor leave a kind of work undone: /v1/health reports it meanwhile)."""

    def __init__(self, command: list[str], spawn):
        self.command, self.spawn = command, spawn
        self.restarts: list[float] = []
        self.process: subprocess.Popen = spawn(command)

    def poll(self):
        return self.process.poll()

    def restart(self) -> bool:
        """Start it again, unless it died too often lately (then False)."""
        now = time.monotonic()
        self.restarts = [t for t in self.restarts if now - t < RESTART_WINDOW] + [now]
        if len(self.restarts) > MAX_RESTARTS:
            return False
        self.process = self.spawn(self.command)
        return True


def _serve_metrics(env: dict, data_dir: Path, port: int) -> None:
    """Every child writes its samples to one folder (prometheus-client's multiprocess
    mode), emptied now; this process serves their sum on 127.0.0.1:port."""
    folder = Path(env.get("PROMETHEUS_MULTIPROC_DIR") or data_dir / "metrics")
    folder.mkdir(parents=True, exist_ok=True)
    for stale in folder.glob("*.db"):
        stale.unlink()
    env["PROMETHEUS_MULTIPROC_DIR"] = os.environ["PROMETHEUS_MULTIPROC_DIR"] = str(folder)
    # only now: prometheus-client reads the folder at import
    from service.job_queue import fanouts_key, watched_queues
    from service.observability import metrics

    queue = env.get("ENTREPOT_QUEUE", "entrepot")
    metrics.serve(port, redis_url=env["REDIS_URL"], queue_names=watched_queues(queue), fanouts_key=fanouts_key(queue))


def _uvicorn_log_config(data_dir: Path) -> Path:
    path = data_dir / "uvicorn-log.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(logs.log_config(os.environ.get("ENTREPOT_LOG_LEVEL", "INFO").upper())))
    return path


def _stop_flag():
    """Turn SIGINT and SIGTERM into a flag (the cleanup runs in serve's own time)."""
    stopped = []

    def stop(signum, _frame):
        stopped.append(signum)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    return lambda: bool(stopped)


def _answers(host: str, port: int, children: list[Child], stopping) -> bool:
    """Wait until the API answers its health check (the children still running)."""
    import urllib.request

    probe = f"http://{'127.0.0.1' if host in ('0.0.0.0', '') else host}:{port}/v1/health"
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline and not stopping():
        for child in children:  # one that stops while the others start: as in _supervise
            if child.poll() is not None and not _start_again(child):
                return False
        try:
            with urllib.request.urlopen(probe, timeout=2) as answer:
                if answer.status == 200:
                    return True
        except OSError:
            pass
        time.sleep(0.2)
    if not stopping():
        log.error("the API did not answer within %.0f s: see the log", START_SECONDS)
    return False


def _supervise(children: list[Child], stopping) -> int:
    code = 0
    while not stopping():
        for child in children:
            if child.poll() is not None and not _start_again(child):
                return child.process.returncode or 1
        time.sleep(0.5)
    return code


def _start_again(child: Child) -> bool:
    """A child that exited is started again, and the log says so (while the server starts
    as later); False when it died too often lately."""
    returncode, pid = child.process.returncode, child.process.pid
    _process_died(pid)
    if child.restart():
        log.warning("a child process (%s) exited with %s; started it again (pid %s)",
                    " ".join(child.command[2:4]), returncode, child.process.pid)
        return True
    log.error("a child process (%s) exited %s times within %s s; stopping",
              " ".join(child.command[2:4]), MAX_RESTARTS + 1, RESTART_WINDOW)
    return False


def _stop_children(children: list[Child]) -> None:
    for child in children:
        if child.poll() is None:
            child.process.terminate()
    for child in children:
        try:
            child.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            child.process.kill()
            child.process.wait()


def _process_died(pid: int) -> None:
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from service.observability import metrics

        metrics.process_died(pid)


if __name__ == "__main__":
    raise SystemExit(main())
