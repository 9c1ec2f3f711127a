"""Private notes: a player's own text about a game (plans, reminders to themselves).

Kept in a table of their own (migration 0085), never in the game's stream: no view,
event page, stream, export or audit record reads them, before or after the game ends.
Only a player seated in the game may keep one, and only they read it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from service.clock import Clock, SystemClock
from service.errors import Invalid, NotFound, NotYourSeat
from service.games.service import is_game_id
from service.games.store import Player, Store

#: The longest note, in characters: a page of plans, not a document store.
MAX_NOTE_CHARS = 10_000


@dataclass(frozen=True)
class Note:
    game_id: str
    text: str
    updated_at: datetime | None


class NoteService:
    def __init__(self, store: Store, clock: Clock | None = None):
        self.store = store
        #: the clock port: when a note was last written
        self.clock = clock or SystemClock()

    def get(self, player: Player, game_id: str) -> Note:
        with self.store.read() as tx:
            self._seated(tx, player, game_id)
            row = tx.conn.execute("SELECT text, updated_at FROM game_notes WHERE game_id = %s AND player_id = %s",
                                  (game_id, player.id)).fetchone()
        return Note(game_id, row[0], row[1]) if row else Note(game_id, "", None)

    def put(self, player: Player, game_id: str, text: str) -> Note:
        if len(text) > MAX_NOTE_CHARS:
            raise Invalid(f"a note holds at most {MAX_NOTE_CHARS} characters",
                          {"text": [f"at most {MAX_NOTE_CHARS} characters"]})
        with self.store.tx() as tx:
            self._seated(tx, player, game_id)
            row = tx.conn.execute(
                "INSERT INTO game_notes (game_id, player_id, text, updated_at) VALUES (%s, %s, %s, %s)"
                " ON CONFLICT (game_id, player_id) DO UPDATE SET text = excluded.text, updated_at = excluded.updated_at"
                " RETURNING text, updated_at",
                (game_id, player.id, text, self.clock.now()),
            ).fetchone()
        return Note(game_id, row[0], row[1])

    @staticmethod
    def _seated(tx, player: Player, game_id: str) -> None:
        game = tx.game(game_id) if is_game_id(game_id) else None
        if game is None:
            raise NotFound(f"no game {game_id}")
        if not game.seats_of(player.id):
            raise NotYourSeat("only a player seated in this game keeps notes on it")
