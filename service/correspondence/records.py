"""SQL of correspondence play: time controls, the table's timers, vacations.

Functions of a transaction (``Tx``) kept apart from service/games/store.py so the event store
stays about events; each runs inside the caller's unit of work.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from psycopg.types.json import Jsonb

from domain.common.table import TABLE_EVENT_NAMES, OpenTable
from service.audit.chain import format_time as _text
from service.correspondence.time_control import TimeControl
from service.games.store import Tx


def save_time_control(tx: Tx, game_id: str, control: TimeControl | None) -> None:
    if control is not None:
        tx.conn.execute("UPDATE games SET time_control = %s WHERE id = %s", (Jsonb(control.to_json()), game_id))


def open_table(tx: Tx, game_id: str, now: datetime) -> OpenTable:
    """The command that opens a starting game's table: its time control, the seats people
    hold, and those of them away on vacation now."""
    row = tx.conn.execute("SELECT time_control FROM games WHERE id = %s", (game_id,)).fetchone()
    humans = tx.conn.execute(
        "SELECT index FROM seats WHERE game_id = %s AND player_id IS NOT NULL ORDER BY index", (game_id,)
    ).fetchall()
    away = tx.conn.execute(
        "SELECT s.index, v.id::text, v.ends_at FROM seats s JOIN vacations v ON v.player_id = s.player_id"
        " WHERE s.game_id = %s AND v.starts_at <= %s AND v.ends_at > %s ORDER BY s.index, v.ends_at DESC",
        (game_id, now, now),
    ).fetchall()
    seen: dict[int, tuple[int, str, str]] = {}
    if row is None or row[0] is None:
        away = []  # a game without a clock has nothing to pause: no vacation events in it
    for seat, vacation, until in away:
        seen.setdefault(seat, (seat, vacation, _text(until)))
    return OpenTable(row[0] if row else None, tuple(h[0] for h in humans), tuple(seen.values()))


def mark_started(tx: Tx, game_id: str, version: int) -> None:
    tx.conn.execute("UPDATE games SET started_version = %s WHERE id = %s", (version, game_id))


def anyone_moved(tx: Tx, game_id: str) -> bool:
    """Whether a title event follows the setup (the table's own events are no move)."""
    row = tx.conn.execute(
        "SELECT EXISTS (SELECT 1 FROM events e JOIN games g ON g.id = e.game_id"
        " WHERE e.game_id = %s AND e.seq > coalesce(g.started_version, 0) AND NOT (e.type = ANY(%s)))",
        (game_id, sorted(TABLE_EVENT_NAMES)),
    ).fetchone()
    return bool(row[0])


def due_timers(tx: Tx, now: datetime, late_by: float, limit: int = 2000) -> list[tuple[str, int, datetime, float]]:
    """(game_id, version, timer_at, seconds overdue) of active games whose timer is due
    since ``late_by`` seconds."""
    return [(g, v, at, float(late)) for g, v, at, late in tx.conn.execute(
        "SELECT id::text, version, timer_at, extract(epoch FROM %s - timer_at) FROM games"
        " WHERE status = 'active' AND timer_at IS NOT NULL AND timer_at <= %s ORDER BY timer_at LIMIT %s",
        (now, now - timedelta(seconds=late_by), limit),
    ).fetchall()]


def next_timer(tx: Tx, now: datetime) -> datetime | None:
    """The earliest timer of an active game still to come after ``now`` (those due already
    are being run, or wait for the next turn)."""
    return tx.conn.execute(
        "SELECT min(timer_at) FROM games WHERE status = 'active' AND timer_at IS NOT NULL AND timer_at > %s",
        (now,),
    ).fetchone()[0]


def offer_due_timers(tx: Tx, now: datetime, limit: int) -> None:
    """Give each active game whose timer is due at ``now`` its claim row (kept until the
    timer has run: a row already there, claimed or not, is left as it is)."""
    tx.conn.execute(
        "INSERT INTO timer_claims (game_id) SELECT id FROM games"
        " WHERE status = 'active' AND timer_at IS NOT NULL AND timer_at <= %s ORDER BY timer_at LIMIT %s"
        " ON CONFLICT DO NOTHING",
        (now, limit),
    )


def claim_due_timers(tx: Tx, now: datetime, limit: int) -> list[tuple[str, int]]:
    """(game_id, version) of up to ``limit`` active games whose timer is due at ``now``,
    earliest first, each claim row locked for the rest of ``tx`` (FOR UPDATE SKIP LOCKED:
    another worker's claims are passed over, never waited for)."""
    return [(g, v) for g, v in tx.conn.execute(
        "SELECT g.id::text, g.version FROM timer_claims c JOIN games g ON g.id = c.game_id"
        " WHERE g.status = 'active' AND g.timer_at IS NOT NULL AND g.timer_at <= %s"
        " ORDER BY g.timer_at LIMIT %s FOR UPDATE OF c SKIP LOCKED",
        (now, limit),
    ).fetchall()]


def release_timer_claims(tx: Tx, game_ids: list[str]) -> None:
    """The timers of these games have run: their claim rows go (a later timer offers anew)."""
    tx.conn.execute("DELETE FROM timer_claims WHERE game_id = ANY(%s::uuid[])", (game_ids,))


def drop_idle_timer_claims(tx: Tx) -> int:
    """Claim rows of games no longer active (they finished before their timer was claimed),
    unless claimed right now."""
    return tx.conn.execute(
        "DELETE FROM timer_claims WHERE game_id IN (SELECT c.game_id FROM timer_claims c JOIN games g"
        " ON g.id = c.game_id WHERE g.status <> 'active' FOR UPDATE OF c SKIP LOCKED)"
    ).rowcount


def stand_ins_waiting(tx: Tx, limit: int = 500) -> list[tuple[str, int, int]]:
    """(game_id, version, seat) of active games waiting on the computer for a seat: one
    that is out, or a person's seat asked to act without a clock under ``on_timeout``
    "computer" (timed out, its move owed: domain/common/table.py, ``owed_moves``)."""
    return [tuple(r) for r in tx.conn.execute(
        "SELECT g.id::text, g.version, t.seat FROM games g, LATERAL unnest(g.to_act) AS t(seat)"
        " WHERE g.status = 'active' AND ("
        "  (g.table_state -> 'out') @> to_jsonb(t.seat)"
        "  OR (g.time_control ->> 'on_timeout' = 'computer'"
        "   AND NOT (g.table_state -> 'clocks') @> jsonb_build_array(jsonb_build_object('seat', t.seat))"
        "   AND EXISTS (SELECT 1 FROM seats s WHERE s.game_id = g.id AND s.index = t.seat"
        "    AND s.player_id IS NOT NULL)))"
        " LIMIT %s",
        (limit,),
    ).fetchall()]


def vacations_to_apply(tx: Tx, now: datetime, limit: int = 2000) -> list[tuple[str, int, str, str]]:
    """(game_id, seat, vacation id, until) of active games where a seated player's current
    vacation has not started yet in the game's stream."""
    rows = tx.conn.execute(
        "SELECT g.id::text, s.index, v.id::text, v.ends_at FROM vacations v"
        " JOIN seats s ON s.player_id = v.player_id"
        " JOIN games g ON g.id = s.game_id AND g.status = 'active' AND g.time_control IS NOT NULL"
        " WHERE v.starts_at <= %s AND v.ends_at > %s"
        " AND NOT (g.table_state -> 'away') @> jsonb_build_array(jsonb_build_object('seat', s.index, 'vacation', v.id::text))"
        " LIMIT %s",
        (now, now, limit),
    ).fetchall()
    return [(g, seat, v, _text(until)) for g, seat, v, until in rows]
