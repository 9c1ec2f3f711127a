"""Ratings: a projection of finished games' events, OpenSkill Plackett-Luce per title.

What a game gives (``standings``): its finishing order, read from the result the title's
rules compute when the stream is folded (never from anything a client sent):
- the units rated are the seats, or the teams when the result names teams (Kontor's team
  form, 2 against 2): a team is rated as one OpenSkill team of its players;
- units in the title's ``winners`` share rank 1; the others follow by score, then by the
  title's own tie-break where the result carries it (Kontor: money, the team's money in
  the team form; Speicherstadt: coins); equal on all of these is a tie (equal rank);
- a seat out (timed out under ``forfeit``, resigned, abandoned: ``detail.out``) ranks last,
  with any other seat out; in the team form its whole team does. A seat a computer stood in
  for (``on_timeout: computer``) is still its player's: its result is theirs.

Which games are rated: ``games.rated``, chosen at creation (default: every seat a person,
at least 2, no player in two seats; a game with a computer seat at the start never is).

The numbers: the ``openskill`` package's PlackettLuce with its defaults (mu 25, sigma
25/3, tau 25/300, beta 25/6). Displayed ``rating`` = round(1000 + 40 * (mu - 3 * sigma)),
the conservative ordinal scaled so that a newcomer shows 1000; ``provisional`` while sigma
is above PROVISIONAL_SIGMA (5: about the first 10 to 20 rated games, measured
against settled and against new opponents).

Order and exactness: games are rated in finishing order, ``finished_at`` (the time of the
game's last event) then game id. The job (after each finished game's commit, and the
sweeper) drains ``rating_queue`` under the title's advisory lock; a game finished earlier
than one rated already (two commits racing) rewinds the title's projection to it and rates
again from there. So the projection always equals rating every rated game in that order,
which is what ``entrepot ratings --rebuild`` does from scratch: the same numbers. A game
is rated once (``rated_games`` primary key, under the lock): a job that runs twice does
nothing the second time. No rule ever reads a rating.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from openskill.models import PlackettLuce

from service.audit import chain
from service.errors import Invalid, NotFound
from service.games.states import Folded, fold_stored
from service.games.store import Game, Store, Tx
from service.games.titles import title as title_of

log = logging.getLogger(__name__)

MODEL = PlackettLuce()
DEFAULT_MU = MODEL.mu
DEFAULT_SIGMA = MODEL.sigma
PROVISIONAL_SIGMA = 5.0
#: an advisory lock per title: pg_advisory_xact_lock(RATING_LOCK, hashtext(title))
RATING_LOCK = 0x7261


def displayed(mu: float, sigma: float) -> int:
    """The one number shown: the ordinal mu - 3 sigma, scaled; a newcomer shows 1000."""
    return round(1000 + 40 * (mu - 3 * sigma))


def provisional(sigma: float) -> bool:
    return sigma > PROVISIONAL_SIGMA


NEWCOMER_RATING = displayed(DEFAULT_MU, DEFAULT_SIGMA)


@dataclass(frozen=True)
class Standing:
    """One rated unit: its seats and its rank (1 best; equal ranks tie)."""

    seats: tuple[int, ...]
    rank: int


def standings(result: dict, seat_count: int) -> list[Standing]:
    """The finishing order of a result (``verifier.record.result_json`` shape, with
    ``detail.out`` and ``detail.teams`` where the title puts them)."""
    detail = result.get("detail") or {}
    scores = list(result.get("scores") or [0.0] * seat_count)
    winners = set(result.get("winners") or ())
    out = set(detail.get("out") or ())
    teams = detail.get("teams")
    if teams:
        units = [tuple(t["seats"]) for t in teams]
        tie_breaks = [t.get("money", 0) for t in teams]
    else:
        units = [(s,) for s in range(seat_count)]
        per_seat = detail.get("money") or detail.get("coins") or [0] * seat_count
        tie_breaks = list(per_seat)

    def key(i: int) -> tuple:
        seats = units[i]
        if any(s in out for s in seats):
            return (2,)
        won = any(s in winners for s in seats)
        score = max(scores[s] for s in seats)
        return (0 if won else 1, -score, -float(tie_breaks[i] or 0))

    keys = [key(i) for i in range(len(units))]
    order = sorted(set(keys))
    return [Standing(units[i], order.index(keys[i]) + 1) for i in range(len(units))]


def rate(before: Sequence[Sequence[tuple[float, float]]], ranks: Sequence[int]) -> list[list[tuple[float, float]]]:
    """OpenSkill Plackett-Luce: (mu, sigma) of each unit's players before -> after."""
    teams = [[MODEL.rating(mu=mu, sigma=sigma) for mu, sigma in unit] for unit in before]
    rated = MODEL.rate(teams, ranks=list(ranks))
    return [[(r.mu, r.sigma) for r in unit] for unit in rated]


@dataclass(frozen=True)
class Pending:
    game: Game
    finished_at: datetime


class RatingService:
    def __init__(self, store: Store):
        self.store = store

    # the projection -------------------------------------------------------------------
    def rate_game(self, game_id: str) -> int:
        """The job after a game ends: rate whatever its title has waiting (that game
        included). Returns how many games were rated now."""
        with self.store.read() as tx:
            row = tx.conn.execute("SELECT title FROM rating_queue WHERE game_id = %s", (game_id,)).fetchone()
        if row is None:
            return 0  # rated already (a second run of the job), or not a rated game
        return self.rate_pending(row[0])

    def rate_pending(self, title: str) -> int:
        with self.store.tx() as tx:
            tx.conn.execute("SELECT pg_advisory_xact_lock(%s, hashtext(%s))", (RATING_LOCK, title))
            queued = [r[0] for r in tx.conn.execute(
                "SELECT game_id::text FROM rating_queue WHERE title = %s", (title,)).fetchall()]
            if not queued:
                return 0
            pending = sorted((self._pending(tx, game_id) for game_id in queued),
                             key=lambda p: (p.finished_at, p.game.id))
            first = pending[0]
            later = [r[0] for r in tx.conn.execute(
                "SELECT game_id::text FROM rated_games WHERE title = %s AND (finished_at, game_id) > (%s, %s)"
                " ORDER BY finished_at, game_id", (title, first.finished_at, first.game.id)).fetchall()]
            if later:  # finished before games rated already: rewind to it, rate again from there
                log.info("rating %s: %s games rated out of order, rewinding %s", title, len(pending), len(later))
                self._rewind(tx, title, first.finished_at, first.game.id)
                pending = sorted(pending + [self._pending(tx, g) for g in later],
                                 key=lambda p: (p.finished_at, p.game.id))
            for p in pending:
                self._rate_one(tx, p)
            tx.conn.execute("DELETE FROM rating_queue WHERE game_id = ANY(%s::uuid[])", (queued,))
            return len(queued)

    def rebuild(self) -> int:
        """``entrepot ratings --rebuild``: forget the projection, rate every rated finished
        game again from its events, in finishing order."""
        with self.store.tx() as tx:
            tx.conn.execute("DELETE FROM ratings")
            tx.conn.execute("DELETE FROM rating_history")
            tx.conn.execute("DELETE FROM rated_games")
            tx.conn.execute("INSERT INTO rating_queue (game_id, title) SELECT id, title FROM games"
                            " WHERE status = 'finished' AND rated ON CONFLICT DO NOTHING")
            titles = [r[0] for r in tx.conn.execute("SELECT DISTINCT title FROM rating_queue ORDER BY title")]
        return sum(self.rate_pending(t) for t in titles)

    def sweep(self) -> list[str]:
        """For the sweeper: the titles with games waiting to be rated (a lost job)."""
        with self.store.read() as tx:
            return [r[0] for r in tx.conn.execute("SELECT DISTINCT title FROM rating_queue")]

    def _pending(self, tx: Tx, game_id: str) -> Pending:
        game = tx.game(game_id)
        assert game is not None and game.status == "finished"
        last = tx.events(game_id, after=game.version - 1, upto=game.version)[-1]
        return Pending(game, datetime.fromisoformat(last.at.replace("Z", "+00:00")))

    def _rewind(self, tx: Tx, title: str, finished_at: datetime, game_id: str) -> None:
        affected = [r[0] for r in tx.conn.execute(
            "DELETE FROM rating_history WHERE title = %s AND (finished_at, game_id) >= (%s, %s)"
            " RETURNING player_id::text", (title, finished_at, game_id)).fetchall()]
        tx.conn.execute("DELETE FROM rated_games WHERE title = %s AND (finished_at, game_id) >= (%s, %s)",
                        (title, finished_at, game_id))
        for player_id in set(affected):
            last = tx.conn.execute(
                "SELECT mu, sigma, rating, (SELECT count(*) FROM rating_history h2 WHERE h2.player_id = h.player_id"
                " AND h2.title = h.title) FROM rating_history h WHERE player_id = %s AND title = %s"
                " ORDER BY finished_at DESC, game_id DESC LIMIT 1", (player_id, title)).fetchone()
            if last is None:
                tx.conn.execute("DELETE FROM ratings WHERE player_id = %s AND title = %s", (player_id, title))
            else:
                tx.conn.execute("UPDATE ratings SET mu = %s, sigma = %s, rating = %s, games = %s"
                                " WHERE player_id = %s AND title = %s", (*last, player_id, title))

    def _rate_one(self, tx: Tx, pending: Pending) -> None:
        game = pending.game
        players = [s.player_id for s in game.seats]
        if any(p is None for p in players) or len(set(players)) != len(players) or any(s.ai for s in game.seats):
            # never rated (the creation refuses it); recorded so that it is not looked at again
            tx.conn.execute("INSERT INTO rated_games (game_id, title, finished_at) VALUES (%s, %s, %s)",
                            (game.id, game.title, pending.finished_at))
            return
        result = final_result(tx, game)
        units = standings(result, game.seat_count)
        current = {r[0]: (r[1], r[2], r[3]) for r in tx.conn.execute(
            "SELECT player_id::text, mu, sigma, games FROM ratings WHERE title = %s AND player_id = ANY(%s::uuid[])",
            (game.title, players)).fetchall()}
        before = [[current.get(players[s], (DEFAULT_MU, DEFAULT_SIGMA, 0))[:2] for s in u.seats] for u in units]
        after = rate(before, [u.rank for u in units])
        tx.conn.execute("INSERT INTO rated_games (game_id, title, finished_at) VALUES (%s, %s, %s)",
                        (game.id, game.title, pending.finished_at))
        for unit, ratings in zip(units, after):
            for seat, (mu, sigma) in zip(unit.seats, ratings):
                player = players[seat]
                games = current.get(player, (0, 0, 0))[2] + 1
                shown = displayed(mu, sigma)
                tx.conn.execute(
                    "INSERT INTO rating_history (game_id, player_id, title, finished_at, rank, mu, sigma, rating)"
                    " VALUES (%s, %s, %s, %s, %s, %s, %s, %s)",
                    (game.id, player, game.title, pending.finished_at, unit.rank, mu, sigma, shown))
                tx.conn.execute(
                    "INSERT INTO ratings (player_id, title, mu, sigma, rating, games) VALUES (%s, %s, %s, %s, %s, %s)"
                    " ON CONFLICT (player_id, title) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma,"
                    " rating = excluded.rating, games = excluded.games",
                    (player, game.title, mu, sigma, shown, games))

    # reads ----------------------------------------------------------------------------
    def leaderboard(self, title: str, limit: int) -> list[dict]:
        try:
            title_of(title)
        except Invalid:
            raise NotFound(f"no title {title}") from None
        with self.store.read() as tx:
            rows = tx.conn.execute(
                "SELECT r.player_id::text, p.name, r.rating, r.games, r.mu, r.sigma FROM ratings r"
                " JOIN players p ON p.id = r.player_id WHERE r.title = %s"
                " ORDER BY r.rating DESC, r.player_id LIMIT %s", (title, limit)).fetchall()
        return [{"id": i, "name": n, "rating": r, "games": g, "mu": mu, "sigma": s, "provisional": provisional(s)}
                for i, n, r, g, mu, s in rows]

    def of_player(self, tx: Tx, player_id: str) -> dict[str, dict]:
        rows = tx.conn.execute("SELECT title, mu, sigma, rating, games FROM ratings WHERE player_id = %s"
                               " ORDER BY title", (player_id,)).fetchall()
        found = {}
        for title, mu, sigma, rating, games in rows:
            history = tx.conn.execute(
                "SELECT game_id::text, finished_at, rating, mu, sigma, rank FROM rating_history"
                " WHERE player_id = %s AND title = %s ORDER BY finished_at DESC, game_id DESC LIMIT 100",
                (player_id, title)).fetchall()
            found[title] = {"rating": rating, "mu": mu, "sigma": sigma, "games": games,
                            "provisional": provisional(sigma),
                            "history": [{"game_id": g, "at": chain.format_time(at), "rating": r, "mu": m,
                                         "sigma": s, "rank": k} for g, at, r, m, s, k in reversed(history)]}
        return found

    def snapshot(self) -> list[tuple]:
        """Every player's rating of every title, exactly (for the rebuild's check)."""
        with self.store.read() as tx:
            return tx.conn.execute("SELECT player_id::text, title, mu, sigma, rating, games FROM ratings"
                                   " ORDER BY player_id, title").fetchall()


def final_result(tx: Tx, game: Game) -> dict:
    """The result of a finished game, folded from its events by the title's rules (the
    games table's copy is a read model; the projection trusts only the stream)."""
    title = title_of(game.title)
    folded = fold_stored(title, tx.events(game.id, upto=game.version), Folded(None, 0, chain.genesis(game.id)))
    found = title.result(folded.state)
    return {"scores": list(found.scores), "winners": list(found.winners), "detail": dict(found.detail)}
