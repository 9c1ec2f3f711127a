"""The edge rules every response and every route share (issue 26, item 15).

- Security headers: ``X-Content-Type-Options: nosniff`` and ``X-Frame-Options: DENY`` on
  every response, a ``Content-Security-Policy`` on every HTML page (the web client, the
  mail links' pages: scripts and styles from this origin only, no framing, no plugins,
  no base or form elsewhere), ``Referrer-Policy: no-referrer`` (pages whose address
  carries a token, like an unsubscribe link, never leak it).
- One ``Date`` header: the server (uvicorn) writes it; Flask's file responses wrote a
  second one.
- The rate limits of every route for the live streams too (they are served by Starlette,
  outside Flask-Limiter): the same per-address and per-token budgets, counted in Redis in
  fixed windows, 429 with Retry-After.
"""

from __future__ import annotations

import hashlib
import json
import time

from flask import Flask
from limits import parse as parse_limit
from starlette.requests import Request
from starlette.responses import Response

from api.problems import PROBLEM_JSON, problem_body, problem_headers
from service.config import Settings

#: The web client's policy: everything from this origin, nothing framed or embedded.
#: Inline styles stay allowed (the board's SVG and the client set style attributes);
#: inline scripts do not.
WEB_CSP = ("default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:;"
           " connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self';"
           " frame-ancestors 'none'")
COMMON = {"X-Content-Type-Options": "nosniff", "X-Frame-Options": "DENY", "Referrer-Policy": "no-referrer"}


def install(app: Flask) -> None:
    @app.after_request
    def security_headers(response):
        for name, value in COMMON.items():
            response.headers.setdefault(name, value)
        if response.mimetype == "text/html":
            response.headers.setdefault("Content-Security-Policy", WEB_CSP)
        # the server writes the Date header; werkzeug's file responses add their own
        response.headers.pop("Date", None)
        return response


class StreamLimiter:
    """Flask-Limiter's budgets (Settings.rate_limit_per_ip, rate_limit_per_token) for the
    stream routes, in Redis (an asyncio client): fixed windows, one INCR per open."""

    def __init__(self, settings: Settings, redis):
        self.redis = redis
        self.prefix = f"entrepot-limits:{settings.queue_name}:streams"
        self.per_ip = parse_limit(settings.rate_limit_per_ip)
        self.per_token = parse_limit(settings.rate_limit_per_token)
        self.trusted_proxies = settings.trusted_proxies

    def address(self, request: Request) -> str:
        if self.trusted_proxies:  # as ProxyFix: the address the nearest trusted proxy saw
            forwarded = [a.strip() for a in request.headers.get("X-Forwarded-For", "").split(",") if a.strip()]
            if len(forwarded) >= self.trusted_proxies:
                return forwarded[-self.trusted_proxies]
        return request.client.host if request.client else "unknown"

    async def refused(self, request: Request) -> Response | None:
        """A 429 problem when the caller is over a budget, else None (and the open counted)."""
        checks = [("ip", self.address(request), self.per_ip)]
        scheme, _, token = (request.headers.get("Authorization") or "").partition(" ")
        if scheme.lower() == "bearer" and token.strip():
            checks.append(("token", hashlib.sha256(token.strip().encode()).hexdigest(), self.per_token))
        now = time.time()
        try:
            for scope, who, limit in checks:
                window = limit.get_expiry()
                start = int(now // window) * window
                key = f"{self.prefix}:{scope}:{who}:{start}"
                async with self.redis.pipeline(transaction=False) as pipe:
                    pipe.incr(key)
                    pipe.expire(key, window + 1)
                    count, _ = await pipe.execute()
                if count > limit.amount:
                    retry = max(1, int(start + window - now + 0.999))
                    body = problem_body(429, "rate_limited",
                                        f"too many stream opens: {limit.amount} per {window} s; retry in {retry} s")
                    return Response(json.dumps(body), 429, media_type=PROBLEM_JSON,
                                    headers={**problem_headers(429), "Retry-After": str(retry),
                                             "RateLimit-Limit": str(limit.amount), "RateLimit-Remaining": "0",
                                             "RateLimit-Reset": str(retry)})
        except Exception:  # Redis down: serve without limits rather than not at all (as Flask-Limiter)
            return None
        return None

    def wrap(self, endpoint):
        async def limited(request: Request) -> Response:
            refused = await self.refused(request)
            return refused if refused is not None else await endpoint(request)

        return limited


class SecurityHeaders:
    """ASGI middleware: the common headers on responses Flask did not make (the streams)."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)

        async def sending(message):
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                present = {name.lower() for name, _ in headers}
                headers += [(name.lower().encode(), value.encode()) for name, value in COMMON.items()
                            if name.lower().encode() not in present]
                message = {**message, "headers": headers}
            await send(message)

        return await self.app(scope, receive, sending)
