"""Rate limits on every route, per client address and per bearer token (Flask-Limiter,
counted in Redis so every API process shares them). 429 answers are problems with
Retry-After; every response says where its caller stands (RateLimit-* headers)."""

from __future__ import annotations

import hashlib
import math
import time

from flask import Flask, request
from flask_limiter import ApplicationLimit, Limiter
from werkzeug.middleware.proxy_fix import ProxyFix

from service.config import Settings


def client_address() -> str:
    return request.remote_addr or "unknown"


def _bearer() -> str | None:
    scheme, _, token = (request.headers.get("Authorization") or "").partition(" ")
    return token.strip() or None if scheme.lower() == "bearer" else None


def token_key() -> str:
    # a digest, never the token itself: Redis keys are not a place for secrets
    return hashlib.sha256((_bearer() or "").encode()).hexdigest()


def install(app: Flask, settings: Settings, redis_pool) -> Limiter:
    if settings.trusted_proxies:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=settings.trusted_proxies)
    limiter = Limiter(
        key_func=client_address,
        application_limits=[
            ApplicationLimit(settings.rate_limit_per_ip, key_function=client_address, scope="ip"),
            ApplicationLimit(settings.rate_limit_per_token, key_function=token_key, scope="token",
                             exempt_when=lambda: _bearer() is None),
        ],
        storage_uri="redis://",
        storage_options={"connection_pool": redis_pool},
        key_prefix=f"entrepot-limits:{settings.queue_name}",
        strategy="fixed-window",
        headers_enabled=False,  # set below, in the IETF draft's form
        swallow_errors=True,  # Redis down: serve without limits rather than not at all
    )
    limiter.init_app(app)

    @app.after_request
    def rate_limit_headers(response):
        # the limit that stops this request, else the one closest to stopping it
        applied = limiter.current_limits
        breached = [limit for limit in applied if limit.breached]
        current = (breached or sorted(applied, key=lambda limit: limit.remaining) or [None])[0]
        # a 429 of another limit (sign-in attempts, api/ratelimit.py) says its own Retry-After
        if current is not None and "Retry-After" not in response.headers:
            window = current.limit.get_expiry()  # the reset time is stored in whole seconds
            reset = min(window, max(0, math.ceil(current.reset_at - time.time())))
            response.headers["RateLimit-Limit"] = str(current.limit.amount)
            response.headers["RateLimit-Remaining"] = str(current.remaining)
            response.headers["RateLimit-Reset"] = str(reset)
            if response.status_code == 429:
                response.headers["Retry-After"] = str(max(1, reset))
        return response

    return limiter
