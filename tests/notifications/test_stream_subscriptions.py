"""The streams' subscriber (service/notifications/streams.py ``Fanout``) on a real Redis:
a process subscribes to the channels its open streams watch and to nothing else, wakes a
channel's streams once Redis confirms the subscription (what was published before is read
then), leaves a channel when its last stream closes, and after losing its connection
subscribes again to every channel still watched."""

from __future__ import annotations

import asyncio
import uuid

from redis import Redis

from service.notifications.pubsub import channel, player_channel
from service.notifications.streams import Fanout


class NoReader:
    """The resync's reader: never asked here (its period is longer than the test)."""

    async def versions(self, game_ids):  # pragma: no cover - the resync does not run
        return {}

    async def last_notifications(self, player_ids):  # pragma: no cover
        return {}


def subscribers(redis: Redis, key: str) -> int:
    return dict(redis.pubsub_numsub(key))[key.encode()]


async def eventually(check, seconds: float = 5.0) -> None:
    deadline = asyncio.get_running_loop().time() + seconds
    while not check():
        assert asyncio.get_running_loop().time() < deadline, "not within the time"
        await asyncio.sleep(0.02)


async def rung(watch, seconds: float = 5.0) -> bool:
    return await watch.wait(seconds)


def test_a_process_hears_only_the_channels_its_streams_watch(redis_url):
    redis = Redis.from_url(redis_url)
    game, other, player = (str(uuid.uuid4()) for _ in range(3))

    async def scenario():
        fanout = Fanout(redis_url, NoReader(), resync_seconds=3600)
        await fanout.start()
        try:
            first = fanout.watch(game)
            # subscribed once Redis confirms, and the confirmation wakes the stream: a move
            # published before it is read then
            assert await rung(first)
            assert subscribers(redis, channel(game)) == 1
            assert subscribers(redis, channel(other)) == 0
            second, mine = fanout.watch(game), fanout.watch_player(player)
            assert await rung(mine)
            assert subscribers(redis, channel(game)) == 1  # one subscription for both streams
            redis.publish(channel(game), "1")
            assert await rung(first) and await rung(second)
            redis.publish(channel(other), "1")  # nobody here watches it
            assert not await first.wait(0.3)
            first.close()
            await asyncio.sleep(0.2)
            assert subscribers(redis, channel(game)) == 1  # the second stream still watches
            second.close()
            mine.close()
            await eventually(lambda: subscribers(redis, channel(game)) == 0
                             and subscribers(redis, player_channel(player)) == 0)
            again = fanout.watch(game)  # a new stream of the same game subscribes again
            assert await rung(again)
            assert subscribers(redis, channel(game)) == 1
            again.close()
        finally:
            await fanout.stop()

    asyncio.run(scenario())


def test_after_a_lost_connection_every_watched_channel_is_subscribed_again(redis_url):
    redis = Redis.from_url(redis_url)
    game = str(uuid.uuid4())

    async def scenario():
        fanout = Fanout(redis_url, NoReader(), resync_seconds=3600)
        fanout.RETRY_SECONDS = 0.1
        await fanout.start()
        try:
            watch = fanout.watch(game)
            assert await rung(watch)
            name = fanout._own.replace(":", "-")
            (ours,) = [c["id"] for c in redis.client_list(_type="pubsub") if c["name"] == name]
            redis.client_kill_filter(_id=ours)  # as a restart of Redis would
            # the stream is woken when the new subscription is confirmed (what was
            # published meanwhile is read then), and hears the moves after it
            assert await rung(watch)
            await eventually(lambda: subscribers(redis, channel(game)) == 1)
            redis.publish(channel(game), "1")
            assert await rung(watch)
            watch.close()
        finally:
            await fanout.stop()

    asyncio.run(scenario())
