"""Time comes from the clock port everywhere, SQL included (issue 32, item 4).

Services built on a clock set decades away from the machine's (into the past and into the
future) store that clock's times and judge expiry by it: had a statement read PostgreSQL's
own ``now()`` (or Python's ``datetime.now``) instead, the stored times would be today's
and these assertions would fail."""

from __future__ import annotations

import time
import uuid
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from service.clock import FixedClock
from service.errors import IdempotencyKeyReused, InvalidToken, TokenExpired, Unauthorized
from service.games.idempotency import Replayed, idempotency_key, purge_expired
from service.games.service import SeatRequest
from service.job_queue import RecordingJobQueue
from service.runtime.container import build

PAST = datetime(1999, 12, 31, 23, 0, 0, 123000, tzinfo=UTC)
FUTURE = datetime(2071, 6, 1, 8, 30, 0, 456000, tzinfo=UTC)


@pytest.fixture(params=[PAST, FUTURE], ids=["past", "future"])
def clocked(request, settings):
    clock = FixedClock(request.param)
    services = build(replace(settings, timer_grace_seconds=0.0), clock=clock, jobs=RecordingJobQueue())
    yield services, clock
    # this session's database is shared with tests that run real workers: a game whose
    # deadline fell in 1999 would be due to their timer loop forever, and keep it busy
    with services.store.tx() as tx:
        tx.conn.execute("UPDATE games SET timer_at = NULL WHERE timer_at IS NOT NULL"
                        " AND created_at BETWEEN %s AND %s",
                        (request.param - timedelta(days=1), request.param + timedelta(days=400)))
    services.close()


def one(svc, sql, *params):
    with svc.store.read() as tx:
        return tx.conn.execute(sql, params).fetchone()


def test_account_times_follow_the_clock_port(clocked):
    svc, clock = clocked
    at = clock.now()
    created = svc.players.create("Timed", None)
    token_id = one(svc, "SELECT id::text FROM access_tokens WHERE player_id = %s", created.player.id)[0]
    assert one(svc, "SELECT created_at FROM access_tokens WHERE id = %s", token_id)[0] == at
    svc.accounts.set_password(created.player, "correct horse battery staple", None)
    assert one(svc, "SELECT password_changed_at FROM players WHERE id = %s", created.player.id)[0] == at
    session = svc.accounts.sign_in_with_token(svc.accounts.token_credential(created.token), "pytest")
    row = one(svc, "SELECT created_at, last_seen_at, expires_at FROM sessions WHERE id = %s", session.id)
    assert row == (at, at, at + svc.accounts.settings.session_ttl)
    assert one(svc, "SELECT last_used_at FROM access_tokens WHERE id = %s", token_id)[0] == at
    assert [s.id for s in svc.accounts.sessions(created.player)] == [session.id]
    # the session expires by the clock: past its end, it is gone
    clock.at = at + svc.accounts.settings.session_ttl + timedelta(seconds=1)
    assert svc.accounts.session_credential(session.secret) is None
    assert svc.accounts.sessions(created.player) == []
    clock.at = at
    new = svc.accounts.create_token(created.player, "cli", ["read"])
    svc.accounts.revoke_token(created.player, new.token.id)
    assert one(svc, "SELECT created_at, revoked_at FROM access_tokens WHERE id = %s", new.token.id) == (at, at)


def test_links_and_codes_expire_by_the_clock_port(clocked):
    svc, clock = clocked
    at = clock.now()
    player = svc.players.create("Coded", None).player
    code, code_2 = f"code-{uuid.uuid4()}", f"code-{uuid.uuid4()}"
    svc.accounts.save_code(code, "client", player.id, "https://app.example/cb", ["read"], "x" * 43, "S256")
    assert one(svc, "SELECT created_at, expires_at FROM oauth_codes WHERE player_id = %s", player.id) == (
        at, at + svc.accounts.settings.code_ttl)
    clock.at = at + svc.accounts.settings.code_ttl + timedelta(seconds=1)
    assert svc.accounts.claim_code(code, "client") is None  # expired by the clock
    clock.at = at
    svc.accounts.save_code(code_2, "client", player.id, "https://app.example/cb", ["read"], "x" * 43, "S256")
    assert svc.accounts.claim_code(code_2, "client") is not None  # alive by the clock
    nobody = f"nobody-{uuid.uuid4().hex[:8]}@example.test"
    svc.accounts.request_link("signin", nobody)
    assert one(svc, "SELECT created_at FROM account_requests WHERE email = %s", nobody)[0] == at


def test_an_email_verification_is_stored_and_judged_in_the_clock_ports_time(clocked):
    svc, clock = clocked
    at = clock.now()
    created = svc.players.create("Mailed", "mailed@example.test")
    row = one(svc, "SELECT id, created_at, expires_at FROM email_verifications WHERE player_id = %s",
              created.player.id)
    assert row[1:] == (at, at + timedelta(seconds=svc.settings.email_verification_ttl_seconds))
    clock.at = at + timedelta(seconds=svc.settings.email_verification_ttl_seconds + 1)
    token = svc.players.accounts.tokens.verification(row[0], created.player.id, "mailed@example.test")
    with pytest.raises(TokenExpired):
        with svc.store.tx() as tx:
            svc.players.accounts.verify(tx, token, None)
    clock.at = at
    with svc.store.tx() as tx:
        assert svc.players.accounts.verify(tx, token, None) == created.player.id
    assert one(svc, "SELECT email_verified_at FROM players WHERE id = %s", created.player.id)[0] == at
    with pytest.raises(InvalidToken):
        with svc.store.tx() as tx:
            svc.players.accounts.verify(tx, "0-nonsense", None)


def test_a_bearer_token_past_its_expiry_by_the_clock_is_refused(clocked):
    svc, clock = clocked
    at = clock.now()
    player = svc.players.create("OAuth", None).player
    svc.accounts.issue_oauth_token(player.id, "client", ["read"], "oauth-secret-" + at.isoformat())
    assert svc.accounts.token_credential("oauth-secret-" + at.isoformat()).player.id == player.id
    clock.at = at + svc.accounts.settings.oauth_token_ttl + timedelta(seconds=1)
    with pytest.raises(Unauthorized):
        svc.accounts.token_credential("oauth-secret-" + at.isoformat())


def test_the_timer_loop_runs_by_the_clock_port_not_the_machines_time(clocked):
    svc, clock = clocked
    a, b = (svc.players.create(f"T{i}", None).player for i in range(2))
    game = svc.games.create(a, "kontor", {"variant": "basic"}, [SeatRequest(player_id=a.id),
                                                                 SeatRequest(player_id=b.id)],
                            time_control={"per_move": "PT1H", "on_timeout": "forfeit"}).game
    # its row's times are the clock's (the fan-out sweeper compares updated_at with it)
    assert one(svc, "SELECT created_at, updated_at FROM games WHERE id = %s", game.id) == (clock.now(), clock.now())
    svc.games.accept(b, game.id, 1)
    svc.messages.post(a, game.id, 0, "table", "on time")  # its time is the clock's too
    assert one(svc, "SELECT at FROM messages WHERE game_id = %s", game.id)[0] == clock.now()
    timer_at = one(svc, "SELECT timer_at FROM games WHERE id = %s", game.id)[0]
    assert clock.now() < timer_at <= clock.now() + timedelta(hours=1)  # the clock's hour, not today's
    while svc.clocks.run_due_timers(limit=500):  # due by the clock: other tests' old games, not this one
        pass
    assert one(svc, "SELECT status FROM games WHERE id = %s", game.id)[0] == "active"
    clock.at = timer_at + timedelta(hours=1)
    # until it is run: a real worker's loop on this shared database (another module's) may
    # hold its claim a moment, and a claimed timer is passed over, not waited for
    deadline = time.monotonic() + 20
    while one(svc, "SELECT status FROM games WHERE id = %s", game.id)[0] != "finished":
        assert time.monotonic() < deadline, "the timer was never run"
        if not svc.clocks.run_due_timers(limit=500):
            time.sleep(0.1)


def test_idempotency_keys_expire_by_the_clock_port_not_the_databases_time(clocked):
    """A key is kept ``ttl`` after its request by the clock port, and the sweeper's purge
    judges expiry by its own clock: PostgreSQL's ``now()`` (today) would keep a 1999 key
    for ever, and purge a 2071 key at once."""
    svc, clock = clocked
    at = clock.now()
    ttl = 60.0
    key_text = str(uuid.uuid4())

    def key(name: str):
        return idempotency_key(None, "POST", "/v1/players", key_text, {"name": name}, ttl,
                               lambda new: (201, {"id": new.player.id}), at=clock.now())

    first = svc.players.create("Kept", None, key("Kept"))
    lookup = key("Kept").lookup
    assert one(svc, "SELECT expires_at FROM idempotency_requests WHERE lookup = %s", lookup)[0] == (
        at + timedelta(seconds=ttl))
    # within the ttl by the clock: the key holds, a different body is refused
    clock.at = at + timedelta(seconds=ttl - 1)
    assert isinstance(svc.players.create("Kept", None, key("Kept")), Replayed)
    with pytest.raises(IdempotencyKeyReused):
        svc.players.create("Other", None, key("Other"))
    purge_expired(svc.store, clock.now())
    assert one(svc, "SELECT count(*) FROM idempotency_requests WHERE lookup = %s", lookup)[0] == 1
    # past the ttl by the clock: the key is free again (purged on access) ...
    clock.at = at + timedelta(seconds=ttl)
    again = svc.players.create("Kept", None, key("Kept"))
    assert not isinstance(again, Replayed) and again.player.id != first.player.id
    # ... and the sweeper's purge takes the keys expired by the clock it is given
    assert one(svc, "SELECT count(*) FROM idempotency_requests WHERE lookup = %s", lookup)[0] == 1
    purge_expired(svc.store, clock.now() + timedelta(seconds=ttl - 1))
    assert one(svc, "SELECT count(*) FROM idempotency_requests WHERE lookup = %s", lookup)[0] == 1
    purge_expired(svc.store, clock.now() + timedelta(seconds=ttl))
    assert one(svc, "SELECT count(*) FROM idempotency_requests WHERE lookup = %s", lookup)[0] == 0
