"""GET /v1/games/{id}/stream, served natively async (Server-Sent Events).

A stream holds no request thread and runs no query while its game is quiet: it waits on
its ``Watch`` (service/streams.py), and reads only when rung. Messages: ``id`` = the
event's seq, ``event`` = its type, ``data`` = the event as the caller may see it; a
keep-alive comment every ``keepalive`` s; closed after ``timeout`` s (reconnect with
Last-Event-ID) or after an ``end`` message once a finished game has nothing more to send.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import AsyncIterator

from anyio import to_thread
from marshmallow import EXCLUDE, ValidationError
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse

from api.auth import bearer_player
from api.problems import (
    PROBLEM_JSON,
    problem_body,
    problem_headers,
    service_problem,
    unexpected_problem,
    validation_problem,
)
from api.schemas import StreamQuery
from service.errors import Invalid, ServiceError
from service.games import EventPage
from service.players import PlayerService
from service.store import Player
from service.streams import Fanout, LiveEvents, Watch

log = logging.getLogger(__name__)

STREAM_QUERY = StreamQuery()
PAGE = 200
SSE_HEADERS = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}


class GameStreams:
    def __init__(self, players: PlayerService, events: LiveEvents, fanout: Fanout):
        self.players, self.events, self.fanout = players, events, fanout

    async def endpoint(self, request: Request) -> Response:
        if request.method != "GET":
            return _problem(405, problem_body(405, "method_not_allowed", "only GET streams"),
                            {"Allow": "GET"})
        game_id = request.path_params["game_id"]
        watch = None
        try:
            query = STREAM_QUERY.load(dict(request.query_params), unknown=EXCLUDE)
            after = _after(request.headers.get("Last-Event-ID"), query["after"])
            caller = await self._caller(request.headers.get("Authorization"))
            watch = self.fanout.watch(game_id)  # before the first read: no move slips between
            first = await self.events.page(game_id, caller, after, PAGE, query["seat"])
        except Exception as err:  # a problem+json answer, as from every route
            if watch is not None:
                watch.close()
            return _problem(*_problem_of(err))
        messages = self._messages(watch, game_id, caller, query, first)
        return StreamingResponse(messages, media_type="text/event-stream", headers=SSE_HEADERS)

    async def _caller(self, header: str | None) -> Player | None:
        if header is None:
            return None  # a spectator
        # looked up once per stream, by the same cached service as every route
        return await to_thread.run_sync(bearer_player, self.players, header)

    async def _messages(self, watch: Watch, game_id: str, caller: Player | None, query: dict,
                        page: EventPage) -> AsyncIterator[str]:
        deadline = time.monotonic() + query["timeout"]
        try:
            yield "retry: 2000\n\n"
            while True:
                for event in page.events:
                    yield f"id: {event['seq']}\nevent: {event['type']}\ndata: {json.dumps(event)}\n\n"
                watch.seen = page.next_after
                if len(page.events) < PAGE:
                    if page.status in ("finished", "aborted"):
                        yield "event: end\ndata: {}\n\n"
                        return
                    while not await watch.wait(min(query["keepalive"], deadline - time.monotonic())):
                        if time.monotonic() >= deadline:
                            return
                        yield ": keep-alive\n\n"
                page = await self.events.page(game_id, caller, page.next_after, PAGE, query["seat"])
        except Exception:  # the reader reconnects with Last-Event-ID
            log.exception("stream of %s stopped", game_id)
        finally:
            watch.close()


def _after(last_event_id: str | None, after: int) -> int:
    if last_event_id is None:
        return after
    if not last_event_id.isdigit():
        raise Invalid("bad Last-Event-ID", {"Last-Event-ID": ["must be an event seq"]})
    return int(last_event_id)


def _problem_of(err: Exception) -> tuple[int, dict]:
    if isinstance(err, ServiceError):
        return service_problem(err)
    if isinstance(err, ValidationError):
        return validation_problem(err)
    return unexpected_problem()


def _problem(status: int, body: dict, headers: dict[str, str] | None = None) -> Response:
    return Response(json.dumps(body), status, media_type=PROBLEM_JSON,
                    headers={**problem_headers(status), **(headers or {})})
