"""Notifications: what each player is told about their games, worked out after a commit.

A command's append writes its own notifications when the game's are up to date
(``command_notices``, service/games/store.py ``Notices``); every other commit that
appends events queues a fan-out (``fanout-<game>-<version>``); a posted message queues
one for the game's messages. The job takes the game's row in
``game_fanouts`` (so one fan-out per game runs at a time, in order), reads what the
versions since the last fan-out mean, and inserts ``notifications`` rows with ON CONFLICT
DO NOTHING: a job that runs twice, late or for a version already covered adds nothing.
In the same transaction it writes the webhook deliveries of the new rows (an outbox);
after the commit it wakes the players' streams, queues the deliveries and the mail jobs.
The sweeper re-queues the fan-out of any game left behind, and the mail jobs a crash lost.

What a notification says (``data``) is public to its player: the title, the seats'
names, whose turn it is, a deadline, a result, a table message they may read. Never a
hand, a face-down choice or anything else only another seat may see.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from redis import Redis

from domain.common.table import ReminderSent
from service.audit import chain
from service.clock import Clock, SystemClock
from service.games.service import is_game_id
from service.games.states import Folded, Lru, fold_stored
from service.games.store import Game, Notices, Store, StoredEvent, Tx
from service.games.titles import title as title_of
from service.job_queue import MAIL_NOTIFICATION, MESSAGE_FANOUT, JobQueue
from service.notifications.pubsub import player_channel
from service.redis_wire import Wire
from verifier.record import result_json

log = logging.getLogger(__name__)

TYPES = ("your_turn", "reminder", "finished", "message")
ENDED = ("finished", "aborted")
#: games (and messages, mails) the sweeper re-queues at most per sweep
SWEEP_BATCH = 500


def left_behind(column: str, now: datetime, patience: float, limit: int = SWEEP_BATCH,
                given_up_after: timedelta | None = timedelta(days=1)) -> tuple[str, dict]:
    """The sweepers' condition on ``column`` (a row's time, by the clock port): older than
    the patience (its job had its chance), newer than ``given_up_after`` if given (older
    ones were given up on); with its named parameters, ``limit`` among them."""
    window = {"behind": now - timedelta(seconds=patience), "limit": limit}
    if given_up_after is None:
        return f"{column} < %(behind)s", window
    return f"{column} < %(behind)s AND {column} > %(since)s", {**window, "since": now - given_up_after}


def message_fanout_job_id(game_id: str, seq: int) -> str:
    return f"fanout-message-{game_id}-{seq}"


def mail_job_id(notification_id: int) -> str:
    return f"mail-{notification_id}"


@dataclass(frozen=True)
class Notice:
    """A notification to insert."""

    player_id: str
    seat: int | None
    type: str
    version: int
    ref: str
    data: dict
    at: str


@dataclass(frozen=True)
class Created:
    """A notification the fan-out inserted (not one that existed already)."""

    id: int
    player_id: str
    type: str
    #: its player has an address: its mail job is queued after the commit
    mail: bool


def notification_body(row: dict) -> dict:
    """What a webhook delivery and the player's stream carry for one notification."""
    at = row["at"]
    return {"type": row["type"], "game_id": str(row["game_id"]), "seat": row["seat"],
            "version": row["version"], "at": chain.format_time(at) if isinstance(at, datetime) else at,
            "data": row["data"]}


class NotificationService:
    def __init__(self, store: Store, jobs: JobQueue, redis: Redis, webhooks, patience_seconds: float = 5.0,
                 clock: Clock | None = None, wire: Wire | None = None):
        self.store = store
        #: the clock port: when a notification was written, and the sweeper's patience
        self.clock = clock or SystemClock()
        self.jobs = jobs
        #: the players' streams' wake-up calls, one a fan-out that told them something
        self.wire = wire or Wire(redis)
        #: service/notifications/webhooks.py's WebhookService: writes and queues the deliveries
        self.webhooks = webhooks
        self.patience = patience_seconds
        #: folded states at the last version fanned out, per game (an optimisation only)
        self._folded = Lru(2000)

    # queued after commits ------------------------------------------------------------
    def appended(self, game_id: str, version: int) -> None:
        self.jobs.queue_fanout(game_id, version)

    def command_notices(self, title, game: Game, before: Any, after: Any, sender: dict) -> Notices:
        """The notifications of one command's events, for its append to write in the same
        statement (service/games/store.py ``Notices``): what the fan-out job would work out
        for them, without the job, its reads and its transaction. The job still covers an
        append whose game's notifications were behind."""
        actor = sender.get("player_id") if sender.get("kind") == "player" else None

        def rows(stored: list[StoredEvent]) -> list[dict] | None:
            try:
                return _rows(self._version_notices(title, game, before, after, stored, actor))
            except Exception:  # the job tries again, and logs it if it fails too
                log.exception("the notifications of %s could not be worked out with its append", game.id)
                return None

        return Notices(rows)

    def told(self, notices: Notices) -> None:
        """After the commit of an append that wrote its notifications: wake the players'
        streams, queue the webhook deliveries and the mail jobs."""
        self._after_commit(*_created(notices.written or [], notices.deliveries))

    def message_posted(self, game_id: str, seq: int) -> None:
        self.jobs.enqueue_job(MESSAGE_FANOUT, (game_id, seq), message_fanout_job_id(game_id, seq))

    # the fan-out jobs ----------------------------------------------------------------
    def fan_out_game(self, game_id: str, version: int | None = None) -> int:
        """Notify what the game's versions up to now mean (``version``, when known, is the
        one that queued the fan-out; later ones are covered too). Returns how many rows
        were new."""
        if not is_game_id(game_id):
            return 0
        with self.store.tx() as tx:
            progress = self._lock_progress(tx, game_id)
            game = tx.game(game_id) if progress is not None else None
            if game is None or game.version <= progress[0]:
                return 0
            notified = progress[0]
            notices = self._readable(lambda: self._game_notices(tx, game, notified), game_id)
            told = self._record(tx, game_id, "notified_version", game.version, notices)
        self._after_commit(*told)
        return len(told[0])

    def fan_out_messages(self, game_id: str, seq: int) -> int:
        """Notify the game's messages not notified yet (``seq`` queued the job)."""
        if not is_game_id(game_id):
            return 0
        with self.store.tx() as tx:
            progress = self._lock_progress(tx, game_id)
            game = tx.game(game_id) if progress is not None else None
            if game is None:
                return 0
            notified = progress[1]
            rows = tx.conn.execute(
                "SELECT m.seq, m.seat, m.channel, m.body, m.at,"
                " (SELECT coalesce(max(e.seq), 0) FROM events e WHERE e.game_id = m.game_id AND e.at <= m.at),"
                " m.channel_seq"
                " FROM messages m WHERE m.game_id = %s AND m.seq > %s ORDER BY m.seq",
                (game_id, notified),
            ).fetchall()
            if not rows:
                return 0
            notices = self._readable(lambda: [n for row in rows for n in self._message_notices(game, *row)],
                                     game_id)
            told = self._record(tx, game_id, "notified_message_seq", rows[-1][0], notices)
        self._after_commit(*told)
        return len(told[0])

    def _record(self, tx: Tx, game_id: str, progress: str, upto: int,
                notices: list[Notice]) -> tuple[list[Created], list[tuple[str, int]], list[int]]:
        """A fan-out's writes, in one round trip: the game's ``progress`` column moved on to
        ``upto``, the notices and their webhook deliveries; what ``_after_commit`` tells once
        the transaction has committed."""
        with tx.conn.pipeline():
            tx.conn.execute(f"UPDATE game_fanouts SET {progress} = greatest({progress}, %s) WHERE game_id = %s",
                            (upto, game_id))
            written, deliveries = tx.notify(game_id, _rows(notices), self.clock.now()) if notices else ([], [])
        return _created(written, deliveries)

    @staticmethod
    def _readable(work, game_id: str) -> list[Notice]:
        """What ``work`` notices; nothing (logged) for a stream the rules cannot read: a
        fan-out that fails every time would be queued again by every sweep for ever."""
        try:
            return work()
        except Exception:
            log.exception("the notifications of %s could not be worked out: none sent", game_id)
            return []

    # the sweeper ---------------------------------------------------------------------
    def sweep(self, budget_seconds: float = 2.0) -> tuple[int, int]:
        """Fan out, here and now, the games (and messages) left behind for longer than the
        patience, and re-queue the mail jobs a crash between commit and enqueue lost.
        Done in the sweeper rather than queued: a lost fan-out is rare, and a burst of them
        (after an outage) must not push the queue's other short jobs back. Bounded by
        ``budget_seconds``; the next sweep goes on. Returns (games or messages fanned out,
        mail jobs queued)."""
        now = self.clock.now()
        with self.store.read() as tx:
            when, window = left_behind("g.updated_at", now, self.patience)
            games = tx.conn.execute(
                "SELECT g.id::text, g.version FROM games g LEFT JOIN game_fanouts f ON f.game_id = g.id"
                f" WHERE g.version > coalesce(f.notified_version, 0) AND {when} LIMIT %(limit)s", window,
            ).fetchall()
            when, window = left_behind("m.at", now, self.patience)
            messages = tx.conn.execute(
                "SELECT m.game_id::text, max(m.seq) FROM messages m LEFT JOIN game_fanouts f ON f.game_id = m.game_id"
                f" WHERE m.seq > coalesce(f.notified_message_seq, 0) AND {when} GROUP BY m.game_id LIMIT %(limit)s",
                window,
            ).fetchall()
            when, window = left_behind("created_at", now, self.patience)
            mails = [row[0] for row in tx.conn.execute(
                f"SELECT id FROM notifications WHERE mail_handled_at IS NULL AND {when} ORDER BY id LIMIT %(limit)s",
                window,
            )]
        until = time.monotonic() + budget_seconds
        healed = 0
        for fan_out, rows in ((self.fan_out_game, games), (self.fan_out_messages, messages)):
            for game_id, upto in rows:
                if time.monotonic() > until:
                    break
                try:
                    fan_out(game_id, upto)
                    healed += 1
                except Exception:  # the database may be restarting: the next sweep tries again
                    log.exception("sweeper could not fan out %s", game_id)
        self._queue_mail(mails)
        return healed, len(mails)

    # what versions mean --------------------------------------------------------------
    def _lock_progress(self, tx: Tx, game_id: str) -> tuple[int, int] | None:
        """The game's fan-out progress (versions, messages notified), locked until the
        commit; None for a game that does not exist. The row is made at the game's
        first fan-out: one statement from then on."""
        lock = "SELECT notified_version, notified_message_seq FROM game_fanouts WHERE game_id = %s FOR UPDATE"
        progress = tx.conn.execute(lock, (game_id,)).fetchone()
        if progress is None:
            tx.conn.execute("INSERT INTO game_fanouts (game_id) SELECT id FROM games WHERE id = %s"
                            " ON CONFLICT DO NOTHING", (game_id,))
            progress = tx.conn.execute(lock, (game_id,)).fetchone()
        return progress

    def _game_notices(self, tx: Tx, game: Game, notified: int) -> list[Notice]:
        title = title_of(game.title)
        folded = self._state_at(tx, title, game.id, notified)
        with tx.conn.pipeline():  # the commands and the events: one round trip
            sent = tx.conn.execute(
                "SELECT version, last_seq, sender FROM commands WHERE game_id = %s AND last_seq > %s"
                " AND last_seq <= %s ORDER BY last_seq",
                (game.id, notified, game.version),
            )
            stored = tx.events(game.id, after=notified, upto=game.version)
            commands = sent.fetchall()
        ranges = [(version, last, sender) for version, last, sender in commands]
        if not ranges or ranges[0][0] != notified:  # events without their command (older games)
            ranges = [(notified, game.version, {})]
        notices: list[Notice] = []
        for start, last, sender in ranges:
            events = [e for e in stored if start < e.seq <= last]
            if not events:
                continue
            after = fold_stored(title, events, folded)
            notices += self._version_notices(title, game, folded.state, after.state, events,
                                             sender.get("player_id") if sender.get("kind") == "player" else None)
            folded = after
        if folded.version == game.version:
            self._folded.put(game.id, folded)
        return notices

    def _state_at(self, tx: Tx, title, game_id: str, version: int) -> Folded:
        cached = self._folded.get(game_id)
        if cached is None or cached.version > version:
            cached = Folded(None, 0, chain.genesis(game_id))
        if cached.version < version:
            cached = fold_stored(title, tx.events(game_id, after=cached.version, upto=version), cached)
        return cached

    def _version_notices(self, title, game: Game, before: Any, after: Any, events: list[StoredEvent],
                         actor: str | None) -> list[Notice]:
        version, at = events[-1].seq, events[-1].at
        status_before = title.status(before) if before is not None else "waiting"
        status = title.status(after)
        common = {"title": game.title, "status": status,
                  "seats": [{"index": s.index, "name": s.name, "ai": s.ai} for s in game.seats]}
        notices = []
        if status == "active":
            to_act = list(title.to_act(after))
            waiting_before = set(title.to_act(before)) if status_before == "active" else set()
            stand_ins = title.played_by_computer(after)
            deadlines = {c.seat: chain.format_time(c.deadline) for c in title.running_clocks(after)}
            for seat in to_act:
                player = game.seats[seat].player_id
                if seat in waiting_before or seat in stand_ins or player is None or player == actor:
                    continue
                notices.append(Notice(player, seat, "your_turn", version, "", {
                    **common, "to_act": to_act, "deadline": deadlines.get(seat)}, at))
        for event in events:
            if event.type == ReminderSent.TYPE:
                seat = event.data["seat"]
                player = game.seats[seat].player_id
                if player is not None:
                    notices.append(Notice(player, seat, "reminder", version, str(event.seq), {
                        **common, "deadline": event.data["deadline"], "fraction": event.data["fraction"]}, at))
        if status in ENDED and status_before not in ENDED:
            result = result_json(title.result(after)) if status == "finished" else None
            told: set[str] = set()
            for seat in game.seats:
                if seat.player_id is not None and seat.player_id not in told:
                    told.add(seat.player_id)
                    notices.append(Notice(seat.player_id, seat.index, "finished", version, "", {
                        **common, "result": result}, at))
        return notices

    def _message_notices(self, game: Game, seq: int, seat: int, channel: str, text: str, at: datetime,
                         version: int, channel_seq: int) -> list[Notice]:
        """``seq``: the game-wide order (the notification's ref); readers are shown
        ``channel_seq``, the number in their channel only."""
        title = title_of(game.title)
        readers = [s for s in game.seats if s.player_id is not None and s.status == "seated"]
        if channel != "table":  # a team's channel: its members only
            options = title.parse_options(game.options, game.seat_count)
            team = channel.split(":", 1)[1]
            readers = [s for s in readers if title.team_of(options, s.index) == team]
        sender = game.seats[seat].player_id
        data = {"title": game.title, "status": game.status,
                "seats": [{"index": s.index, "name": s.name, "ai": s.ai} for s in game.seats],
                "message": {"seq": channel_seq, "seat": seat, "channel": channel, "text": text,
                            "at": chain.format_time(at)},
                "from": game.seats[seat].name}
        notices, told = [], {sender}
        for reader in readers:
            if reader.player_id not in told:
                told.add(reader.player_id)
                notices.append(Notice(reader.player_id, reader.index, "message", version, str(seq), data,
                                      chain.format_time(at)))
        return notices

    # writing and telling -------------------------------------------------------------
    def _after_commit(self, created: list[Created], deliveries: list[tuple[str, int]], mail: list[int]) -> None:
        for player_id in dict.fromkeys(c.player_id for c in created):
            try:
                self.wire.send("PUBLISH", player_channel(player_id), "1")
            except Exception:  # a lost wake-up: the stream's resync finds the row
                log.warning("could not wake the stream of %s", player_id)
        self.webhooks.queue_deliveries(deliveries)
        self._queue_mail(mail)

    def _queue_mail(self, ids: list[int]) -> None:
        queued = [i for i in ids if self.jobs.enqueue_job(MAIL_NOTIFICATION, (i,), mail_job_id(i))]
        if queued:
            with self.store.read() as tx:
                tx.conn.execute("UPDATE notifications SET mail_handled_at = %s WHERE id = ANY(%s)",
                                (self.clock.now(), queued))


def _rows(notices: list[Notice]) -> list[dict]:
    """Notices as the store writes them (service/games/store.py ``_notifying``), in order."""
    return [{"i": i, "player_id": n.player_id, "seat": n.seat, "type": n.type, "version": n.version,
             "ref": n.ref, "data": n.data, "at": n.at} for i, n in enumerate(notices)]


def _created(written: list[tuple], deliveries: list[str]) -> tuple[list[Created], list[tuple[str, int]], list[int]]:
    """What the store wrote, as ``_after_commit`` tells it: the new notifications, their
    deliveries' first attempts, the notifications whose mail job is to be queued."""
    created = [Created(*row) for row in written]
    return created, [(d, 1) for d in deliveries], [c.id for c in created if c.mail]
