"""Mail tests: a real SMTP server in the test process (aiosmtpd) collects what Entrepot
sends; jobs run on a real RQ worker (in this process, burst mode) against real PostgreSQL
and Redis; replies go in through the built-in inbound SMTP listener."""

from __future__ import annotations

import json
import smtplib
import threading
import time
import uuid
from dataclasses import replace
from datetime import UTC, datetime
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser

import pytest
from aiosmtpd.controller import Controller
from rq import Queue, SimpleWorker

import workers.mail_jobs
from api import create_app
from service.mail.inbound import Inbound
from service.runtime.container import build
from service.runtime.mail_listener import listener
from tests.api.seating import accept_invitations
from tests.e2e.live import free_port
from tests.openapi_check import ValidatingClient


class Sink:
    """Collects every message the SMTP server receives."""

    def __init__(self) -> None:
        self.messages: list[EmailMessage] = []
        self.envelopes: list[tuple[str, list[str]]] = []
        self._lock = threading.Condition()

    async def handle_DATA(self, server, session, envelope):
        raw = envelope.original_content or envelope.content
        message = BytesParser(policy=policy.default).parsebytes(raw)
        message.raw = raw  # as it came over the wire
        message.received_at = datetime.now(UTC)  # when the SMTP server took it
        with self._lock:
            self.messages.append(message)
            self.envelopes.append((envelope.mail_from, list(envelope.rcpt_tos)))
            self._lock.notify_all()
        return "250 OK"

    def to(self, address: str) -> list[EmailMessage]:
        with self._lock:
            return [m for m in self.messages if address in str(m["To"])]

    def wait(self, predicate, seconds: float = 10.0) -> EmailMessage:
        deadline = time.monotonic() + seconds
        with self._lock:
            while True:
                found = [m for m in self.messages if predicate(m)]
                if found:
                    return found[-1]
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"no such mail among {[str(m['Subject']) for m in self.messages]}")
                self._lock.wait(left)


@pytest.fixture(scope="module")
def sink():
    collected = Sink()
    controller = Controller(collected, hostname="127.0.0.1", port=free_port())
    controller.start()
    yield collected, controller.port
    controller.stop()


@pytest.fixture(scope="module")
def mail_settings(settings, sink):
    return replace(settings, smtp_url=f"smtp://127.0.0.1:{sink[1]}", queue_name=f"entrepot-mail-{uuid.uuid4().hex[:8]}",
                   mail_from="Entrepot <entrepot@games.test>", public_url="http://entrepot.test",
                   mail_window_seconds=0.0, mail_secret="the tests' mail key")


@pytest.fixture(scope="module")
def mail_services(mail_settings):
    services = build(mail_settings)
    yield services
    services.close()


@pytest.fixture(scope="module")
def client(mail_services):
    app = create_app(mail_services)
    app.testing = True
    return ValidatingClient(app.test_client())


@pytest.fixture
def run_jobs(mail_services, monkeypatch):
    """Run the mail jobs queued on the mail services' queue with a real RQ worker (burst).
    The notification fan-out's jobs (queued after every commit) are dropped: these tests
    insert the notifications they need; tests/mail/test_play_by_email.py runs it all."""
    monkeypatch.setattr(workers.mail_jobs, "services", lambda: mail_services)

    def run() -> None:
        queue = Queue(mail_services.settings.queue_name, connection=mail_services.redis)
        for job in queue.jobs:
            if not job.func_name.startswith("workers.mail_jobs."):
                job.delete()
        SimpleWorker([queue], connection=mail_services.redis).work(burst=True, logging_level="WARNING")

    return run


@pytest.fixture(scope="module")
def inbox(mail_services):
    """The built-in inbound SMTP listener (service/runtime/mail_listener.py) on a free port."""
    controller = listener(Inbound(mail_services.mailer), "127.0.0.1", free_port())
    controller.start()
    yield controller.port
    controller.stop()


def reply(port: int, to_mail: EmailMessage, first_line: str, sender: str = "someone@players.test",
          to: str | None = None) -> None:
    """Answer a mail as a mail client does: to its Reply-To, the original quoted below."""
    answer = EmailMessage()
    answer["From"] = sender
    answer["To"] = to or str(to_mail["Reply-To"])
    answer["Subject"] = f"Re: {to_mail['Subject']}"
    quoted = "\n".join("> " + line for line in to_mail.get_body(("plain",)).get_content().splitlines())
    answer.set_content(f"{first_line}\n\nOn some day, Entrepot wrote:\n{quoted}\n")
    with smtplib.SMTP("127.0.0.1", port, timeout=30) as smtp:
        smtp.send_message(answer)


def text_of(message: EmailMessage) -> str:
    return message.get_body(("plain",)).get_content()


@pytest.fixture
def verified_player(client, sink, run_jobs):
    def make(name: str = "Ada") -> dict:
        email = f"{name.lower()}-{uuid.uuid4().hex[:8]}@players.test"
        created = client.post("/v1/players", json={"name": name, "email": email})
        assert created.status_code == 201, created.json
        run_jobs()
        mail = sink[0].wait(lambda m: email in str(m["To"]) and "Confirm" in str(m["Subject"]))
        token = text_of(mail).split("/v1/email/verify/")[1].split()[0]
        confirmed = client.post("/v1/players/me/email/verify", token=created.json["token"], json={"token": token})
        assert confirmed.status_code == 200 and confirmed.json["email_verified"] is True, confirmed.json
        return {**created.json, "email": email}

    return make


@pytest.fixture
def two_seat_game(client):
    def make(a: dict, b: dict, seed: str | None = None) -> dict:
        body = {"title": "kontor", "seats": [{"player_id": a["id"]}, {"player_id": b["id"]}]}
        if seed:
            body["seed"] = seed
        created = client.post("/v1/games", token=a["token"], json=body)
        assert created.status_code == 201, created.json
        return accept_invitations(client, created.json, [a, b], a)

    return make


def insert_notification(services, player_id: str, game_id: str, seat: int | None, type_: str, version: int,
                        data: dict | None = None, ref: str = "") -> int:
    """A notification row as the fan-out (notify-core) writes it."""
    with services.store.tx() as tx:
        return tx.conn.execute(
            "INSERT INTO notifications (player_id, game_id, seat, type, version, ref, data, at)"
            " VALUES (%s, %s, %s, %s, %s, %s, %s, now()) RETURNING id",
            (player_id, game_id, seat, type_, version, ref, json.dumps(data or {}))).fetchone()[0]


def other_tests_timers_off(services) -> None:
    """Before a module starts a real worker on the session's shared database: the timers of
    games other test modules left behind go off. The workers' timer loop runs every due game
    of its database, earliest first, so those games (stand-ins thinking, mails) would hold
    this module's own timers and mails back."""
    with services.store.tx() as tx:
        tx.conn.execute("UPDATE games SET timer_at = NULL WHERE timer_at IS NOT NULL")
