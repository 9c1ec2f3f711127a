"""Notification lag: 1,000 players, each with a webhook (all to one local receiver) and an
email address, and 200 two-seat Kontor games moving.

Moves go through the service's one write path from this process (``--movers`` threads);
``--workers`` `python -m workers --queues main` processes run the fan-out, the webhook
deliveries and the (mail side's) mail jobs, on one PostgreSQL and one Redis. The receiver
(http.server, threaded) verifies every signature with the Standard Webhooks library.

Prints the lag of every webhook delivery from its notification's commit (the time recorded
on the events that caused it) to the moment the receiver got it: p50, p99, max; and checks
that every notification of a subscribed type arrived, exactly once per webhook-id, verified.
Bounded: it waits at most ``--drain`` seconds after the last move.

An aiosmtpd sink is started and ENTREPOT_SMTP_URL points the workers at it: the mail lag
(commit to the sink's receipt) is printed too.

    python bench/notifications.py [--players 1000] [--games 200] [--moves 5] [--rate 4] [--workers 2]

Uses DATABASE_URL (an admin URL: it creates and drops the database entrepot_bench_notify)
and REDIS_URL's server with database index 11 (flushed at start), else 127.0.0.1.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from email.parser import BytesParser
from email.policy import default
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import psycopg
from aiosmtpd.controller import Controller
from redis import Redis
from rq import Queue, Worker
from standardwebhooks.webhooks import Webhook, WebhookVerificationError

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from http_games import fresh_database  # noqa: E402 - bench/ is on the path as the script's folder

from service.config import Settings  # noqa: E402 - after the path is set
from service.errors import ServiceError  # noqa: E402
from service.games.service import SeatRequest  # noqa: E402
from service.runtime.container import build  # noqa: E402

REDIS_DB = 11
WEBHOOK_KEY = base64.b64encode(os.urandom(32)).decode()


class Receiver:
    def __init__(self):
        self.secrets: dict[str, str] = {}
        self.got: list[tuple[str, float, dict, bool]] = []  # webhook-id, received, body, verified
        self.lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                received = time.time()
                raw = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                headers = {k.lower(): v for k, v in self.headers.items()}
                try:
                    body, ok = Webhook(receiver.secrets[self.path]).verify(raw, headers), True
                except (WebhookVerificationError, KeyError):
                    body, ok = json.loads(raw), False
                with receiver.lock:
                    receiver.got.append((headers.get("webhook-id", ""), received, body, ok))
                self.send_response(204)
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.server.request_queue_size = 256
        self.url = f"http://127.0.0.1:{self.server.server_port}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()


class MailSink:
    """An aiosmtpd SMTP server that keeps each message's arrival time and headers."""

    def __init__(self):
        self.got: list[tuple[float, bytes]] = []
        sink = self

        class Handler:
            async def handle_DATA(self, server, session, envelope):
                sink.got.append((time.time(), envelope.content))
                return "250 OK"

        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        self.controller = Controller(Handler(), hostname="127.0.0.1", port=port)
        self.controller.start()
        self.url = f"smtp://127.0.0.1:{port}"

    def stop(self):
        self.controller.stop()


def drain(database_url: str, queue: Queue, seconds: float) -> bool:
    """Wait until every game is fanned out, every delivery settled and the workers' queue
    empty (mails included); False on timeout."""
    end = time.monotonic() + seconds
    with psycopg.connect(database_url, autocommit=True) as conn:
        while time.monotonic() < end:
            if queue.count or queue.started_job_registry.count:
                time.sleep(0.5)
                continue
            behind = conn.execute(
                "SELECT count(*) FROM games g LEFT JOIN game_fanouts f ON f.game_id = g.id"
                " WHERE g.version > coalesce(f.notified_version, 0)").fetchone()[0]
            undelivered = conn.execute(
                "SELECT count(*) FROM webhook_deliveries WHERE state NOT IN ('delivered', 'failed')").fetchone()[0]
            if not behind and not undelivered:
                return True
            time.sleep(0.5)
    return False


def message_id_of(notification_id: int) -> str:
    """The Message-ID the mail side gives the mail of a notification (its claim key,
    ``notification:<id>``, hashed: service/mail/compose.py)."""
    return hashlib.sha256(f"notification:{notification_id}".encode()).hexdigest()[:40]


def quantiles(values: list[float]) -> tuple[float, float, float]:
    ordered = sorted(values)
    if len(ordered) < 2:
        return (ordered[0],) * 3 if ordered else (float("nan"),) * 3
    q = statistics.quantiles(ordered, n=100)
    return q[49], q[98], ordered[-1]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--moves", type=int, default=5, help="moves per game")
    parser.add_argument("--rate", type=float, default=4.0,
                        help="moves per second in all (0: as fast as the movers go); the lag of a queue"
                             " the workers cannot drain measures only the backlog")
    parser.add_argument("--movers", type=int, default=8, help="threads playing moves")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--mail-window", type=float, default=0.0,
                        help="the mail side's coalescing window (ENTREPOT_MAIL_WINDOW); 0: every notification"
                             " is mailed, so that each one's mail lag is measured")
    parser.add_argument("--drain", type=float, default=120.0, help="seconds to wait for deliveries after the last move")
    args = parser.parse_args()
    database_url, redis_url = fresh_database("entrepot_bench_notify")
    redis_url = redis_url.rsplit("/", 1)[0] + f"/{REDIS_DB}"
    Redis.from_url(redis_url).flushdb()
    queue = f"entrepot-bench-notify-{uuid.uuid4().hex[:6]}"
    sink = MailSink()
    env = {**os.environ, "PYTHONPATH": str(ROOT), "DATABASE_URL": database_url, "REDIS_URL": redis_url,
           "ENTREPOT_QUEUE": queue, "ENTREPOT_WEBHOOK_KEY": WEBHOOK_KEY, "ENTREPOT_WEBHOOK_ALLOW_PRIVATE": "1",
           "ENTREPOT_POOL_MAX": "6", "ENTREPOT_SMTP_URL": sink.url, "ENTREPOT_MAIL_WINDOW": str(args.mail_window)}
    subprocess.run([sys.executable, "-m", "service.runtime.cli", "migrate"], cwd=ROOT, env=env, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    receiver = Receiver()
    services = build(Settings(database_url=database_url, redis_url=redis_url, queue_name=queue, pool_max=args.movers + 2,
                              webhook_key=WEBHOOK_KEY, webhook_allow_private=True))
    log = open(ROOT / "bench" / "notifications-workers.log", "w")  # noqa: SIM115 - closed at the end
    workers = [subprocess.Popen([sys.executable, "-m", "workers", "--queues", "main", "--sweep-every", "2"],
                                cwd=ROOT, env=env, stdout=log, stderr=log, start_new_session=True)
               for _ in range(args.workers)]
    try:
        started = time.monotonic()

        def sign_up(i: int):
            player = services.players.create(f"P{i}", f"p{i}@bench.example").player
            path = f"/p{i}"
            receiver.secrets[path] = services.webhooks.register(
                player, receiver.url + path, ["your_turn", "reminder", "finished", "message"]).secret
            return player

        with ThreadPoolExecutor(args.movers) as pool:
            players = list(pool.map(sign_up, range(args.players)))
        print(f"{args.players} players with a webhook and an email in {time.monotonic() - started:.1f} s")
        ready = time.monotonic() + 60
        rq_queue = Queue(queue, connection=Redis.from_url(redis_url))
        while Worker.count(queue=rq_queue) < args.workers:
            if time.monotonic() > ready:
                raise SystemExit("the workers did not start")
            time.sleep(0.2)
        games = []
        for g in range(args.games):
            a, b = players[(2 * g) % len(players)], players[(2 * g + 1) % len(players)]
            snapshot = services.games.create(a, "kontor", {"variant": "basic"},
                                             [SeatRequest(player_id=a.id), SeatRequest(player_id=b.id)])
            services.games.accept(b, snapshot.game.id, 1)
            games.append((snapshot.game.id, [a, b]))
        with psycopg.connect(database_url, autocommit=True) as conn:  # the bench's players own their addresses
            conn.execute("UPDATE players SET email_verified_at = now()")
        setup_drained = drain(database_url, rq_queue, 600)
        with psycopg.connect(database_url, autocommit=True) as conn:
            watermark = conn.execute("SELECT coalesce(max(id), 0) FROM notifications").fetchone()[0]
        print(f"{args.games} games started; their {watermark} start notifications"
              f" {'delivered' if setup_drained else 'NOT drained'} before the moves (not counted below)")
        errors: list[str] = []
        pending = list(games)
        lock = threading.Lock()

        slots = iter(range(10**9))

        def paced() -> None:
            if args.rate:
                with lock:
                    n = next(slots)
                time.sleep(max(0.0, move_start + n / args.rate - time.monotonic()))

        def mover(seed: int) -> None:
            rng = random.Random(seed)
            while True:
                with lock:
                    if not pending:
                        return
                    game_id, seats = pending.pop(rng.randrange(len(pending)))
                for _ in range(args.moves):
                    game = services.games.get(game_id, seats[0]).game
                    if game.status != "active":
                        break
                    seat = rng.choice(game.to_act)
                    legal = services.games.legal_commands(game_id, seats[seat], seat)
                    paced()
                    try:
                        services.games.execute(seats[seat], game_id, seat, rng.choice(legal.commands),
                                               expected_version=legal.version)
                    except ServiceError as err:
                        errors.append(f"{type(err).__name__}: {err}")
                        break

        move_start = time.monotonic()
        threads = [threading.Thread(target=mover, args=(i,)) for i in range(args.movers)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        moved_in = time.monotonic() - move_start
        drained = not drain(database_url, rq_queue, args.drain)
        time.sleep(2)  # the mails of the last moves may still be on their way
        with psycopg.connect(database_url, autocommit=True) as conn:
            moves = conn.execute("SELECT count(*) FROM commands WHERE sender ->> 'kind' = 'player'").fetchone()[0]
            rows = conn.execute("SELECT id, at FROM notifications WHERE id > %s", (watermark,)).fetchall()
            mails_sent = dict(conn.execute("SELECT kind, count(*) FROM mails_sent WHERE sent_at IS NOT NULL"
                                           " GROUP BY kind").fetchall())
            states = dict(conn.execute("SELECT state, count(*) FROM webhook_deliveries GROUP BY state").fetchall())
            delivery_of = dict(conn.execute(
                "SELECT replace(id::text, '-', ''), notification_id FROM webhook_deliveries").fetchall())
    finally:
        for w in workers:
            try:
                os.killpg(w.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
        for w in workers:
            try:
                w.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(w.pid, signal.SIGKILL)
                w.wait()
        log.close()
        services.close()

    committed = {nid: at.timestamp() for nid, at in rows}
    per_id: dict[str, int] = {}
    lags = []
    for msg_id, received, _body, _ok in receiver.got:
        notification = delivery_of.get(msg_id.removeprefix("msg_"))
        if notification not in committed:
            continue  # a start notification
        per_id[msg_id] = per_id.get(msg_id, 0) + 1
        if per_id[msg_id] == 1:
            lags.append(received - committed[notification])
    doubled = sum(1 for n in per_id.values() if n > 1)
    unverified = sum(1 for *_, ok in receiver.got if not ok)  # start notifications included
    lost = len(committed) - len(per_id)
    p50, p99, worst = quantiles(lags)
    print(f"command: python bench/notifications.py --players {args.players} --games {args.games} "
          f"--moves {args.moves} --rate {args.rate:g} --movers {args.movers} --workers {args.workers}"
          f" --mail-window {args.mail_window:g}")
    print(f"layout: moves through the service from {args.movers} threads of this process; {args.workers} "
          f"`python -m workers --queues main`; one PostgreSQL, one Redis, one receiver; {os.cpu_count()} cores, loopback")
    print(f"moves: {moves} in {moved_in:.1f} s ({moves / moved_in:.0f}/s), {len(errors)} errors"
          f"{': ' + errors[0] if errors else ''}")
    print(f"notifications of the moves: {len(committed)}; deliveries (start included) by state: {states};"
          f" received {len(receiver.got)}"
          f" (unverified {unverified}, doubled webhook-ids {doubled}, never arrived {lost})")
    print(f"webhook lag, commit -> received: p50 {p50 * 1000:.0f} ms, p99 {p99 * 1000:.0f} ms, max {worst * 1000:.0f} ms"
          + ("  (drain timed out: lag of what arrived)" if drained else ""))
    of_message_id = {message_id_of(nid): nid for nid in committed}
    mail_lags = []
    for received, content in sink.got:
        message = BytesParser(policy=default).parsebytes(content)
        nid = of_message_id.get((message["Message-ID"] or "").strip("<>").split("@")[0])
        if nid is not None:
            mail_lags.append(received - committed[nid])
    m50, m99, mworst = quantiles(mail_lags)
    print(f"mail: {len(sink.got)} messages received by the SMTP sink (sent by kind: {mails_sent}); "
          f"one per notification not folded into an earlier mail of the same game (window"
          f" {args.mail_window:g} s)")
    print(f"mail lag, commit -> SMTP sink, for the {len(mail_lags)} mails of a move's notification:"
          f" p50 {m50 * 1000:.0f} ms, p99 {m99 * 1000:.0f} ms, max {mworst * 1000:.0f} ms")
    sink.stop()
    ok = not errors and not doubled and not unverified and not lost and not drained
    print("OK" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
