"""Rate limits on every route, per client address and per bearer token, counted in Redis
so every API process shares them. 429 answers are problems with Retry-After; every
response says where its caller stands (RateLimit-* headers).

Fixed windows (the `limits` notation, e.g. "20/second;600/minute"), all of a request's
buckets counted and read in ONE Redis round trip (a Lua script: INCR, EXPIRE on a new
window, TTL). Flask-Limiter, used before, took six round trips a request: one INCR per
bucket, then a GET and a TTL per bucket again for the headers (bench/README.md, the
command path's profile).
"""

from __future__ import annotations

import hashlib
import logging

from flask import Flask, g, request
from limits import RateLimitItem, parse_many
from redis import Redis, RedisError
from werkzeug.exceptions import TooManyRequests
from werkzeug.middleware.proxy_fix import ProxyFix

from service.config import Settings

log = logging.getLogger(__name__)

#: KEYS: one per bucket and window; ARGV: each window's seconds. Returns count, ttl, ...
COUNT = """
local out = {}
for i, key in ipairs(KEYS) do
  local count = redis.call('INCR', key)
  local ttl = redis.call('TTL', key)
  if count == 1 or ttl < 0 then
    ttl = tonumber(ARGV[i])
    redis.call('EXPIRE', key, ttl)
  end
  out[2 * i - 1] = count
  out[2 * i] = ttl
end
return out
"""


def client_address() -> str:
    return request.remote_addr or "unknown"


def _bearer() -> str | None:
    scheme, _, token = (request.headers.get("Authorization") or "").partition(" ")
    return token.strip() or None if scheme.lower() == "bearer" else None


def token_key() -> str:
    # a digest, never the token itself: Redis keys are not a place for secrets
    return hashlib.sha256((_bearer() or "").encode()).hexdigest()


def install(app: Flask, settings: Settings, redis_pool) -> None:
    if settings.trusted_proxies:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=settings.trusted_proxies)
    per_ip: list[RateLimitItem] = parse_many(settings.rate_limit_per_ip)
    per_token: list[RateLimitItem] = parse_many(settings.rate_limit_per_token)
    prefix = f"entrepot-limits:{settings.queue_name}"
    count = Redis(connection_pool=redis_pool).register_script(COUNT)

    @app.before_request
    def rate_limit():
        buckets = [(item, item.key_for(prefix, "ip", client_address())) for item in per_ip]
        if _bearer() is not None:
            buckets += [(item, item.key_for(prefix, "token", token_key())) for item in per_token]
        try:
            counted = count(keys=[key for _, key in buckets], args=[item.get_expiry() for item, _ in buckets])
        except RedisError:  # Redis down: serve without limits rather than not at all
            log.warning("rate limits not enforced: Redis did not answer", exc_info=True)
            return
        # the limit that stops this request, else the one closest to stopping it
        standing = []
        for n, (item, _) in enumerate(buckets):
            used, ttl = int(counted[2 * n]), int(counted[2 * n + 1])
            remaining = max(0, item.amount - used)
            standing.append((used <= item.amount, remaining, item, min(item.get_expiry(), max(0, ttl))))
        g.rate_limit = min(standing, key=lambda s: (s[0], s[1]))
        if not g.rate_limit[0]:
            raise TooManyRequests(f"too many requests: at most {g.rate_limit[2]}")

    @app.after_request
    def rate_limit_headers(response):
        current = g.get("rate_limit")
        if current is not None:
            _, remaining, item, reset = current
            response.headers["RateLimit-Limit"] = str(item.amount)
            response.headers["RateLimit-Remaining"] = str(remaining)
            response.headers["RateLimit-Reset"] = str(reset)
            # a 429 of another limit (sign-in attempts, api/ratelimit.py) says its own Retry-After
            if response.status_code == 429 and "Retry-After" not in response.headers:
                response.headers["Retry-After"] = str(max(1, reset))
        return response
