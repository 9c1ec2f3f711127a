"""Sign-in links and password resets by mail (issue 28): a real SMTP server (aiosmtpd)
receives them, a real RQ worker sends them, a fresh client signs in with them."""

from __future__ import annotations

import re
import uuid

import pytest
from rq import Queue, SimpleWorker

import workers.account_jobs
import workers.mail_jobs
from tests.mail.conftest import text_of
from tests.openapi_check import ValidatingClient
from tests.refusals import problem


@pytest.fixture
def run_account_jobs(mail_services, monkeypatch):
    monkeypatch.setattr(workers.account_jobs, "services", lambda: mail_services)
    monkeypatch.setattr(workers.mail_jobs, "services", lambda: mail_services)

    def run() -> None:
        queue = Queue(mail_services.settings.queue_name, connection=mail_services.redis)
        for job in queue.jobs:
            if not job.func_name.startswith(("workers.account_jobs.", "workers.mail_jobs.")):
                job.delete()
        SimpleWorker([queue], connection=mail_services.redis).work(burst=True, logging_level="WARNING")

    return run


@pytest.fixture
def fresh(client):
    """Another browser: the same app, an empty cookie jar."""
    def make() -> ValidatingClient:
        return ValidatingClient(client.client.application.test_client())

    return make


def link_token(mail, kind: str) -> str:
    found = re.search(rf"http://entrepot\.test/#/{kind}/(\S+)", text_of(mail))
    assert found, text_of(mail)
    return found.group(1)


def test_a_player_signs_in_with_a_mailed_link_once(client, sink, verified_player, run_account_jobs, fresh, mail_services):
    ada = verified_player("Ada")  # signed up through the API with a token, address verified
    asked = fresh().post("/v1/sessions/link", json={"email": ada["email"].upper()})
    assert asked.status_code == 202
    run_account_jobs()
    mail = sink[0].wait(lambda m: ada["email"] in str(m["To"]) and "sign-in link" in str(m["Subject"]))
    token = link_token(mail, "signin")
    with mail_services.store.read() as tx:
        stored = [r[0] for r in tx.conn.execute("SELECT token_hash FROM account_links WHERE player_id = %s",
                                                (ada["id"],))]
    assert token not in stored and len(stored) == 1
    browser = fresh()
    signed = browser.post("/v1/sessions", json={"link_token": token})
    assert signed.status_code == 201, signed.json
    assert browser.get("/v1/players/me").json["id"] == ada["id"]
    # one time only
    again = fresh().post("/v1/sessions", json={"link_token": token})
    assert again.status_code == 409 and again.json["code"] == "token_used"
    assert fresh().post("/v1/sessions", json={"link_token": "made-up"}).json["code"] == "invalid_token"


def test_no_link_goes_to_an_unknown_or_unverified_address(client, sink, run_account_jobs, fresh):
    unverified = f"unverified-{uuid.uuid4().hex[:8]}@players.test"
    assert client.post("/v1/players", json={"name": "U", "email": unverified, "password": "a password!"}).status_code == 201
    stranger = f"nobody-{uuid.uuid4().hex[:8]}@players.test"
    before = len(sink[0].messages)
    for email in (unverified, stranger):
        assert fresh().post("/v1/sessions/link", json={"email": email}).status_code == 202
        assert fresh().post("/v1/password-reset", json={"email": email}).status_code == 202
    run_account_jobs()
    # the verification mail of the sign-up may arrive; no sign-in or reset mail does
    subjects = [str(m["Subject"]) for m in sink[0].messages[before:]]
    assert not [s for s in subjects if "sign-in" in s or "password" in s], subjects


def test_a_forgotten_password_is_reset_by_mail(client, sink, verified_player, run_account_jobs, fresh, mail_services):
    ada = verified_player("Reset")
    # a token-only player: the reset link adds a password too
    old_session = fresh()
    assert old_session.post("/v1/sessions", token=ada["token"]).status_code == 201
    assert fresh().post("/v1/password-reset", json={"email": ada["email"]}).status_code == 202
    run_account_jobs()
    mail = sink[0].wait(lambda m: ada["email"] in str(m["To"]) and "new password" in str(m["Subject"]))
    token = link_token(mail, "reset")
    weak = fresh().post("/v1/password-reset/complete", json={"token": token, "password": "short"})
    problem(weak, 422, "validation_error")
    browser = fresh()
    done = browser.post("/v1/password-reset/complete", json={"token": token, "password": "my new password"})
    assert done.status_code == 201, done.json
    assert browser.get("/v1/players/me").json["id"] == ada["id"]
    # every other session ended; the link is spent; the new password signs in
    problem(old_session.get("/v1/players/me"), 401, "unauthorized")
    assert fresh().post("/v1/password-reset/complete",
                        json={"token": token, "password": "another one!"}).json["code"] == "token_used"
    other = fresh()
    assert other.post("/v1/sessions", json={"email": ada["email"], "password": "my new password"}).status_code == 201
    # the personal access token keeps working
    assert client.get("/v1/players/me", token=ada["token"]).status_code == 200


def test_an_expired_link_is_refused(client, sink, verified_player, run_account_jobs, fresh, mail_services):
    ada = verified_player("Late")
    assert fresh().post("/v1/sessions/link", json={"email": ada["email"]}).status_code == 202
    run_account_jobs()
    token = link_token(sink[0].wait(lambda m: ada["email"] in str(m["To"]) and "sign-in" in str(m["Subject"])),
                       "signin")
    with mail_services.store.tx() as tx:
        tx.conn.execute("UPDATE account_links SET expires_at = now() - interval '1 second' WHERE player_id = %s",
                        (ada["id"],))
    late = fresh().post("/v1/sessions", json={"link_token": token})
    assert late.status_code == 409 and late.json["code"] == "token_expired"


def test_a_request_whose_job_was_lost_is_mailed_after_the_sweep(client, sink, verified_player, run_account_jobs,
                                                                 fresh, mail_services):
    ada = verified_player("Lost")
    assert fresh().post("/v1/sessions/link", json={"email": ada["email"]}).status_code == 202
    queue = Queue(mail_services.settings.queue_name, connection=mail_services.redis)
    for job in queue.jobs:  # Redis lost it
        job.delete()
    with mail_services.store.tx() as tx:
        tx.conn.execute("UPDATE account_requests SET created_at = now() - interval '1 minute'"
                        " WHERE handled_at IS NULL AND email = %s", (ada["email"],))
    assert mail_services.accounts.sweep_requests() == 1
    run_account_jobs()
    mail = sink[0].wait(lambda m: ada["email"] in str(m["To"]) and "sign-in link" in str(m["Subject"]))
    assert fresh().post("/v1/sessions", json={"link_token": link_token(mail, "signin")}).status_code == 201
    assert mail_services.accounts.sweep_requests() == 0  # handled: nothing more
