"""The PostgreSQL adapter: event store, game read model, players, idempotency.

All access goes through ``Store.tx()``, one transaction per unit of work.  Appends rely
on the primary key (game_id, seq) as the optimistic lock: no table lock, so appends to
different games run in parallel.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

import orjson
import psycopg
from psycopg.rows import dict_row
from psycopg.types.json import Jsonb, set_json_dumps, set_json_loads
from psycopg_pool import AsyncConnectionPool, ConnectionPool, PoolTimeout

from service.audit import chain
from service.errors import StatementTimeout, Unavailable, VersionConflict

#: digits to "0", every other byte to " ": a run of 19 zeros after it is a run of 19
#: digits in the text (perhaps an integer past 64 bits, which orjson reads as a float where
#: the standard library keeps it exact); cheaper to look for than a regular expression
_DIGITS = bytes(48 if 48 <= i <= 57 else 32 for i in range(256))
_LONG_RUN = b"0" * 19


def json_loads(text: bytes) -> Any:
    """JSON text to Python values as the standard library's ``json.loads`` reads it, about
    2-3x faster (orjson): every json/jsonb value read (events above all: a fold, a replay,
    a stream's tail) is parsed here. Both give equal values for the text orjson is given
    (numbers to the same nearest double); a text with 19 digits in a row (an integer past
    64 bits perhaps) and one orjson refuses (NaN) are read by the standard library."""
    # find, not ``in``: bytes' ``in`` first tries its operand as an integer (a byte value)
    # and formats a TypeError before it searches, 1,900 of a replay's 38,000 instructions
    # per event (valgrind, Amsterdam)
    if text.translate(_DIGITS).find(_LONG_RUN) < 0:
        try:
            return orjson.loads(text)
        except orjson.JSONDecodeError:
            pass
    return json.loads(text)


#: a dataclass, a datetime or a subclass of a built-in type, which orjson would write itself,
#: goes to the standard library, which writes or refuses it as it always did
_AS_THE_STANDARD_LIBRARY = (orjson.OPT_PASSTHROUGH_DATACLASS | orjson.OPT_PASSTHROUGH_DATETIME
                            | orjson.OPT_PASSTHROUGH_SUBCLASS)


def json_dumps(value: Any) -> bytes | str:
    """Python values to JSON text for json/jsonb parameters, by orjson: a command's events,
    its sender and command, its notices and the table's state are written through here,
    1.2 us a command against the standard library's 13.8 (bench/README.md, section 24).
    Every column is jsonb, which keeps values, not text, and both write equal values for
    what orjson takes; what it refuses (an integer past 64 bits, a key that is not a
    string, a lone surrogate, the types above) is written, or refused, by the standard
    library as before. One difference: a NaN or an infinite float, whose standard-library
    text jsonb refuses, is written as null."""
    try:
        return orjson.dumps(value, option=_AS_THE_STANDARD_LIBRARY)
    except TypeError:  # orjson.JSONEncodeError is one
        return json.dumps(value)


set_json_loads(json_loads)  # json and jsonb columns, on every connection of this process
set_json_dumps(json_dumps)


#: the append writes only onto the version it was decided at: the events' primary key
#: refuses a second append at that version, and this row (none: the events and the
#: command join nothing) refuses one onto a game that is not there (behind it: a database
#: restored or failed over to a replica that had not seen the last commits, while a
#: process still holds the state it folded); read once for both inserts
#: the game is at the expected version, and its last event is the one the new events link
#: to (a process whose cached state diverged from the database, as after a failover that
#: lost a commit and then took another, must not chain onto an event that is not there)
_AT_EXPECTED = ("at_expected AS (SELECT 1 FROM games g WHERE g.id = %(game_id)s AND g.version = %(expected_version)s"
                " AND (g.version = 0 OR EXISTS (SELECT 1 FROM events l WHERE l.game_id = g.id AND l.seq = g.version"
                " AND l.hash = %(prev_hash)s)))")


@dataclass(frozen=True)
class NewEvent:
    type: str
    schema_version: int
    seat: int | None
    data: Any


@dataclass(frozen=True)
class NewCommand:
    """A command as received, stored with the events it produced (None: the setup)."""

    seat: int | None
    sender: dict
    at: str
    command: dict | None


@dataclass(frozen=True)
class StoredCommand:
    version: int
    last_seq: int
    seat: int | None
    sender: dict
    at: str
    command: dict | None


@dataclass(frozen=True)
class StoredEvent:
    seq: int
    type: str
    schema_version: int
    seat: int | None
    at: str
    data: Any
    prev_hash: str
    hash: str

    def record(self) -> dict:
        return chain.record_of(self.seq, self.type, self.schema_version, self.seat, self.at, self.data)


@dataclass(frozen=True)
class TableRow:
    """The correspondence read model written with an append (domain/common/table.py)."""

    deadline: datetime | None
    timer_at: datetime | None
    state: dict | None


@dataclass
class Notices:
    """The players' notifications of an append, written by its own statement when the
    game's notifications are up to date at its expected version (``game_fanouts``); else
    nothing is written and the fan-out job works them out after the commit, as for any
    other append. ``rows`` works them out from the stored events (None: it could not,
    leave them to the job); ``append`` fills in what was written."""

    rows: Callable[[list[StoredEvent]], list[dict] | None]
    #: (id, player_id, type, mail wanted) of each notification written; None: left to the job
    written: list[tuple[int, str, str, bool]] | None = None
    #: the ids of the webhook deliveries written for them
    deliveries: list[str] = field(default_factory=list)


def _notifying(gate: str | None = None) -> str:
    """The CTEs ``noticed`` and ``delivered``: the notifications of ``%(notices)s`` (rows of
    ``i, player_id, seat, type, version, ref, data, at``, inserted in ``i``'s order,
    one that exists already skipped), written at ``%(at)s``, each of a player without an
    address with its mail already handled (no mail job: there is nowhere to send it), and
    a webhook delivery for each new one and each active webhook of its player subscribed to
    its type (an outbox). With ``gate``, the name of a CTE: only if it yields a row. The
    one place both the append (``Notices``) and the fan-out (``Tx.notify``) write them."""
    gated = f" CROSS JOIN {gate}" if gate else ""
    return (
        "noticed AS (INSERT INTO notifications (player_id, game_id, seat, type, version, ref, data, at, created_at,"
        " mail_handled_at) SELECT n.player_id, %(game_id)s, n.seat, n.type, n.version, n.ref, n.data, n.at, %(at)s,"
        " CASE WHEN p.email IS NULL THEN %(at)s::timestamptz END"
        " FROM jsonb_to_recordset(%(notices)s) AS n (i integer, player_id uuid, seat integer, type text,"
        f" version integer, ref text, data jsonb, at timestamptz){gated} LEFT JOIN players p ON p.id = n.player_id"
        " ORDER BY n.i ON CONFLICT DO NOTHING RETURNING id, player_id, type, mail_handled_at IS NULL AS mail)"
        ", delivered AS (INSERT INTO webhook_deliveries (id, webhook_id, notification_id, created_at, next_attempt_at)"
        " SELECT gen_random_uuid(), w.id, n.id, %(at)s, %(at)s FROM noticed n"
        " JOIN webhooks w ON w.player_id = n.player_id AND n.type = ANY(w.events)"
        " AND w.deleted_at IS NULL AND w.disabled_at IS NULL ORDER BY n.id ON CONFLICT DO NOTHING"
        " RETURNING id, notification_id)"
    )


#: what ``_notifying``'s CTEs wrote: (id, player_id, type, mail wanted) of each new
#: notification, and the ids of their deliveries, both in the notifications' order
_TOLD = ("(SELECT json_agg(json_build_array(id, player_id::text, type, mail) ORDER BY id) FROM noticed),"
         " (SELECT array_agg(id::text ORDER BY notification_id, id) FROM delivered)")

#: an append's notifications (``Notices``): written only if the game's fan-out progress
#: is at the expected version, which the same statement moves on
_NOTIFIED = (
    ", fanned AS (UPDATE game_fanouts SET notified_version = %(version)s WHERE game_id = %(game_id)s"
    " AND notified_version = %(expected_version)s AND EXISTS (SELECT 1 FROM at_expected) RETURNING 1), "
    + _notifying("fanned")
)
_NOTIFIED_RETURNING = " RETURNING (SELECT count(*) FROM fanned), " + _TOLD
#: the fan-out's notifications (``Tx.notify``)
_NOTIFY = f"WITH {_notifying()} SELECT {_TOLD}"


@dataclass(frozen=True)
class Seat:
    index: int
    player_id: str | None
    name: str | None
    ai: str | None
    #: the named player has not accepted yet
    invited: bool = False
    #: an invitation to it was declined or lapsed: nobody may join it
    declined: bool = False

    @property
    def status(self) -> str:
        """open (nobody), declined (closed: its invitation was declined or lapsed),
        invited (a player who has not accepted yet), or seated."""
        if self.player_id is None and self.ai is None:
            return "declined" if self.declined else "open"
        return "invited" if self.invited else "seated"


@dataclass(frozen=True)
class Game:
    id: str
    title: str
    rules_version: str
    options: dict
    status: str
    seat_count: int
    version: int
    to_act: tuple[int, ...]
    deadline: datetime | None
    result: dict | None
    seed_commitment: str
    seed_source: str
    created_by: str | None
    created_at: datetime
    updated_at: datetime
    seats: tuple[Seat, ...]
    #: the hash chain of its events (verifier/chain.py): keyed v2, or v1 for older games
    chain: str = chain.CHAIN_V1
    #: correspondence play (domain/common/table.py): the time control, and the table's read
    #: model (running clocks, who is away, seats out, abort requests)
    time_control: dict | None = None
    table: dict | None = None
    #: the lobby (migration 0100, service/lobby/service.py): rated, hidden from everyone but its
    #: players, the seek's rating range, when a seek nobody filled is withdrawn
    rated: bool = False
    private: bool = False
    min_rating: int | None = None
    max_rating: int | None = None
    expires_at: datetime | None = None

    def seats_of(self, player_id: str | None) -> list[int]:
        return [s.index for s in self.seats if player_id is not None and s.player_id == player_id]

    def ready(self) -> bool:
        """Every seat is filled and accepted: the game may start."""
        return all(s.status == "seated" for s in self.seats)


@dataclass(frozen=True)
class Player:
    id: str
    name: str
    email: str | None
    notify_by_email: bool
    vacation_until: datetime | None
    created_at: datetime
    email_verified_at: datetime | None = None
    #: what they want by mail (migration 0060): your_turn, reminder, finished, messages, digest
    notify: dict | None = None


_GAME_COLUMNS = (
    "g.id::text AS id, g.title, g.rules_version, g.options, g.status, g.seat_count, g.version,"
    " g.to_act, g.deadline, g.result, g.seed_commitment, g.seed_source,"
    " g.created_by::text AS created_by, g.created_at, g.updated_at, g.chain,"
    " g.time_control, g.table_state AS table,"
    " g.rated, g.private, g.min_rating, g.max_rating, g.expires_at"
)
_SEATS_JSON = (
    "(SELECT coalesce(json_agg(json_build_object('index', s.index, 'player_id', s.player_id,"
    " 'name', p.name, 'ai', s.ai, 'invited', s.invited_at IS NOT NULL, 'declined', s.declined_at IS NOT NULL)"
    " ORDER BY s.index), '[]')"
    " FROM seats s LEFT JOIN players p ON p.id = s.player_id WHERE s.game_id = g.id) AS seats"
)


_GAME_BY_ID = f"SELECT {_GAME_COLUMNS}, {_SEATS_JSON} FROM games g WHERE g.id = %s"


def _events_query(game_id: str, after: int, limit: int | None, upto: int | None) -> tuple[str, tuple]:
    sql = (
        "SELECT seq, type, schema_version, seat, at, data, prev_hash, hash FROM events"
        " WHERE game_id = %s AND seq > %s AND seq <= %s ORDER BY seq"
    )
    params: tuple = (game_id, after, upto if upto is not None else 2**31 - 1)
    if limit is not None:
        sql += " LIMIT %s"
        params = (*params, limit)
    return sql, params


def _stored_event(row: Sequence[Any]) -> StoredEvent:
    seq, type_, ver, seat, at, data, prev, h = row
    return StoredEvent(seq, type_, ver, seat, chain.format_time(at), data, prev, h)


def _game(row: dict) -> Game:
    seats = tuple(Seat(s["index"], s["player_id"], s["name"], s["ai"], s["invited"], bool(s.get("declined")))
                  for s in row.pop("seats"))
    row["to_act"] = tuple(row["to_act"])
    return Game(seats=seats, **row)


class Where:
    """SQL conditions joined by AND, each with its parameters in order; ``when`` adds one only
    if its value was given (a filter the caller left out)."""

    def __init__(self, clause: str | None = None, *params: Any):
        self.clauses: list[str] = []
        self.params: list[Any] = []
        if clause:
            self.add(clause, *params)

    def add(self, clause: str, *params: Any) -> Where:
        self.clauses.append(clause)
        self.params.extend(params)
        return self

    def when(self, value: Any, clause: str, *params: Any) -> Where:
        return self.add(clause, *params) if value else self

    def __str__(self) -> str:
        return " AND ".join(self.clauses) or "TRUE"


class Tx:
    """One transaction's worth of queries."""

    def __init__(self, conn: psycopg.Connection):
        self.conn = conn

    # one row / every row as dicts: for these methods and the parts' records modules
    def row(self, sql: str, params: Sequence[Any] = ()) -> dict | None:
        with self.conn.cursor(row_factory=dict_row) as cur:
            cur.execute(sql, params)
            return cur.fetchone()

    def rows(self, sql: str, params: Sequence[Any] = ()) -> list[dict]:
        with self.conn.cursor(row_factory=dict_row) as cur:
            cur.execute(sql, params)
            return cur.fetchall()

    # players --------------------------------------------------------------------------
    def insert_player(self, player_id: str, name: str, email: str | None, token_hash: str) -> None:
        self.conn.execute(
            "INSERT INTO players (id, name, email, token_hash) VALUES (%s, %s, %s, %s)",
            (player_id, name, email, token_hash),
        )

    def player_by_token_hash(self, token_hash: str) -> Player | None:
        row = self.row(
            "SELECT id::text AS id, name, email, notify_by_email, vacation_until, created_at,"
            " email_verified_at, notify"
            " FROM players WHERE token_hash = %s",
            (token_hash,),
        )
        return Player(**row) if row else None

    def player(self, player_id: str) -> Player | None:
        row = self.row(
            "SELECT id::text AS id, name, email, notify_by_email, vacation_until, created_at,"
            " email_verified_at, notify"
            " FROM players WHERE id = %s",
            (player_id,),
        )
        return Player(**row) if row else None

    def update_player_settings(
        self, player_id: str, notify_by_email: bool | None, vacation_until: Any
    ) -> None:
        if notify_by_email is not None:
            self.conn.execute(
                "UPDATE players SET notify_by_email = %s WHERE id = %s", (notify_by_email, player_id)
            )
        if vacation_until is not ...:
            self.conn.execute(
                "UPDATE players SET vacation_until = %s WHERE id = %s", (vacation_until, player_id)
            )

    # games ----------------------------------------------------------------------------
    def insert_game(
        self,
        game_id: str,
        title: str,
        rules_version: str,
        options: dict,
        seat_count: int,
        seed: str,
        seed_commitment: str,
        seed_source: str,
        created_by: str | None,
        seats: Sequence[tuple[str | None, str | None]],
        now: datetime,
    ) -> None:
        self.conn.execute(
            "INSERT INTO games (id, title, rules_version, options, status, seat_count,"
            " seed_commitment, seed_source, created_by, created_at, updated_at)"
            " VALUES (%s, %s, %s, %s, 'waiting', %s, %s, %s, %s, %s, %s)",
            (game_id, title, rules_version, Jsonb(options), seat_count, seed_commitment,
             seed_source, created_by, now, now),
        )
        self.conn.execute("INSERT INTO game_secrets (game_id, seed) VALUES (%s, %s)", (game_id, seed))
        with self.conn.cursor() as cur:
            # a seat naming anyone but the creator is an invitation until accepted
            cur.executemany(
                "INSERT INTO seats (game_id, index, player_id, ai, invited_at)"
                " VALUES (%s, %s, %s, %s, CASE WHEN %s THEN %s::timestamptz END)",
                [(game_id, i, player, ai, player is not None and player != created_by, now)
                 for i, (player, ai) in enumerate(seats)],
            )

    def game(self, game_id: str, lock: bool = False) -> Game | None:
        """The game and its seats; ``lock`` holds the game row until the transaction ends.

        The lock is taken by a statement of its own: a statement that waited for a lock
        still reads its subqueries (the seats) from the snapshot it started with, so the
        seats must be read by a new statement once the lock is held."""
        if lock and self.row("SELECT 1 AS found FROM games WHERE id = %s FOR UPDATE", (game_id,)) is None:
            return None
        row = self.row(_GAME_BY_ID, (game_id,))
        return _game(row) if row else None

    def list_games(
        self,
        caller_id: str | None,
        player_id: str | None,
        status: str | None,
        title: str | None,
        limit: int,
        before: tuple[datetime, str] | None,
    ) -> list[Game]:
        # public: games with an open seat (a lobby), games under way (to watch) and finished
        # ones, unless private; the rest only to the players seated or invited in them
        where = Where(
            "((NOT g.private AND (g.status IN ('finished', 'active') OR (g.status = 'waiting' AND EXISTS"
            " (SELECT 1 FROM seats s WHERE s.game_id = g.id AND s.player_id IS NULL AND s.ai IS NULL"
            " AND s.declined_at IS NULL))))"
            " OR EXISTS (SELECT 1 FROM seats s WHERE s.game_id = g.id AND s.player_id = %s))", caller_id)
        where.when(player_id, "EXISTS (SELECT 1 FROM seats s WHERE s.game_id = g.id AND s.player_id = %s)",
                   player_id)
        where.when(status, "g.status = %s", status)
        where.when(title, "g.title = %s", title)
        where.when(before, "(g.updated_at, g.id) < (%s, %s)", *(before or ()))
        rows = self.rows(
            f"SELECT {_GAME_COLUMNS}, {_SEATS_JSON} FROM games g WHERE {where}"
            " ORDER BY g.updated_at DESC, g.id DESC LIMIT %s",
            (*where.params, limit),
        )
        return [_game(r) for r in rows]

    def games_to_act(self, player_id: str, limit: int) -> list[Game]:
        """Active games waiting for one of the player's seats (not a seat that is out),
        the earliest deadline of those seats first, then the longest waiting."""
        rows = self.rows(
            f"SELECT {_GAME_COLUMNS}, {_SEATS_JSON} FROM games g"
            " JOIN LATERAL (SELECT array_agg(s.index) AS mine FROM seats s WHERE s.game_id = g.id"
            "   AND s.player_id = %s AND s.index = ANY(g.to_act)"
            "   AND NOT (g.table_state -> 'out') @> to_jsonb(s.index)) m ON m.mine IS NOT NULL"
            " WHERE g.status = 'active'"
            " ORDER BY (SELECT min((c ->> 'deadline')::timestamptz)"
            "   FROM jsonb_array_elements(g.table_state -> 'clocks') c"
            "   WHERE (c ->> 'seat')::int = ANY(m.mine)) ASC NULLS LAST, g.updated_at, g.id LIMIT %s",
            (player_id, limit),
        )
        return [_game(r) for r in rows]

    def take_seat(self, game_id: str, index: int, player_id: str) -> bool:
        cur = self.conn.execute(
            "UPDATE seats SET player_id = %s WHERE game_id = %s AND index = %s"
            " AND player_id IS NULL AND ai IS NULL AND declined_at IS NULL",
            (player_id, game_id, index),
        )
        return cur.rowcount == 1

    def accept_seat(self, game_id: str, index: int, player_id: str) -> bool:
        cur = self.conn.execute(
            "UPDATE seats SET invited_at = NULL WHERE game_id = %s AND index = %s"
            " AND player_id = %s AND invited_at IS NOT NULL",
            (game_id, index, player_id),
        )
        return cur.rowcount == 1

    def open_invited_seat(self, game_id: str, index: int, player_id: str, now: datetime) -> bool:
        """A declined or lapsed invitation: the seat is closed (nobody may join it)."""
        cur = self.conn.execute(
            "UPDATE seats SET player_id = NULL, invited_at = NULL, declined_at = %s"
            " WHERE game_id = %s AND index = %s"
            " AND player_id = %s AND invited_at IS NOT NULL",
            (now, game_id, index, player_id),
        )
        return cur.rowcount == 1

    def invitations_older_than(self, seconds: float, now: datetime, limit: int = 500) -> list[tuple[str, int, str]]:
        """(game_id, seat, player_id) of pending invitations of waiting games sent before then."""
        rows = self.conn.execute(
            "SELECT s.game_id::text, s.index, s.player_id::text FROM seats s JOIN games g ON g.id = s.game_id"
            " WHERE s.invited_at < %s::timestamptz - make_interval(secs => %s) AND g.status = 'waiting'"
            " ORDER BY s.invited_at LIMIT %s",
            (now, seconds, limit),
        ).fetchall()
        return [tuple(r) for r in rows]

    def games(self, game_ids: Sequence[str]) -> list[Game]:
        """Several games and their seats, in one round trip (in no particular order)."""
        rows = self.rows(f"SELECT {_GAME_COLUMNS}, {_SEATS_JSON} FROM games g WHERE g.id = ANY(%s::uuid[])",
                         (list(game_ids),))
        return [_game(row) for row in rows]

    def chain_keys(self, game_ids: Sequence[str]) -> dict[str, str | None]:
        """The chain keys of several games (None for a game on the v1 chain)."""
        rows = self.conn.execute(
            "SELECT game_id::text, chain_key FROM game_secrets WHERE game_id = ANY(%s::uuid[])",
            (list(game_ids),),
        ).fetchall()
        return dict(rows)

    def seed(self, game_id: str) -> str:
        return self.secrets(game_id)[0]

    def secrets(self, game_id: str) -> tuple[str, str | None]:
        """(seed, chain key) of a game; the key is None for a game on the v1 chain."""
        row = self.row("SELECT seed, chain_key FROM game_secrets WHERE game_id = %s", (game_id,))
        assert row, "every game has a seed"
        return row["seed"], row["chain_key"]

    def keep_chain_key(self, game_id: str, key: str) -> None:
        """Put a new game on the keyed chain of new games (v3) with its secret key."""
        self.conn.execute("UPDATE game_secrets SET chain_key = %s WHERE game_id = %s", (key, game_id))
        self.conn.execute("UPDATE games SET chain = %s WHERE id = %s", (chain.CHAIN, game_id))

    def chain_name(self, game_id: str) -> str:
        return self.conn.execute("SELECT chain FROM games WHERE id = %s", (game_id,)).fetchone()[0]

    def games_waiting_on_computer(self, older_than_seconds: float, now: datetime, limit: int = 500) -> list[tuple]:
        """(game_id, version, seat, level) of active games whose computer seat is to act."""
        rows = self.conn.execute(
            "SELECT g.id::text, g.version, s.index, s.ai FROM games g"
            " JOIN seats s ON s.game_id = g.id AND s.ai IS NOT NULL AND s.index = ANY(g.to_act)"
            " WHERE g.status = 'active' AND g.updated_at < %s::timestamptz - make_interval(secs => %s)"
            " ORDER BY g.updated_at LIMIT %s",
            (now, older_than_seconds, limit),
        ).fetchall()
        return [tuple(r) for r in rows]

    # events ---------------------------------------------------------------------------
    def events(
        self, game_id: str, after: int = 0, limit: int | None = None, upto: int | None = None
    ) -> list[StoredEvent]:
        """Events after ``after`` (and at most ``upto``), in order."""
        return [_stored_event(row) for row in self.conn.execute(*_events_query(game_id, after, limit, upto))]

    def events_upto(self, versions: dict[str, int]) -> dict[str, list[StoredEvent]]:
        """The events of several games, each up to its version, in one round trip."""
        rows = self.conn.execute(
            "SELECT e.game_id::text, e.seq, e.type, e.schema_version, e.seat, e.at, e.data, e.prev_hash,"
            " e.hash FROM unnest(%s::uuid[], %s::int[]) AS w(id, upto)"
            " JOIN events e ON e.game_id = w.id AND e.seq <= w.upto ORDER BY e.game_id, e.seq",
            (list(versions), list(versions.values())),
        ).fetchall()
        found: dict[str, list[StoredEvent]] = {game_id: [] for game_id in versions}
        for row in rows:
            found[row[0]].append(_stored_event(row[1:]))
        return found

    def head(self, game_id: str, after: int) -> tuple[int, str, tuple[int, ...], list[StoredEvent], str | None] | None:
        """(version, status, to_act, events after ``after``, the hash of event ``after``)
        in one round trip: the hash tells a caller whether the state it folded up to
        ``after`` is still the database's (None: no such event, or ``after`` is 0).

        One statement sees one snapshot, and an append commits its events and the read
        model together, so the tail always ends exactly at ``version``.
        """
        rows = self.conn.execute(
            "SELECT g.version, g.status, g.to_act,"
            " (SELECT a.hash FROM events a WHERE a.game_id = g.id AND a.seq = %s),"
            " e.seq, e.type, e.schema_version, e.seat, e.at,"
            " e.data, e.prev_hash, e.hash FROM games g LEFT JOIN events e"
            " ON e.game_id = g.id AND e.seq > %s AND e.seq <= g.version"
            " WHERE g.id = %s ORDER BY e.seq",
            (after, after, game_id),
        ).fetchall()
        if not rows:
            return None
        version, status, to_act, after_hash = rows[0][0], rows[0][1], tuple(rows[0][2]), rows[0][3]
        tail = [_stored_event(row[4:]) for row in rows if row[4] is not None]
        return version, status, to_act, tail, after_hash

    def append(
        self,
        game_id: str,
        expected_version: int,
        prev_hash: str,
        at: datetime,
        new_events: Sequence[NewEvent],
        status: str,
        to_act: Sequence[int],
        result: dict | None,
        chain_key: str | None = None,
        command: NewCommand | None = None,
        table: TableRow | None = None,
        chain_name: str | None = None,
        notices: Notices | None = None,
    ) -> list[StoredEvent]:
        """Append after ``expected_version`` and update the read model, in one statement
        (atomic even without a transaction).  VersionConflict if another append got there
        first: the primary key (game_id, seq) refuses the second. On a chain that covers
        steps (v3) the first event's link covers the command, its sender and time. With
        ``notices``, the same statement writes the players' notifications (``Notices``)."""
        at_text = chain.format_time(at)
        stored: list[StoredEvent] = []
        prev = prev_hash
        for offset, event in enumerate(new_events, start=1):
            seq = expected_version + offset
            record = chain.record_of(seq, event.type, event.schema_version, event.seat, at_text, event.data)
            step = None
            if offset == 1 and chain_name is not None and chain.covers_steps(chain_name) and command is not None:
                step = chain.step_of(command.seat, command.sender, command.at, command.command)
            digest = chain.link(prev, record, chain_key, step)
            stored.append(
                StoredEvent(seq, event.type, event.schema_version, event.seat, at_text, event.data, prev, digest)
            )
            prev = digest
        # the events as one jsonb parameter, unpacked by the server: one statement of one
        # shape whatever the number of events, so psycopg parses it once (its cache takes
        # statements of at most 50 parameters: a row of 9 per event passed that at 4
        # events) and the server prepares it once per connection; an array per column
        # cost psycopg more than the parse it saved
        table = table or TableRow(None, None, None)
        params: dict[str, Any] = {
            "game_id": game_id, "at": at, "expected_version": expected_version, "prev_hash": prev_hash,
            "events": Jsonb([{"seq": e.seq, "type": e.type, "schema_version": e.schema_version, "seat": e.seat,
                              "data": e.data, "prev_hash": e.prev_hash, "hash": e.hash} for e in stored]),
            "version": stored[-1].seq, "status": status, "to_act": list(to_act),
            "result": Jsonb(result) if result is not None else None,
            "deadline": table.deadline, "timer_at": table.timer_at,
            "table_state": Jsonb(table.state) if table.state is not None else None,
        }
        recorded = ""
        if command is not None:  # the command goes in with its events, in the same statement
            recorded = (", recorded AS (INSERT INTO commands (game_id, version, last_seq, seat, sender, at, command)"
                        " SELECT %(game_id)s, %(expected_version)s, %(version)s, %(seat)s, %(sender)s,"
                        " %(command_at)s, %(command)s FROM at_expected RETURNING 1)")
            params.update(seat=command.seat, sender=Jsonb(command.sender), command_at=command.at,
                          command=Jsonb(command.command) if command.command is not None else None)
        rows = notices.rows(stored) if notices is not None else None
        notified = returning = ""
        if rows is not None:
            notified, returning = _NOTIFIED, _NOTIFIED_RETURNING
            params["notices"] = Jsonb(rows)
        try:
            updated = self.conn.execute(
                f"WITH {_AT_EXPECTED}, appended AS (INSERT INTO events (game_id, seq, type, schema_version, seat, at,"
                " data, prev_hash, hash) SELECT %(game_id)s::uuid, e.seq, e.type, e.schema_version, e.seat,"
                " %(at)s, e.data, e.prev_hash, e.hash FROM jsonb_to_recordset(%(events)s) AS e (seq integer,"
                " type text, schema_version integer, seat integer, data jsonb, prev_hash text, hash text)"
                f" CROSS JOIN at_expected RETURNING 1){recorded}{notified}"
                " UPDATE games SET version = %(version)s, status = %(status)s, to_act = %(to_act)s,"
                " result = %(result)s, deadline = %(deadline)s, timer_at = %(timer_at)s,"
                " table_state = coalesce(%(table_state)s, table_state), updated_at = %(at)s"
                f" WHERE id = %(game_id)s AND EXISTS (SELECT 1 FROM at_expected){returning}",
                params,
            )
        except psycopg.errors.UniqueViolation:
            raise VersionConflict(
                f"the game moved on past version {expected_version}", expected_version + 1
            ) from None
        if updated.rowcount != 1:  # the game is not at that version (or that event): nothing was written
            raise VersionConflict(f"the game is not at version {expected_version}", expected_version)
        if rows is not None:
            fanned, written, deliveries = updated.fetchone()
            if fanned:
                notices.written = [tuple(row) for row in written or ()]
                notices.deliveries = list(deliveries or ())
        return stored

    def notify(self, game_id: str, rows: list[dict], at: datetime) -> tuple[list[tuple], list[str]]:
        """Write notifications (``rows`` as ``_notifying`` reads them) and their webhook
        deliveries in one statement: (id, player_id, type, mail wanted) of each new one,
        and the deliveries' ids."""
        written, deliveries = self.conn.execute(
            _NOTIFY, {"game_id": game_id, "at": at, "notices": Jsonb(rows)},
        ).fetchone()
        return [tuple(row) for row in written or ()], list(deliveries or ())

    def finished_games(self, title: str | None, after: datetime | None, before: datetime | None,
                       cursor: tuple[str, str] | None, limit: int) -> list[tuple[Game, str]]:
        """Finished games with the time of their last event (immutable, unlike the row's
        updated_at), oldest first, after the ``cursor`` (finished_at text, id)."""
        where = Where("g.status = 'finished' AND NOT g.private")
        where.when(title, "g.title = %s", title).when(after, "e.at >= %s", after).when(before, "e.at < %s", before)
        where.when(cursor, "(e.at, g.id) > (%s::timestamptz, %s::uuid)", *(cursor or ()))
        rows = self.rows(
            f"SELECT {_GAME_COLUMNS}, {_SEATS_JSON}, e.at AS finished_at FROM games g"
            " JOIN events e ON e.game_id = g.id AND e.seq = g.version"
            f" WHERE {where} ORDER BY e.at, g.id LIMIT %s",
            (*where.params, limit),
        )
        return [(_game({k: v for k, v in r.items() if k != "finished_at"}), chain.format_time(r["finished_at"]))
                for r in rows]

    def commands(self, game_id: str, upto: int | None = None) -> list[StoredCommand]:
        """The stored commands of a game (those decided at versions below ``upto``)."""
        rows = self.conn.execute(
            "SELECT version, last_seq, seat, sender, at, command FROM commands"
            " WHERE game_id = %s AND version < %s ORDER BY version",
            (game_id, upto if upto is not None else 2**31 - 1),
        ).fetchall()
        return [StoredCommand(*row) for row in rows]

    # signing keys ---------------------------------------------------------------------
    def register_signing_key(self, key_id: str, algorithm: str, public_key: str, now: datetime) -> None:
        """Publish a key, valid from ``now`` (the clock port's: the verifier compares it with
        the events' times) unless published already."""
        self.conn.execute(
            "INSERT INTO signing_keys (key_id, algorithm, public_key, valid_from) VALUES (%s, %s, %s, %s)"
            " ON CONFLICT (key_id) DO NOTHING",
            (key_id, algorithm, public_key, now),
        )

    def signing_keys(self) -> list[dict]:
        rows = self.rows(
            "SELECT key_id, algorithm, public_key, valid_from, valid_until FROM signing_keys"
            " ORDER BY valid_from, key_id"
        )
        return [{**r, "valid_from": chain.format_time(r["valid_from"]),
                 "valid_until": chain.format_time(r["valid_until"]) if r["valid_until"] else None}
                for r in rows]

    def retire_signing_key(self, key_id: str, now: datetime) -> bool:
        cur = self.conn.execute(
            "UPDATE signing_keys SET valid_until = %s WHERE key_id = %s AND valid_until IS NULL",
            (now, key_id),
        )
        return cur.rowcount == 1

    # idempotency ----------------------------------------------------------------------
    def claim_idempotency_key(
        self, lookup: str, request_hash: str, now: datetime, ttl_seconds: float
    ) -> tuple[str, int, bytes] | None:
        """None when this transaction now holds the key (until ``ttl_seconds`` after
        ``now``, the clock port's time); else (request hash, status, sealed body) of the
        request that holds it. Waits while another transaction holds it."""
        self.conn.execute(
            "DELETE FROM idempotency_requests WHERE lookup = %s AND expires_at <= %s", (lookup, now)
        )
        cur = self.conn.execute(
            "INSERT INTO idempotency_requests (lookup, request_hash, expires_at)"
            " VALUES (%s, %s, %s) ON CONFLICT DO NOTHING",
            (lookup, request_hash, now + timedelta(seconds=ttl_seconds)),
        )
        if cur.rowcount == 1:
            return None
        # a new statement: it sees the row the other transaction committed while we waited
        row = self.conn.execute(
            "SELECT request_hash, status, sealed_body FROM idempotency_requests WHERE lookup = %s",
            (lookup,),
        ).fetchone()
        assert row is not None and row[1] is not None, "a key is committed with its response"
        return row[0], row[1], row[2]

    def seal_idempotent_response(self, lookup: str, status: int, sealed: bytes) -> None:
        self.conn.execute(
            "UPDATE idempotency_requests SET status = %s, sealed_body = %s WHERE lookup = %s",
            (status, sealed, lookup),
        )

    def purge_expired_idempotency_keys(self, now: datetime) -> int:
        return self.conn.execute("DELETE FROM idempotency_requests WHERE expires_at <= %s", (now,)).rowcount


def connection_kwargs(pgbouncer: bool) -> dict:
    """Behind PgBouncer in transaction pooling mode a connection's statements may run on a
    different server connection each transaction: no server-side prepared statements
    (psycopg prepares a query after 5 runs; ``prepare_threshold=None`` never does)."""
    return {"autocommit": True, **({"prepare_threshold": None} if pgbouncer else {})}


class Store:
    def __init__(self, conninfo: str, min_size: int = 2, max_size: int = 10,
                 statement_timeout_ms: int = 5000, pgbouncer: bool = False, pool_timeout: float = 30.0):
        self.statement_timeout_ms = statement_timeout_ms
        # pool_timeout: how long a request waits for a connection (during a failover: for
        # the promoted server) before it is answered 503 with Retry-After
        self.pool = ConnectionPool(
            conninfo, min_size=min_size, max_size=max_size, open=True, name="entrepot", timeout=pool_timeout,
            kwargs=connection_kwargs(pgbouncer), configure=None if pgbouncer else self._configure,
        )

    def _configure(self, conn: psycopg.Connection) -> None:
        """Every statement of every pooled connection is bounded: a slow query is cancelled,
        never left holding a connection and a request. (Behind PgBouncer a session setting
        would not stay with this connection: set statement_timeout on the role or in
        PgBouncer's connect_query instead; deploy/README.md.)"""
        conn.execute("SELECT set_config('statement_timeout', %s, false)", (f"{self.statement_timeout_ms}ms",))

    @contextmanager
    def tx(self) -> Iterator[Tx]:
        """A unit of work: one transaction, committed at the end or rolled back on error."""
        with _unavailable_as_service_errors(), self.pool.connection() as conn, conn.transaction():
            yield Tx(conn)

    @contextmanager
    def read(self) -> Iterator[Tx]:
        """Reads without a transaction (each statement sees committed data): one round trip
        less each way.  Readers that run several statements bound them by the version
        they read first, so they stay consistent."""
        with _unavailable_as_service_errors(), self.pool.connection() as conn:
            yield Tx(conn)

    def ping(self, timeout: float) -> None:
        """Raise unless PostgreSQL answers a query within ``timeout`` seconds."""
        with _unavailable_as_service_errors(), self.pool.connection(timeout=timeout) as conn:
            conn.execute("SELECT 1")

    def close(self) -> None:
        self.pool.close()


def outlasting_outage(work, seconds: float = 15.0, pause: float = 0.5):
    """``work()``, tried again while the database is unavailable, up to ``seconds``: for
    the write that records what was already done outside (a mail handed to SMTP, a
    webhook answered), which must not be lost to a failover and done twice."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            return work()
        except Unavailable:
            if time.monotonic() >= deadline:
                raise
            time.sleep(pause)


@contextmanager
def _unavailable_as_service_errors() -> Iterator[None]:
    try:
        yield
    except psycopg.errors.QueryCanceled:
        raise StatementTimeout("the database took too long to answer; try again") from None
    except psycopg.errors.TransactionRollback:
        raise  # a deadlock or serialisation failure: for the caller to retry, not an outage
    except (PoolTimeout, psycopg.OperationalError):
        raise Unavailable("the database is unavailable; try again later") from None


class AsyncReader:
    """The reads a live stream needs, on an asyncio pool: the same queries as ``Tx``, for a
    server that waits on many streams without a thread each."""

    def __init__(self, conninfo: str, max_size: int = 10, pgbouncer: bool = False,
                 statement_timeout_ms: int = 5000):
        self.statement_timeout_ms = statement_timeout_ms
        self.pool = AsyncConnectionPool(
            conninfo, min_size=1, max_size=max_size, open=False, name="entrepot-streams",
            kwargs=connection_kwargs(pgbouncer),
            # behind PgBouncer no session setting holds: its connect_query sets the timeout
            configure=None if pgbouncer else self._configure,
        )

    async def _configure(self, conn: psycopg.AsyncConnection) -> None:
        """Every statement bounded, as on the threaded pool (Store._configure)."""
        await conn.execute("SELECT set_config('statement_timeout', %s, false)", (f"{self.statement_timeout_ms}ms",))

    async def open(self) -> None:
        await self.pool.open()

    async def game(self, game_id: str) -> Game | None:
        async with self.pool.connection() as conn, conn.cursor(row_factory=dict_row) as cur:
            await cur.execute(_GAME_BY_ID, (game_id,))
            row = await cur.fetchone()
        return _game(row) if row else None

    async def events(self, game_id: str, after: int, limit: int, upto: int) -> list[StoredEvent]:
        async with self.pool.connection() as conn:
            cur = await conn.execute(*_events_query(game_id, after, limit, upto))
            return [_stored_event(row) for row in await cur.fetchall()]

    async def versions(self, game_ids: list[str]) -> dict[str, int]:
        async with self.pool.connection() as conn:
            cur = await conn.execute(
                "SELECT id::text, version FROM games WHERE id = ANY(%s::uuid[])", (game_ids,))
            return dict(await cur.fetchall())

    async def last_notifications(self, player_ids: list[str]) -> dict[str, int]:
        """The id of each player's latest notification (players with none are left out)."""
        async with self.pool.connection() as conn:
            cur = await conn.execute(
                "SELECT p.id::text, (SELECT max(n.id) FROM notifications n WHERE n.player_id = p.id)"
                " FROM unnest(%s::uuid[]) AS p(id)", (player_ids,))
            return {player: last for player, last in await cur.fetchall() if last is not None}

    async def newest_notification(self, player_id: str) -> int:
        """The id of a player's newest notification (0: none yet)."""
        async with self.pool.connection() as conn, conn.cursor() as cur:
            await cur.execute("SELECT coalesce(max(id), 0) FROM notifications WHERE player_id = %s", (player_id,))
            return (await cur.fetchone())[0]

    async def notifications(self, player_id: str, after: int, limit: int) -> list[dict]:
        """A player's notifications after the id ``after``, oldest first."""
        async with self.pool.connection() as conn, conn.cursor(row_factory=dict_row) as cur:
            await cur.execute(
                "SELECT id, type, game_id::text AS game_id, seat, version, at, data FROM notifications"
                " WHERE player_id = %s AND id > %s ORDER BY id LIMIT %s", (player_id, after, limit))
            return await cur.fetchall()

    async def close(self) -> None:
        await self.pool.close()
