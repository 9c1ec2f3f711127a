"""A 2-seat game played entirely by email, end to end: a real RQ worker (the notification
fan-out after each commit, then the mail jobs) mails "your turn" through a real SMTP
server (aiosmtpd, in this process); each player answers "1" to the Reply-To of their
latest mail through the built-in inbound SMTP listener, until the game is over."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest
from redis import Redis
from rq import Queue, Worker

from service.runtime.lifeline import die_with_parent
from tests.conftest import ROOT
from tests.mail.conftest import other_tests_timers_off, reply

pytestmark = pytest.mark.slow(seconds=30)  # started first: tests/conftest.py

SEED = "5e" * 32


@pytest.fixture
def run_jobs():
    """The worker below runs every job (verification mails included)."""
    return lambda: None


@pytest.fixture(scope="module")
def worker(mail_services):
    settings = mail_services.settings
    env = {**os.environ, "DATABASE_URL": settings.database_url, "REDIS_URL": settings.redis_url,
           "ENTREPOT_QUEUE": settings.queue_name, "ENTREPOT_SMTP_URL": settings.smtp_url,
           "ENTREPOT_MAIL_FROM": settings.mail_from, "ENTREPOT_MAIL_SECRET": settings.mail_secret,
           "ENTREPOT_PUBLIC_URL": settings.public_url, "ENTREPOT_MAIL_WINDOW": "0", "PYTHONPATH": str(ROOT)}
    other_tests_timers_off(mail_services)
    process = subprocess.Popen([sys.executable, "-m", "workers", "--queues", "main", "--sweep-every", "5"],
                               cwd=ROOT, env=env, start_new_session=True,
                               preexec_fn=die_with_parent)  # gone with pytest, however it ends
    redis = Redis.from_url(settings.redis_url)
    deadline = time.monotonic() + 60
    while not Worker.count(connection=redis, queue=Queue(f"{settings.queue_name}", connection=redis)) and process.poll() is None:
        assert time.monotonic() < deadline, "the worker did not start"
        time.sleep(0.1)
    yield process
    os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=20)


def test_a_two_seat_game_played_to_the_end_by_email_replies(client, sink, inbox, worker, mail_services,
                                                            two_seat_game, verified_player):
    mails, _ = sink
    ada, bob = verified_player("Ada"), verified_player("Bob")
    game = two_seat_game(ada, bob, seed=SEED)
    answered: set[str] = set()
    replies = 0
    deadline = time.monotonic() + 240
    started = time.monotonic()
    while True:
        with mail_services.store.read() as tx:  # cheap: the API's checks would take the worker's CPU
            status, version = tx.conn.execute("SELECT status, version FROM games WHERE id = %s",
                                              (game["id"],)).fetchone()
        if status != "active":
            break
        assert time.monotonic() < deadline, f"stuck at version {version} after {replies} replies"
        sent = False
        for player in (ada, bob):
            playable = [m for m in mails.to(player["email"]) if m["Reply-To"] and m["Message-ID"] not in answered]
            if not playable:
                continue
            latest = playable[-1]
            answered.update(m["Message-ID"] for m in playable)
            reply(inbox, latest, "1", sender=player["email"])
            replies += 1
            sent = True
        if not sent:
            time.sleep(0.05)
    state = client.get(f"/v1/games/{game['id']}", token=ada["token"]).json
    assert state["status"] == "finished", state
    with mail_services.store.read() as tx:
        senders = [r[0] for r in tx.conn.execute(
            "SELECT sender FROM commands WHERE game_id = %s AND command IS NOT NULL AND version > 0"
            " ORDER BY version", (game["id"],)).fetchall()]
    assert senders and all(s["kind"] == "player" for s in senders), senders
    assert {s["player_id"] for s in senders} == {ada["id"], bob["id"]}
    for player in (ada, bob):  # the end is told by mail too
        mails.wait(lambda m, p=player: p["email"] in str(m["To"]) and "Finished" in str(m["Subject"]), 20)
    print(f"{len(senders)} moves by {replies} replies in {time.monotonic() - started:.1f} s")
