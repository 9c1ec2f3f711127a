"""Games: creation, seats, the single write path, and redacted reads.

Every change to a game's stream goes through ``GameService.execute`` (commands from
people, computer seats and timers) or ``_start`` (the setup events): load the folded
state, decide, append at the expected version, update the read model, commit; then the
side effects (computer moves) follow the commit.
"""

from __future__ import annotations

import logging
import time
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from domain.common.codec import CodecError
from domain.common.computer import computer_command
from domain.common.envelope import decode_command, encode_command, encode_event
from domain.common.search import Budget
from domain.decider import GameDefinition, GameOver, Issued, OptionsError, RuleViolation
from domain.decider import NotYourTurn as DomainNotYourTurn
from domain.rng import Rng, seed_commitment
from service import chain
from service.clock import Clock
from service.entropy import new_id, new_seed
from service.errors import (
    GameNotActive,
    IllegalCommand,
    Invalid,
    InvalidOptions,
    NotFound,
    NotYourSeat,
    NotYourTurn,
    SeatTaken,
    VersionConflict,
)
from service.idempotency import IdempotencyKey, SavedByAnother, replay, save
from service.jobs import JobQueue
from service.notify import Notifier, SilentNotifier
from service.states import Folded, Lru, StateCache, decode, fold_stored
from service.store import Game, NewEvent, Player, Store, StoredEvent, Tx
from service.titles import title as title_of

log = logging.getLogger(__name__)

#: Attempts of a write that lost a race and may be decided again (machines, or people
#: who sent no expected_version).
WRITE_ATTEMPTS = 5


@dataclass(frozen=True)
class SeatRequest:
    player_id: str | None = None
    ai: str | None = None
    open: bool = False


@dataclass(frozen=True)
class GameSnapshot:
    game: Game
    view: dict | None
    viewer_seat: int | None


@dataclass(frozen=True)
class CommandOutcome:
    game_id: str
    version: int
    status: str
    to_act: tuple[int, ...]
    events: list[dict]


@dataclass(frozen=True)
class EventPage:
    events: list[dict]
    next_after: int
    status: str


@dataclass(frozen=True)
class LegalCommands:
    version: int
    seat: int
    commands: list[dict]


@dataclass(frozen=True)
class Computer:
    """The acting party of a computer seat's move."""


COMPUTER = Computer()


@dataclass(frozen=True)
class StandIn:
    """A computer playing a seat that has none, once, at the service's own request (a
    timed-out seat's move for the clocks).  No API route builds one."""


STAND_IN = StandIn()


def public_event(stored: StoredEvent, data: Any) -> dict:
    return {
        "seq": stored.seq,
        "type": stored.type,
        "schema_version": stored.schema_version,
        "at": stored.at,
        "seat": stored.seat,
        "data": data,
    }


class GameService:
    def __init__(self, store: Store, states: StateCache, clock: Clock, jobs: JobQueue,
                 notifier: Notifier | None = None, ai_budget: Budget | None = None):
        self.store = store
        #: how long a "strong" computer seat searches (Settings.ai_seconds / ai_iterations)
        self.ai_budget = ai_budget or Budget(iterations=20_000, seconds=1.0, clock=time.monotonic)
        self.notifier = notifier or SilentNotifier()
        self.states = states
        self.clock = clock
        self.jobs = jobs
        #: games' immutable parts (title, options, seats) once they have started
        self.headers = Lru(4000)

    # creation ------------------------------------------------------------------------
    def create(
        self,
        caller: Player,
        title_id: str,
        raw_options: dict,
        seats: Sequence[SeatRequest],
        seed: str | None = None,
        idem: IdempotencyKey | None = None,
    ):
        title = title_of(title_id)
        if not title.seat_count_allowed(len(seats)):
            raise Invalid(
                f"{title.name} is played by {title.min_players} to {title.max_players} seats",
                {"seats": [f"must have {title.min_players} to {title.max_players} seats"]},
            )
        try:
            title.parse_options(raw_options, len(seats))
        except OptionsError as err:
            raise InvalidOptions(f"these options do not describe a game of {title.name}: {err}", {
                f"options.{k}" if k else "options": v for k, v in err.errors.items()
            }) from None
        for index, seat in enumerate(seats):
            if seat.ai is not None and seat.ai not in title.ai_levels:
                raise Invalid("unknown computer level", {f"seats.{index}.ai": [
                    f"must be one of {', '.join(title.ai_levels)}"]})
        holds_seat = any(s.player_id == caller.id for s in seats)
        if not holds_seat and any(s.open for s in seats):
            raise Invalid(
                "the creator must hold a seat unless every seat is given",
                {"seats": ["must include the caller, or leave no seat open"]},
            )
        seed_source = "client" if seed is not None else "server"
        seed = seed.lower() if seed is not None else new_seed()
        game_id = new_id()

        def work(tx: Tx):
            for index, seat in enumerate(seats):
                if seat.player_id is not None and tx.player(seat.player_id) is None:
                    raise Invalid("no such player", {f"seats.{index}.player_id": ["is not a known player"]})
            tx.insert_game(
                game_id, title.id, title.rules_version, raw_options, len(seats), seed,
                seed_commitment(seed), seed_source, caller.id,
                [(s.player_id, s.ai) for s in seats],
            )
            if any(s.open for s in seats):
                return game_id, None
            return game_id, self._start(tx, title, game_id, raw_options, len(seats), seed)

        return self._seating(caller, idem, work)

    def join(self, caller: Player, game_id: str, index: int, idem: IdempotencyKey | None = None):
        def work(tx: Tx):
            game = self._game(tx, game_id, lock=True)
            if not 0 <= index < game.seat_count:
                raise NotFound(f"this game has no seat {index}")
            if game.status != "waiting":
                raise GameNotActive("this game is not waiting for players")
            if game.seats_of(caller.id):
                raise SeatTaken("you already hold a seat in this game")
            if not tx.take_seat(game_id, index, caller.id):
                raise SeatTaken(f"seat {index} is not open")
            if not all(s.player_id or s.ai or s.index == index for s in game.seats):
                return game_id, None
            title = title_of(game.title)
            return game_id, self._start(tx, title, game_id, game.options, game.seat_count, tx.seed(game_id))

        return self._seating(caller, idem, work)

    def _seating(self, caller: Player, idem: IdempotencyKey | None, work):
        """One unit of work that fills seats (and starts the game when the last one fills):
        ``work(tx)`` returns (game_id, the started state or None); the caller gets the game."""
        try:
            with self.store.tx() as tx:
                replayed = replay(tx, idem)
                if replayed:
                    return replayed
                game_id, started = work(tx)
                snapshot = self._snapshot(tx, game_id, caller, remember=False)
                save(tx, idem, snapshot)
        except SavedByAnother:
            with self.store.tx() as tx:
                return replay(tx, idem)
        self._after_commit(snapshot.game, started)
        return snapshot

    def _start(self, tx: Tx, title: GameDefinition, game_id: str, raw_options: dict, seats: int, seed: str):
        options = title.parse_options(raw_options, seats)
        events = title.start(options, seats, seed)
        _, after = self._append(tx, title, game_id, Folded(None, 0, chain.genesis(game_id)), None, events)
        return after

    # the write path ------------------------------------------------------------------
    def execute(
        self,
        actor: Player | Computer | StandIn,
        game_id: str,
        seat: int | None,
        raw_command: Any,
        expected_version: int | None = None,
        idem: IdempotencyKey | None = None,
    ):
        """Decide and append one command. The only way a running game changes."""
        for attempt in range(WRITE_ATTEMPTS):
            try:
                return self._execute_once(actor, game_id, seat, raw_command, expected_version, idem)
            except VersionConflict:
                # a person who named the version they saw is told; otherwise decide again
                if expected_version is not None or attempt == WRITE_ATTEMPTS - 1:
                    raise
            except SavedByAnother:
                with self.store.tx() as tx:
                    return replay(tx, idem)
        raise AssertionError("unreachable")

    def _execute_once(self, actor, game_id, seat, raw_command, expected_version, idem):
        # Without an Idempotency-Key the unit of work is one read and one atomic write
        # statement, so it needs no transaction; with one, the saved answer must commit
        # together with the events.
        with (self.store.tx() if idem else self.store.read()) as tx:
            replayed = replay(tx, idem)
            if replayed:
                return replayed
            game, folded = self.live(tx, game_id)
            title = title_of(game.title)
            seat = self.acting_seat(game, actor, seat)
            if game.status != "active":
                raise GameNotActive(f"this game is {game.status}")
            if expected_version is not None and expected_version != game.version:
                raise VersionConflict(
                    f"expected version {expected_version}, the game is at {game.version}",
                    game.version,
                )
            try:
                command = decode_command(title, raw_command)
            except CodecError as err:
                raise Invalid("this is not a command of " + title.name, {
                    k if k.startswith("command") else f"command.{k}": v for k, v in err.errors.items()
                }) from None
            issued = Issued(seat, chain.format_time(self.clock.now()), command)
            try:
                events = title.decide(folded.state, issued)
            except DomainNotYourTurn as err:
                raise NotYourTurn(err.message) from None
            except GameOver as err:
                raise GameNotActive(err.message) from None
            except RuleViolation as err:
                raise IllegalCommand(err.message, err.code) from None
            stored, after = self._append(tx, title, game_id, folded, seat, events)
            finished = title.is_finished(after.state)
            outcome = CommandOutcome(
                game_id,
                after.version,
                "finished" if finished else "active",
                () if finished else tuple(title.to_act(after.state)),
                [self._redacted(title, s, e, seat, finished) for s, e in zip(stored, events)],
            )
            save(tx, idem, outcome)
        self._after_commit(replace(game, version=after.version, status=outcome.status, to_act=outcome.to_act), after)
        return outcome

    def _append(self, tx: Tx, title: GameDefinition, game_id: str, folded: Folded, seat, events):
        """Append decided events and the read model they imply; returns (stored, folded after)."""
        new = []
        for event in events:
            type_name, version, data = encode_event(event)
            new.append(NewEvent(type_name, version, getattr(event, "seat", seat), data))
        state = title.fold(events, folded.state)
        finished = title.is_finished(state)
        stored = tx.append(
            game_id, folded.version, folded.last_hash, self.clock.now(), new,
            "finished" if finished else "active",
            () if finished else title.to_act(state),
            _result_json(title.result(state) if finished else None),
        )
        return stored, Folded(state, stored[-1].seq, stored[-1].hash)

    def live(self, tx: Tx, game_id: str) -> tuple[Game, Folded]:
        """The game and its folded state; one round trip once the process has seen the game.

        What never changes once a game has started (title, options, seats) is cached; the
        version, status, to_act and the events not yet folded are read together.
        """
        header = self.headers.get(game_id)
        if header is None:
            game = self._game(tx, game_id)
            if game.status != "waiting":
                self.headers.put(game_id, game)
            return game, self.states.load(tx, title_of(game.title), game_id, game.version)
        title = title_of(header.title)
        cached = self.states.get(game_id) or Folded(None, 0, chain.genesis(game_id))
        head = tx.head(game_id, cached.version)
        if head is None:
            raise NotFound(f"no game {game_id}")
        version, status, to_act, tail = head
        if cached.version > version:  # never in practice: only a cache ahead of the database
            cached, tail = Folded(None, 0, chain.genesis(game_id)), tx.events(game_id, upto=version)
        folded = fold_stored(title, tail, cached)
        if tail:
            self.states.put(game_id, folded)
        return replace(header, version=version, status=status, to_act=to_act), folded

    def acting_seat(self, game: Game, actor, seat: int | None) -> int:
        if isinstance(actor, StandIn) and seat is not None and 0 <= seat < game.seat_count:
            return seat
        if isinstance(actor, Computer):
            if seat is None or not (0 <= seat < game.seat_count) or game.seats[seat].ai is None:
                raise NotYourSeat("that seat is not a computer seat")
            return seat
        mine = game.seats_of(actor.id)
        if seat is None:
            if len(mine) == 1:
                return mine[0]
            if not mine:
                raise NotYourSeat("you hold no seat in this game")
            raise Invalid("you hold several seats: say which", {"seat": ["is required"]})
        if not 0 <= seat < game.seat_count:
            raise Invalid("no such seat", {"seat": [f"must be between 0 and {game.seat_count - 1}"]})
        if seat not in mine:
            raise NotYourSeat(f"seat {seat} is not yours")
        return seat

    def _after_commit(self, game: Game, folded: Folded | None = None) -> None:
        """Side effects of a committed append: cache the state, wake computer seats."""
        if folded is not None:
            self.states.put(game.id, folded)
            self.notifier.appended(game.id, folded.version)
        if game.status != "active":
            return
        for seat in game.to_act:
            if game.seats[seat].ai is not None:
                self.jobs.enqueue_computer_move(game.id, game.version, seat)

    # computer seats ------------------------------------------------------------------
    def play_computer(self, game_id: str, version: int, seat: int, level: str | None = None) -> str:
        """Play a computer seat's move if the game still waits for it at ``version``.

        ``level`` lets a computer play a seat that has none (a timed-out or resigned
        player's, for the clocks); by default the seat's own level.  The computer sees
        only what the seat may know (domain/common/computer.py)."""
        with self.store.read() as tx:
            try:
                game, folded = self.live(tx, game_id)
            except NotFound:
                return "stale"
            if game.status != "active" or game.version != version:
                return "stale"
            level = level or game.seats[seat].ai
            if seat not in game.to_act or level is None:
                return "stale"
            title = title_of(game.title)
        command = computer_command(title, folded.state, seat, Rng(new_seed()), level, self.ai_budget)
        actor = COMPUTER if game.seats[seat].ai is not None else STAND_IN
        try:
            self.execute(actor, game_id, seat, encode_command(command), expected_version=version)
        except VersionConflict:
            return "stale"
        return "played"

    def sweep(self, older_than_seconds: float) -> int:
        """Re-queue computer moves that a crash or a flushed Redis lost."""
        with self.store.read() as tx:
            waiting = tx.games_waiting_on_computer(older_than_seconds)
        for game_id, version, seat, _level in waiting:
            self.jobs.enqueue_computer_move(game_id, version, seat)
        return len(waiting)

    # reads ---------------------------------------------------------------------------
    def get(self, game_id: str, caller: Player | None, seat: int | None = None) -> GameSnapshot:
        with self.store.read() as tx:
            return self._snapshot(tx, game_id, caller, seat)

    def list(self, player_id, status, title_id, limit, before) -> list[Game]:
        with self.store.read() as tx:
            return tx.list_games(player_id, status, title_id, limit, before)

    def legal_commands(self, game_id: str, caller: Player | None, seat: int | None) -> LegalCommands:
        if caller is None:
            raise NotYourSeat("legal commands are told only to the seat's holder")
        with self.store.read() as tx:
            game, folded = self.live(tx, game_id)
            seat = self.acting_seat(game, caller, seat)
            if game.status != "active":
                return LegalCommands(game.version, seat, [])
            title = title_of(game.title)
        commands = [encode_command(c) for c in title.legal_commands(folded.state, seat)]
        return LegalCommands(game.version, seat, commands)

    def events(self, game_id: str, caller: Player | None, after: int, limit: int, seat=None) -> EventPage:
        with self.store.read() as tx:
            game = self._game(tx, game_id)
            viewer = self._viewer(game, caller, seat)
            stored = tx.events(game_id, after=after, limit=limit)
        title = title_of(game.title)
        finished = game.status == "finished"
        events = [self._redacted(title, s, decode(title, s), viewer, finished) for s in stored]
        return EventPage(events, stored[-1].seq if stored else after, game.status)

    def state_at(self, game_id: str, caller: Player | None, at: int | None, seat=None) -> tuple[int, dict]:
        with self.store.read() as tx:
            game = self._game(tx, game_id)
            viewer = self._viewer(game, caller, seat)
            title = title_of(game.title)
            if at is None or at == game.version:
                folded = self.states.load(tx, title, game_id, game.version)
            else:
                if not 1 <= at <= game.version:
                    raise NotFound(f"this game has no version {at} (it is at {game.version})")
                start = Folded(None, 0, chain.genesis(game_id))
                folded = fold_stored(title, tx.events(game_id, after=0, limit=at), start)
        if folded.state is None:
            raise NotFound("this game has not started")
        return folded.version, title.view(folded.state, viewer)

    def export(self, game_id: str) -> dict:
        """The audit record: every event with its hash, and the seed once the game is over."""
        with self.store.read() as tx:
            game = self._game(tx, game_id)
            stored = tx.events(game_id)
            seed = tx.seed(game_id) if game.status == "finished" else None
        title = title_of(game.title)
        complete = game.status == "finished"
        events = []
        for s in stored:
            data = s.data if complete else title.redact_event(decode(title, s), None)
            events.append({**public_event(s, data), "prev_hash": s.prev_hash, "hash": s.hash})
        return {
            "game_id": game.id,
            "title": game.title,
            "rules_version": game.rules_version,
            "options": game.options,
            "seats": [{"index": s.index, "player_id": s.player_id, "name": s.name, "ai": s.ai} for s in game.seats],
            "status": game.status,
            "complete": complete,
            "chain": chain.CHAIN,
            "rng": "entrepot-rng-v1",
            "genesis": chain.genesis(game.id),
            "seed_commitment": game.seed_commitment,
            "seed_source": game.seed_source,
            "seed": seed,
            "chain_verified": chain.verify(game.id, [{**s.record(), "prev_hash": s.prev_hash, "hash": s.hash} for s in stored]) is None,
            "events": events,
            "result": game.result,
        }

    # helpers ---------------------------------------------------------------------------
    def _game(self, tx: Tx, game_id: str, lock: bool = False) -> Game:
        game = tx.game(game_id, lock=lock) if _is_uuid(game_id) else None
        if game is None:
            raise NotFound(f"no game {game_id}")
        return game

    def _viewer(self, game: Game, caller: Player | None, seat: int | None) -> int | None:
        mine = game.seats_of(caller.id) if caller else []
        if seat is not None:
            if seat not in mine:
                raise NotYourSeat(f"seat {seat} is not yours")
            return seat
        return mine[0] if mine else None

    def _snapshot(
        self, tx: Tx, game_id: str, caller: Player | None, seat: int | None = None, remember: bool = True
    ) -> GameSnapshot:
        game = self._game(tx, game_id)
        viewer = self._viewer(game, caller, seat)
        if game.version == 0:
            return GameSnapshot(game, None, viewer)
        title = title_of(game.title)
        folded = self.states.load(tx, title, game_id, game.version, remember)
        return GameSnapshot(game, title.view(folded.state, viewer), viewer)

    @staticmethod
    def _redacted(title: GameDefinition, stored: StoredEvent, event: Any, viewer, finished: bool) -> dict:
        data = stored.data if finished else title.redact_event(event, viewer)
        return public_event(stored, data)


def _result_json(result) -> dict | None:
    if result is None:
        return None
    return {"scores": list(result.scores), "winners": list(result.winners), "detail": dict(result.detail)}


def _is_uuid(value: str) -> bool:
    try:
        uuid.UUID(value)
    except (ValueError, TypeError, AttributeError):
        return False
    return True

