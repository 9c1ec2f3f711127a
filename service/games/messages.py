"""Messages between a game's players: the table (everyone), or a team's own channel.

A team's messages are read only by its members until the game is over, then by everyone.
When a rulebook limits when partners may confer, the title says so (``may_confer``).
"""

from __future__ import annotations

from dataclasses import dataclass

import psycopg

from service.audit.chain import format_time
from service.errors import Conflict, Invalid, NotYourSeat
from service.games.idempotency import IdempotencyKey, Replayed, once
from service.games.service import GameService, viewer_of
from service.games.store import Game, Player, Store
from service.games.titles import title as title_of

TABLE = "table"
TEAM = "team"


class NotNow(Conflict):
    code = "not_now"


@dataclass(frozen=True)
class Message:
    #: its number in its channel (1, 2, ... in the table; 1, 2, ... in each team's own):
    #: a game-wide number let a team count the other team's messages by the gaps
    seq: int
    seat: int
    channel: str
    text: str
    at: str
    #: the game-wide order, for the server only (the fan-out); never served
    position: int = 0


@dataclass(frozen=True)
class MessagePage:
    messages: list[Message]
    #: pass as ``after`` for the next page; None when this page is the last
    next_after: int | None


class MessageService:
    def __init__(self, store: Store, games: GameService, notifications=None):
        self.store = store
        self.games = games
        #: service/notifications/service.py: tells the other players after the commit
        self.notifications = notifications

    def post(self, caller: Player, game_id: str, seat: int | None, channel: str, text: str,
             idem: IdempotencyKey | None = None) -> Message | Replayed:
        """Post a message; with ``idem`` (an Idempotency-Key) at most once per key: a retry
        gets the first answer (``Replayed``), not a second message."""
        for _ in range(5):
            try:
                message = once(self.store, idem, lambda tx: self._post_once(tx, caller, game_id, seat, channel, text))
            except psycopg.errors.UniqueViolation:
                continue  # another message took this seq: number it again
            if self.notifications is not None and isinstance(message, Message):
                self.notifications.message_posted(game_id, message.position)
            if isinstance(message, Message):  # the game's open streams say so at once
                getattr(self.games.notifier, "chatted", lambda _game_id: None)(game_id)
            return message
        raise Conflict("too many messages at once; try again")

    def _post_once(self, tx, caller, game_id, seat, channel, text) -> Message:
        game, folded = self.games.live(tx, game_id)
        seat = self.games.acting_seat(game, caller, seat)
        if game.status not in ("waiting", "active"):
            raise NotNow(f"this game is {game.status}: the table is closed")
        stored_channel = TABLE
        if channel == TEAM:
            team = self._team(game, seat)
            if team is None:
                raise Invalid("this game has no teams", {"channel": ["no team channel in this game"]})
            if folded.state is None or not title_of(game.title).may_confer(folded.state, seat):
                raise NotNow("partners may not confer now (the rules allow it only at certain moments)")
            stored_channel = f"team:{team}"
        row = tx.conn.execute(
            "INSERT INTO messages (game_id, seq, channel_seq, seat, channel, body, at)"
            " SELECT %s, coalesce(max(seq), 0) + 1,"
            " coalesce(max(channel_seq) FILTER (WHERE channel = %s), 0) + 1, %s, %s, %s, %s"
            " FROM messages WHERE game_id = %s RETURNING seq, channel_seq, at",
            # the clock port's time: the fan-out's sweeper compares it with its clock
            (game_id, stored_channel, seat, stored_channel, text, self.games.clock.now(), game_id),
        ).fetchone()
        return Message(row[1], seat, stored_channel, text, format_time(row[2]), row[0])

    def list(self, caller: Player | None, game_id: str, after: int, seat: int | None, limit: int) -> MessagePage:
        """A page of the messages the caller may read, after the first ``after`` of them
        (a page's ``next_after``: how many readable messages came before the next page; a
        game-wide number would tell a team how many messages the other team sent): the
        channels are filtered by the query, so a page is full whatever the other channels
        hold."""
        with self.store.read() as tx:
            game, _ = self.games.live(tx, game_id)
            viewer_of(game, caller, None)  # a private game's messages are its players' only
            readable = self._readable(game, caller, seat)
            rows = tx.conn.execute(
                "SELECT channel_seq, seat, channel, body, at FROM messages WHERE game_id = %s"
                " AND (%s::text[] IS NULL OR channel = ANY(%s::text[])) ORDER BY seq OFFSET %s LIMIT %s",
                (game_id, readable, readable, after, limit + 1),
            ).fetchall()
        messages = [Message(seq, s, ch, body, format_time(at)) for seq, s, ch, body, at in rows[:limit]]
        return MessagePage(messages, after + limit if len(rows) > limit else None)

    def readable_count(self, caller: Player | None, game_id: str) -> int:
        """How many messages the caller may read now (all their channels): a game stream
        compares it after a wake-up that brought no event, and says "message" when it grew
        (a count per reader: no one learns that another team wrote)."""
        with self.store.read() as tx:
            game = tx.game(game_id)
            if game is None:
                return 0
            viewer_of(game, caller, None)
            readable = self._readable(game, caller, None)
            return tx.conn.execute(
                "SELECT count(*) FROM messages WHERE game_id = %s"
                " AND (%s::text[] IS NULL OR channel = ANY(%s::text[]))",
                (game_id, readable, readable),
            ).fetchone()[0]

    def _readable(self, game: Game, caller: Player | None, seat: int | None) -> list[str] | None:
        """The channels the caller may read; None for all of them (the game is over)."""
        if game.status == "finished":
            return None
        readable = [TABLE]
        if caller is not None:
            mine = game.seats_of(caller.id)
            if seat is not None and seat not in mine:
                raise NotYourSeat(f"seat {seat} is not yours")
            for s in [seat] if seat is not None else mine:
                team = self._team(game, s)
                if team is not None and f"team:{team}" not in readable:
                    readable.append(f"team:{team}")
        return readable

    @staticmethod
    def _team(game: Game, seat: int) -> str | None:
        title = title_of(game.title)
        return title.team_of(title.parse_options(game.options, game.seat_count), seat)
