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


@pytest.fixture
def wire(redis, key):
    """A wire on the test's Redis, closed afterwards, with the keys the test made."""
    made = Wire(redis)
    yield made
    made.close()
    if keys := list(redis.scan_iter(match=f"{key}*")):
        redis.delete(*keys)


def _wire_client_ids(redis: Redis, wire: Wire) -> list[int]:
    """The ids Redis gives the wire's connections (named so that CLIENT LIST finds them)."""
    return [int(c["id"]) for c in redis.client_list() if c.get("name") == wire.name]


def _quiet_ids(redis: Redis, wire: Wire) -> list[int]:
    """The ids of its connections that asked for no answers (``send``)."""
    return [int(c["id"]) for c in redis.client_list() if c.get("name") == wire.quiet_name]


def _soon(condition) -> bool:
    """Whether ``condition()`` holds within 5 s (Redis processes a sent command, or frees a
    closed connection, a moment after the client is done with it)."""
    deadline = time.monotonic() + 5
    while not condition() and time.monotonic() < deadline:
        time.sleep(0.01)
    return condition()


def _closed(redis: Redis, wire: Wire) -> bool:
    """Whether Redis has seen every connection of the wire close (it may take a moment)."""
    return _soon(lambda: not _wire_client_ids(redis, wire))


def test_answers_are_redis_pys(redis, wire, key):
    assert wire.call("ZADD", key, "NX", 1.5, "a") == redis.zadd(key + ":py", {"a": 1.5}, nx=True) == 1
    assert wire.call("ZADD", key, "NX", 9, "a") == 0  # NX: a member already there keeps its score
    assert redis.zscore(key, "a") == 1.5
    keys, windows = [key + ":ip", key + ":token", key + ":epoch"], [60, 60]
    redis.set(key + ":epoch", "7")
    assert wire.script(COUNT)(keys, windows) == [1, 60, 1, 60, b"7"]
    assert wire.script(COUNT)(keys, windows)[:4:2] == [2, 2]


def test_a_forgotten_script_is_sent_whole_and_known_again(redis, wire, key):
    script = wire.script("return redis.call('INCR', KEYS[1])")
    assert script([key], []) == 1
    redis.script_flush()  # as after a restart of Redis
    assert script([key], []) == 2
    assert redis.script_exists(script.sha) == [True]


def test_a_killed_connection_is_made_again_and_the_command_sent_once(redis, wire, key):
    assert wire.call("INCR", key) == 1
    (client_id,) = _wire_client_ids(redis, wire)
    redis.client_kill_filter(_id=client_id)
    assert wire.call("INCR", key) == 2  # not 3: the lost one never reached Redis
    assert _wire_client_ids(redis, wire) != [client_id]


def test_an_error_redis_answers_is_raised_and_the_connection_goes_on(redis, wire, key):
    redis.set(key, "text")
    with pytest.raises(ResponseError):
        wire.call("ZADD", key, "NX", 1, "a")  # a string, not a sorted set
    (client_id,) = _wire_client_ids(redis, wire)
    assert wire.call("GET", key) == b"text"  # the answer of this command, not a late one
    assert _wire_client_ids(redis, wire) == [client_id]


def test_each_thread_has_its_own_connection_and_its_own_answers(redis, wire, key):
    wrong: list = []

    def count(n: int):
        for i in range(200):
            # each thread's answer is its own key's: a shared connection would mix them up
            if wire.call("INCR", f"{key}:{n}") != i + 1:
                wrong.append((n, i))

    threads = [threading.Thread(target=count, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not wrong
    assert _closed(redis, wire)  # each thread's connection closed with it


def test_a_forked_child_never_uses_its_parents_connection(redis, wire, key):
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


def _arrived(redis: Redis, key: str, length: int) -> list[bytes]:
    """The list at ``key`` once it holds ``length`` items (a sent command is processed by
    Redis after ``send`` returns; another connection may look a moment before)."""
    _soon(lambda: redis.llen(key) >= length)
    return redis.lrange(key, 0, -1)


def test_sent_commands_arrive_in_order_and_no_answer_piles_up(redis, wire, key):
    for i in range(500):
        wire.send("RPUSH", key, i)
    assert _arrived(redis, key, 500) == [str(i).encode() for i in range(500)]
    (quiet,) = _quiet_ids(redis, wire)
    # Redis wrote nothing back: an answer waiting on the socket would have had the
    # connection made again at the next send (and a new id)
    client = next(c for c in redis.client_list() if int(c["id"]) == quiet)
    assert client["omem"] == "0" and client["cmd"] == "rpush"
    wire.send("RPUSH", key, "last")
    assert _arrived(redis, key, 501)[-1] == b"last"
    assert _quiet_ids(redis, wire) == [quiet]


def test_a_quiet_connection_redis_closed_is_made_again_before_the_next_command(redis, wire, key):
    wire.send("RPUSH", key, "before")
    assert _arrived(redis, key, 1) == [b"before"]
    (quiet,) = _quiet_ids(redis, wire)
    redis.client_kill_filter(_id=quiet)  # as a restart of Redis or its idle timeout would
    assert _soon(lambda: not _quiet_ids(redis, wire))
    wire.send("RPUSH", key, "after")  # not written into the closed connection, lost
    assert _arrived(redis, key, 2) == [b"before", b"after"]
    assert _quiet_ids(redis, wire) not in ([], [quiet])


def test_a_quiet_connection_with_something_to_read_is_not_written_to_again(redis, wire, key):
    wire.send("RPUSH", key, "quiet")
    assert _arrived(redis, key, 1) == [b"quiet"]
    (quiet,) = _quiet_ids(redis, wire)
    wire.send("CLIENT", "REPLY", "ON")  # now Redis answers on it: no longer the connection it was
    wire.send("RPUSH", key, "answered")
    assert _arrived(redis, key, 2)[-1] == b"answered"
    wire.send("RPUSH", key, "next")  # the unread answers are seen: a new quiet connection
    assert _arrived(redis, key, 3)[-1] == b"next"
    assert _quiet_ids(redis, wire) not in ([], [quiet])
    client = next(c for c in redis.client_list() if c.get("name") == wire.quiet_name)
    assert client["omem"] == "0"


def test_a_redis_that_refuses_to_stay_quiet_still_gets_every_command(redis, redis_url, key):
    user = f"entrepot-test-noreply-{uuid.uuid4().hex[:8]}"
    redis.acl_setuser(user, enabled=True, nopass=True, keys=["*"], channels=["*"],
                      commands=["+@all", "-client", "+client|setname"])  # an ACL without CLIENT REPLY
    client = Redis.from_url(redis_url, username=user, password="")
    wire = Wire(client)
    try:
        for i in range(5):
            wire.send("RPUSH", key, i)  # its refusal of REPLY OFF answered: made again each time
        assert _arrived(redis, key, 5) == [str(i).encode() for i in range(5)]
    finally:
        wire.close()
        client.close()
        redis.acl_deluser(user)
        redis.delete(key)


def test_an_error_is_not_answered_and_the_quiet_connection_goes_on(redis, wire, key):
    redis.set(key, "text")
    wire.send("ZADD", key, "NX", 1, "a")  # a string, not a sorted set: Redis says nothing
    wire.send("RPUSH", key + ":list", "next")
    assert _arrived(redis, key + ":list", 1) == [b"next"]
    assert redis.get(key) == b"text"
    assert len(_quiet_ids(redis, wire)) == 1


def test_a_forked_child_sends_on_its_own_quiet_connection(redis, wire, key):
    wire.send("RPUSH", key, "parent")
    assert _arrived(redis, key, 1) == [b"parent"]
    (parent_id,) = _quiet_ids(redis, wire)
    pid = os.fork()
    if pid == 0:
        try:
            wire.send("RPUSH", key, "child")
        finally:
            os._exit(0)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    assert _arrived(redis, key, 2) == [b"parent", b"child"]
    wire.send("RPUSH", key, "parent again")
    assert _arrived(redis, key, 3)[-1] == b"parent again"
    assert parent_id in _quiet_ids(redis, wire)  # the parent's is untouched


def test_close_ends_every_connection_the_quiet_ones_too(redis):
    wire = Wire(redis)
    wire.call("PING")
    assert len(_wire_client_ids(redis, wire)) == 1
    wire.send("PING")
    assert _soon(lambda: len(_quiet_ids(redis, wire)) == 1)
    wire.close()
    assert _soon(lambda: not _quiet_ids(redis, wire)) and _closed(redis, wire)
