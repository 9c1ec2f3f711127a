"""Redis commands on the hot path, without redis-py's per-command machinery.

redis-py (8.x) wraps every command in observability hooks, a check for deprecated
arguments and the pool's bookkeeping (a connection taken and given back): in a loaded API
process that is about 0.1 ms of CPU a command, as much as the round trip itself
(bench/README.md, section 17). The few commands that every request or every commit sends
(the rate limits' script, the fan-out's ZADD, the wake-up calls of streams and timer
loops) go through a ``Wire`` instead: a connection of its own per thread, made with the
client's own settings, the command packed by that connection and its answer read by it,
as redis-py does.

Errors are redis-py's: a connection lost or timed out is made again and the command sent
once more (as redis-py's default retry does), then the error is raised; an error Redis
answers (``ResponseError``) is raised as is. A connection is the thread's for the thread's
life (it closes with it) and never crosses a fork.

A command whose answer nobody reads (a wake-up call, a game's place in the fan-out's set)
is only sent (``send``), on a second connection per thread that asked Redis for no answers
at all (CLIENT REPLY OFF): no wait for the answer, no thread put to sleep and woken, none of
it parsed. It costs a fifth of a round trip's CPU (14-18 against 63-88 us: bench/redis_wire.py;
bench/README.md, section 18).
"""

from __future__ import annotations

import hashlib
import os
import select
import threading
import uuid
import weakref
from collections.abc import Callable
from typing import Any

from redis import Redis
from redis.exceptions import ConnectionError, NoScriptError, ResponseError, TimeoutError


class Wire:
    def __init__(self, redis: Redis):
        self.pool = redis.connection_pool
        #: what Redis calls this wire's connections (CLIENT LIST), set once as each connects
        self.name = f"entrepot-wire-{os.getpid()}-{uuid.uuid4().hex[:12]}"
        #: ... and its connections that asked for no answers (``send``)
        self.quiet_name = self.name + "-quiet"
        self._local = threading.local()
        #: every connection made, to close them all at once (a thread's closes with it too)
        self._made: weakref.WeakSet = weakref.WeakSet()
        self._lock = threading.Lock()

    def call(self, *args: Any) -> Any:
        """Send one command and return Redis's answer."""
        connection = self._connection()
        return _twice(connection, lambda: _exchange(connection, args))

    def send(self, *args: Any) -> None:
        """Send one command and read no answer: for a command whose loss something heals
        (a sweeper, a listener's resync) and whose repetition is harmless, since Redis
        says nothing back, not even of an error. A connection that Redis closed (a
        restart, its idle timeout, CLIENT KILL) has something to read, its end: it is made
        again before the command goes, so a command is lost only when Redis goes in the
        instant it is sent (as a crash after the commit would lose it). A Redis that
        refuses CLIENT REPLY (an ACL) answers that refusal: each send then makes its
        connection again, slower but still sent."""
        connection = self._connection(quiet=True)
        packed = connection.pack_command(*args)

        def only_send() -> None:
            if connection._sock is not None and _readable(connection._sock):
                connection.disconnect()  # its end, or answers it should never have had
            if connection._sock is None:
                connection.connect()
                connection.send_packed_command([_REPLY_OFF], check_health=False)
            connection.send_packed_command(packed, check_health=False)

        _twice(connection, only_send)

    def script(self, source: str) -> Script:
        return Script(self, source)

    def close(self) -> None:
        with self._lock:
            made = list(self._made)
        for connection in made:
            connection.disconnect()

    def _connection(self, quiet: bool = False):
        slot = "quiet" if quiet else "held"
        held = getattr(self._local, slot, None)
        if held is None or held.pid != os.getpid():
            name = self.quiet_name if quiet else self.name
            connection = self.pool.connection_class(**{**self.pool.connection_kwargs, "client_name": name})
            with self._lock:
                self._made.add(connection)
            held = _Held(os.getpid(), connection)
            setattr(self._local, slot, held)
            # closed when its thread ends (or the wire goes): redis-py's connection sits in
            # reference cycles, which only the garbage collector would break, some time later
            weakref.finalize(held, connection.disconnect)
        return held.connection


class _Held:
    """A thread's connection, and the process that made it (a fork's child makes its own)."""

    __slots__ = ("pid", "connection", "__weakref__")

    def __init__(self, pid: int, connection):
        self.pid = pid
        self.connection = connection


class Script:
    """A Lua script run by its digest (EVALSHA); sent whole once when Redis does not know
    it (a restart, SCRIPT FLUSH), which also loads it, as redis-py's Script does."""

    def __init__(self, wire: Wire, source: str):
        self.wire = wire
        self.source = source
        self.sha = hashlib.sha1(source.encode()).hexdigest()

    def __call__(self, keys: list, args: list) -> Any:
        try:
            return self.wire.call("EVALSHA", self.sha, len(keys), *keys, *args)
        except NoScriptError:
            return self.wire.call("EVAL", self.source, len(keys), *keys, *args)


#: what a ``send`` connection says first: answer nothing from now on
_REPLY_OFF = b"*3\r\n$6\r\nCLIENT\r\n$5\r\nREPLY\r\n$3\r\nOFF\r\n"


def _readable(sock) -> bool:
    """Whether a quiet connection has anything to read (its end, an error, answers): then
    it is not the quiet connection it should be. poll, not select: a busy process's
    descriptors pass 1024."""
    poller = select.poll()
    poller.register(sock, select.POLLIN)
    return bool(poller.poll(0))


def _twice(connection, exchange: Callable[[], Any]) -> Any:
    """``exchange`` on ``connection``; a lost connection is made again and the exchange
    tried once more (as redis-py's default retry does), then the error is raised."""
    for attempt in (1, 2):
        try:
            return exchange()
        except ResponseError:
            raise  # Redis answered: the exchange is whole, the connection sound
        except (ConnectionError, TimeoutError):
            connection.disconnect()
            if attempt == 2:
                raise
        except BaseException:
            # an answer left unread, or a command half sent, must not reach the next one
            connection.disconnect()
            raise
    raise AssertionError("unreachable")


def _exchange(connection, args: tuple) -> Any:
    connection.send_packed_command(connection.pack_command(*args), check_health=False)
    return connection.read_response()
