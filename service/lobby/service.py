"""The lobby, players by name, profiles and the archive: read models over indexed SQL.

- A seek is a waiting game that is not private and has an open seat (``games.open_seats``,
  kept by a trigger on seats, migration 0100). ``GET /v1/lobby`` lists them newest first
  (partial index ``games_lobby`` / ``games_lobby_title``) with the
  creator's name and rating in the seek's title (``ratings`` primary key). A seek may
  carry a rating range: only a player whose displayed rating in that title is within it
  may join. Nobody joined within SEEK_TTL (7 days, ``ENTREPOT_SEEK_TTL``): the sweeper
  withdraws it (``status: "aborted"``; index ``games_seek_expiry``), by the clock port's
  time. Changes wake ``GET /v1/lobby/stream`` through Redis (service/notifications/pubsub.py).
- Players by name: ``lower(name) LIKE 'prefix%'`` on ``players_name_prefix``.
- The archive: ``archive`` rows (one per player and finished game, written by the trigger
  of migration 0100 in the transaction that finishes the game), indexed by player then
  finish time, by player and title, by player and result. Without a player: the partial
  indexes ``games_public_status`` / ``games_public_title_status``.
- Privacy: a private game is never in the lobby, the archive or the list of live games of
  anyone but its players, and its reads answer 404 to everyone else (service/games/service.py,
  ``viewer_of``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from psycopg.rows import dict_row

from service.clock import Clock
from service.errors import Forbidden, Invalid, NotFound
from service.games.store import _GAME_COLUMNS, _SEATS_JSON, Game, Player, Store, Tx, Where, _game
from service.games.titles import title as title_of
from service.lobby.ratings import DEFAULT_SIGMA, NEWCOMER_RATING, RatingService, provisional
from service.notifications.pubsub import Notifier

SEEK_TTL_SECONDS = 7 * 24 * 3600.0


class RatingOutOfRange(Forbidden):
    code = "rating_out_of_range"


@dataclass(frozen=True)
class Listing:
    """What the creator chose besides the game itself (POST /v1/games)."""

    rated: bool
    private: bool
    min_rating: int | None = None
    max_rating: int | None = None
    ttl_seconds: float = SEEK_TTL_SECONDS

    @staticmethod
    def of(seats, rated: bool | None, private: bool | None, rating_range: dict | None,
           ttl_seconds: float = SEEK_TTL_SECONDS) -> Listing:
        """Defaults: rated when every seat is a person (open seats will be), at least 2,
        and no player named twice; public."""
        people = all(s.ai is None for s in seats)
        named = [s.player_id for s in seats if s.player_id is not None]
        rateable = people and len(seats) >= 2 and len(named) == len(set(named))
        if rated and not rateable:
            raise Invalid("only games between different people are rated", {"rated": [
                "must be false with a computer seat, a single seat, or a player in two seats"]})
        low = high = None
        if rating_range:
            low, high = rating_range.get("min"), rating_range.get("max")
            if low is not None and high is not None and low > high:
                raise Invalid("the rating range is empty", {"rating_range": ["min must not exceed max"]})
        return Listing(rateable if rated is None else rated, bool(private), low, high, ttl_seconds)

    def save(self, tx: Tx, game_id: str, now: datetime) -> None:
        tx.conn.execute(
            "UPDATE games SET rated = %s, private = %s, min_rating = %s, max_rating = %s, expires_at = %s"
            " WHERE id = %s",
            (self.rated, self.private, self.min_rating, self.max_rating,
             now + timedelta(seconds=self.ttl_seconds), game_id))


def rating_in(tx: Tx, player_id: str, title: str) -> tuple[int, bool]:
    row = tx.conn.execute("SELECT rating, sigma FROM ratings WHERE player_id = %s AND title = %s",
                          (player_id, title)).fetchone()
    return (row[0], provisional(row[1])) if row else (NEWCOMER_RATING, True)


def check_rating_range(tx: Tx, game: Game, player_id: str) -> None:
    """A seek's rating range keeps out players rated outside it (RatingOutOfRange, 403)."""
    if game.min_rating is None and game.max_rating is None:
        return
    rating, _ = rating_in(tx, player_id, game.title)
    if (game.min_rating is not None and rating < game.min_rating) or (
            game.max_rating is not None and rating > game.max_rating):
        raise RatingOutOfRange(
            f"this seek is for ratings {game.min_rating or '-'} to {game.max_rating or '-'}; yours is {rating}")


_CREATOR = (
    "p.name AS creator_name, coalesce(r.rating, %s) AS creator_rating,"
    " coalesce(r.sigma, %s) AS creator_sigma"
)


@dataclass(frozen=True)
class Seek:
    game: Game
    creator: dict


class LobbyService:
    def __init__(self, store: Store, clock: Clock, ratings: RatingService, notifier: Notifier | None = None):
        self.store, self.clock, self.ratings, self.notifier = store, clock, ratings, notifier

    # the lobby --------------------------------------------------------------------------
    def seeks(self, title: str | None, limit: int, before: tuple[datetime, str] | None = None) -> list[Seek]:
        if title is not None:
            title_of(title)
        where = Where("g.status = 'waiting' AND NOT g.private AND g.open_seats > 0")
        where.when(title, "g.title = %s", title)
        where.when(before, "(g.created_at, g.id) < (%s, %s)", *(before or ()))
        with self.store.read() as tx, tx.conn.cursor(row_factory=dict_row) as cur:
            # the page first (an ordered walk of games_lobby), then its names and ratings
            cur.execute(
                f"SELECT {_GAME_COLUMNS}, {_SEATS_JSON}, {_CREATOR} FROM (SELECT g.id FROM games g"
                f" WHERE {where} ORDER BY g.created_at DESC, g.id DESC LIMIT %s) page"
                " JOIN games g ON g.id = page.id"
                " LEFT JOIN players p ON p.id = g.created_by"
                " LEFT JOIN ratings r ON r.player_id = g.created_by AND r.title = g.title"
                " ORDER BY g.created_at DESC, g.id DESC",
                (NEWCOMER_RATING, DEFAULT_SIGMA, *where.params, limit))
            rows = cur.fetchall()
        return [_seek(row) for row in rows]

    def changed(self) -> None:
        """Wake the lobby's streams (after a seek appears, fills or goes)."""
        if self.notifier is not None and hasattr(self.notifier, "lobby_changed"):
            self.notifier.lobby_changed()

    def expire(self, limit: int = 500) -> int:
        """Withdraw seeks nobody filled by their time (the sweeper, with the clock's now)."""
        now = self.clock.now()
        with self.store.tx() as tx:
            gone = tx.conn.execute(
                "UPDATE games g SET status = 'aborted', updated_at = %s WHERE g.id IN ("
                " SELECT id FROM games WHERE status = 'waiting' AND open_seats > 0 AND expires_at <= %s"
                " ORDER BY expires_at LIMIT %s FOR UPDATE SKIP LOCKED) RETURNING g.id",
                (now, now, limit)).rowcount
        if gone:
            self.changed()
        return gone

    # players ----------------------------------------------------------------------------
    def players_named(self, prefix: str, limit: int) -> list[dict]:
        pattern = prefix.lower().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
        with self.store.read() as tx:
            rows = tx.conn.execute(
                "SELECT id::text, name FROM players WHERE lower(name) LIKE %s ORDER BY lower(name), id LIMIT %s",
                (pattern, limit)).fetchall()
        return [{"id": i, "name": n} for i, n in rows]

    def profile(self, player_id: str, caller: Player | None) -> dict:
        with self.store.read() as tx:
            player = tx.player(player_id) if _is_uuid(player_id) else None
            if player is None:
                raise NotFound(f"no player {player_id}")
            stats = {t: {"played": p, "won": w, "lost": p - w} for t, p, w in tx.conn.execute(
                "SELECT title, count(*), count(*) FILTER (WHERE won) FROM archive WHERE player_id = %s"
                " GROUP BY title ORDER BY title", (player_id,)).fetchall()}
            ratings = self.ratings.of_player(tx, player_id)
        recent = self.archive(caller, player_id, None, "any", None, None, None, 10)
        return {"id": player.id, "name": player.name, "ratings": ratings, "stats": stats, "recent_games": recent}

    def invitations(self, caller: Player) -> list[dict]:
        """The caller's pending invitations (challenges), with the challenger's name and
        rating in that title, and the clock."""
        with self.store.read() as tx, tx.conn.cursor(row_factory=dict_row) as cur:
            cur.execute(
                f"SELECT {_GAME_COLUMNS}, {_SEATS_JSON}, {_CREATOR}, s.index AS invited_seat FROM seats s"
                " JOIN games g ON g.id = s.game_id LEFT JOIN players p ON p.id = g.created_by"
                " LEFT JOIN ratings r ON r.player_id = g.created_by AND r.title = g.title"
                " WHERE s.player_id = %s AND s.invited_at IS NOT NULL AND g.status = 'waiting'"
                " ORDER BY s.invited_at DESC LIMIT 100", (NEWCOMER_RATING, DEFAULT_SIGMA, caller.id))
            rows = cur.fetchall()
        found = []
        for row in rows:
            seat = row.pop("invited_seat")
            seek = _seek(row)
            found.append({"game": seek.game, "seat": seat, "challenger": seek.creator,
                          "time_control": seek.game.time_control})
        return found

    # the archive and live games ------------------------------------------------------------
    def archive(self, caller: Player | None, player_id: str | None, title: str | None, result: str,
                form: str | None, after: datetime | None, before: tuple[datetime, str] | None,
                limit: int) -> list[Game]:
        """Finished games, latest first. ``result`` (won | lost | any) is the named player's."""
        if title is not None:
            title_of(title)
        caller_id = caller.id if caller else None
        if player_id is not None:
            where = Where("a.player_id = %s", player_id)
            where.when(title, "a.title = %s", title)
            where.when(result in ("won", "lost"), "a.won = %s", result == "won")
            where.when(form, "a.variant = %s", form)
            where.when(after, "a.finished_at >= %s", after)
            where.when(before, "(a.finished_at, a.game_id) < (%s, %s)", *(before or ()))
            where.add("(NOT a.private OR EXISTS (SELECT 1 FROM seats s WHERE s.game_id = a.game_id"
                      " AND s.player_id = %s))", caller_id)
            sql = (f"SELECT {_GAME_COLUMNS}, {_SEATS_JSON} FROM (SELECT game_id, finished_at FROM archive a"
                   f" WHERE {where} ORDER BY a.finished_at DESC, a.game_id DESC LIMIT %s) a"
                   " JOIN games g ON g.id = a.game_id ORDER BY a.finished_at DESC, a.game_id DESC")
        else:
            if result in ("won", "lost"):
                raise Invalid("won or lost is a player's result: name the player",
                              {"result": ["needs player"]})
            where = Where("g.status = 'finished' AND NOT g.private")
            where.when(title, "g.title = %s", title)
            where.when(form, "g.options ->> 'variant' = %s", form)
            where.when(after, "g.updated_at >= %s", after)
            where.when(before, "(g.updated_at, g.id) < (%s, %s)", *(before or ()))
            sql = (f"SELECT {_GAME_COLUMNS}, {_SEATS_JSON} FROM games g WHERE {where}"
                   " ORDER BY g.updated_at DESC, g.id DESC LIMIT %s")
        with self.store.read() as tx, tx.conn.cursor(row_factory=dict_row) as cur:
            cur.execute(sql, (*where.params, limit))
            return [_game(r) for r in cur.fetchall()]


def _seek(row: dict) -> Seek:
    creator = {"id": row["created_by"], "name": row.pop("creator_name"),
               "rating": row.pop("creator_rating"), "provisional": provisional(row.pop("creator_sigma"))}
    return Seek(_game(row), creator)


def _is_uuid(value: str) -> bool:
    from service.games.service import is_game_id
    return is_game_id(value)
