"""service/redis_wire.py on a real Redis: the hot path's commands answer as redis-py's would,
survive what a connection goes through (killed, a script forgotten, an error answered, a
fork, many threads), and close."""

from __future__ import annotations

import os
import threading
import time
import uuid

import pytest
from redis import Redis
from redis.exceptions import ResponseError

from api.limits import COUNT
from service.redis_wire import Wire


@pytest.fixture
def key():
    return f"entrepot-test-wire:{uuid.uuid4().hex}"


def _wire_client_ids(redis: Redis, wire: Wire) -> list[int]:
    """The ids Redis gives the wire's connections (named so that CLIENT LIST finds them)."""
    return [int(c["id"]) for c in redis.client_list() if c.get("name") == wire.name]


def _closed(redis: Redis, wire: Wire) -> bool:
    """Whether Redis has seen every connection of the wire close (it may take a moment)."""
    deadline = time.monotonic() + 5
    while _wire_client_ids(redis, wire) and time.monotonic() < deadline:
        time.sleep(0.05)
    return not _wire_client_ids(redis, wire)


def test_answers_are_redis_pys(redis, key):
    wire = Wire(redis)
    try:
        assert wire.call("ZADD", key, "NX", 1.5, "a") == redis.zadd(key + ":py", {"a": 1.5}, nx=True) == 1
        assert wire.call("ZADD", key, "NX", 9, "a") == 0  # NX: a member already there keeps its score
        assert redis.zscore(key, "a") == 1.5
        keys, windows = [key + ":ip", key + ":token", key + ":epoch"], [60, 60]
        redis.set(key + ":epoch", "7")
        assert wire.script(COUNT)(keys, windows) == [1, 60, 1, 60, b"7"]
        assert wire.script(COUNT)(keys, windows)[:4:2] == [2, 2]
    finally:
        wire.close()
        redis.delete(key, key + ":py", key + ":ip", key + ":token", key + ":epoch")


def test_a_forgotten_script_is_sent_whole_and_known_again(redis, key):
    wire = Wire(redis)
    script = wire.script("return redis.call('INCR', KEYS[1])")
    try:
        assert script([key], []) == 1
        redis.script_flush()  # as after a restart of Redis
        assert script([key], []) == 2
        assert redis.script_exists(script.sha) == [True]
    finally:
        wire.close()
        redis.delete(key)


def test_a_killed_connection_is_made_again_and_the_command_sent_once(redis, key):
    wire = Wire(redis)
    try:
        assert wire.call("INCR", key) == 1
        (client_id,) = _wire_client_ids(redis, wire)
        redis.client_kill_filter(_id=client_id)
        assert wire.call("INCR", key) == 2  # not 3: the lost one never reached Redis
        assert _wire_client_ids(redis, wire) != [client_id]
    finally:
        wire.close()
        redis.delete(key)


def test_an_error_redis_answers_is_raised_and_the_connection_goes_on(redis, key):
    wire = Wire(redis)
    try:
        redis.set(key, "text")
        with pytest.raises(ResponseError):
            wire.call("ZADD", key, "NX", 1, "a")  # a string, not a sorted set
        (client_id,) = _wire_client_ids(redis, wire)
        assert wire.call("GET", key) == b"text"  # the answer of this command, not a late one
        assert _wire_client_ids(redis, wire) == [client_id]
    finally:
        wire.close()
        redis.delete(key)


def test_each_thread_has_its_own_connection_and_its_own_answers(redis, key):
    wire = Wire(redis)
    wrong: list = []

    def count(n: int):
        for i in range(200):
            # each thread's answer is its own key's: a shared connection would mix them up
            if wire.call("INCR", f"{key}:{n}") != i + 1:
                wrong.append((n, i))

    try:
        threads = [threading.Thread(target=count, args=(n,)) for n in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert not wrong
        assert _closed(redis, wire)  # each thread's connection closed with it
    finally:
        wire.close()
        redis.delete(*[f"{key}:{n}" for n in range(8)])


def test_a_forked_child_never_uses_its_parents_connection(redis, key):
    wire = Wire(redis)
    try:
        assert wire.call("INCR", key) == 1
        (parent_id,) = _wire_client_ids(redis, wire)
        pid = os.fork()
        if pid == 0:  # the child: its own connection, its own answers
            try:
                ok = wire.call("INCR", key) == 2 and wire.call("CLIENT", "ID") != parent_id
            finally:
                os._exit(0 if ok else 1)
        _, status = os.waitpid(pid, 0)
        assert os.waitstatus_to_exitcode(status) == 0
        assert wire.call("INCR", key) == 3
        assert wire.call("CLIENT", "ID") == parent_id  # the parent's is untouched
    finally:
        wire.close()
        redis.delete(key)


def test_close_ends_every_connection(redis, key):
    wire = Wire(redis)
    wire.call("PING")
    assert len(_wire_client_ids(redis, wire)) == 1
    wire.close()
    assert _closed(redis, wire)
