"""The mail tables' queries (migration 0065): mails_sent, reply_tokens, verifications,
digests, and the player and notification rows the mails read."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from psycopg.types.json import Jsonb

from service.games.store import Tx, Where


@dataclass(frozen=True)
class Recipient:
    id: str
    name: str
    email: str | None
    email_verified_at: datetime | None
    notify_by_email: bool
    notify: dict

    @property
    def verified(self) -> bool:
        return self.email is not None and self.email_verified_at is not None


@dataclass(frozen=True)
class Notification:
    id: int
    player_id: str
    game_id: str
    seat: int | None
    type: str
    version: int
    data: dict
    at: datetime


@dataclass(frozen=True)
class Claim:
    key: str
    player_id: str | None
    game_id: str | None
    kind: str
    ref: dict
    to_address: str
    done: bool = False  # sent, or dropped


def recipient(tx: Tx, player_id: str) -> Recipient | None:
    row = tx.row("SELECT id::text AS id, name, email, email_verified_at, notify_by_email, notify"
                   " FROM players WHERE id = %s", (player_id,))
    return Recipient(**row) if row else None


def verified_recipient_by_email(tx: Tx, address: str) -> Recipient | None:
    row = tx.row("SELECT id::text AS id, name, email, email_verified_at, notify_by_email, notify"
                   " FROM players WHERE lower(email) = lower(%s) AND email_verified_at IS NOT NULL"
                   " ORDER BY email_verified_at LIMIT 1", (address,))
    return Recipient(**row) if row else None


def notification(tx: Tx, notification_id: int) -> Notification | None:
    row = tx.row("SELECT id, player_id::text AS player_id, game_id::text AS game_id, seat, type, version,"
                   " data, at FROM notifications WHERE id = %s", (notification_id,))
    return Notification(**row) if row else None


def notifications_after(tx: Tx, player_id: str, after_id: int, upto_id: int | None = None,
                        game_id: str | None = None) -> list[Notification]:
    where = Where("player_id = %s AND id > %s", player_id, after_id)
    where.when(upto_id is not None, "id <= %s", upto_id)
    where.when(game_id is not None, "game_id = %s", game_id)
    rows = tx.rows("SELECT id, player_id::text AS player_id, game_id::text AS game_id, seat, type, version,"
                    f" data, at FROM notifications WHERE {where} ORDER BY id LIMIT 500",
                tuple(where.params))
    return [Notification(**r) for r in rows]


def seat_moved_since(tx: Tx, game_id: str, seat: int, version: int) -> bool:
    """Whether the seat's player (or the computer standing in) made a move decided at
    ``version`` or later; the clock's commands (reminders, timeouts) are not the seat's."""
    return tx.conn.execute(
        "SELECT EXISTS (SELECT 1 FROM commands WHERE game_id = %s AND version >= %s AND seat = %s"
        " AND sender->>'kind' IN ('player', 'computer'))", (game_id, version, seat)).fetchone()[0]


# claims -------------------------------------------------------------------------------
def lock_conversation(tx: Tx, player_id: str, game_id: str) -> None:
    """Serialises the mail decisions of one player and game (the coalescing window)."""
    tx.conn.execute("SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))", (f"mail:{player_id}:{game_id}",))


def claim(tx: Tx, key: str, player_id: str | None, game_id: str | None, kind: str, ref: dict,
          to_address: str, now: datetime) -> bool:
    """Record the mail as about to be sent at ``now``; False if it was claimed before
    (sent, or left for the sweeper)."""
    cur = tx.conn.execute(
        "INSERT INTO mails_sent (key, player_id, game_id, kind, ref, to_address, attempts, claimed_at)"
        " VALUES (%s, %s, %s, %s, %s, %s, 1, %s) ON CONFLICT (key) DO NOTHING",
        (key, player_id, game_id, kind, Jsonb(ref), to_address, now))
    return cur.rowcount == 1


def claimed(tx: Tx, key: str) -> Claim | None:
    row = tx.row("SELECT key, player_id::text AS player_id, game_id::text AS game_id, kind, ref, to_address,"
                   " sent_at IS NOT NULL OR dropped IS NOT NULL AS done FROM mails_sent WHERE key = %s", (key,))
    return Claim(**row) if row else None


def mark_sent(tx: Tx, key: str, now: datetime) -> float | None:
    """Mark the mail sent at ``now``; the seconds since it was claimed."""
    row = tx.conn.execute("UPDATE mails_sent SET sent_at = %s WHERE key = %s"
                          " RETURNING extract(epoch FROM sent_at - claimed_at)::float8", (now, key)).fetchone()
    return row[0] if row else None


def mark_dropped(tx: Tx, key: str, why: str) -> None:
    tx.conn.execute("UPDATE mails_sent SET dropped = %s WHERE key = %s AND sent_at IS NULL", (why, key))


def window_end(tx: Tx, player_id: str, game_id: str, seconds: float, now: datetime) -> datetime | None:
    """When the coalescing window of the last message mail of this player and game ends,
    if it has not ended yet (only table messages are grouped: a turn or a reminder goes
    out at once)."""
    row = tx.row("SELECT m.claimed_at + make_interval(secs => %s) AS until FROM mails_sent m"
                   " JOIN notifications n ON n.id = (m.ref ->> 'notification_id')::bigint"
                   " WHERE m.player_id = %s AND m.game_id = %s AND m.kind = 'notification'"
                   " AND n.type = 'message' ORDER BY m.claimed_at DESC LIMIT 1", (seconds, player_id, game_id))
    if row is None:
        return None
    return row["until"] if row["until"] > now else None


def last_mailed_notification(tx: Tx, player_id: str, game_id: str, type_: str | None = None) -> int:
    """The newest notification of this player and game mailed (of this type, if given)."""
    row = tx.row("SELECT coalesce(max((m.ref ->> 'notification_id')::bigint), 0) AS last FROM mails_sent m"
                   " WHERE m.player_id = %s AND m.game_id = %s AND m.kind = 'notification'"
                   " AND (%s::text IS NULL OR EXISTS (SELECT 1 FROM notifications n"
                   "   WHERE n.id = (m.ref ->> 'notification_id')::bigint AND n.type = %s))",
               (player_id, game_id, type_, type_))
    return row["last"] if row else 0


def reclaim_unsent(tx: Tx, older_than_seconds: float, max_attempts: int, now: datetime,
                   limit: int = 200) -> list[str]:
    """Claims nobody marked sent for a while (a crash between claim and send, or an SMTP
    server that refused): claimed anew (so two sweepers do not both take one)."""
    tx.conn.execute(
        "UPDATE mails_sent SET dropped = 'gave up' WHERE sent_at IS NULL AND dropped IS NULL"
        " AND attempts >= %s AND claimed_at < %s::timestamptz - make_interval(secs => %s)",
        (max_attempts, now, older_than_seconds))
    rows = tx.conn.execute(
        "UPDATE mails_sent SET claimed_at = %s, attempts = attempts + 1 WHERE key IN ("
        " SELECT key FROM mails_sent WHERE sent_at IS NULL AND dropped IS NULL"
        " AND claimed_at < %s::timestamptz - make_interval(secs => %s) ORDER BY claimed_at LIMIT %s"
        " FOR UPDATE SKIP LOCKED) RETURNING key", (now, now, older_than_seconds, limit)).fetchall()
    return [r[0] for r in rows]


# reply tokens -------------------------------------------------------------------------
def reply_token_row(tx: Tx, player_id: str, game_id: str, seat: int, version: int, now: datetime,
                    commands: list[dict] | None = None, ttl_seconds: float | None = None) -> int:
    """The reply token of this seat's mail at ``version`` (one per version: a mail re-sent
    carries the same), keeping the numbered ``commands`` that mail lists and when the
    token expires (counted from its first mail; a new mail of the same position after it
    expired renews it: the address it carries works again)."""
    row = tx.conn.execute(
        "INSERT INTO reply_tokens (player_id, game_id, seat, version, commands, expires_at)"
        " VALUES (%s, %s, %s, %s, %s, %s::timestamptz + make_interval(secs => %s))"
        " ON CONFLICT (player_id, game_id, seat, version) DO UPDATE SET expires_at = CASE"
        "   WHEN reply_tokens.expires_at <= %s THEN EXCLUDED.expires_at ELSE reply_tokens.expires_at END"
        " RETURNING id",
        (player_id, game_id, seat, version, Jsonb(commands or []), now, ttl_seconds, now)).fetchone()
    return row[0]


def keep_reply_token_hash(tx: Tx, token_id: int, digest: str) -> None:
    tx.conn.execute("UPDATE reply_tokens SET token_hash = %s WHERE id = %s", (digest, token_id))


def reply_token(tx: Tx, token_id: int, now: datetime) -> dict | None:
    return tx.row("SELECT id, player_id::text AS player_id, game_id::text AS game_id, seat, version,"
                    " token_hash, used_at, commands, expires_at,"
                    " coalesce(expires_at <= %s, false) AS expired FROM reply_tokens WHERE id = %s",
                (now, token_id))


def use_reply_token(tx: Tx, token_id: int, now: datetime) -> None:
    tx.conn.execute("UPDATE reply_tokens SET used_at = %s WHERE id = %s AND used_at IS NULL", (now, token_id))


# verification -------------------------------------------------------------------------
def new_verification(tx: Tx, player_id: str, email: str, ttl_seconds: float, now: datetime) -> int:
    row = tx.conn.execute(
        "INSERT INTO email_verifications (player_id, email, token_hash, created_at, expires_at)"
        " VALUES (%s, %s, 'pending:' || gen_random_uuid(), %s, %s::timestamptz + make_interval(secs => %s))"
        " RETURNING id",
        (player_id, email, now, now, ttl_seconds)).fetchone()
    return row[0]


def keep_verification_hash(tx: Tx, verification_id: int, digest: str) -> None:
    tx.conn.execute("UPDATE email_verifications SET token_hash = %s WHERE id = %s", (digest, verification_id))


def verification(tx: Tx, verification_id: int, now: datetime, lock: bool = False) -> dict | None:
    return tx.row("SELECT id, player_id::text AS player_id, email, token_hash, used_at,"
                    " expires_at <= %s AS expired FROM email_verifications WHERE id = %s"
                    + (" FOR UPDATE" if lock else ""), (now, verification_id))


def confirm_email(tx: Tx, verification_id: int, player_id: str, email: str, now: datetime) -> bool:
    tx.conn.execute("UPDATE email_verifications SET used_at = %s WHERE id = %s", (now, verification_id))
    cur = tx.conn.execute("UPDATE players SET email_verified_at = %s WHERE id = %s AND email = %s",
                          (now, player_id, email))
    return cur.rowcount == 1


# settings -----------------------------------------------------------------------------
def set_email(tx: Tx, player_id: str, email: str | None) -> None:
    tx.conn.execute("UPDATE players SET email = %s, email_verified_at = NULL WHERE id = %s", (email, player_id))


def merge_notify(tx: Tx, player_id: str, changes: dict[str, Any]) -> None:
    tx.conn.execute("UPDATE players SET notify = notify || %s WHERE id = %s", (Jsonb(changes), player_id))


def set_notify_by_email(tx: Tx, player_id: str, on: bool) -> None:
    tx.conn.execute("UPDATE players SET notify_by_email = %s WHERE id = %s", (on, player_id))


# digests ------------------------------------------------------------------------------
def start_digest(tx: Tx, player_id: str, now: datetime) -> None:
    """From now on: the first digest covers what comes after the switch to daily."""
    tx.conn.execute(
        "INSERT INTO mail_digests (player_id, last_notification_id, last_sent_at)"
        " SELECT %s, coalesce((SELECT max(id) FROM notifications WHERE player_id = %s), 0), %s"
        " ON CONFLICT (player_id) DO NOTHING", (player_id, player_id, now))


def digests_due(tx: Tx, every_seconds: float, now: datetime, limit: int = 500,
                player_id: str | None = None) -> list[tuple[str, int]]:
    """(player id, newest notification id) of daily-digest players owed a digest (of one
    player, if given)."""
    rows = tx.conn.execute(
        "SELECT p.id::text, (SELECT max(n.id) FROM notifications n WHERE n.player_id = p.id) AS newest"
        " FROM players p LEFT JOIN mail_digests d ON d.player_id = p.id"
        " WHERE p.notify ->> 'digest' = 'daily' AND p.email_verified_at IS NOT NULL AND p.notify_by_email"
        " AND (d.last_sent_at IS NULL OR d.last_sent_at <= %s::timestamptz - make_interval(secs => %s))"
        " AND EXISTS (SELECT 1 FROM notifications n WHERE n.player_id = p.id"
        "   AND n.id > coalesce(d.last_notification_id, 0))"
        " AND (%s::uuid IS NULL OR p.id = %s::uuid) LIMIT %s",
        (now, every_seconds, player_id, player_id, limit)).fetchall()
    return [(r[0], r[1]) for r in rows]


def advance_digest(tx: Tx, player_id: str, upto_id: int, now: datetime) -> None:
    tx.conn.execute(
        "INSERT INTO mail_digests (player_id, last_notification_id, last_sent_at) VALUES (%s, %s, %s)"
        " ON CONFLICT (player_id) DO UPDATE SET last_notification_id = EXCLUDED.last_notification_id,"
        " last_sent_at = EXCLUDED.last_sent_at", (player_id, upto_id, now))


def webhook_owner(tx: Tx, webhook_id: str) -> dict | None:
    """The webhooks table is the webhooks' (notify-core); a mail needs its owner and url."""
    return tx.row("SELECT player_id::text AS player_id, url FROM webhooks WHERE id::text = %s", (webhook_id,))
