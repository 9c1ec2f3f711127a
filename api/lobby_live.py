"""GET /v1/lobby/stream: the lobby live, as Server-Sent Events, served natively async.

The stream holds no thread and runs no query while the lobby is quiet: it waits on the
lobby's ``Watch`` (service/notifications/streams.py: one Redis subscription per process, which also hears
``entrepot:lobby``, published after every seat change: a seek posted, joined, started,
declined, or withdrawn by the sweeper). Rung, it reads the lobby once (streams with the
same filter rung together share that read) and sends ``event: lobby`` with
``data: {"games": [...]}`` as GET /v1/lobby answers. The first message is the lobby as it
is. A keep-alive comment every ``keepalive`` s; closed after ``timeout`` s (reconnect).
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import AsyncIterator

from anyio import to_thread
from marshmallow import EXCLUDE, fields, validate
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse

from api.live import SSE_HEADERS, _problem, _problem_of, _quiet
from api.problems import problem_body
from api.routes.lobby import lobby_json
from api.schemas import Strict
from service.lobby.service import LobbyService
from service.notifications.streams import Fanout, Watch

log = logging.getLogger(__name__)


class LobbyStreamQuery(Strict):
    title = fields.Str(load_default=None, validate=validate.Length(min=1, max=64))
    limit = fields.Int(load_default=50, validate=validate.Range(min=1, max=200))
    keepalive = fields.Float(load_default=15.0, validate=validate.Range(min=0.05, max=60))
    timeout = fields.Float(load_default=300.0, validate=validate.Range(min=0.1, max=3600))


LOBBY_STREAM_QUERY = LobbyStreamQuery()


class LobbyStreams:
    def __init__(self, lobby: LobbyService, fanout: Fanout):
        self.lobby, self.fanout = lobby, fanout
        self._reading: dict[tuple, asyncio.Future] = {}

    async def endpoint(self, request: Request) -> Response:
        if request.method != "GET":
            return _problem(405, problem_body(405, "method_not_allowed", "only GET streams"), {"Allow": "GET"})
        watch = None
        try:
            query = LOBBY_STREAM_QUERY.load(dict(request.query_params), unknown=EXCLUDE)
            watch = self.fanout.watch_lobby()  # before the first read: no change slips between
            first = await self._read(query["title"], query["limit"])
        except Exception as err:
            if watch is not None:
                watch.close()
            return _problem(*_problem_of(err))
        return StreamingResponse(self._messages(watch, query, first), media_type="text/event-stream",
                                 headers=SSE_HEADERS)

    async def _read(self, title: str | None, limit: int) -> list[dict]:
        key = (title, limit)
        reading = self._reading.get(key)
        if reading is None:
            reading = asyncio.ensure_future(
                to_thread.run_sync(lambda: lobby_json(self.lobby.seeks(title, limit))))
            self._reading[key] = reading
            reading.add_done_callback(lambda done: self._reading.pop(key, None))
        return await asyncio.shield(reading)

    async def _messages(self, watch: Watch, query: dict, games: list[dict]) -> AsyncIterator[str]:
        deadline = time.monotonic() + query["timeout"]
        try:
            yield "retry: 2000\n\n"
            while True:
                yield f"event: lobby\ndata: {json.dumps({'games': games})}\n\n"
                async for beat in _quiet(watch, query["keepalive"], deadline):
                    yield beat
                if time.monotonic() >= deadline:
                    return
                games = await self._read(query["title"], query["limit"])
        except Exception:
            log.exception("lobby stream stopped")
        finally:
            watch.close()
