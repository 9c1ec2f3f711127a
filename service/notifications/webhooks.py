"""Webhooks: a player's URLs told of their notifications, signed as Standard Webhooks says.

A delivery row is written with its notification (service/notifications/service.py), then sent by a
job: the job claims the row (state 'sending' with a lease) so that two workers never send
it at once, POSTs the notification's body signed with the webhook's secret (headers
``webhook-id``, the delivery's id on every retry so receivers can drop repeats;
``webhook-timestamp``; ``webhook-signature``), and records the outcome. A 2xx delivers it;
anything else is retried on the schedule (Settings.webhook_retry_schedule, about a day),
then the delivery fails. A webhook whose delivery failed its whole schedule without any
delivery succeeding meanwhile (a day of failure) is disabled, and its owner told by mail.
The sweeper re-sends deliveries whose sender died (lease expired) and queues those due
whose job was lost.
"""

from __future__ import annotations

import base64
import json
import logging
import secrets
import socket
import ssl
import threading
import time
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta
from http.client import HTTPResponse
from urllib.parse import quote

from opentelemetry import trace
from standardwebhooks.webhooks import Webhook as Signing

from service.clock import Clock, SystemClock
from service.errors import Invalid, NotFound, WebhookUrlRefused
from service.games.idempotency import IdempotencyKey, Replayed, once
from service.games.service import is_game_id
from service.games.store import Player, Store, Tx, outlasting_outage
from service.job_queue import WEBHOOK_DELIVERY, WEBHOOK_DISABLED, JobQueue
from service.notifications import url_guard
from service.notifications.sealing import Sealer
from service.notifications.service import left_behind, notification_body
from service.notifications.url_guard import Target
from service.notifications.webhook_formats import chat_body
from service.observability import metrics

log = logging.getLogger(__name__)

#: A webhook's secret: 32 random bytes (the specification asks for 24 to 64).
SECRET_BYTES = 32
MAX_WEBHOOKS = 10
#: Only this much of a receiver's answer is read (it is logged, never trusted).
RESPONSE_CAP = 4096
ERROR_CAP = 300
USER_AGENT = "Entrepot-Webhooks/1"


@dataclass(frozen=True)
class Webhook:
    id: str
    url: str
    events: list[str]
    created_at: datetime
    disabled_at: datetime | None
    disabled_reason: str | None
    #: the body it takes: "standard" (signed), "discord" or "slack" (service/notifications/webhook_formats.py)
    format: str = "standard"

    @property
    def active(self) -> bool:
        return self.disabled_at is None


@dataclass(frozen=True)
class NewWebhook:
    webhook: Webhook
    secret: str  # shown once


@dataclass(frozen=True)
class Delivery:
    id: str
    notification_id: int
    type: str
    state: str
    attempts: int
    last_status: int | None
    last_error: str | None
    delivered_at: datetime | None
    next_attempt_at: datetime | None
    created_at: datetime


def delivery_job_id(delivery_id: str, attempt: int) -> str:
    return f"webhook-{delivery_id}-{attempt}"


def message_id(delivery_id: str) -> str:
    return f"msg_{delivery_id.replace('-', '')}"


class WebhookService:
    def __init__(self, store: Store, jobs: JobQueue, sealer: Sealer, allow_private: bool = False,
                 schedule: tuple[float, ...] = (0.0,), timeout_seconds: float = 10.0,
                 public_url: str | None = None, clock: Clock | None = None):
        self.store = store
        #: the clock port: every time a webhook or delivery stores or compares, and signs with
        self.clock = clock or SystemClock()
        #: where the web client is, for the link a chat format's message carries
        self.public_url = public_url
        self.jobs = jobs
        self.sealer = sealer
        self.allow_private = allow_private
        self.schedule = schedule or (0.0,)
        self.timeout = timeout_seconds
        #: a claimed delivery not recorded within this is taken for its sender's death
        self.lease = timedelta(seconds=2 * timeout_seconds + 1)

    # the player's webhooks -----------------------------------------------------------
    def register(self, player: Player, url: str, events: list[str], format: str = "standard",
                 idem: IdempotencyKey | None = None) -> NewWebhook | Replayed:
        """With ``idem`` (an Idempotency-Key) at most once per key: a retry gets the first
        answer, its secret included, sealed under the key (service/games/idempotency.py)."""
        url_guard.resolve(url, self.allow_private)
        secret = "whsec_" + base64.b64encode(secrets.token_bytes(SECRET_BYTES)).decode("ascii")
        webhook_id = str(uuid.uuid4())

        def work(tx: Tx) -> NewWebhook:
            tx.conn.execute("SELECT 1 FROM players WHERE id = %s FOR UPDATE", (player.id,))
            count = tx.conn.execute("SELECT count(*) FROM webhooks WHERE player_id = %s AND deleted_at IS NULL",
                                    (player.id,)).fetchone()[0]
            if count >= MAX_WEBHOOKS:
                raise Invalid(f"a player has at most {MAX_WEBHOOKS} webhooks: delete one first",
                              {"url": [f"at most {MAX_WEBHOOKS} webhooks"]})
            tx.conn.execute(
                "INSERT INTO webhooks (id, player_id, url, events, secret_sealed, format, created_at)"
                " VALUES (%s, %s, %s, %s, %s, %s, %s)",
                (webhook_id, player.id, url, list(dict.fromkeys(events)), self.sealer.seal(secret.encode()), format,
                 self.clock.now()),
            )
            return NewWebhook(self._webhook(tx, player.id, webhook_id), secret)

        return once(self.store, idem, work)

    def list(self, player: Player) -> list[Webhook]:
        with self.store.read() as tx:
            rows = tx.conn.execute(
                "SELECT id::text, url, events, created_at, disabled_at, disabled_reason, format FROM webhooks"
                " WHERE player_id = %s AND deleted_at IS NULL ORDER BY created_at, id", (player.id,),
            ).fetchall()
        return [Webhook(*row) for row in rows]

    def delete(self, player: Player, webhook_id: str) -> None:
        """Delete the webhook: nothing more is sent to it (a delivery under way ends)."""
        with self.store.tx() as tx:
            self._webhook(tx, player.id, webhook_id)
            tx.conn.execute("UPDATE webhooks SET deleted_at = %s WHERE id = %s", (self.clock.now(), webhook_id))
            tx.conn.execute("UPDATE webhook_deliveries SET state = 'failed', last_error = 'webhook deleted'"
                            " WHERE webhook_id = %s AND state = 'pending'", (webhook_id,))

    def deliveries(self, player: Player, webhook_id: str, limit: int) -> list[Delivery]:
        with self.store.read() as tx:
            self._webhook(tx, player.id, webhook_id)
            rows = tx.conn.execute(
                "SELECT d.id::text, d.notification_id, n.type, d.state, d.attempts, d.last_status, d.last_error,"
                " d.delivered_at, CASE WHEN d.state IN ('pending', 'sending') THEN d.next_attempt_at END,"
                " d.created_at FROM webhook_deliveries d JOIN notifications n ON n.id = d.notification_id"
                " WHERE d.webhook_id = %s ORDER BY d.created_at DESC, d.notification_id DESC LIMIT %s",
                (webhook_id, limit),
            ).fetchall()
        return [Delivery(*row) for row in rows]

    def _webhook(self, tx: Tx, player_id: str, webhook_id: str) -> Webhook:
        row = None
        if is_game_id(webhook_id):
            row = tx.conn.execute(
                "SELECT id::text, url, events, created_at, disabled_at, disabled_reason, format FROM webhooks"
                " WHERE id = %s AND player_id = %s AND deleted_at IS NULL", (webhook_id, player_id),
            ).fetchone()
        if row is None:
            raise NotFound(f"you have no webhook {webhook_id}")
        return Webhook(*row)

    def queue_deliveries(self, deliveries: list[tuple[str, int]], at: datetime | None = None) -> None:
        for delivery_id, attempt in deliveries:
            self.jobs.enqueue_job(WEBHOOK_DELIVERY, (delivery_id,), delivery_job_id(delivery_id, attempt), at)

    # sending -------------------------------------------------------------------------
    def deliver(self, delivery_id: str) -> str:
        """One attempt at a delivery, if it is due and nobody else is sending it."""
        if not is_game_id(delivery_id):
            return "stale"
        now = self.clock.now()
        with self.store.tx() as tx:
            claimed = tx.conn.execute(
                "UPDATE webhook_deliveries d SET state = 'sending', attempts = d.attempts + 1,"
                " lease_until = %s::timestamptz + %s FROM webhooks w"
                " WHERE d.id = %s AND w.id = d.webhook_id AND d.state = 'pending'"
                " AND d.next_attempt_at <= %s::timestamptz + interval '1 second'"
                " RETURNING d.attempts, d.created_at, w.id::text, w.url, w.secret_sealed,"
                " w.deleted_at IS NOT NULL OR w.disabled_at IS NOT NULL, d.notification_id, w.format",
                (now, self.lease, delivery_id, now),
            ).fetchone()
            if claimed is None:
                return "stale"
            attempt, created_at, webhook_id, url, sealed, gone, notification_id, fmt = claimed
            if gone:
                tx.conn.execute("UPDATE webhook_deliveries SET state = 'failed', lease_until = NULL,"
                                " last_error = 'webhook deleted or disabled' WHERE id = %s", (delivery_id,))
                return "cancelled"
            row = tx.conn.execute(
                "SELECT type, game_id::text AS game_id, seat, version, at, data FROM notifications WHERE id = %s",
                (notification_id,),
            ).fetchone()
        notification = notification_body(dict(zip(("type", "game_id", "seat", "version", "at", "data"), row)))
        if fmt in ("discord", "slack"):  # a chat platform's incoming webhook: its own body, no signature
            link = f"{self.public_url}/#/games/{notification['game_id']}" if self.public_url else None
            status, error = self._send(delivery_id, url, None, body_json(chat_body(fmt, notification, link)))
        else:
            status, error = self._send(delivery_id, url, self.sealer.open(sealed).decode(), body_json(notification))
        return self._record(delivery_id, attempt, created_at, webhook_id, status, error)

    def _send(self, delivery_id: str, url: str, secret: str | None, body: str) -> tuple[int | None, str | None]:
        started = time.monotonic()
        try:  # again: the name may point elsewhere now; a resolver that hangs counts against the deadline
            target = resolve_within(url, self.allow_private, self.timeout)
        except WebhookUrlRefused as err:
            return None, err.detail
        except DeadlineExceeded:
            return None, f"the host did not resolve within the deadline of {self.timeout:g} s"
        now = self.clock.now()
        msg_id = message_id(delivery_id)
        host = target.host if ":" not in target.host else f"[{target.host}]"
        default_port = 443 if target.scheme == "https" else 80
        headers = {
            "Host": host if target.port == default_port else f"{host}:{target.port}",
            "Content-Type": "application/json",
            "User-Agent": USER_AGENT,
        }
        if secret is not None:  # Standard Webhooks: signed (the chat platforms' formats are not)
            headers.update({"webhook-id": msg_id, "webhook-timestamp": str(int(now.timestamp())),
                            "webhook-signature": Signing(secret).sign(msg_id, now, body)})
        path = quote(target.path, safe="/?&=%:@!$'()*+,;~-._[]")  # no space or control can split the request
        request = (f"POST {path} HTTP/1.1\r\n"
                   + "".join(f"{name}: {value}\r\n" for name, value in headers.items())
                   + f"Content-Length: {len(body.encode())}\r\nConnection: close\r\n\r\n").encode() + body.encode()
        # the POST is a client span of the delivery's trace (no HTTP library to instrument:
        # post_within speaks HTTP on the socket itself); a no-op while tracing is off
        with trace.get_tracer("entrepot.webhooks").start_as_current_span(
                "POST", kind=trace.SpanKind.CLIENT,
                attributes={"http.request.method": "POST", "url.full": url}) as span:
            try:
                status = post_within(target, request, self.timeout - (time.monotonic() - started))
            except DeadlineExceeded:
                span.set_attribute("error.type", "deadline")
                return None, f"no answer within the deadline of {self.timeout:g} s"
            except Exception as err:  # refused, reset, timed out, bad TLS: one failed attempt
                span.set_attribute("error.type", type(err).__name__)
                return None, f"{type(err).__name__}: {err}"[:ERROR_CAP]
            span.set_attribute("http.response.status_code", status)
        return status, None if 200 <= status < 300 else f"HTTP {status}"

    def _record(self, delivery_id: str, attempt: int, created_at: datetime, webhook_id: str,
                status: int | None, error: str | None) -> str:
        delivered = status is not None and 200 <= status < 300
        again = None if delivered or attempt >= len(self.schedule) else self.schedule[attempt]
        disabled = outlasting_outage(  # answered: a failover must not make it sent twice
            lambda: self._write_outcome(delivery_id, attempt, created_at, webhook_id, status, error, delivered, again))
        if delivered:
            metrics.WEBHOOK_LAG.observe(max(0.0, (self.clock.now() - created_at).total_seconds()))
        else:
            metrics.WEBHOOK_FAILURES.labels("retry" if again is not None else "failed").inc()
        if again is not None:
            self.queue_deliveries([(delivery_id, attempt + 1)], self.clock.now() + timedelta(seconds=again))
        if disabled:
            self.jobs.enqueue_job(WEBHOOK_DISABLED, (webhook_id,), f"webhook-disabled-{webhook_id}")
        return "delivered" if delivered else "retry" if again is not None else "failed"

    def _write_outcome(self, delivery_id: str, attempt: int, created_at: datetime, webhook_id: str,
                       status: int | None, error: str | None, delivered: bool, again: float | None) -> bool:
        disabled = False
        now = self.clock.now()
        with self.store.tx() as tx:
            if delivered:
                tx.conn.execute(
                    "UPDATE webhook_deliveries SET state = 'delivered', delivered_at = %s, last_status = %s,"
                    " last_error = NULL, lease_until = NULL WHERE id = %s AND attempts = %s",
                    (now, status, delivery_id, attempt))
                tx.conn.execute("UPDATE webhooks SET last_success_at = %s WHERE id = %s", (now, webhook_id))
            elif again is not None:
                tx.conn.execute(
                    "UPDATE webhook_deliveries SET state = 'pending', last_status = %s, last_error = %s,"
                    " lease_until = NULL, next_attempt_at = %s WHERE id = %s AND attempts = %s",
                    (status, error, now + timedelta(seconds=again), delivery_id, attempt))
            else:
                tx.conn.execute(
                    "UPDATE webhook_deliveries SET state = 'failed', last_status = %s, last_error = %s,"
                    " lease_until = NULL WHERE id = %s AND attempts = %s",
                    (status, error, delivery_id, attempt))
                disabled = self._disable_if_failing(tx, webhook_id, created_at, now)
        return disabled

    @staticmethod
    def _disable_if_failing(tx: Tx, webhook_id: str, since: datetime, now: datetime) -> bool:
        """A delivery failed its whole schedule: if nothing reached the webhook since that
        delivery was written, the endpoint has been failing that long: disable it."""
        row = tx.conn.execute(
            "UPDATE webhooks SET disabled_at = %s, disabled_reason = 'every delivery failed for its whole"
            " retry schedule' WHERE id = %s AND disabled_at IS NULL AND deleted_at IS NULL"
            " AND (last_success_at IS NULL OR last_success_at < %s) RETURNING id",
            (now, webhook_id, since),
        ).fetchone()
        if row is None:
            return False
        tx.conn.execute("UPDATE webhook_deliveries SET state = 'failed', last_error = 'webhook disabled'"
                        " WHERE webhook_id = %s AND state = 'pending'", (webhook_id,))
        log.warning("webhook %s disabled after persistent failure", webhook_id)
        return True

    # the sweeper ---------------------------------------------------------------------
    def sweep(self, patience_seconds: float) -> int:
        """Re-send deliveries whose sender died mid-attempt (lease expired: the same
        webhook-id, so a receiver that got it drops the repeat), and queue deliveries due
        for longer than the patience whose job is gone. Returns how many were queued."""
        now = self.clock.now()
        with self.store.tx() as tx:
            expired = tx.conn.execute(
                "UPDATE webhook_deliveries SET state = 'pending', lease_until = NULL, next_attempt_at = %s"
                " WHERE state = 'sending' AND lease_until < %s RETURNING id::text, attempts", (now, now),
            ).fetchall()
            when, window = left_behind("next_attempt_at", now, patience_seconds, given_up_after=None)
            due = tx.conn.execute(
                f"SELECT id::text, attempts FROM webhook_deliveries WHERE state = 'pending' AND {when}"
                " ORDER BY next_attempt_at LIMIT %(limit)s", window,
            ).fetchall()
        jobs = {delivery_job_id(d, a + 1): (WEBHOOK_DELIVERY, (d,), delivery_job_id(d, a + 1))
                for d, a in [*expired, *due]}
        return self.jobs.enqueue_missing(list(jobs.values()))


def body_json(body: dict) -> str:
    return json.dumps(body, separators=(",", ":"))


class DeadlineExceeded(TimeoutError):
    pass


def resolve_within(url: str, allow_private: bool, seconds: float) -> Target:
    """url_guard.resolve, given up after ``seconds`` (getaddrinfo cannot be interrupted:
    a resolver that hangs leaves a daemon thread behind, not a stalled worker)."""
    outcome: dict[str, object] = {}

    def run() -> None:
        try:
            outcome["target"] = url_guard.resolve(url, allow_private)
        except BaseException as err:  # handed to the caller
            outcome["error"] = err

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(max(0.0, seconds))
    if thread.is_alive():
        raise DeadlineExceeded(f"the host did not resolve within {seconds:g} s")
    if "error" in outcome:
        raise outcome["error"]
    return outcome["target"]


def post_within(target: Target, request: bytes, seconds: float) -> int:
    """Send ``request`` (a whole HTTP/1.1 request) to the checked address of ``target``
    and return the answer's status, all within ``seconds`` of wall-clock time whatever the
    receiver does: each socket operation's timeout is what is left of the deadline, and a
    watchdog shuts the socket down at the deadline, which ends any read or TLS handshake a
    receiver drips bytes into (a socket timeout alone bounds each read, not their sum)."""
    if seconds <= 0:
        raise DeadlineExceeded("no time left for the attempt")
    deadline = time.monotonic() + seconds
    held: dict[str, socket.socket] = {}
    expired = threading.Event()

    def left() -> float:
        remaining = deadline - time.monotonic()
        if remaining <= 0 or expired.is_set():
            raise DeadlineExceeded(f"no answer within {seconds:g} s")
        return remaining

    def cut() -> None:
        expired.set()
        sock = held.get("sock")
        if sock is not None:
            try:  # the plain socket's shutdown, also under TLS: wakes a blocked read at once
                socket.socket.shutdown(sock, socket.SHUT_RDWR)
            except OSError:
                pass

    watchdog = threading.Timer(seconds, cut)
    watchdog.daemon = True
    watchdog.start()
    try:
        sock = socket.create_connection((target.address, target.port), timeout=left())
        held["sock"] = sock
        try:
            if target.scheme == "https":
                context = ssl.create_default_context()
                sock = context.wrap_socket(sock, server_hostname=target.host, do_handshake_on_connect=False)
                held["sock"] = sock
                sock.settimeout(left())
                sock.do_handshake()
            sock.settimeout(left())
            sock.sendall(request)
            sock.settimeout(left())
            response = HTTPResponse(sock, method="POST")
            response.begin()
            left()
            sock.settimeout(left())
            response.read(RESPONSE_CAP)  # logged nowhere, read so the receiver is not cut mid-answer
            left()
            return response.status
        except Exception as err:  # a cut socket shows as a reset, an EOF or a bad status line
            if expired.is_set() or isinstance(err, TimeoutError):
                raise DeadlineExceeded(f"no answer within {seconds:g} s") from None
            raise
        finally:
            sock.close()
    finally:
        watchdog.cancel()
