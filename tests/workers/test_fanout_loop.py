"""The games waiting for their fan-out: a Redis set a commit adds its game to (once,
however many commits come meanwhile), emptied oldest first by the workers' fan-out loop
(workers/__main__.py ``fan_out_waiting``) on real Redis. The fan-out itself and a real
worker running this loop: tests/notifications."""

from __future__ import annotations

import threading
import uuid
from datetime import UTC, datetime, timedelta

import pytest
from redis import Redis

from service.clock import FixedClock
from service.job_queue import FANOUT, RQJobQueue, fanouts_key
from service.observability import tracing
from workers.__main__ import fan_out_waiting


class Notifications:
    """The loop's other side: records the games it fans out; refuses the ones in ``refuse``
    once each (a database restarting)."""

    def __init__(self, refuse=()):
        self.fanned: list[str] = []
        self.refuse = set(refuse)

    def fan_out_game(self, game_id, version=None):
        if game_id in self.refuse:
            self.refuse.discard(game_id)
            raise ConnectionError("the database is restarting")
        self.fanned.append(game_id)
        return 1


@pytest.fixture
def jobs(redis_url):
    redis = Redis.from_url(redis_url)
    name = f"entrepot-fanouts-{uuid.uuid4().hex[:8]}"
    clock = FixedClock(datetime(2026, 11, 28, 12, 0, tzinfo=UTC))
    yield RQJobQueue(redis, name, clock)
    redis.delete(fanouts_key(name))
    for key in redis.keys(f"rq:*{name}*"):
        redis.delete(key)
    redis.close()


def test_each_game_waits_once_however_many_commits_and_oldest_goes_first(jobs):
    jobs.queue_fanout("game-b", 3)
    jobs.clock.at += timedelta(seconds=1)
    jobs.queue_fanout("game-a", 7)
    jobs.clock.at += timedelta(seconds=1)
    jobs.queue_fanout("game-b", 4)  # still waiting: stays where it was, once
    assert jobs.redis.zcard(jobs.fanouts_key) == 2
    notifications = Notifications()
    assert fan_out_waiting(threading.Event(), jobs, notifications, None) == 2
    assert notifications.fanned == ["game-b", "game-a"]
    assert jobs.take_fanout(None) is None and jobs.take_fanout(0.05) is None
    jobs.queue_fanout("game-e", 9)
    jobs.clock.at += timedelta(seconds=3)
    assert jobs.take_fanout(0.05) == ("game-e", 3.0)  # and how long it waited
    assert not jobs.redis.keys("rq:job:fanout-game-*"), "no RQ job a commit"


def test_a_fan_out_the_database_refused_waits_again(jobs):
    jobs.queue_fanout("game-c", 2)
    stop = threading.Event()
    notifications = Notifications(refuse={"game-c"})
    loop = threading.Thread(target=fan_out_waiting, args=(stop, jobs, notifications, 0.1), daemon=True)
    loop.start()
    try:
        deadline = datetime.now(UTC) + timedelta(seconds=10)
        while notifications.fanned != ["game-c"] and datetime.now(UTC) < deadline:
            stop.wait(0.05)
        assert notifications.fanned == ["game-c"], "refused once, fanned out at its second try"
    finally:
        stop.set()
        loop.join(5)
    assert not loop.is_alive()


def test_with_tracing_on_each_fan_out_is_an_rq_job_of_its_own_in_the_commands_trace(jobs, monkeypatch):
    """A set of game ids cannot carry a trace's context: traced, the fan-out is the RQ job
    it was (tests/ops/test_traces.py follows its span)."""
    monkeypatch.setattr(tracing, "enabled", lambda: True)
    jobs.queue_fanout("game-d", 5)
    assert jobs.redis.zcard(jobs.fanouts_key) == 0
    assert jobs.redis.hget("rq:job:fanout-game-d-5", "description").decode().startswith(FANOUT)
    jobs.redis.delete("rq:job:fanout-game-d-5")
