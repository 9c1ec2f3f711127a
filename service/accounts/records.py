"""The account tables' queries (migration 0090): access tokens, sessions, sign-in and reset
links, OAuth codes. Only hashes of secrets go in or come out."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from service.games.store import Player, Tx

_PLAYER = ("p.id::text AS id, p.name, p.email, p.notify_by_email, p.vacation_until, p.created_at,"
           " p.email_verified_at, p.notify")


@dataclass(frozen=True)
class TokenRow:
    id: str
    kind: str
    name: str
    client_id: str | None
    scopes: tuple[str, ...]
    created_at: datetime
    last_used_at: datetime | None
    expires_at: datetime | None


@dataclass(frozen=True)
class SessionRow:
    id: str
    method: str
    user_agent: str
    created_at: datetime
    last_seen_at: datetime
    expires_at: datetime


def _player(row: dict) -> Player:
    return Player(**{k: row[k] for k in ("id", "name", "email", "notify_by_email", "vacation_until",
                                         "created_at", "email_verified_at", "notify")})


# passwords ------------------------------------------------------------------------------
def password_candidates(tx: Tx, email: str, limit: int = 3) -> list[tuple[str, str]]:
    """(player id, argon2 hash) of the players with this address and a password: a verified
    address first. Addresses are not unique (a token-only player may share one)."""
    return [(r["id"], r["password_hash"]) for r in tx.rows(
        "SELECT id::text AS id, password_hash FROM players"
            " WHERE lower(email) = lower(%s) AND password_hash IS NOT NULL"
            " ORDER BY email_verified_at IS NULL, created_at LIMIT %s", (email, limit))]


def password_hash(tx: Tx, player_id: str) -> str | None:
    row = tx.row("SELECT password_hash FROM players WHERE id = %s", (player_id,))
    return row["password_hash"] if row else None


def set_password(tx: Tx, player_id: str, hashed: str, now: datetime) -> None:
    tx.conn.execute("UPDATE players SET password_hash = %s, password_changed_at = %s WHERE id = %s",
                    (hashed, now, player_id))


def verified_players(tx: Tx, email: str, limit: int = 3) -> list[dict]:
    return tx.rows("SELECT id::text AS id, name, email FROM players"
                    " WHERE lower(email) = lower(%s) AND email_verified_at IS NOT NULL"
                    " ORDER BY password_hash IS NULL, created_at LIMIT %s", (email, limit))


# access tokens --------------------------------------------------------------------------
def insert_token(tx: Tx, token_id: str, player_id: str, kind: str, name: str, client_id: str | None,
                 token_hash: str, scopes: list[str], expires_at: datetime | None, now: datetime) -> TokenRow:
    row = tx.row("INSERT INTO access_tokens (id, player_id, kind, name, client_id, token_hash, scopes, expires_at,"
                   " created_at) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)"
                   " RETURNING id::text AS id, kind, name, client_id, scopes, created_at, last_used_at, expires_at",
               (token_id, player_id, kind, name, client_id, token_hash, scopes, expires_at, now))
    return _token(row)


def _token(row: dict) -> TokenRow:
    return TokenRow(**{**row, "scopes": tuple(row["scopes"])})


def token_identity(tx: Tx, token_hash: str, now: datetime) -> tuple[Player, dict] | None:
    """The live token with this hash and its player (None: unknown, revoked or expired)."""
    row = tx.row(f"SELECT {_PLAYER}, t.id::text AS token_id, t.kind, t.client_id, t.scopes, t.last_used_at,"
                   " t.expires_at AS token_expires_at"
                   " FROM access_tokens t JOIN players p ON p.id = t.player_id"
                   " WHERE t.token_hash = %s AND t.revoked_at IS NULL"
                   " AND (t.expires_at IS NULL OR t.expires_at > %s)", (token_hash, now))
    return (_player(row), row) if row else None


def touch_token(tx: Tx, token_id: str, now: datetime) -> None:
    tx.conn.execute("UPDATE access_tokens SET last_used_at = %s WHERE id = %s", (now, token_id))


def tokens_of(tx: Tx, player_id: str, now: datetime) -> list[TokenRow]:
    return [_token(r) for r in tx.rows(
        "SELECT id::text AS id, kind, name, client_id, scopes, created_at, last_used_at, expires_at"
            " FROM access_tokens WHERE player_id = %s AND revoked_at IS NULL"
            " AND (expires_at IS NULL OR expires_at > %s) ORDER BY created_at, id", (player_id, now))]


def revoke_token(tx: Tx, player_id: str, token_id: str, now: datetime) -> bool:
    return tx.conn.execute("UPDATE access_tokens SET revoked_at = %s WHERE id = %s AND player_id = %s"
                           " AND revoked_at IS NULL", (now, token_id, player_id)).rowcount == 1


def token_by_hash(tx: Tx, token_hash: str) -> dict | None:
    return tx.row("SELECT id::text AS id, player_id::text AS player_id, kind, client_id, scopes, expires_at,"
                    " revoked_at, created_at FROM access_tokens WHERE token_hash = %s", (token_hash,))


def revoke_token_by_id(tx: Tx, token_id: str, now: datetime) -> None:
    tx.conn.execute("UPDATE access_tokens SET revoked_at = %s WHERE id = %s AND revoked_at IS NULL", (now, token_id))


# sessions -------------------------------------------------------------------------------
def insert_session(tx: Tx, session_id: str, player_id: str, token_hash: str, method: str, user_agent: str,
                   expires_at: datetime, now: datetime) -> None:
    tx.conn.execute("INSERT INTO sessions (id, player_id, token_hash, method, user_agent, expires_at,"
                    " created_at, last_seen_at) VALUES (%s, %s, %s, %s, %s, %s, %s, %s)",
                    (session_id, player_id, token_hash, method, user_agent, expires_at, now, now))


def session_identity(tx: Tx, token_hash: str, now: datetime) -> tuple[Player, dict] | None:
    row = tx.row(f"SELECT {_PLAYER}, s.id::text AS session_id, s.last_seen_at, s.expires_at AS session_expires_at"
                   " FROM sessions s JOIN players p ON p.id = s.player_id"
                   " WHERE s.token_hash = %s AND s.ended_at IS NULL AND s.expires_at > %s", (token_hash, now))
    return (_player(row), row) if row else None


def touch_session(tx: Tx, session_id: str, now: datetime) -> None:
    tx.conn.execute("UPDATE sessions SET last_seen_at = %s WHERE id = %s", (now, session_id))


def sessions_of(tx: Tx, player_id: str, now: datetime) -> list[SessionRow]:
    return [SessionRow(**r) for r in tx.rows(
        "SELECT id::text AS id, method, user_agent, created_at, last_seen_at, expires_at FROM sessions"
            " WHERE player_id = %s AND ended_at IS NULL AND expires_at > %s ORDER BY created_at, id",
            (player_id, now))]


def end_session(tx: Tx, player_id: str, session_id: str, now: datetime) -> bool:
    return tx.conn.execute("UPDATE sessions SET ended_at = %s WHERE id = %s AND player_id = %s"
                           " AND ended_at IS NULL", (now, session_id, player_id)).rowcount == 1


def end_sessions(tx: Tx, player_id: str, now: datetime) -> int:
    return tx.conn.execute("UPDATE sessions SET ended_at = %s WHERE player_id = %s AND ended_at IS NULL",
                           (now, player_id)).rowcount


# link requests and links ----------------------------------------------------------------
def insert_request(tx: Tx, kind: str, email: str, now: datetime) -> int:
    return tx.conn.execute("INSERT INTO account_requests (kind, email, created_at) VALUES (%s, %s, %s) RETURNING id",
                           (kind, email, now)).fetchone()[0]


def claim_request(tx: Tx, request_id: int, now: datetime) -> dict | None:
    """The request, marked handled (None: unknown or handled before: a job that ran twice)."""
    return tx.row("UPDATE account_requests SET handled_at = %s WHERE id = %s AND handled_at IS NULL"
                    " RETURNING id, kind, email", (now, request_id))


def lost_requests(tx: Tx, older_than_seconds: float, newer_than_seconds: float, now: datetime) -> list[int]:
    """Requests not handled this long after they came (their job was lost), and not so
    old that their link would be pointless."""
    return [r[0] for r in tx.conn.execute(
        "SELECT id FROM account_requests WHERE handled_at IS NULL"
        " AND created_at < %s::timestamptz - make_interval(secs => %s)"
        " AND created_at > %s::timestamptz - make_interval(secs => %s)"
        " ORDER BY id LIMIT 500", (now, older_than_seconds, now, newer_than_seconds))]


def insert_link(tx: Tx, player_id: str, kind: str, token_hash: str, expires_at: datetime, now: datetime) -> None:
    tx.conn.execute("INSERT INTO account_links (player_id, kind, token_hash, expires_at, created_at)"
                    " VALUES (%s, %s, %s, %s, %s)", (player_id, kind, token_hash, expires_at, now))


def use_link(tx: Tx, kind: str, token_hash: str, now: datetime) -> dict | None:
    """The link's row, locked ({"player_id", "used", "expired"}); None when unknown."""
    return tx.row("SELECT id, player_id::text AS player_id, used_at IS NOT NULL AS used,"
                    " expires_at <= %s AS expired FROM account_links"
                    " WHERE kind = %s AND token_hash = %s FOR UPDATE", (now, kind, token_hash))


def mark_link_used(tx: Tx, link_id: int, now: datetime) -> None:
    tx.conn.execute("UPDATE account_links SET used_at = %s WHERE id = %s", (now, link_id))


# OAuth codes ----------------------------------------------------------------------------
def insert_code(tx: Tx, code_hash: str, client_id: str, player_id: str, redirect_uri: str, scopes: list[str],
                challenge: str, method: str, expires_at: datetime, now: datetime) -> None:
    tx.conn.execute("INSERT INTO oauth_codes (code_hash, client_id, player_id, redirect_uri, scopes,"
                    " code_challenge, code_challenge_method, expires_at, created_at)"
                    " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)",
                    (code_hash, client_id, player_id, redirect_uri, scopes, challenge, method, expires_at, now))


def claim_code(tx: Tx, code_hash: str, client_id: str, now: datetime) -> dict | None:
    """An unused, unexpired code issued to this client, marked used in the same statement
    (of two concurrent uses, one finds it)."""
    return tx.row("UPDATE oauth_codes SET used_at = %s"
                    " WHERE code_hash = %s AND client_id = %s AND used_at IS NULL AND expires_at > %s"
                    " RETURNING code_hash, client_id, player_id::text AS player_id, redirect_uri, scopes,"
                    " code_challenge, code_challenge_method", (now, code_hash, client_id, now))
