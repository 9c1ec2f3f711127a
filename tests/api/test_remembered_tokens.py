"""A bearer token an API process remembers (service/accounts/remembered.py) never outlives
its revocation, on any process: two apps stand for two API processes (each its own
services, so its own memory), sharing PostgreSQL and Redis as processes do."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest
from redis import Redis

from api import create_app
from service.accounts import TOUCH_EVERY, records
from service.clock import FixedClock
from service.runtime.container import build
from tests.openapi_check import ValidatingClient
from tests.refusals import problem


@pytest.fixture
def processes(settings):
    """Two API processes' worth of app (the second with a clock of its own, to move)."""
    clock = FixedClock(datetime.now(UTC))
    first, second = build(settings), build(settings, clock=clock)
    clients = []
    for services in (first, second):
        app = create_app(services)
        app.testing = True
        clients.append(ValidatingClient(app.test_client()))
    yield clients[0], clients[1], first, second, clock
    first.close()
    second.close()


@pytest.fixture
def lookups(monkeypatch):
    """How many times a token was looked up in PostgreSQL (by any process)."""
    seen = []
    look_up = records.token_identity

    def counted(tx, token_hash, now):
        seen.append(token_hash)
        return look_up(tx, token_hash, now)

    monkeypatch.setattr(records, "token_identity", counted)
    return seen


def new_token(client, scopes=("read", "play", "account")) -> tuple[str, str, str]:
    """(the sign-up token, a new token, the new token's id)"""
    ada = client.post("/v1/players", json={"name": "Ada"}).json
    made = client.post("/v1/players/me/tokens", token=ada["token"], json={"name": "bot", "scopes": list(scopes)}).json
    return ada["token"], made["token"], made["id"]


def test_a_token_revoked_on_one_process_is_refused_at_once_by_another_that_remembered_it(processes, lookups):
    first, second, *_ = processes
    owner, bot, bot_id = new_token(first)
    assert second.get("/v1/players/me", token=bot).status_code == 200
    before = len(lookups)
    assert second.get("/v1/players/me", token=bot).status_code == 200
    assert len(lookups) == before, "the second process answered from memory"
    assert first.delete(f"/v1/players/me/tokens/{bot_id}", token=owner).status_code == 204
    problem(second.get("/v1/players/me", token=bot), 401, "unauthorized")
    problem(first.get("/v1/players/me", token=bot), 401, "unauthorized")
    # and a token not revoked is remembered again under the new epoch
    assert second.get("/v1/players/me", token=owner).status_code == 200
    before = len(lookups)
    assert second.get("/v1/players/me", token=owner).status_code == 200
    assert len(lookups) == before


def test_a_revoked_oauth_token_is_refused_at_once_by_another_process(processes):
    first, second, first_services, _, _ = processes
    owner, _, _ = new_token(first)
    player = first.get("/v1/players/me", token=owner).json["id"]
    row = first_services.accounts.issue_oauth_token(player, "some-client", ["read"], "an-oauth-secret-0123456789")
    assert second.get("/v1/players/me", token="an-oauth-secret-0123456789").status_code == 200
    first_services.accounts.revoke_oauth_token(row.id)
    problem(second.get("/v1/players/me", token="an-oauth-secret-0123456789"), 401, "unauthorized")


def test_a_revocation_is_refused_while_the_epoch_cannot_change(processes, monkeypatch):
    """Redis down: were the token revoked in PostgreSQL alone, a process could go on
    trusting it once Redis came back with the old epoch."""
    first, second, first_services, _, _ = processes
    owner, bot, bot_id = new_token(first)
    assert second.get("/v1/players/me", token=bot).status_code == 200
    monkeypatch.setattr(first_services.accounts.epoch, "redis", Redis(port=1, socket_connect_timeout=0.2))
    problem(first.delete(f"/v1/players/me/tokens/{bot_id}", token=owner), 503, "unavailable")
    assert second.get("/v1/players/me", token=bot).status_code == 200  # not revoked
    monkeypatch.undo()
    assert first.delete(f"/v1/players/me/tokens/{bot_id}", token=owner).status_code == 204
    problem(second.get("/v1/players/me", token=bot), 401, "unauthorized")


def test_an_epoch_lost_with_redis_is_not_one_a_token_was_remembered_under(processes, lookups, settings):
    first, second, first_services, _, _ = processes
    _, bot, _ = new_token(first)
    first_services.accounts.epoch.change()  # an epoch that Redis then loses
    assert second.get("/v1/players/me", token=bot).status_code == 200
    Redis.from_url(settings.redis_url).delete(f"entrepot-credentials:{settings.queue_name}:epoch")
    before = len(lookups)
    assert second.get("/v1/players/me", token=bot).status_code == 200
    assert len(lookups) == before + 1, "looked up again: the epoch read is not the remembered one"


def test_a_revocation_lost_with_redis_does_not_bring_back_a_token_remembered_before_any_epoch(
        processes, lookups, settings):
    """No epoch set (a new deployment): a token is not remembered under none, since a Redis
    restarted empty after a revocation would read as none again."""
    first, second, *_ = processes
    redis = Redis.from_url(settings.redis_url)
    key = f"entrepot-credentials:{settings.queue_name}:epoch"
    owner, bot, bot_id = new_token(first)
    redis.delete(key)
    assert second.get("/v1/players/me", token=bot).status_code == 200  # no epoch: looked up, one set
    assert redis.get(key), "the request that found no epoch set one"
    assert first.delete(f"/v1/players/me/tokens/{bot_id}", token=owner).status_code == 204
    redis.delete(key)  # Redis loses the revocation's epoch
    problem(second.get("/v1/players/me", token=bot), 401, "unauthorized")


def test_a_remembered_token_is_looked_up_again_when_its_use_is_due(processes, lookups):
    first, second, _, second_services, clock = processes
    owner, _, _ = new_token(first)
    player = first.get("/v1/players/me", token=owner).json["id"]
    second_services.accounts.issue_oauth_token(player, "some-client", ["read"], "touched-secret-0123456789")
    assert second.get("/v1/players/me", token="touched-secret-0123456789").status_code == 200
    before = len(lookups)
    clock.at += TOUCH_EVERY - timedelta(seconds=1)
    assert second.get("/v1/players/me", token="touched-secret-0123456789").status_code == 200
    assert len(lookups) == before
    clock.at += timedelta(seconds=2)  # its last use is due to be written: looked up, and written
    assert second.get("/v1/players/me", token="touched-secret-0123456789").status_code == 200
    assert len(lookups) == before + 1
    with second_services.store.read() as tx:
        used = tx.row("SELECT last_used_at FROM access_tokens WHERE player_id = %s AND kind = 'oauth'", (player,))
    assert used["last_used_at"] == clock.at


def test_a_remembered_token_is_refused_once_it_expires(processes, lookups, monkeypatch):
    first, second, _, second_services, clock = processes
    owner, _, _ = new_token(first)
    player = first.get("/v1/players/me", token=owner).json["id"]
    accounts = second_services.accounts
    monkeypatch.setattr(accounts, "settings", replace(accounts.settings, oauth_token_ttl=timedelta(seconds=30)))
    accounts.issue_oauth_token(player, "some-client", ["read"], "expiring-secret-0123456789")
    assert second.get("/v1/players/me", token="expiring-secret-0123456789").status_code == 200
    before = len(lookups)
    clock.at += timedelta(seconds=29)
    assert second.get("/v1/players/me", token="expiring-secret-0123456789").status_code == 200
    assert len(lookups) == before, "answered from memory"
    clock.at += timedelta(seconds=2)  # expired, though its last use is not due to be written yet
    problem(second.get("/v1/players/me", token="expiring-secret-0123456789"), 401, "unauthorized")
