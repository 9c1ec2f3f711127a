"""The edge policy: what every route of both HTTP stacks (the Flask app, and the live
streams Starlette serves natively async) shares (issue 26 item 15, issue 32 item 3).
``Edge`` applies to the stream routes what the Flask app applies to its own, from the same
definitions, so every route answers alike:

- Ids in paths (api/ids.py): one spelling; any other is the same 404 problem, checked on
  the parameters each router parsed, before the request is counted (Flask's order).
- Rate limits (api/limits.py ``RateLimits``): one budget per client address and per bearer
  token for every route, stream opens included (the same Redis buckets), one round trip a
  request; over a limit the same 429 problem with Retry-After; RateLimit-* headers on every
  counted answer, streams included. Flask routes count in their request thread, on its own
  connection (service/redis_wire.py; an asyncio call costs twice the CPU; bench/edge_cost.py).
- Request ids: ``X-Request-Id`` in and out for every route (api/observe.py, the ASGI
  middleware around everything); problems made here repeat it as ``request_id``.
- Problem details: built by api/problems.py for both stacks; an error escaping a stream
  route before it answers is a 500 problem (``unexpected``), not Starlette's plain text.
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
import re

from flask import Flask
from redis import RedisError
from starlette.requests import Request
from starlette.responses import Response
from werkzeug.exceptions import NotFound

from api import ids
from api.limits import COUNT, RateLimits, Standing, bearer_token
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
_COMMON_NAMED = [(name.lower(), name, value) for name, value in COMMON.items()]


def install(app: Flask) -> None:
    @app.after_request
    def security_headers(response):
        # the names present read once: werkzeug's setdefault scans every header per name and
        # its mimetype parses the Content-Type (3 against 15-18 us, bench/README.md section 18)
        headers = response.headers
        present = {name.lower() for name in headers.keys()}
        for lower, name, value in _COMMON_NAMED:
            if lower not in present:
                headers.add(name, value)
        if ("content-security-policy" not in present
                and headers.get("Content-Type", "").split(";")[0].strip().lower() == "text/html"):
            headers.add("Content-Security-Policy", WEB_CSP)
        if "date" in present:  # the server writes the Date header; werkzeug's file responses add their own
            del headers["Date"]
        return response


#: a control character in a path: no route has one
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")

#: the common headers as the ASGI server sends them
_COMMON = [(name.lower().encode(), value.encode()) for name, value in COMMON.items()]


class Edge:
    """The edge policy for the ASGI application: ``around`` the whole of it (the security
    headers of every response), and ``route`` for each stream route (what Flask's hooks
    do for its routes: the id rule, then the rate limits, counted in the same buckets)."""

    def __init__(self, settings: Settings, redis):
        self.limits = RateLimits(settings)
        #: the Lua script of api/limits.py on an asyncio Redis client
        self.count = redis.register_script(COUNT)

    @staticmethod
    def around(app):
        async def edge(scope, receive, send):
            if scope["type"] != "http":
                return await app(scope, receive, send)

            async def sending(message):
                if message["type"] == "http.response.start":
                    headers = list(message.get("headers", ()))
                    present = {name.lower() for name, _ in headers}
                    message = {**message, "headers": headers + [h for h in _COMMON if h[0] not in present]}
                await send(message)

            return await app(scope, receive, sending)

        return edge

    def route(self, endpoint):
        """A Starlette endpoint behind the rules Flask applies to its routes, in Flask's
        order: an id in another spelling is the same 404 problem (api/ids.py), uncounted as
        in Flask; then the request is counted in the caller's buckets (a stream open costs
        what any request costs), over a limit the same 429 problem, and the answer carries
        the RateLimit-* headers."""

        async def checked(request: Request) -> Response:
            try:
                ids.check(request.path_params)
            except ServiceError as err:
                return problem(*service_problem(err))
            standing = await self._count(request)
            if standing is not None and not standing[0]:
                response = problem(429, problem_body(429, "rate_limited", self.limits.refusal(standing)))
            elif _CONTROL.search(request.scope["path"]):
                # Starlette's route patterns end in $, which also matches before a final
                # newline: /v1/lobby/stream%0A would open the stream; Flask 404s (counted) it
                response = problem(404, problem_body(404, "not_found", NotFound.description))
            else:
                response = await endpoint(request)
            if standing is not None:
                for name, value in self.limits.headers(standing, response.status_code,
                                                       "retry-after" in response.headers):
                    response.headers[name] = value
            return response

        return checked

    async def _count(self, request: Request) -> Standing | None:
        """Count the request in its buckets; its standing (None: Redis did not answer)."""
        address = self.limits.address(request.client.host if request.client else None,
                                      request.headers.get("x-forwarded-for"))
        keys, windows, items = self.limits.buckets(address, bearer_token(request.headers.get("authorization")))
        try:
            counted = await self.count(keys=keys, args=windows)
        except (RedisError, OSError):  # Redis down: serve without limits rather than not at all
            log.warning("rate limits not enforced: Redis did not answer", exc_info=True)
            return None
        return self.limits.standing(items, counted)


def problem(status: int, body: dict, headers: dict[str, str] | None = None) -> Response:
    """A problem+json answer from a Starlette route (api/problems.py makes Flask's)."""
    return Response(json.dumps(body), status, media_type=PROBLEM_JSON,
                    headers={**problem_headers(status), **(headers or {})})


async def unexpected(_request: Request, _err: Exception) -> Response:
    """Starlette's handler of an error no route answered: a 500 problem, logged."""
    return problem(*unexpected_problem())
