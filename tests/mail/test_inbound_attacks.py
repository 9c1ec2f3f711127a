"""Issue 26, items 4, 5 and 6: inbound mail is no weapon. Through the real built-in SMTP
listener (aiosmtpd), real PostgreSQL and Redis, and `entrepot mail-in` as an MTA runs it:

- a forged reply address is never answered: the server mailed a verified player "Re:
  URGENT ... http://evil.example/login (Not played: forged)" from its own address;
- mail sent by a program (RFC 3834) is neither played nor answered: an out-of-office
  reply went back and forth;
- the raw message is bounded before any parsing (a 1 MB To header of 32k addresses took
  49 s of CPU; 32 MiB messages were accepted), and a poison message (1,200 nested
  comments: RecursionError) is refused for good (5xx, exit 1), not deferred (451, 75).
"""

from __future__ import annotations

import os
import smtplib
import subprocess
import sys
import time
from email.message import EmailMessage

import pytest

from tests.conftest import ROOT
from tests.mail.conftest import insert_notification, reply


def your_turn_mail(client, sink, mail_services, game, player):
    current = client.get(f"/v1/games/{game['id']}", token=player["token"]).json
    seat = next(s["index"] for s in current["seats"] if s["player_id"] == player["id"])
    nid = insert_notification(mail_services, player["id"], game["id"], seat, "your_turn", current["version"])
    assert mail_services.mailer.mail_notification(nid) == "sent"
    return sink[0].to(player["email"])[-1]


def version(client, game, player) -> int:
    return client.get(f"/v1/games/{game['id']}", token=player["token"]).json["version"]


def send_raw(port: int, raw: bytes, rcpts: list[str] | None = None) -> tuple[int, str]:
    """One SMTP transaction; the server's answer to DATA (or to the first refused step)."""
    with smtplib.SMTP("127.0.0.1", port, timeout=60) as smtp:
        smtp.ehlo()
        code, _ = smtp.mail("sender@elsewhere.test")
        for rcpt in rcpts or ["play@games.test"]:
            code, said = smtp.rcpt(rcpt)
            if code >= 400:
                return code, said.decode()
        code, said = smtp.data(raw)
        return code, said.decode()


def test_a_forged_reply_is_never_answered(client, sink, inbox, mail_services, two_seat_game, verified_player):
    ada, bob = verified_player("Ada"), verified_player("Bob")
    game = two_seat_game(ada, bob)
    mail = your_turn_mail(client, sink, mail_services, game, ada)
    before = len(sink[0].to(ada["email"]))
    phish = EmailMessage()
    phish["From"] = ada["email"]  # a verified player's address: the From proves nothing
    phish["To"] = "play+12345-abcdefghijklmnop@games.test"  # a made-up reply address
    phish["Subject"] = "URGENT your account is locked: http://evil.example/login"
    phish.set_content("1\n")
    code, _ = send_raw(inbox, phish.as_bytes())
    assert code == 250
    # right id, wrong MAC; and no token at all
    token_id = str(mail["Reply-To"]).split("+")[1].split("-")[0]
    reply(inbox, mail, "1", sender=ada["email"], to=f"play+{token_id}-{'a' * 16}@games.test")
    reply(inbox, mail, "1", sender=ada["email"], to="play@games.test")
    # no wait: the listener says 250 only once a mail is handled and any answer sent
    assert len(sink[0].to(ada["email"])) == before, [str(m["Subject"]) for m in sink[0].to(ada["email"])]


@pytest.mark.parametrize("header, value", [
    ("Auto-Submitted", "auto-replied"),
    ("Auto-Submitted", "auto-generated"),
    ("Precedence", "bulk"),
    ("X-Autoreply", "yes"),
])
def test_automatic_mail_is_neither_played_nor_answered(client, sink, inbox, mail_services, two_seat_game,
                                                       verified_player, header, value):
    ada, bob = verified_player("Ada"), verified_player("Bob")
    game = two_seat_game(ada, bob)
    mail = your_turn_mail(client, sink, mail_services, game, ada)
    at = version(client, game, ada)
    before = len(sink[0].to(ada["email"]))
    for first_line in ("I am out of the office until Monday.", "1"):
        out_of_office = EmailMessage()
        out_of_office["From"] = ada["email"]
        out_of_office["To"] = str(mail["Reply-To"])
        out_of_office["Subject"] = f"Automatic reply: {mail['Subject']}"
        out_of_office[header] = value
        out_of_office.set_content(f"{first_line}\n")
        code, said = send_raw(inbox, out_of_office.as_bytes())
        assert code == 250 and "automatic" in said  # handled: any answer was sent before the 250
    assert len(sink[0].to(ada["email"])) == before  # no answer: no loop can start
    assert version(client, game, ada) == at  # nothing played
    # a person's reply to the same address still plays
    reply(inbox, mail, "1", sender=ada["email"])
    assert version(client, game, ada) > at


def huge_to(count: int) -> bytes:
    """A To header of ``count`` addresses, folded (SMTP lines are at most 1,000 bytes)."""
    addresses = ",\r\n ".join(f"p{i}@x.test" for i in range(count))
    return (f"From: a@b.test\r\nTo: {addresses}\r\nSubject: hi\r\n\r\n1\r\n").encode()


def nested_comments(depth: int) -> bytes:
    """A To header nesting ``depth`` comments, folded every 400 of them."""
    opening = "\r\n ".join("(" * 400 for _ in range(depth // 400)) + "(" * (depth % 400)
    closing = "\r\n ".join(")" * 400 for _ in range(depth // 400)) + ")" * (depth % 400)
    return (f"From: a@b.test\r\nTo: play@games.test {opening}x{closing}\r\n"
            "Subject: hi\r\n\r\n1\r\n").encode()


@pytest.mark.parametrize("raw, code_, why", [
    (huge_to(32_000), 552, "Too much mail data"),  # over the SIZE bound: refused while it streams in
    (huge_to(5_000), 554, "header is larger"),
    (huge_to(2_000), 554, "more than 50 addresses"),
    (nested_comments(1200), 554, "nests comments"),
], ids=["1 MB of To", "5000 addresses", "2000 addresses", "1200 nested comments"])
def test_a_hostile_message_is_refused_for_good_before_parsing(inbox, raw, code_, why):
    started = time.monotonic()
    code, said = send_raw(inbox, raw)
    took = time.monotonic() - started
    assert code == code_ and why in said, (code, said)
    assert took < 2.0, f"refusing it took {took:.1f} s"


def test_size_and_recipients_are_bounded_in_the_smtp_transaction(inbox):
    big = b"From: a@b.test\r\nTo: play@games.test\r\nSubject: big\r\n\r\n" + b"x" * 900 + b"\r\n"
    code, _ = send_raw(inbox, big * 450)  # 400 kB: over the 256 KiB bound
    assert code == 552
    code, said = send_raw(inbox, huge_to(1), rcpts=[f"play+{i}@games.test" for i in range(40)])
    assert code == 452 and "Too many recipients" in said


def test_mail_in_refuses_a_poison_message_for_good(mail_services):
    settings = mail_services.settings
    env = {**os.environ, "DATABASE_URL": settings.database_url, "REDIS_URL": settings.redis_url,
           "ENTREPOT_SMTP_URL": settings.smtp_url, "ENTREPOT_MAIL_FROM": settings.mail_from,
           "ENTREPOT_MAIL_SECRET": settings.mail_secret, "ENTREPOT_QUEUE": settings.queue_name,
           "PYTHONPATH": str(ROOT)}
    for raw in (nested_comments(1200), huge_to(32_000)):
        done = subprocess.run([sys.executable, "-m", "service.runtime.entry", "mail-in"], input=raw, env=env,
                              capture_output=True, timeout=60)
        assert done.returncode == 1, (done.returncode, done.stderr.decode()[-500:])  # not 75: never retried
