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
import queue
import threading

from a2wsgi.wsgi import build_environ


class FlaskBridge:
    """ASGI app running a WSGI app in a pool of ``threads`` threads, one hop each way."""

    def __init__(self, app, threads: int, max_body_bytes: int):
        self.app = app
        self.max_body_bytes = max_body_bytes
        self.pool = _Threads(threads, "WSGI")

    async def __call__(self, scope, receive, send):
        if scope["type"] == "websocket":  # none here: closed, as a2wsgi did
            await send({"type": "websocket.close", "code": 1000})
            return
        if scope["type"] != "http":  # the lifespan is Starlette's
            return
        body = await self._body(scope, receive)
        environ = build_environ(scope, io.BytesIO(body))  # type: ignore[arg-type]
        context = contextvars.copy_context()  # the request's id and log fields (api/observe.py)
        status, headers, chunks = await self.pool.run(context, self._run, environ)
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


class _Threads:
    """A fixed pool of threads for the WSGI calls, each answer handed straight to the
    waiting request's future on the loop: one queue put on the way there, one callback on
    the way back. ``run_in_executor`` wraps the same hop in a concurrent future whose
    result is chained to an asyncio future by a second callback (its lock, its condition,
    the chaining): 0.03 ms of CPU a request more (bench/README.md, section 20)."""

    def __init__(self, size: int, name: str):
        self.size, self.name = size, name
        self.work: queue.SimpleQueue = queue.SimpleQueue()
        self.started = threading.Lock()  # held once the threads run

    def run(self, context: contextvars.Context, fn, arg) -> asyncio.Future:
        loop = asyncio.get_running_loop()
        future = loop.create_future()
        self.work.put((loop, future, context, fn, arg))
        if not self.started.locked() and self.started.acquire(blocking=False):
            self._start()
        return future

    def _start(self) -> None:
        for n in range(self.size):
            # daemon: an idle pool never holds its process's exit up (the server waits for
            # the requests in flight itself, and each awaits its answer)
            threading.Thread(target=self._serve, name=f"{self.name}_{n}", daemon=True).start()

    def _serve(self) -> None:
        while True:
            _call(*self.work.get())  # a function of its own: nothing of a request kept while waiting


def _call(loop: asyncio.AbstractEventLoop, future: asyncio.Future, context: contextvars.Context, fn, arg) -> None:
    try:
        result = context.run(fn, arg)
    except BaseException as err:  # the request's task raises it, as run_in_executor did
        _answer(loop, future, err, True)
    else:
        _answer(loop, future, result, False)


def _answer(loop: asyncio.AbstractEventLoop, future: asyncio.Future, value, failed: bool) -> None:
    try:
        loop.call_soon_threadsafe(_settle, future, value, failed)
    except RuntimeError:  # the loop closed meanwhile (its process is stopping): nobody waits
        pass


def _settle(future: asyncio.Future, value, failed: bool) -> None:
    if future.cancelled():
        return
    if failed:
        future.set_exception(value)
    else:
        future.set_result(value)


def _content_length(scope) -> int | None:
    for name, value in scope.get("headers", ()):
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None
