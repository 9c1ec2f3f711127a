"""Rate limits on every route, per client address and per bearer token, counted in Redis
so every API process shares them. 429 answers are problems with Retry-After; every
response says where its caller stands (RateLimit-* headers).

Fixed windows (the `limits` notation, e.g. "20/second;600/minute"), all of a request's
buckets counted and read in ONE Redis round trip (a Lua script: INCR, EXPIRE on a new
window, TTL). Flask-Limiter, used before, took six round trips a request: one INCR per
bucket, then a GET and a TTL per bucket again for the headers (bench/README.md, the
command path's profile).

``RateLimits`` is the policy (buckets, keys, the standing, the headers, the refusal) of
every route: Flask's hooks (``install``) apply it to the Flask routes, in the request's
thread, synchronously, on the thread's own connection (service/redis_wire.py: without
redis-py's per-command machinery; an asyncio Redis call costs twice the CPU: it stays off
the plain requests' path); api/edge.py's ``Edge.route`` to the live streams. Same buckets,
so a stream open and a plain request draw on one budget, and the same 429 problem.
"""

from __future__ import annotations

import hashlib
import logging

from flask import Flask, g, request
from limits import RateLimitItem, parse_many
from redis import RedisError
from werkzeug.exceptions import TooManyRequests
from werkzeug.middleware.proxy_fix import ProxyFix

from service.accounts.remembered import epoch_key
from service.config import Settings
from service.redis_wire import Wire

log = logging.getLogger(__name__)

#: KEYS: one per bucket and window, and perhaps last the credential epoch's key
#: (service/accounts/remembered.py); ARGV: each window's seconds. Returns count, ttl, ...
#: and, given the epoch's key, last the epoch ("" when none was set)
COUNT = """
local out = {}
for i = 1, #ARGV do
  local key = KEYS[i]
  local count = redis.call('INCR', key)
  local ttl = redis.call('TTL', key)
  if count == 1 or ttl < 0 then
    ttl = tonumber(ARGV[i])
    redis.call('EXPIRE', key, ttl)
  end
  out[2 * i - 1] = count
  out[2 * i] = ttl
end
if #KEYS > #ARGV then
  out[#out + 1] = redis.call('GET', KEYS[#KEYS]) or ''
end
return out
"""

#: where a Flask request keeps the credential epoch its rate limits read (api/auth.py)
EPOCH = "entrepot.credential_epoch"

#: (within the limit, remaining, the limit, seconds until its window resets)
Standing = tuple[bool, int, RateLimitItem, int]

class RateLimits:
    """The budgets of every route (Settings.rate_limit_per_ip, rate_limit_per_token)."""

    def __init__(self, settings: Settings):
        self.per_ip: list[RateLimitItem] = parse_many(settings.rate_limit_per_ip)
        self.per_token: list[RateLimitItem] = parse_many(settings.rate_limit_per_token)
        self.prefix = f"entrepot-limits:{settings.queue_name}"
        self.epoch_key = epoch_key(settings.queue_name)
        self.trusted_proxies = settings.trusted_proxies
        self._ip_keys = [_key_parts(item, self.prefix, "ip") for item in self.per_ip]
        self._token_keys = [_key_parts(item, self.prefix, "token") for item in self.per_token]
        self._ip_windows = [item.get_expiry() for item in self.per_ip]
        self._all_items = [*self.per_ip, *self.per_token]
        self._all_windows = [item.get_expiry() for item in self._all_items]

    def address(self, remote: str | None, forwarded_for: str | None) -> str:
        """The caller's address: as werkzeug's ProxyFix(x_for=trusted_proxies) reads it,
        the address the nearest trusted proxy saw."""
        if self.trusted_proxies and forwarded_for:
            forwarded = [a.strip() for a in forwarded_for.split(",") if a.strip()]
            if len(forwarded) >= self.trusted_proxies:
                return forwarded[-self.trusted_proxies]
        return remote or "unknown"

    def buckets(self, address: str, bearer: str | None) -> tuple[list[str], list[int], list[RateLimitItem]]:
        """(Redis keys, window seconds, limits) of a request's buckets: each key as the
        limit's ``key_for(prefix, kind, who)`` writes it, from its parts worked out once
        (``key_for`` built them again for every request)."""
        keys = [head + address + tail for head, tail in self._ip_keys]
        if bearer is None:
            return keys, self._ip_windows, self.per_ip
        # a digest, never the token itself: Redis keys are not a place for secrets
        digest = hashlib.sha256(bearer.encode()).hexdigest()
        keys += [head + digest + tail for head, tail in self._token_keys]
        return keys, self._all_windows, self._all_items

    @staticmethod
    def standing(limits: list[RateLimitItem], counted: list) -> Standing:
        """The limit that stops this request, else the one closest to stopping it."""
        standing = []
        for n, item in enumerate(limits):
            used, ttl = int(counted[2 * n]), int(counted[2 * n + 1])
            standing.append((used <= item.amount, max(0, item.amount - used), item,
                             min(item.get_expiry(), max(0, ttl))))
        return min(standing, key=lambda s: (s[0], s[1]))

    @staticmethod
    def refusal(standing: Standing) -> str:
        """The problem's detail when the request is over its limit."""
        return f"too many requests: at most {standing[2]}"

    @staticmethod
    def headers(standing: Standing, status: int, has_retry_after: bool) -> list[tuple[str, str]]:
        _, remaining, item, reset = standing
        headers = [("RateLimit-Limit", str(item.amount)), ("RateLimit-Remaining", str(remaining)),
                   ("RateLimit-Reset", str(reset))]
        # a 429 of another limit (sign-in attempts, api/ratelimit.py) says its own Retry-After
        if status == 429 and not has_retry_after:
            headers.append(("Retry-After", str(max(1, reset))))
        return headers


def _key_parts(item: RateLimitItem, prefix: str, kind: str) -> tuple[str, str]:
    """What comes before and after the caller in ``item.key_for(prefix, kind, caller)``."""
    marker = "\x00"  # never in an address or a hex digest
    head, tail = item.key_for(prefix, kind, marker).split(marker)
    return head, tail


def bearer_token(authorization: str | None) -> str | None:
    scheme, _, token = (authorization or "").partition(" ")
    return token.strip() or None if scheme.lower() == "bearer" else None


def client_address() -> str:
    return request.remote_addr or "unknown"


def install(app: Flask, settings: Settings, wire: Wire) -> None:
    """The limits of the Flask routes (api/edge.py applies the same to the streams)."""
    if settings.trusted_proxies:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=settings.trusted_proxies)
    limits = RateLimits(settings)
    count = wire.script(COUNT)  # every request's round trip: without redis-py's per-command cost

    @app.before_request
    def rate_limit():
        keys, windows, items = limits.buckets(client_address(), bearer_token(request.headers.get("Authorization")))
        try:
            # the credential epoch in the same round trip: under it, this process may
            # answer for a bearer token it looked up before (service/accounts/remembered.py)
            counted = count(keys=[*keys, limits.epoch_key], args=windows)
        except RedisError:  # Redis down: serve without limits rather than not at all
            log.warning("rate limits not enforced: Redis did not answer", exc_info=True)
            return
        request.environ[EPOCH] = counted[-1]
        g.rate_limit = limits.standing(items, counted)
        if not g.rate_limit[0]:
            raise TooManyRequests(limits.refusal(g.rate_limit))

    @app.after_request
    def rate_limit_headers(response):
        current = g.get("rate_limit")
        if current is not None:
            for name, value in limits.headers(current, response.status_code, "Retry-After" in response.headers):
                response.headers[name] = value
        return response
