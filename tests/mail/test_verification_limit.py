"""Issue 26, item 7: "Confirm your email" mails to one address are limited per hour,
whoever asks. Eight reached one stranger within seconds (new players naming it, and a
PATCH toggling a player's address). Real PostgreSQL, Redis, an RQ worker (burst) running
the mail jobs and an aiosmtpd sink."""

from __future__ import annotations

import uuid

from service.mail.mailer import VERIFICATIONS_PER_HOUR


def test_a_stranger_gets_a_bounded_number_of_verification_mails(client, sink, run_jobs):
    victim = f"victim-{uuid.uuid4().hex[:8]}@strangers.test"
    for i in range(4):  # new players naming the stranger's address
        assert client.post("/v1/players", json={"name": f"Spam{i}", "email": victim}).status_code == 201
    toggler = client.post("/v1/players", json={"name": "Toggler"}).json
    for i in range(4):  # one player toggling their address to it and away
        assert client.patch("/v1/players/me", token=toggler["token"], json={"email": victim}).status_code == 200
        other = f"mine-{i}-{uuid.uuid4().hex[:6]}@players.test"
        assert client.patch("/v1/players/me", token=toggler["token"], json={"email": other}).status_code == 200
    run_jobs()
    received = [m for m in sink[0].to(victim) if "Confirm" in str(m["Subject"])]
    assert len(received) == VERIFICATIONS_PER_HOUR == 3, len(received)
    # other addresses are not held back by the stranger's limit
    assert sink[0].to(other), "the toggler's own new address got its mail"
