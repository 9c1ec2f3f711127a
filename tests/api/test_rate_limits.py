"""Rate limits per token and per client address on every route (issue 9, item 9)."""

from __future__ import annotations

import uuid
from dataclasses import replace

import pytest

from api import create_app
from service.runtime.container import build
from tests.openapi_check import ValidatingClient
from tests.refusals import problem


@pytest.fixture
def limited(settings):
    """An app with low limits and buckets of its own (its own key prefix)."""
    services = build(replace(settings, queue_name=f"{settings.queue_name}-limits-{uuid.uuid4().hex[:6]}",
                             rate_limit_per_ip="6/minute", rate_limit_per_token="3/minute"))
    yield ValidatingClient(create_app(services).test_client())
    services.close()


def from_address(address: str) -> dict:
    return {"environ_base": {"REMOTE_ADDR": address}}


def assert_throttled(response) -> None:
    problem(response, 429, "rate_limited")
    assert response.headers["Content-Type"] == "application/problem+json"
    assert response.json["code"] == "rate_limited"
    assert 1 <= int(response.headers["Retry-After"]) <= 60
    assert response.headers["RateLimit-Remaining"] == "0"
    assert 0 <= int(response.headers["RateLimit-Reset"]) <= 60
    assert int(response.headers["RateLimit-Limit"]) in (3, 6)


def test_a_token_is_limited_on_every_route(limited, new_player):
    token = new_player("Limited")["token"]  # made by the unthrottled app
    first = limited.get("/v1/players/me", token=token, **from_address("10.0.0.1"))
    assert first.status_code == 200
    assert first.headers["RateLimit-Limit"] == "3" and first.headers["RateLimit-Remaining"] == "2"
    assert limited.get("/v1/games", token=token, **from_address("10.0.0.2")).status_code == 200
    assert limited.get("/v1/titles", token=token, **from_address("10.0.0.3")).status_code == 200
    # the 4th request of this token, whatever the route and address
    assert_throttled(limited.get("/v1/players/me", token=token, **from_address("10.0.0.4")))
    assert_throttled(limited.post("/v1/games", token=token, json={}, **from_address("10.0.0.5")))
    # another caller from the same address is not affected by this token's bucket
    assert limited.get("/v1/titles", **from_address("10.0.0.1")).status_code == 200


def test_an_address_is_limited_with_or_without_tokens(limited):
    for _ in range(6):
        assert limited.get("/v1/titles", **from_address("10.0.1.1")).status_code == 200
    assert_throttled(limited.get("/v1/titles", **from_address("10.0.1.1")))
    assert_throttled(limited.post("/v1/players", json={"name": "X"}, **from_address("10.0.1.1")))
    assert_throttled(limited.get("/v1/health", **from_address("10.0.1.1")))
    # a new token does not escape its address's bucket
    assert_throttled(limited.get("/v1/players/me", token="whatever", **from_address("10.0.1.1")))
    # other addresses have their own buckets
    assert limited.get("/v1/titles", **from_address("10.0.1.2")).status_code == 200


def test_the_default_is_generous_and_set_by_the_environment(monkeypatch):
    from service.config import Settings

    monkeypatch.setenv("DATABASE_URL", "postgresql://x")
    monkeypatch.setenv("REDIS_URL", "redis://x")
    defaults = Settings.from_env()
    assert (defaults.rate_limit_per_ip, defaults.rate_limit_per_token) == ("3000/minute", "1200/minute")
    monkeypatch.setenv("ENTREPOT_RATE_LIMIT_PER_IP", "10/second")
    monkeypatch.setenv("ENTREPOT_RATE_LIMIT_PER_TOKEN", "5/second")
    changed = Settings.from_env()
    assert (changed.rate_limit_per_ip, changed.rate_limit_per_token) == ("10/second", "5/second")


def test_405_names_the_allowed_methods(client):
    response = client.client.delete("/v1/players")
    assert response.status_code == 405 and response.json["code"] == "method_not_allowed"
    assert set(response.headers["Allow"].split(", ")) >= {"POST"}


def test_a_requests_buckets_are_the_keys_the_limits_library_names(settings):
    """The buckets' Redis keys, built from parts worked out once (api/limits.py), are the
    ones ``RateLimitItem.key_for`` names, per address and per token digest: processes of
    an earlier release count in the same buckets during a rolling upgrade."""
    import hashlib

    from api.limits import RateLimits

    limits = RateLimits(replace(settings, rate_limit_per_ip="20/second;600/minute", rate_limit_per_token="5/second"))
    for address, bearer in [("203.0.113.9", None), ("2001:db8::1", "a-bearer-token"), ("unknown", "x")]:
        keys, windows, items = limits.buckets(address, bearer)
        expected = [item.key_for(limits.prefix, "ip", address) for item in limits.per_ip]
        if bearer is not None:
            digest = hashlib.sha256(bearer.encode()).hexdigest()
            expected += [item.key_for(limits.prefix, "token", digest) for item in limits.per_token]
        assert keys == expected and (bearer is None or bearer not in "".join(keys))
        assert windows == [item.get_expiry() for item in items] == [1, 60, 1][:len(keys)]
