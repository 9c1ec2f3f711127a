"""The Flask app under the ASGI server, with one hop to a thread per request.

a2wsgi (used before) streams both ways: the request body is read from the thread by
scheduling ``receive`` on the event loop, and each piece of the response (its head, each
chunk, the end) is handed back to the loop the same way, so a request crossed between
the loop and its thread four times or more, each crossing a future resolved across
threads and a wake-up of the loop. Sampled in a running `entrepot serve`, that machinery
was about a third of the API processes' CPU (bench/README.md, issue 24).

No Flask route streams (the live streams are served natively, api/asgi.py), and every
request body is bounded (``MAX_CONTENT_LENGTH``), so the bridge here buffers: the body is
read on the loop, the WSGI app runs in a thread of the pool from start to end (its
response collected there), and the response is sent from the loop. One hop there, one
back.

The WSGI environ is a2wsgi's own (``build_environ``): Flask sees the same request as before.
Bodies follow werkzeug's rule for a server that does not set ``wsgi.input_terminated``: a
body is read only when its ``Content-Length`` is given and within ``max_body_bytes``;
past that Flask answers 413 without reading it, and without a length the body is empty.
"""

from __future__ import annotations

import asyncio
import contextvars
import io
from concurrent.futures import ThreadPoolExecutor

from a2wsgi.wsgi import build_environ


class FlaskBridge:
    """ASGI app running a WSGI app in a pool of ``threads`` threads, one hop each way."""

    def __init__(self, app, threads: int, max_body_bytes: int):
        self.app = app
        self.max_body_bytes = max_body_bytes
        self.executor = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="WSGI")

    async def __call__(self, scope, receive, send):
        if scope["type"] == "websocket":  # none here: closed, as a2wsgi did
            await send({"type": "websocket.close", "code": 1000})
            return
        if scope["type"] != "http":  # the lifespan is Starlette's
            return
        body = await self._body(scope, receive)
        environ = build_environ(scope, io.BytesIO(body))  # type: ignore[arg-type]
        context = contextvars.copy_context()  # the request's id and log fields (api/observe.py)
        status, headers, chunks = await asyncio.get_running_loop().run_in_executor(
            self.executor, context.run, self._run, environ)
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": b"".join(chunks)})

    async def _body(self, scope, receive) -> bytes:
        length = _content_length(scope)
        if length is None or not 0 < length <= self.max_body_bytes:
            return b""  # werkzeug reads no body here (413 past the limit, empty without a length)
        parts, size = [], 0
        while size < length:
            message = await receive()
            if message["type"] != "http.request":  # the client left
                break
            parts.append(message.get("body", b""))
            size += len(parts[-1])
            if not message.get("more_body", False):
                break
        return b"".join(parts)

    def _run(self, environ) -> tuple[int, list[tuple[bytes, bytes]], list[bytes]]:
        """The WSGI call, in a pool thread: (status, headers, body chunks)."""
        started: list = []

        def start_response(status, response_headers, exc_info=None):
            # nothing is sent before the app returns, so a later call (with exc_info) replaces
            started[:] = [status, response_headers]
            return chunks.append

        chunks: list[bytes] = []
        iterable = self.app(environ, start_response)
        try:
            chunks.extend(iterable)
        finally:
            close = getattr(iterable, "close", None)
            if close is not None:
                close()
        status, response_headers = started
        return (int(status.split(" ", 1)[0]),
                [(name.strip().encode("latin-1").lower(), value.strip().encode("latin-1"))
                 for name, value in response_headers],
                chunks)


def _content_length(scope) -> int | None:
    for name, value in scope.get("headers", ()):
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None
