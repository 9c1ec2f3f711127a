"""What the operator sees of each request, for every route (the Flask app and the async
streams alike): an ASGI middleware around the whole application.

- ``X-Request-Id``: the one the request brought (from the proxy: 1 to 128 characters of
  letters, digits and ``._:-``) or a new one; echoed in the response, repeated as
  ``request_id`` in problem details (api/problems.py asks ``request_id()``), bound to
  every log line written while the request runs.
- One JSON log line per request: method, route template, path, status, duration, player id.
- Metrics (service/observability/metrics.py): requests by route template and status, latency, open streams.
- Draining: on SIGTERM (or SIGINT) the process stops saying it is ready
  (/v1/health/ready answers 503) and ends every open event stream at once with a
  ``retry:`` hint, so clients reconnect to another API process instead of waiting for
  the server's graceful timeout.

The route template comes from whichever router matched: Starlette's (``scope["route"]``)
or Flask's (``note_route``, called by api/__init__.py before each request). The
per-request record lives in a context variable, which the bridge's threads (api/bridge.py) and anyio's
``to_thread`` copy, so a WSGI server with ``ObserveWSGI`` sees the same fields.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import os
import re
import signal
import threading
import time
import uuid
from dataclasses import dataclass, field

import structlog

from service.observability import metrics

log = logging.getLogger("entrepot.request")

HEADER = "x-request-id"
_VALID_ID = re.compile(r"[A-Za-z0-9._:-]{1,128}")
_FLASK_PARAM = re.compile(r"<(?:[^:<>]+:)?([^<>]+)>")
#: the retry hint (milliseconds) a stream ended by a drain carries
DRAIN_RETRY_MS = 1000

#: set once this process was told to stop: /v1/health/ready answers 503 from then on
DRAINING = threading.Event()


@dataclass
class Observed:
    request_id: str
    method: str
    path: str
    route: str | None = None
    player_id: str | None = None
    status: int | None = None
    started: float = field(default_factory=time.perf_counter)


_current: contextvars.ContextVar[Observed | None] = contextvars.ContextVar("entrepot_request", default=None)


def request_id() -> str | None:
    current = _current.get()
    return current.request_id if current else None


def note_route(rule: str | None) -> None:
    """The matched route's template (Flask's ``/v1/games/<game_id>`` as ``/v1/games/{game_id}``)."""
    current = _current.get()
    if current is not None and rule:
        current.route = _FLASK_PARAM.sub(r"{\1}", rule)


def note_player(player_id: str | None) -> None:
    current = _current.get()
    if current is not None and player_id:
        current.player_id = str(player_id)
        structlog.contextvars.bind_contextvars(player_id=str(player_id))


def _request_id(headers) -> str:
    for name, value in headers:
        if name == b"x-request-id":
            text = value.decode("latin-1").strip()
            if _VALID_ID.fullmatch(text):
                return text
    return uuid.uuid4().hex


def _begin(request_id: str, method: str, path: str) -> tuple[Observed, contextvars.Token]:
    observed = Observed(request_id, method, path)
    structlog.contextvars.clear_contextvars()
    structlog.contextvars.bind_contextvars(request_id=request_id)
    return observed, _current.set(observed)


#: the methods a metric names; any other is counted as "other" (an HTTP parser that takes
#: any token as a method would otherwise let a client make a series per request)
_METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
#: each series' children (method, route template, status): labels() validates and locks on every call
_SERIES: dict[tuple[str, str, int], tuple] = {}


def _series(method: str, route: str, status: int) -> tuple:
    key = (method if method in _METHODS else "other", route, status)
    series = _SERIES.get(key)
    if series is None:  # as few as the series themselves: methods, templates, statuses
        series = _SERIES.setdefault(key, (metrics.REQUESTS.labels(key[0], route, str(status)),
                                          metrics.REQUEST_SECONDS.labels(key[0], route)))
    return series


def _end(observed: Observed, stream: bool) -> None:
    elapsed = time.perf_counter() - observed.started
    route = observed.route or "unmatched"  # never the raw path: one series per template
    status = observed.status or 500
    count, seconds = _series(observed.method, route, status)
    count.inc()
    seconds.observe(elapsed)
    level = logging.ERROR if status >= 500 else logging.INFO
    if log.isEnabledFor(level):
        # the record made here: log.log() would walk the stack for a caller the line never shows
        log.handle(log.makeRecord(log.name, level, __file__, 0, "request", (), None, extra={
            "method": observed.method, "route": route, "path": observed.path, "status": status,
            "duration_ms": round(elapsed * 1000, 2), "player_id": observed.player_id, "stream": stream or None,
        }))


class ObserveMiddleware:
    """The ASGI middleware: outermost, around the Starlette app."""

    def __init__(self, app):
        self.app = app
        self.drain: asyncio.Event | None = None

    async def __call__(self, scope, receive, send):
        if scope["type"] == "lifespan":
            return await self.app(scope, self._lifespan_receive(receive), send)
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        observed, token = _begin(_request_id(scope.get("headers") or ()), scope["method"], scope["path"])
        header = (b"x-request-id", observed.request_id.encode())
        state = {"stream": False, "ended": False}

        async def observed_send(message):
            if state["ended"]:
                return  # the drain ended this stream; the app's later messages go nowhere
            if message["type"] == "http.response.start":
                observed.status = message["status"]
                message = {**message, "headers": [*message.get("headers", ()), header]}
                ctype = next((v for k, v in message.get("headers", ()) if k.lower() == b"content-type"), b"")
                if ctype.startswith(b"text/event-stream"):
                    state["stream"] = True
                    metrics.OPEN_STREAMS.labels(self._route(scope, observed)).inc()
            await send(message)

        try:
            if self.drain is None or not scope["path"].endswith("/stream"):
                await self.app(scope, receive, observed_send)
            else:
                await self._drainable(scope, receive, send, observed_send, state)
        finally:
            observed.route = self._route(scope, observed)
            if state["stream"]:
                metrics.OPEN_STREAMS.labels(observed.route).dec()
            _end(observed, state["stream"])
            _current.reset(token)

    async def _drainable(self, scope, receive, send, observed_send, state):
        """Run a stream in this task; when the process drains, send one last ``retry:``
        and tell the app its client has gone (Starlette's streams listen for that)."""
        drain = self.drain

        async def receive_or_drain():
            if state["ended"]:
                return {"type": "http.disconnect"}
            message = asyncio.ensure_future(receive())
            drained = asyncio.ensure_future(drain.wait())
            try:
                await asyncio.wait({message, drained}, return_when=asyncio.FIRST_COMPLETED)
            finally:
                drained.cancel()
                if not message.done():
                    message.cancel()
            if message.done() and not message.cancelled():
                return message.result()
            if state["stream"] and not state["ended"]:
                state["ended"] = True
                await send({"type": "http.response.body", "more_body": False,
                            "body": f"retry: {DRAIN_RETRY_MS}\n: this server is restarting; reconnect\n\n".encode()})
            return {"type": "http.disconnect"}

        await self.app(scope, receive_or_drain, observed_send)

    @staticmethod
    def _route(scope, observed: Observed) -> str | None:
        if observed.route:
            return observed.route
        route = scope.get("route")
        path = getattr(route, "path", None)
        # a Mount's path is a prefix, not a route (its app, Flask, notes its own)
        return path if path and hasattr(route, "endpoint") else None

    def _lifespan_receive(self, receive):
        async def wrapped():
            message = await receive()
            if message.get("type") == "lifespan.startup":
                self.drain = asyncio.Event()
                _chain_stop_signals(asyncio.get_running_loop(), self.drain)
            return message
        return wrapped


def _chain_stop_signals(loop: asyncio.AbstractEventLoop, drain: asyncio.Event) -> None:
    """Before the server's own SIGTERM/SIGINT handler (uvicorn's: stop accepting, wait for
    open connections), mark the process draining and end its streams."""
    for sig in (signal.SIGTERM, signal.SIGINT):
        try:
            previous = signal.getsignal(sig)
        except ValueError:
            return

        def handler(signum, frame, previous=previous):
            DRAINING.set()
            loop.call_soon_threadsafe(drain.set)
            if callable(previous):
                previous(signum, frame)
            elif previous == signal.SIG_DFL:
                signal.signal(signum, signal.SIG_DFL)
                os.kill(os.getpid(), signum)

        try:
            signal.signal(sig, handler)
        except ValueError:  # not the main thread (an embedded test server): no drain by signal
            return


class ObserveWSGI:
    """The same for a plain WSGI server (no streams there): request id, log line, metrics."""

    def __init__(self, app):
        self.app = app

    def __call__(self, environ, start_response):
        if _current.get() is not None:  # already observed by the ASGI middleware
            return self.app(environ, start_response)
        headers = [(b"x-request-id", environ.get("HTTP_X_REQUEST_ID", "").encode("latin-1"))]
        observed, token = _begin(_request_id(headers), environ["REQUEST_METHOD"], environ.get("PATH_INFO", ""))

        def observed_start(status, response_headers, exc_info=None):
            observed.status = int(status.split(" ", 1)[0])
            return start_response(status, [*response_headers, ("X-Request-Id", observed.request_id)], exc_info)

        try:
            return self.app(environ, observed_start)
        finally:
            _end(observed, False)
            _current.reset(token)
