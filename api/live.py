"""GET /v1/games/{id}/stream and GET /v1/players/me/stream, served natively async
(Server-Sent Events).

A stream holds no request thread and runs no query while its game is quiet: it waits on
its ``Watch`` (service/notifications/streams.py), and reads only when rung. Messages: ``id`` = the
event's seq, ``event`` = its type, ``data`` = the event as the caller may see it; a
keep-alive comment every ``keepalive`` s; closed after ``timeout`` s (reconnect with
Last-Event-ID) or after an ``end`` message once a finished game has nothing more to send.
When a wake-up brings no event but the messages the caller may read grew (a chat message),
the game stream sends ``event: message`` with ``data: {"count": n}`` and no ``id`` (it is
not an event of the game: Last-Event-ID is unchanged); the reader then reads /messages.

A seated player's open game stream also keeps ``entrepot:watching:<game>:<player>`` alive
in Redis (a short time to live, refreshed while open, deleted on close): the mail side
sends no mail about a game its player is watching.

The player's stream has the same shape: ``id`` = the notification's id, ``event`` = its
type (your_turn, reminder, finished, message), ``data`` = the body a webhook gets.
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

from api.auth import SESSION_COOKIE, stream_player
from api.problems import (
    PROBLEM_JSON,
    problem_body,
    problem_headers,
    service_problem,
    unexpected_problem,
    validation_problem,
)
from api.schemas import PlayerStreamQuery, StreamQuery
from service.accounts.players import PlayerService
from service.errors import Invalid, ServiceError, Unauthorized
from service.games.service import EventPage
from service.games.store import AsyncReader, Player
from service.notifications.service import notification_body
from service.notifications.streams import Fanout, LiveEvents, Watch

log = logging.getLogger(__name__)

STREAM_QUERY = StreamQuery()
PLAYER_STREAM_QUERY = PlayerStreamQuery()
PAGE = 200
SSE_HEADERS = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
#: the "watching" key lives this long unless refreshed; refreshed this often while open
WATCHING_TTL_SECONDS = 60
WATCHING_REFRESH_SECONDS = 20.0


def watching_key(game_id: str, player_id: str) -> str:
    return f"entrepot:watching:{game_id}:{player_id}"


class Watching:
    """Marks a seated player as watching a game while its stream is open (best effort: a
    Redis hiccup only means a mail they did not need)."""

    def __init__(self, redis, key: str | None):
        self.redis, self.key, self._set_at = redis, key, float("-inf")

    async def refresh(self) -> None:
        if self.key is None or time.monotonic() - self._set_at < WATCHING_REFRESH_SECONDS:
            return
        try:
            await self.redis.set(self.key, "1", ex=WATCHING_TTL_SECONDS)
            self._set_at = time.monotonic()
        except Exception as err:
            log.warning("could not mark %s (%s)", self.key, err)

    async def close(self) -> None:
        if self.key is not None:
            try:
                await self.redis.delete(self.key)
            except Exception as err:  # it expires by itself
                log.warning("could not unmark %s (%s)", self.key, err)


class GameStreams:
    def __init__(self, players: PlayerService, events: LiveEvents, fanout: Fanout, redis=None,
                 reader: AsyncReader | None = None, message_count=None):
        self.players, self.events, self.fanout = players, events, fanout
        #: an asyncio Redis client for the "watching" keys; None: not kept
        self.redis, self.reader = redis, reader
        #: (caller, game_id) -> how many messages the caller may read (MessageService's
        #: readable_count); None: the stream says nothing of messages
        self.message_count = message_count

    async def endpoint(self, request: Request) -> Response:
        if request.method != "GET":
            return _problem(405, problem_body(405, "method_not_allowed", "only GET streams"),
                            {"Allow": "GET"})
        game_id = request.path_params["game_id"]
        watch = None
        try:
            query = STREAM_QUERY.load(dict(request.query_params), unknown=EXCLUDE)
            after = _after(request.headers.get("Last-Event-ID"), query["after"])
            caller = await self._caller(request.headers.get("Authorization"), request.cookies.get(SESSION_COOKIE))
            watch = self.fanout.watch(game_id)  # before the first read: no move slips between
            first = await self.events.page(game_id, caller, after, PAGE, query["seat"])
        except Exception as err:  # a problem+json answer, as from every route
            if watch is not None:
                watch.close()
            return _problem(*_problem_of(err))
        watching = Watching(self.redis, await self._watching_key(game_id, caller))
        messages = self._messages(watch, game_id, caller, query, first, watching)
        return StreamingResponse(messages, media_type="text/event-stream", headers=SSE_HEADERS)

    async def _watching_key(self, game_id: str, caller: Player | None) -> str | None:
        if caller is None or self.redis is None or self.reader is None:
            return None
        try:
            game = await self.reader.game(game_id)
        except Exception:
            return None
        return watching_key(game_id, caller.id) if game is not None and game.seats_of(caller.id) else None

    async def _caller(self, header: str | None, session: str | None) -> Player | None:
        if header is None and not session:
            return None  # a spectator
        # looked up once per stream, by the same service as every route (a token needs "read")
        return await to_thread.run_sync(stream_player, self.players, header, session, "read")

    async def _messages(self, watch: Watch, game_id: str, caller: Player | None, query: dict,
                        page: EventPage, watching: Watching) -> AsyncIterator[str]:
        deadline = time.monotonic() + query["timeout"]
        readable = None  # how many messages the caller could read at the last look
        try:
            yield "retry: 2000\n\n"
            while True:
                await watching.refresh()
                for event in page.events:
                    yield f"id: {event['seq']}\nevent: {event['type']}\ndata: {json.dumps(event)}\n\n"
                watch.seen = page.next_after
                woke = False
                if len(page.events) < PAGE:
                    if page.status in ("finished", "aborted"):
                        yield "event: end\ndata: {}\n\n"
                        return
                    async for beat in _quiet(watch, query["keepalive"], deadline, watching):
                        yield beat
                    if time.monotonic() >= deadline:
                        return
                    woke = True
                page = await self.events.page(game_id, caller, page.next_after, PAGE, query["seat"])
                if woke and not page.events and self.message_count is not None:
                    # no event woke it: a message was posted (or a reconnect rang)
                    try:
                        count = await to_thread.run_sync(self.message_count, caller, game_id)
                    except Exception as err:  # the events go on; the chat waits for a move
                        log.warning("could not count the messages of %s (%s)", game_id, err)
                        count = readable or 0
                    if count > (readable or 0):
                        yield f"event: message\ndata: {json.dumps({'count': count})}\n\n"
                    readable = count
        except Exception:  # the reader reconnects with Last-Event-ID
            log.exception("stream of %s stopped", game_id)
        finally:
            watch.close()
            await watching.close()


class PlayerStreams:
    """GET /v1/players/me/stream: every notification of the caller, in id order."""

    def __init__(self, players: PlayerService, reader: AsyncReader, fanout: Fanout):
        self.players, self.reader, self.fanout = players, reader, fanout

    async def endpoint(self, request: Request) -> Response:
        if request.method != "GET":
            return _problem(405, problem_body(405, "method_not_allowed", "only GET streams"),
                            {"Allow": "GET"})
        watch = None
        try:
            query = PLAYER_STREAM_QUERY.load(dict(request.query_params), unknown=EXCLUDE)
            last_event_id = request.headers.get("Last-Event-ID")
            asked = query["after"]
            latest = asked == "latest" and last_event_id is None  # a reconnection resumes where it was
            after = _after(last_event_id, 0 if asked == "latest" else int(asked))
            header = request.headers.get("Authorization")
            caller = await to_thread.run_sync(stream_player, self.players, header,
                                              request.cookies.get(SESSION_COOKIE), "notifications")
            if caller is None:
                raise Unauthorized("this stream needs Authorization: Bearer <token> or a signed-in session")
            watch = self.fanout.watch_player(caller.id)  # before the first read: nothing slips between
            if latest:
                after = await self.reader.newest_notification(caller.id)
            first = await self.reader.notifications(caller.id, after, PAGE)
        except Exception as err:
            if watch is not None:
                watch.close()
            return _problem(*_problem_of(err))
        messages = self._messages(watch, caller, query, after, first)
        return StreamingResponse(messages, media_type="text/event-stream", headers=SSE_HEADERS)

    async def _messages(self, watch: Watch, caller: Player, query: dict, after: int,
                        page: list[dict]) -> AsyncIterator[str]:
        deadline = time.monotonic() + query["timeout"]
        try:
            yield "retry: 2000\n\n"
            while True:
                for row in page:
                    yield f"id: {row['id']}\nevent: {row['type']}\ndata: {json.dumps(notification_body(row))}\n\n"
                    after = row["id"]
                watch.seen = after
                if len(page) < PAGE:
                    async for beat in _quiet(watch, query["keepalive"], deadline):
                        yield beat
                    if time.monotonic() >= deadline:
                        return
                page = await self.reader.notifications(caller.id, after, PAGE)
        except Exception:  # the reader reconnects with Last-Event-ID
            log.exception("notification stream of %s stopped", caller.id)
        finally:
            watch.close()


async def _quiet(watch: Watch, keepalive: float, deadline: float,
                 watching: Watching | None = None) -> AsyncIterator[str]:
    """Wait until the watch rings or the stream's time is up, sending a keep-alive comment
    every ``keepalive`` seconds (and refreshing the "watching" key meanwhile)."""
    last_beat = time.monotonic()
    while True:
        now = time.monotonic()
        if now >= deadline:
            return
        wake = min(deadline, last_beat + keepalive)
        if watching is not None and watching.key is not None:
            wake = min(wake, now + WATCHING_REFRESH_SECONDS)
        if await watch.wait(max(wake - now, 0.0)):
            return
        if watching is not None:
            await watching.refresh()
        if time.monotonic() - last_beat >= keepalive and time.monotonic() < deadline:
            yield ": keep-alive\n\n"
            last_beat = time.monotonic()


def _after(last_event_id: str | None, after: int) -> int:
    if last_event_id is None:
        return after
    # ASCII digits only: "²".isdigit() is true and int("²") raises (a 500 before)
    if not (last_event_id.isascii() and last_event_id.isdigit()) or int(last_event_id) > 2**31 - 1:
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
