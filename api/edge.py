"""The edge policy: what every route of both HTTP stacks (the Flask app, and the live
streams Starlette serves natively async) shares, applied once per request by ``Edge``, an
ASGI middleware around the whole application (issue 26 item 15, issue 32 item 3).

- Rate limits (api/limits.py): one budget per client address and per bearer token for
  every route, stream opens included, counted in ONE Redis round trip per request; over a
  limit, the same 429 problem with Retry-After on every route; RateLimit-* headers on every
  response. (Flask's own hooks, for the app run without this middleware, stand aside.)
- Ids in paths (api/ids.py): one spelling; any other is the same 404 problem on every
  route. Flask applies the rule to the parameters its router parsed; ``Edge.route`` to the
  ones Starlette's router parsed for a stream.
- Request ids: ``X-Request-Id`` in and out (api/observe.py, the middleware around this one):
  problems made here repeat it as ``request_id``, as Flask's do.
- Problem details: a refusal made here is built by api/problems.py as Flask's are; an error
  escaping a stream route before it answers is a 500 problem (``unexpected``), not
  Starlette's plain text.
- Security headers: ``X-Content-Type-Options: nosniff`` and ``X-Frame-Options: DENY`` on
  every response, a ``Content-Security-Policy`` on every HTML page (the web client, the
  mail links' pages: scripts and styles from this origin only, no framing, no plugins,
  no base or form elsewhere), ``Referrer-Policy: no-referrer`` (pages whose address
  carries a token, like an unsubscribe link, never leak it).
- One ``Date`` header: the server (uvicorn) writes it; Flask's file responses wrote a
  second one.
"""

from __future__ import annotations

import json
import logging

from flask import Flask
from redis import RedisError
from starlette.requests import Request
from starlette.responses import Response

from api import ids
from api.limits import COUNT, COUNTED_AT_EDGE, RateLimits, Standing, bearer_token
from api.problems import (
    PROBLEM_JSON,
    problem_body,
    problem_headers,
    service_problem,
    unexpected_problem,
)
from service.config import Settings
from service.errors import ServiceError

log = logging.getLogger(__name__)

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


#: the common headers as the ASGI server sends them
_COMMON = [(name.lower().encode(), value.encode()) for name, value in COMMON.items()]


class Edge:
    """ASGI middleware: the edge policy of every route (inside api/observe.py's, which
    gives each request its id)."""

    def __init__(self, app, settings: Settings, redis):
        self.app = app
        self.limits = RateLimits(settings)
        #: the Lua script of api/limits.py on an asyncio Redis client
        self.count = redis.register_script(COUNT)

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        standing = await self._count(scope)
        if standing is not None and not standing[0]:
            return await self._refuse(standing, send)
        limits = self.limits

        async def sending(message):
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", ()))
                present = {name.lower() for name, _ in headers}
                headers += [header for header in _COMMON if header[0] not in present]
                if standing is not None:
                    headers += [(name.lower().encode(), value.encode()) for name, value
                                in limits.headers(standing, message["status"], b"retry-after" in present)]
                message = {**message, "headers": headers}
            await send(message)

        counted = COUNTED_AT_EDGE.set(True)
        try:
            await self.app(scope, receive, sending)
        finally:
            COUNTED_AT_EDGE.reset(counted)

    async def _count(self, scope) -> Standing | None:
        """Count the request in its buckets; its standing (None: Redis did not answer)."""
        authorization = forwarded = None
        for name, value in scope.get("headers", ()):
            if name == b"authorization":
                authorization = value.decode("latin-1")
            elif name == b"x-forwarded-for":
                forwarded = value.decode("latin-1")
        client = scope.get("client")
        address = self.limits.address(client[0] if client else None, forwarded)
        keys, windows, items = self.limits.buckets(address, bearer_token(authorization))
        try:
            counted = await self.count(keys=keys, args=windows)
        except (RedisError, OSError):  # Redis down: serve without limits rather than not at all
            log.warning("rate limits not enforced: Redis did not answer", exc_info=True)
            return None
        return self.limits.standing(items, counted)

    async def _refuse(self, standing: Standing, send) -> None:
        """The 429 problem every route answers (as Flask's TooManyRequests through api/problems.py)."""
        body = json.dumps(problem_body(429, "rate_limited", self.limits.refusal(standing))).encode()
        headers = [(b"content-type", PROBLEM_JSON.encode()), (b"content-length", str(len(body)).encode()),
                   *[(name.lower().encode(), value.encode()) for name, value in problem_headers(429).items()],
                   *_COMMON,
                   *[(name.lower().encode(), value.encode()) for name, value in self.limits.headers(standing, 429, False)]]
        await send({"type": "http.response.start", "status": 429, "headers": headers})
        await send({"type": "http.response.body", "body": body})

    @staticmethod
    def route(endpoint):
        """A Starlette endpoint behind the rules Flask applies to its routes' parameters
        (api/ids.py): an id in another spelling is the same 404 problem."""

        async def checked(request: Request) -> Response:
            try:
                ids.check(request.path_params)
            except ServiceError as err:
                return problem(*service_problem(err))
            return await endpoint(request)

        return checked


def problem(status: int, body: dict, headers: dict[str, str] | None = None) -> Response:
    """A problem+json answer from a Starlette route (api/problems.py makes Flask's)."""
    return Response(json.dumps(body), status, media_type=PROBLEM_JSON,
                    headers={**problem_headers(status), **(headers or {})})


async def unexpected(_request: Request, _err: Exception) -> Response:
    """Starlette's handler of an error no route answered: a 500 problem, logged."""
    return problem(*unexpected_problem())
