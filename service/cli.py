"""The `entrepot` command: serve, worker, migrate.

`serve` runs everything a player needs: PostgreSQL and Redis (embedded unless
DATABASE_URL / REDIS_URL are set), migrations, the API under uvicorn and an RQ worker.
The API (api.asgi: async streams, the Flask routes in a thread pool) and the worker
(python -m workers) run as their own processes.
"""

from __future__ import annotations

import argparse
import logging
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from service.embedded import EmbeddedEngines, default_data_dir
from service.instance_lock import AlreadyRunning, InstanceLock
from service.migrate import migrate

log = logging.getLogger("entrepot")


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
    serve.add_argument("--smtp-in-port", type=int, default=None,
                       help="also listen for reply mails (moves by email) by SMTP on this port")
    worker = sub.add_parser("worker", help="run an RQ worker (computer seats, sweeper)")
    worker.add_argument("--burst", action="store_true", help="stop when the queue is empty")
    worker.add_argument("--queues", default="main,ai,webhooks",
                        help="comma-separated: main (short jobs), ai (computer moves), webhooks (deliveries)")
    worker.add_argument("--sweep-every", type=float, default=None,
                        help="seconds between sweeps (default 10): a lost timer job fires at most this late")
    sub.add_parser("migrate", help="apply database migrations")
    sub.add_parser("mail-in", help="handle one reply mail (RFC 5322) from standard input, for an MTA's pipe")
    # dispatched by service.entry before this parser (the verifier needs no server)
    sub.add_parser("verify", help="check a game's audit record offline (entrepot verify --help)")
    keys = sub.add_parser("retire-key", help="end the validity of a signing key (after a rotation)")
    keys.add_argument("key_id")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")

    if args.command == "migrate":
        app_url = _require("DATABASE_URL")
        for name in migrate(os.environ.get("ENTREPOT_MIGRATE_DATABASE_URL") or app_url, app_url):
            print(f"applied {name}")
        return 0
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


def _retire_key(key_id: str) -> int:
    from service.signing import KeyRing
    from service.store import Store

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
    from service.container import build
    from service.mail.inbound import Inbound, Unparseable, transient

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


def serve_all(args) -> int:
    data_dir = args.data_dir or default_data_dir()
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
        from service.signing import load_signing_key

        Path(data_dir).mkdir(parents=True, exist_ok=True)
        env["ENTREPOT_SIGNING_KEY_FILE"] = str(Path(data_dir) / "signing-key")
        load_signing_key(None, env["ENTREPOT_SIGNING_KEY_FILE"])  # made once, before the workers
    try:
        if not env.get("DATABASE_URL"):
            owner_url = engines.start_postgres()
            env["ENTREPOT_MIGRATE_DATABASE_URL"] = owner_url
            env["DATABASE_URL"] = engines.app_database_url(owner_url)
        if not env.get("REDIS_URL"):
            env["REDIS_URL"] = engines.start_redis()
        for name in migrate(env.get("ENTREPOT_MIGRATE_DATABASE_URL") or env["DATABASE_URL"], env["DATABASE_URL"]):
            log.info("applied migration %s", name)
        env["ENTREPOT_THREADS"] = str(args.threads)
        # every process writes mails (without SMTP) to the same folder, and links to this server
        env["ENTREPOT_DATA_DIR"] = str(data_dir)
        env.setdefault("ENTREPOT_PUBLIC_URL", f"http://{args.host}:{args.port}")
        api = [
            sys.executable, "-m", "uvicorn", "--factory", "api.asgi:create_asgi_app",
            "--host", args.host, "--port", str(args.port),
            "--workers", str(args.workers),
            "--timeout-graceful-shutdown", "5",  # open streams end; clients resume by Last-Event-ID
        ]
        commands = [api]
        # short jobs (clocks, mail) get a worker of their own: never behind a search
        commands.append([sys.executable, "-m", "workers", "--queues", "main"])
        for _ in range(args.rq_workers):
            commands.append([sys.executable, "-m", "workers", "--queues", "ai"])
        # webhook deliveries too: a receiver that stalls holds only this worker, never the clocks
        commands.append([sys.executable, "-m", "workers", "--queues", "webhooks"])
        if args.smtp_in_port is not None:
            commands.append([sys.executable, "-m", "service.mail.listener", "--host", args.host,
                             "--port", str(args.smtp_in_port)])
            log.info("reply mails by SMTP on %s:%s", args.host, args.smtp_in_port)
        children = [Child(command, env) for command in commands]
        log.info("Entrepot is serving on http://%s:%s", args.host, args.port)
        return _supervise(children)
    finally:
        engines.stop()
        lock.release()


#: A child that died is started again; one that dies this often within RESTART_WINDOW
#: seconds is broken (a bad setting, a missing dependency): serve stops, saying so.
MAX_RESTARTS = 5
RESTART_WINDOW = 60.0


class Child:
    """A child process of serve, started again when it dies (kill -9 of a worker must not
    stop the server, nor leave a kind of work undone: /v1/health reports it meanwhile)."""

    def __init__(self, command: list[str], env: dict[str, str]):
        self.command, self.env = command, env
        self.restarts: list[float] = []
        self.process = subprocess.Popen(command, env=env)

    def poll(self):
        return self.process.poll()

    def restart(self) -> bool:
        """Start it again, unless it died too often lately (then False)."""
        now = time.monotonic()
        self.restarts = [t for t in self.restarts if now - t < RESTART_WINDOW] + [now]
        if len(self.restarts) > MAX_RESTARTS:
            return False
        self.process = subprocess.Popen(self.command, env=self.env)
        return True


def _supervise(children: list[Child]) -> int:
    stopping = False

    def stop(signum, _frame):
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    code = 0
    while not stopping:
        for child in children:
            if child.poll() is None or stopping:
                continue
            returncode = child.process.returncode
            if child.restart():
                log.warning("a child process (%s) exited with %s; started it again (pid %s)",
                            " ".join(child.command[2:4]), returncode, child.process.pid)
            else:
                log.error("a child process (%s) exited %s times within %s s; stopping",
                          " ".join(child.command[2:4]), MAX_RESTARTS + 1, RESTART_WINDOW)
                stopping, code = True, returncode or 1
        time.sleep(0.5)
    for child in children:
        if child.poll() is None:
            child.process.terminate()
    for child in children:
        try:
            child.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            child.process.kill()
    return code


if __name__ == "__main__":
    raise SystemExit(main())
