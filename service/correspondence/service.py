"""Correspondence play in the service: timers, resignation, abort, vacation, "my turn".

Everything that changes a game goes through ``GameService.execute`` (the one write path,
optimistic concurrency) with a table command of domain/common/table.py; the timers act as
``TIMER``, people as themselves. The timers are run by the workers' timer loop on
PostgreSQL (``run_due_timers``: each game's ``timer_at``, claimed with SKIP LOCKED) and
re-check their premise (game id, version); the sweeper finds in PostgreSQL whatever a lost
job left undone.
"""

from __future__ import annotations

import logging
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta

from domain.common.table import BeginVacation, EndVacation, RequestAbort, Resign
from service.audit import chain
from service.clock import Clock
from service.correspondence.records import (
    anyone_moved,
    claim_due_timers,
    drop_idle_timer_claims,
    due_timers,
    next_timer,
    offer_due_timers,
    release_timer_claims,
    stand_ins_waiting,
    vacations_to_apply,
)
from service.correspondence.time_control import with_banks_now
from service.correspondence.timer_trace import trace
from service.entropy import new_id
from service.errors import (
    GameNotActive,
    IllegalCommand,
    Invalid,
    NotFound,
    VacationAllowanceExceeded,
    VersionConflict,
)
from service.games.idempotency import IdempotencyKey
from service.games.service import TIMER, GameService
from service.games.store import Game, Player, Store
from service.games.titles import title as title_of
from service.job_queue import JobQueue
from service.observability import metrics

log = logging.getLogger(__name__)

ROLLING_YEAR = timedelta(days=365)
#: a timer run later than this after its time is logged (the timer loop runs them within a second)
LATE_TIMER_SECONDS = 2.0


@dataclass(frozen=True)
class Vacation:
    id: str
    starts_at: datetime
    ends_at: datetime


@dataclass(frozen=True)
class VacationStatus:
    current: Vacation | None
    used_days: float  # in the rolling year ending at the current vacation's end (or now)
    allowance_days: float


class ClockService:
    def __init__(self, store: Store, games: GameService, clock: Clock, jobs: JobQueue,
                 vacation_days_per_year: float = 30.0, timer_grace_seconds: float = 2.0):
        self.store = store
        self.games = games
        self.clock = clock
        self.jobs = jobs
        self.allowance = timedelta(days=vacation_days_per_year)
        self.grace = timer_grace_seconds

    # timers ----------------------------------------------------------------------------
    def run_timer(self, game_id: str, version: int) -> str:
        """Do what the game's table has due now, if the game is still at ``version``."""
        seen = self.games.seen(game_id, version)  # execute re-checks the version below
        if seen is None:
            with self.store.read() as tx:
                try:
                    seen = self.games.live(tx, game_id)
                except NotFound:
                    return "stale"
        game, folded = seen
        if game.status != "active" or game.version != version:
            return "stale"
        title = title_of(game.title)
        now = self.clock.now()
        command = title.due(folded.state, now, game.seat_count)
        if command is not None:
            due_at = title.next_timer(folded.state)
            if due_at is not None:
                late = max(0.0, (now - due_at).total_seconds())
                metrics.TIMER_LATENESS.observe(late)
                if late > LATE_TIMER_SECONDS:  # the operator's clue: timers should run within a second
                    log.warning("timer of %s at v%s (%s) runs %.1f s late", game_id, version,
                                type(command).__name__, late)
        if command is None:
            later = title.next_timer(folded.state)
            if later is not None and later > now:  # woken early (another worker's clock)
                self.jobs.schedule_timer(game_id, version, later, again=True)
                return "early"
            return "nothing"
        # a "computer" timeout records the timeout only: the commit queues the seat's move
        # on the computers' queue (GameService.play_computer), so no timer waits behind a search
        try:
            self.games.execute(TIMER, game_id, command.seat, command, expected_version=version)
        except (VersionConflict, IllegalCommand, GameNotActive):
            return "stale"  # the game moved on meanwhile; that commit scheduled what is next
        return type(command).__name__

    def run_due_timers(self, limit: int = 50) -> dict[str, int]:
        """One turn of the workers' timer loop (workers/__main__.py): run the timer of up to
        ``limit`` games due by the clock port's time, earliest first; returns how many
        games had each outcome.

        Each due game gets a claim row (service/correspondence/records.py), locked with FOR UPDATE
        SKIP LOCKED in a transaction held open while its timers run, so two workers never
        run one game's timer at once and none waits for another. A worker that dies
        mid-turn loses its connection and with it its locks: the next turn of any worker
        takes those timers again. A timer run twice (a claim taken after another worker's
        run, on the version it read before) is refused by the write path's expected
        version and does nothing."""
        now = self.clock.now()
        with self.store.tx() as tx:
            offer_due_timers(tx, now, limit * 4)
        outcomes: dict[str, int] = {}
        with self.store.tx() as claim:
            games = claim_due_timers(claim, now, limit)
            if not games:
                return outcomes
            self.games.warm([game_id for game_id, _ in games])
            for game_id, version in games:
                try:
                    outcome = self.run_timer(game_id, version)
                except Exception:  # one game's failure keeps none of the others waiting
                    log.exception("timer of %s at v%s failed", game_id, version)
                    outcome = "failed"
                trace("timer", game=game_id, version=version, outcome=outcome)
                outcomes[outcome] = outcomes.get(outcome, 0) + 1
            # a timer that failed (or found nothing due yet) is still due: the next turn offers it again
            release_timer_claims(claim, [game_id for game_id, _ in games])
        return outcomes

    def seconds_to_next_timer(self) -> float | None:
        """How long, by the clock port, until the earliest timer still to come (the timer
        loop sleeps that long unless woken); None when no active game has one."""
        now = self.clock.now()
        with self.store.read() as tx:
            at = next_timer(tx, now)
        return None if at is None else max(0.0, (at - now).total_seconds())

    def sweep(self) -> tuple[int, int, int]:
        """Heal what lost jobs left undone: seats out waiting for their stand-in, vacations
        not yet started in a game; and run the timers overdue by more than the grace (the
        timer loop's work, should no loop run). Returns the counts of timers run and of
        jobs re-queued."""
        now = self.clock.now()
        with self.store.read() as tx:
            overdue = len(due_timers(tx, now, self.grace, limit=1))
            stand_ins = stand_ins_waiting(tx)
            vacations = {v for _, _, v, _ in vacations_to_apply(tx, now)}
        with self.store.tx() as tx:
            drop_idle_timer_claims(tx)
        requeued = sum(self.run_due_timers().values()) if overdue else 0
        for game_id, version, seat in stand_ins:
            self.jobs.enqueue_computer_move(game_id, version, seat)
        for vacation_id in vacations:
            self.jobs.schedule_vacation(vacation_id, now)
        return requeued, len(stand_ins), len(vacations)

    # resign and abort --------------------------------------------------------------------
    def resign(self, caller: Player, game_id: str, seat: int | None, idem: IdempotencyKey | None = None):
        game = self._game(game_id)
        seat = self.games.acting_seat(game, caller, seat)
        return self.games.execute(caller, game_id, seat, Resign(seat, game.seat_count), idem=idem)

    def abort(self, caller: Player, game_id: str, seat: int | None, idem: IdempotencyKey | None = None):
        game = self._game(game_id)
        if game.status == "waiting":  # not started: cancelled by its creator or a seated player
            return self.games.cancel_waiting(caller, game_id, idem)
        seat = self.games.acting_seat(game, caller, seat)
        humans = tuple(s.index for s in game.seats if s.player_id is not None)
        for attempt in range(3):
            # "has anyone moved" holds for the version it was read at: decided at that one
            with self.store.read() as tx:
                version = tx.game(game_id).version
                moved = anyone_moved(tx, game_id)
            try:
                return self.games.execute(caller, game_id, seat, RequestAbort(seat, humans, moved),
                                          expected_version=version, idem=idem)
            except VersionConflict:
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    def _game(self, game_id: str) -> Game:
        with self.store.read() as tx:
            game = tx.game(game_id) if _is_uuid(game_id) else None
        if game is None:
            raise NotFound(f"no game {game_id}")
        return game  # its status is checked by the write path, after any idempotent replay

    # "my turn" -------------------------------------------------------------------------
    def to_act(self, player: Player, limit: int) -> list[Game]:
        with self.store.read() as tx:
            games = tx.games_to_act(player.id, limit)
        now = self.clock.now()
        return [with_banks_now(g, now) for g in games]

    # vacation ----------------------------------------------------------------------------
    def vacation(self, player: Player) -> VacationStatus:
        now = self.clock.now()
        with self.store.read() as tx:
            current = self._current(tx, player.id, now)
            used = self._used(tx, player.id, current.ends_at if current else now, None)
        return VacationStatus(current, used / timedelta(days=1), self.allowance / timedelta(days=1))

    def start_vacation(self, player: Player, starts: datetime | None, until: datetime) -> VacationStatus:
        """Declare a vacation (replacing any current or planned one): every clock of the
        player pauses from ``starts`` (now if absent or past) to ``until``."""
        now = self.clock.now()
        starts = max(starts or now, now)
        if until <= starts:
            raise Invalid("a vacation ends after it starts", {"until": ["must be after from (and after now)"]})
        with self.store.tx() as tx:
            tx.conn.execute("SELECT 1 FROM players WHERE id = %s FOR UPDATE", (player.id,))
            replaced = self._current(tx, player.id, now)
            used = self._used(tx, player.id, until, replaced)
            if used + (until - starts) > self.allowance:
                left = max(self.allowance - used, timedelta(0)) / timedelta(days=1)
                raise VacationAllowanceExceeded(
                    f"this vacation would exceed the allowance of {self.allowance / timedelta(days=1):g} days"
                    f" per rolling year ({left:.2f} days left in the year ending {chain.format_time(until)})",
                    {"until": [f"at most {left:.2f} days of vacation are left"]},
                )
            if replaced is not None:
                self._cut(tx, replaced.id, now)
            vacation_id = new_id()
            tx.conn.execute(
                "INSERT INTO vacations (id, player_id, starts_at, ends_at) VALUES (%s, %s, %s, %s)",
                (vacation_id, player.id, starts, until),
            )
        if replaced is not None:
            self._apply_end(player.id, replaced.id)
        if starts <= now:
            self.apply_vacation(vacation_id)
        else:
            self.jobs.schedule_vacation(vacation_id, starts)
        return self.vacation(player)

    def end_vacation(self, player: Player) -> VacationStatus:
        now = self.clock.now()
        with self.store.tx() as tx:
            current = self._current(tx, player.id, now)
            if current is None:
                raise NotFound("you have no current or planned vacation")
            self._cut(tx, current.id, now)
        self._apply_end(player.id, current.id)
        return self.vacation(player)

    def apply_vacation(self, vacation_id: str) -> int:
        """Start a vacation in every active game of its player (a job at its start; the
        sweeper re-runs it for games it missed)."""
        now = self.clock.now()
        with self.store.read() as tx:
            games = [(g, s, until) for g, s, v, until in vacations_to_apply(tx, now) if v == vacation_id]
        for game_id, seat, until in games:
            self._table_command(game_id, seat, BeginVacation(seat, vacation_id, until))
        return len(games)

    def _apply_end(self, player_id: str, vacation_id: str) -> None:
        now = chain.format_time(self.clock.now())
        with self.store.read() as tx:
            rows = tx.conn.execute(
                "SELECT g.id::text, s.index FROM games g JOIN seats s ON s.game_id = g.id"
                " WHERE s.player_id = %s AND g.status = 'active'"
                " AND (g.table_state -> 'away') @> jsonb_build_array(jsonb_build_object('seat', s.index, 'vacation', %s::text))",
                (player_id, vacation_id),
            ).fetchall()
        for game_id, seat in rows:
            self._table_command(game_id, seat, EndVacation(seat, vacation_id, now))

    def _table_command(self, game_id: str, seat: int, command) -> None:
        try:
            self.games.execute(TIMER, game_id, seat, command)
        except (IllegalCommand, GameNotActive):
            pass  # already done by another process, or the game ended meanwhile

    def _current(self, tx, player_id: str, now: datetime) -> Vacation | None:
        row = tx.conn.execute(
            "SELECT id::text, starts_at, ends_at FROM vacations WHERE player_id = %s AND ends_at > %s"
            " AND ends_at > starts_at ORDER BY starts_at LIMIT 1",
            (player_id, now),
        ).fetchone()
        return Vacation(*row) if row else None

    def _used(self, tx, player_id: str, year_end: datetime, replaced: Vacation | None) -> timedelta:
        """Vacation taken or planned in the rolling year that ends at ``year_end`` (the part
        of a replaced vacation that has not started yet does not count)."""
        year_start = year_end - ROLLING_YEAR
        now = self.clock.now()
        total = timedelta(0)
        rows = tx.conn.execute(
            "SELECT id::text, starts_at, ends_at FROM vacations WHERE player_id = %s AND ends_at > %s",
            (player_id, year_start),
        ).fetchall()
        for vacation_id, starts, ends in rows:
            if replaced is not None and vacation_id == replaced.id:
                ends = max(min(ends, now), starts)
            total += max(min(ends, year_end) - max(starts, year_start), timedelta(0))
        return total

    def _cut(self, tx, vacation_id: str, now: datetime) -> None:
        """End a vacation now (a planned one shrinks to nothing)."""
        tx.conn.execute(
            "UPDATE vacations SET ends_at = greatest(starts_at, least(ends_at, %s)) WHERE id = %s",
            (now, vacation_id),
        )


def _is_uuid(value: str) -> bool:
    try:
        uuid.UUID(value)
    except (ValueError, TypeError, AttributeError):
        return False
    return True
