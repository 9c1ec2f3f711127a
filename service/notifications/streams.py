"""Live streams without a thread or a poll each.

One Redis subscriber connection per process, subscribed to the channels its streams watch
(a game's ``entrepot:game:<id>``, a player's, the lobby's: published after every commit by
``service/notifications/pubsub.py``), fans wake-up calls out to the streams watching each;
a woken stream reads its new events from PostgreSQL on an asyncio pool and redacts them for
its reader. A quiet stream costs a coroutine and a queue entry, no thread and no query. A
channel is subscribed when its first stream opens and unsubscribed when its last closes: a
process hears only the games its streams watch, not every move of the deployment (a pattern
subscription to all games, used before, cost every API process about 2% of its CPU in
messages nobody read; bench/README.md, section 20).

Wake-ups are hints, never data. A wake-up can be lost (a publish while Redis is down, an
API process dying between commit and publish), so a channel's streams are woken once when
Redis confirms its subscription (on a first stream, and after every reconnection), and every
``resync_seconds`` one query per process compares the versions of all watched games with what
their streams have sent, waking those behind: a lost wake-up costs that much delay, never an
event, and quiet streams still cost no query each.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import uuid
from collections import defaultdict

from redis import asyncio as aioredis

from service.errors import NotFound
from service.games.service import EventPage, event_page, is_game_id, viewer_of
from service.games.store import AsyncReader, Game, Player, StoredEvent
from service.notifications.pubsub import LOBBY_CHANNEL, channel, player_channel

log = logging.getLogger(__name__)


class Watch:
    """One stream's doorbell for one channel (a game's, or a player's notifications)."""

    def __init__(self, fanout: Fanout, key: str):
        self._fanout, self.key = fanout, key
        self._rung = asyncio.Event()
        #: the last seq (or notification id) its stream has read (the resync rings it when
        #: the game, or the player's notifications, are further on)
        self.seen = 0

    def ring(self) -> None:
        self._rung.set()

    async def wait(self, seconds: float) -> bool:
        """True when rung (a move, or a reconnect), False after ``seconds`` of silence."""
        try:
            await asyncio.wait_for(self._rung.wait(), seconds)
        except TimeoutError:
            return False
        self._rung.clear()
        return True

    def close(self) -> None:
        self._fanout._forget(self)


class Fanout:
    """The process's subscriber, ringing the watches of each channel it hears about."""

    RETRY_SECONDS = 1.0

    def __init__(self, redis_url: str, reader: AsyncReader, resync_seconds: float = 5.0):
        self.redis_url, self.reader, self.resync_seconds = redis_url, reader, resync_seconds
        self._watches: dict[str, set[Watch]] = defaultdict(set)
        self._tasks: list[asyncio.Task] = []
        #: the listener's subscriber while it is connected
        self._pubsub = None
        #: subscribe and unsubscribe in the order the watches changed
        self._following = asyncio.Lock()
        self._changes: set[asyncio.Task] = set()
        #: a channel nobody publishes to: the connection stays subscribed (and listening)
        #: while no stream is open
        self._own = f"entrepot:fanout:{uuid.uuid4().hex}"

    async def start(self) -> None:
        self._tasks = [asyncio.create_task(self._listen_forever(), name="entrepot-fanout"),
                       asyncio.create_task(self._resync_forever(), name="entrepot-resync")]

    async def stop(self) -> None:
        for task in [*self._tasks, *self._changes]:
            task.cancel()
        for task in [*self._tasks, *self._changes]:
            with contextlib.suppress(asyncio.CancelledError):
                await task

    def watch(self, game_id: str) -> Watch:
        return self._watch(channel(game_id))

    def watch_player(self, player_id: str) -> Watch:
        """The doorbell of a player's notifications (GET /v1/players/me/stream)."""
        return self._watch(player_channel(player_id))

    def watch_lobby(self) -> Watch:
        """The doorbell of the lobby (GET /v1/lobby/stream)."""
        return self._watch(LOBBY_CHANNEL)

    def _watch(self, key: str) -> Watch:
        watch = Watch(self, key)
        first = key not in self._watches
        self._watches[key].add(watch)
        if first:
            self._follow(key)
        return watch

    def _forget(self, watch: Watch) -> None:
        watches = self._watches.get(watch.key)
        if watches is not None:
            watches.discard(watch)
            if not watches:
                del self._watches[watch.key]
                self._follow(watch.key)

    def _follow(self, key: str) -> None:
        """Subscribe to ``key`` or unsubscribe from it, as its watches stand when the change
        is sent (changes are sent one at a time, in order: the last one sent is the state)."""
        try:
            change = asyncio.get_running_loop().create_task(self._send_change(key))
        except RuntimeError:  # no loop (nothing listens either): the next subscription covers it
            return
        self._changes.add(change)
        change.add_done_callback(self._changes.discard)

    async def _send_change(self, key: str) -> None:
        async with self._following:
            pubsub = self._pubsub
            if pubsub is None:  # not connected: the listener subscribes to every watched key
                return
            try:
                if key in self._watches:
                    await pubsub.subscribe(key)
                else:
                    await pubsub.unsubscribe(key)
            except Exception as err:  # the connection broke: the listener reconnects and subscribes again
                log.warning("stream fan-out could not follow %s (%s)", key, err)

    def _ring(self, key: str) -> None:
        for watch in self._watches.get(key, ()):
            watch.ring()

    async def _listen_forever(self) -> None:
        while True:
            # named: an operator's CLIENT LIST tells this process's subscriber
            redis = aioredis.from_url(self.redis_url, client_name=self._own.replace(":", "-"))
            pubsub = redis.pubsub()
            try:
                async with self._following:
                    await pubsub.subscribe(self._own, *self._watches)
                    self._pubsub = pubsub
                async for message in pubsub.listen():
                    # a confirmed subscription wakes its streams: whatever was published
                    # before it (a first stream's, or while disconnected) is read then
                    if message["type"] in ("message", "subscribe"):
                        self._ring(message["channel"].decode())
            except asyncio.CancelledError:
                raise
            except Exception as err:  # Redis went away: the resync covers the gap
                log.warning("stream fan-out lost Redis (%s); retrying", err)
            finally:
                self._pubsub = None
                with contextlib.suppress(Exception):
                    await pubsub.aclose()
                with contextlib.suppress(Exception):
                    await redis.aclose()
            await asyncio.sleep(self.RETRY_SECONDS)

    async def _resync_forever(self) -> None:
        games, players = channel(""), player_channel("")
        while True:
            await asyncio.sleep(self.resync_seconds)
            watched = {prefix: [key[len(prefix):] for key in self._watches
                                if key.startswith(prefix) and is_game_id(key[len(prefix):])]
                       for prefix in (games, players)}
            try:
                heads = {games: await self.reader.versions(watched[games]) if watched[games] else {},
                         players: await self.reader.last_notifications(watched[players]) if watched[players] else {}}
            except Exception as err:
                log.warning("stream resync failed (%s)", err)
                continue
            for prefix, found in heads.items():
                for key, head in found.items():
                    for watch in self._watches.get(prefix + key, ()):
                        if watch.seen < head:
                            watch.ring()


class LiveEvents:
    """Pages of a game's events for a stream, read with asyncio and redacted per reader
    exactly as ``GameService.events`` does.

    The streams of one game are woken together and ask for the same rows: streams that ask
    for the same page while its read is under way share that read (then each redacts the
    rows for its own reader), so a move costs one read per process, not one per stream.
    """

    def __init__(self, reader: AsyncReader):
        self.reader = reader
        self._reading: dict[tuple[str, int, int], asyncio.Future] = {}

    async def page(self, game_id: str, caller: Player | None, after: int, limit: int,
                   seat: int | None) -> EventPage:
        if not is_game_id(game_id):
            raise NotFound(f"no game {game_id}")
        game, stored = await self._shared_read(game_id, after, limit)
        return event_page(game, stored, viewer_of(game, caller, seat), after)

    async def _shared_read(self, game_id: str, after: int, limit: int) -> tuple[Game, list[StoredEvent]]:
        key = (game_id, after, limit)
        reading = self._reading.get(key)
        if reading is None:
            reading = asyncio.ensure_future(self._read(game_id, after, limit))
            self._reading[key] = reading
            reading.add_done_callback(lambda done: self._done_reading(key, done))
        # shielded: a stream that goes away does not cancel the read the others wait for
        return await asyncio.shield(reading)

    def _done_reading(self, key: tuple[str, int, int], done: asyncio.Future) -> None:
        del self._reading[key]
        if not done.cancelled():
            done.exception()  # retrieved here too, in case every stream waiting went away

    async def _read(self, game_id: str, after: int, limit: int) -> tuple[Game, list[StoredEvent]]:
        game = await self.reader.game(game_id)
        if game is None:
            raise NotFound(f"no game {game_id}")
        # bounded by the version read with the status, so redaction matches that status
        return game, await self.reader.events(game_id, after, limit, game.version)
