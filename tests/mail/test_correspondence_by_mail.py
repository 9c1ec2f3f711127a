"""Correspondence play by mail alone, end to end: a real RQ worker process (the computer's
moves, the clocks, the notification fan-out and the mail jobs) mails through a real SMTP
server (aiosmtpd, in this process); the player answers through the built-in inbound SMTP
listener.

- A whole Kontor game against a computer seat that answers at once, played by replies
  alone: not one reply is refused, although the computer's secret choices land between
  a mail and its reply; every "your turn" mail carries the board as an inline PNG and
  the moves in words.
- A reply made illegal by the opponent's move is refused with the current position, its
  numbered moves and a fresh reply address.
- On a 6-second clock the reminder arrives before the deadline, and after the deadline a
  mail says what the computer played for the player.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from datetime import datetime

import pytest
from redis import Redis
from rq import Queue, Worker

from service.runtime.lifeline import die_with_parent
from tests.conftest import ROOT
from tests.mail.conftest import other_tests_timers_off, reply, text_of

pytestmark = pytest.mark.slow(seconds=40)  # started first: tests/conftest.py

SEED = "27" * 32


@pytest.fixture
def run_jobs():
    """The worker below runs every job (verification mails included)."""
    return lambda: None


@pytest.fixture(scope="module")
def worker(mail_services, tmp_path_factory):
    """Both kinds of queue in one process; the computer thinks 50 ms a move. Its log is
    kept in a file (``process.log_path``) that a failing test can quote, and shown at the end."""
    settings = mail_services.settings
    env = {**os.environ, "DATABASE_URL": settings.database_url, "REDIS_URL": settings.redis_url,
           "ENTREPOT_QUEUE": settings.queue_name, "ENTREPOT_SMTP_URL": settings.smtp_url,
           "ENTREPOT_MAIL_FROM": settings.mail_from, "ENTREPOT_MAIL_SECRET": settings.mail_secret,
           "ENTREPOT_PUBLIC_URL": settings.public_url, "ENTREPOT_MAIL_WINDOW": "300",
           "ENTREPOT_AI_SECONDS": "0.05", "PYTHONPATH": str(ROOT),
           # RQ's line per job taken and done: what the worker did with the game's jobs
           "ENTREPOT_JOB_LOG_LEVEL": "INFO"}
    other_tests_timers_off(mail_services)
    log_path = tmp_path_factory.mktemp("worker") / "worker.log"
    with open(log_path, "wb") as log_file:
        process = subprocess.Popen([sys.executable, "-m", "workers", "--queues", "main,ai", "--sweep-every", "5"],
                                   cwd=ROOT, env=env, start_new_session=True, stdout=log_file, stderr=log_file,
                                   preexec_fn=die_with_parent)  # gone with pytest, however it ends
    process.log_path = log_path
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
    sys.stderr.write(log_path.read_text(errors="replace"))


def _against_the_computer(client, player: dict, time_control: dict | None = None, seed: str = SEED) -> dict:
    body = {"title": "kontor", "seed": seed, "seats": [{"player_id": player["id"]}, {"ai": "easy"}]}
    if time_control:
        body["time_control"] = time_control
    created = client.post("/v1/games", token=player["token"], json=body)
    assert created.status_code == 201, created.json
    return created.json


def _seat_of(game: dict, player: dict) -> int:
    return next(s["index"] for s in game["seats"] if s["player_id"] == player["id"])


def _status(mail_services, game_id: str) -> tuple[str, int]:
    with mail_services.store.read() as tx:  # cheap: the API's checks would take the worker's CPU
        return tx.conn.execute("SELECT status, version FROM games WHERE id = %s", (game_id,)).fetchone()


def _png_of(mail) -> bytes:
    """The inline board picture the HTML part shows (cid:)."""
    html = mail.get_body(("html",))
    cid = html.get_content().split('src="cid:')[1].split('"')[0]
    related = next(p for p in mail.walk() if p.get_content_type() == "multipart/related")
    image = next(p for p in related.iter_parts() if p.get_content_type() == "image/png")
    assert image["Content-ID"] == f"<{cid}>" and image.get_content_disposition() == "inline"
    return image.get_content()


def test_a_whole_kontor_game_against_the_computer_by_replies_alone(client, sink, inbox, worker, mail_services,
                                                                    verified_player):
    mails, _ = sink
    ada = verified_player("Ada")
    game = _against_the_computer(client, ada)
    answered: set[str] = set()
    replies = 0
    started = time.monotonic()
    while True:
        status, version = _status(mail_services, game["id"])
        if status != "active":
            break
        assert time.monotonic() - started < 300, f"stuck at version {version} after {replies} replies"
        playable = [m for m in mails.to(ada["email"]) if m["Reply-To"] and str(m["Reply-To"]) not in answered]
        if not playable:
            time.sleep(0.05)
            continue
        latest = playable[-1]
        answered.update(str(m["Reply-To"]) for m in playable)
        reply(inbox, latest, "1", sender=ada["email"])
        replies += 1
    ours = mails.to(ada["email"])
    refused = [text_of(m) for m in ours if "Not played" in str(m["Subject"])]
    assert refused == [], refused[:2]  # not one reply refused, stale or otherwise
    with mail_services.store.read() as tx:
        senders = [r[0] for r in tx.conn.execute(
            "SELECT sender FROM commands WHERE game_id = %s AND command IS NOT NULL AND version > 0"
            " ORDER BY version", (game["id"],)).fetchall()]
    by_ada = [s for s in senders if s.get("player_id") == ada["id"]]
    assert len(by_ada) == replies and {s["kind"] for s in senders} == {"player", "computer"}
    turns = [m for m in ours if m["Reply-To"]]
    assert turns and all(_png_of(m).startswith(b"\x89PNG\r\n\x1a\n") for m in turns)
    words = "\n".join(text_of(m) for m in turns)
    assert "place card" in words and "of the anchor" in words and "choose card" in words
    assert "PlaceCard" not in words and "x=" not in words
    assert all(not str(m["Subject"]).startswith("Re:") for m in ours)
    mails.wait(lambda m: ada["email"] in str(m["To"]) and "Finished" in str(m["Subject"]), 20)
    print(f"{len(senders)} moves, {replies} replies in {time.monotonic() - started:.1f} s")


# Once flaky (reruns=2): the placement mail of the first placer came only when the mail of
# their first turn (choose a card) was rendered after both had chosen, and showed the
# placement; the first placer had chosen last, and a seat whose own move leaves it to act is
# not told again. That turn mail is now dropped as played (turn_still_open), and the first
# placer chooses first: the other's choice makes it their turn, a turn of its own.
def test_a_reply_the_opponents_move_made_illegal_is_refused_with_the_position_now(
        client, sink, inbox, worker, mail_services, two_seat_game, verified_player):
    """Ada's placement mail lists the free squares; she places in the browser instead, Bob
    then takes one of the squares her mail listed; her late reply naming it is refused."""
    mails, _ = sink
    ada, bob = verified_player("Ada"), verified_player("Bob")
    players = {p["id"]: p for p in (ada, bob)}

    def legal(game, player):
        return client.get(f"/v1/games/{game['id']}/legal-commands?seat={_seat_of(game, player)}",
                          token=player["token"]).json

    def play(game, player, command):
        body = {"command": command, "seat": _seat_of(game, player)}
        done = client.post(f"/v1/games/{game['id']}/commands", token=player["token"], json=body)
        assert done.status_code in (200, 201), done.json

    def both_choose(game, order):
        for player in order:  # both choose their first card in the browser
            play(game, player, legal(game, player)["commands"][0])
        current = client.get(f"/v1/games/{game['id']}", token=ada["token"]).json
        return players[current["seats"][current["to_act"][0]]["player_id"]]

    # a rehearsal on the same deal tells who places first
    first = both_choose(two_seat_game(ada, bob, seed=SEED), (ada, bob))
    second = bob if first is ada else ada
    game = two_seat_game(ada, bob, seed=SEED)
    assert both_choose(game, (first, second)) is first
    try:
        mail = mails.wait(lambda m: first["email"] in str(m["To"]) and m["Reply-To"]  # this game's, not the rehearsal's
                          and game["id"][:8] in str(m["Subject"]) and "of the anchor" in text_of(m), 20)
    except AssertionError as missing:
        raise AssertionError(f"{missing}\n{_why_no_mail(mail_services, game['id'], worker)}") from None
    listed = legal(game, first)
    play(game, first, listed["commands"][0])  # placed in the browser, not by that mail
    theirs = legal(game, second)
    taken = next(c for c in theirs["commands"] if c in listed["commands"][1:])
    play(game, second, taken)  # the opponent takes a square the old mail listed
    number = listed["commands"].index(taken) + 1
    _, version = _status(mail_services, game["id"])
    before = len(mails.to(first["email"]))
    reply(inbox, mail, str(number), sender=first["email"])
    answer = mails.wait(lambda m: first["email"] in str(m["To"]) and "Not played" in str(m["Subject"]), 20)
    assert len(mails.to(first["email"])) >= before + 1
    assert _status(mail_services, game["id"])[1] == version  # nothing played
    text = text_of(answer)
    assert "cannot be played now" in text and "Your moves:\n1. " in text.replace("\r\n", "\n")
    assert str(answer["Reply-To"]).startswith("play+") and answer["Reply-To"] != mail["Reply-To"]
    _png_of(answer)  # the position now, as a picture too
    reply(inbox, answer, "1", sender=first["email"])  # the fresh address plays
    assert _status(mail_services, game["id"])[1] > version


# In whole-suite runs (CI, 2026-11-27) this test failed: another deployment's workers (the
# e2e session server's, on the same database) ran this game's reminders and fan-outs and
# sent their mails to their own sink. That server now has a database of its own
# (tests/e2e/conftest.py, server_settings); a failure's message still quotes the game's
# timer events and what this module's worker logged of its timers (_why_late).
def test_on_a_12_second_clock_the_reminder_comes_before_the_deadline_and_the_stand_in_is_told(
        client, sink, worker, mail_services, verified_player):
    mails, _ = sink
    ada = verified_player("Ada")
    # a reminder at 0.4 of the time: 7.2 s before the deadline. The default 0.8 of a 6-s
    # clock left 1.2 s, which a loaded CI machine's mail path (fan-out job, the board's
    # picture drawn, SMTP) exceeded once in a whole-suite run: it arrived 5 s late
    game = _against_the_computer(client, ada, {"per_move": "PT12S", "on_timeout": "computer", "reminders": [0.4]},
                                 seed="6" * 64)
    clocks = client.get(f"/v1/games/{game['id']}", token=ada["token"]).json["clocks"]
    deadline = datetime.fromisoformat(clocks[0]["deadline"].replace("Z", "+00:00"))
    reminder = mails.wait(lambda m: ada["email"] in str(m["To"]) and "Reminder" in str(m["Subject"]), 20)
    arrived = reminder.received_at  # set by the sink when the SMTP server took it
    print(f"reminder {(deadline - arrived).total_seconds():.2f} s before the deadline")
    assert arrived < deadline, _why_late(client, ada, game["id"], worker, arrived, deadline)
    assert reminder["Reply-To"] and "Your moves:" in text_of(reminder)  # a reminder can be answered
    told = mails.wait(lambda m: ada["email"] in str(m["To"]) and "computer played for you" in str(m["Subject"]), 30)
    assert "Your time ran out" in text_of(told) and "choose card" in text_of(told)


def _why_no_mail(mail_services, game_id: str, worker) -> str:
    """A missing turn mail's message: the game as the database holds it, its notifications,
    the mails claimed for it, and what the worker said of it, so that a failure on a
    machine nobody can watch says where the mail stopped."""
    with mail_services.store.read() as tx:
        game = tx.conn.execute("SELECT status, version, to_act FROM games WHERE id = %s", (game_id,)).fetchone()
        notices = tx.conn.execute("SELECT id, player_id, seat, type, version, at, created_at FROM notifications"
                                  " WHERE game_id = %s ORDER BY id", (game_id,)).fetchall()
        fanned = tx.conn.execute("SELECT * FROM game_fanouts WHERE game_id = %s", (game_id,)).fetchall()
        claimed = tx.conn.execute("SELECT key, kind, to_address, claimed_at, sent_at, dropped, attempts"
                                  " FROM mails_sent WHERE game_id = %s ORDER BY claimed_at", (game_id,)).fetchall()
    said = [line for line in worker.log_path.read_text(errors="replace").splitlines()
            if game_id in line or any(word in line for word in ("Error", "error", "Traceback", "mail"))]
    return (f"the game (status, version, to_act): {game}; its fan-out progress: {fanned}\nits notifications:\n"
            + "\n".join(f"  {n}" for n in notices) + "\nthe mails claimed for it:\n"
            + "\n".join(f"  {c}" for c in claimed) + "\nthe worker on it:\n" + "\n".join(said[-40:]))


def _why_late(client, player: dict, game_id: str, worker, arrived, deadline) -> str:
    """A late reminder's message: the game's timed events and what the worker said of its
    timers, so a failure on a machine nobody can watch says where the time went."""
    events = client.get(f"/v1/games/{game_id}/events", token=player["token"]).json["events"]
    timed = [f"  v{e['seq']} {e['type']} at {e.get('at')}" for e in events
             if e["type"] in ("ClockStarted", "ReminderSent", "TimedOut", "StoodIn")]
    said = [line for line in worker.log_path.read_text(errors="replace").splitlines()
            if any(word in line for word in ("timer", "sweep", "late", "Error", "error"))]
    return (f"the reminder arrived at {arrived}, after the deadline {deadline}\nthe game's timers:\n"
            + "\n".join(timed) + "\nthe worker on its timers:\n" + "\n".join(said[-40:]))
