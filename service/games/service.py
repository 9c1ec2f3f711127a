"""Games: creation, seats, the single write path, and redacted reads.

Every change to a game's stream goes through ``GameService.execute`` (commands from
people, computer seats and timers) or ``_start`` (the setup events): load the folded
state, decide, append at the expected version, update the read model, commit; then the
side effects (computer moves) follow the commit.
"""

from __future__ import annotations

import logging
import secrets
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from domain.common.codec import CodecError
from domain.common.computer import computer_command
from domain.common.envelope import decode_command, encode_command, encode_event
from domain.common.search import Budget
from domain.common.table import TABLE_COMMANDS, StandIn, table_command_json
from domain.decider import GameDefinition, GameOver, Issued, OptionsError, RuleViolation
from domain.decider import NotYourTurn as DomainNotYourTurn
from domain.rng import Rng, seed_commitment
from service.audit import chain
from service.audit.signing import Signer
from service.clock import Clock
from service.correspondence.records import mark_started, open_table, save_time_control
from service.correspondence.time_control import parse_time_control, with_banks_now
from service.entropy import new_id, new_seed
from service.errors import (
    GameNotActive,
    IllegalCommand,
    Invalid,
    InvalidOptions,
    NotFound,
    NotInvited,
    NotYourSeat,
    NotYourTurn,
    SeatTaken,
    ServiceError,
    Unavailable,
    VersionConflict,
)
from service.games.checkpoints import Checkpoints
from service.games.idempotency import IdempotencyKey, once
from service.games.moves import describe, describe_all
from service.games.states import Folded, Lru, StateCache, decode, fold_stored
from service.games.store import (
    Game,
    NewCommand,
    NewEvent,
    Notices,
    Player,
    Store,
    StoredEvent,
    TableRow,
    Tx,
)
from service.games.titles import title as title_of
from service.job_queue import RATE_GAME, JobQueue
from service.mail.job_names import MAIL_STOOD_IN
from service.notifications.pubsub import Notifier, SilentNotifier
from service.observability import metrics
from verifier.record import event_json, result_json

log = logging.getLogger(__name__)

#: Attempts of a write that lost a race and may be decided again (machines, or people
#: who sent no expected_version).
WRITE_ATTEMPTS = 5


class _CacheBehind(Exception):
    """A command decided on this process's cached state was refused: decide it again on
    the game as read (GameService.execute)."""


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
    #: the seed, once the game is finished (public from then on)
    seed: str | None = None


@dataclass(frozen=True)
class CommandOutcome:
    game_id: str
    version: int
    status: str
    to_act: tuple[int, ...]
    events: list[dict]
    #: the server's signature over (game, version, chain hash); None on a v1 chain, whose
    #: hashes may not be shown before the end
    receipt: dict | None = None


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
    #: each command in words, from the seat's view (service/games/moves.py)
    descriptions: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Computer:
    """The acting party of a computer seat's move."""


COMPUTER = Computer()


@dataclass(frozen=True)
class Timer:
    """The acting party of the table's own commands: clocks, reminders, vacations (the
    audit record names it as the sender ``{"kind": "clock"}``)."""

    kind = "clock"


TIMER = Timer()


def public_event(stored: StoredEvent, data: Any) -> dict:
    return event_json(stored.seq, stored.type, stored.schema_version, stored.seat, stored.at, data)


class GameService:
    def __init__(self, store: Store, states: StateCache, clock: Clock, jobs: JobQueue,
                 notifier: Notifier | None = None, signer: Signer | None = None,
                 ai_budget: Budget | None = None, notifications: Notifier | None = None,
                 seat_rule: Callable[[Tx, Game, str], None] | None = None):
        self.store = store
        #: who may take an open seat beyond its being open: the lobby's rating range
        #: (service/lobby/service.py ``check_rating_range``, given by the composition root)
        self.seat_rule = seat_rule or (lambda tx, game, player_id: None)
        #: queues the fan-out of players' notifications after each commit (service/notifications/service.py)
        self.notifications = notifications or SilentNotifier()
        #: how long a "strong" computer seat searches (Settings.ai_seconds / ai_iterations)
        self.ai_budget = ai_budget or Budget(iterations=20_000, seconds=1.0, clock=time.monotonic)
        self.notifier = notifier or SilentNotifier()
        self.states = states
        self.clock = clock
        self.jobs = jobs
        self.signer = signer
        #: games' immutable parts (title, options, seats) once they have started
        self.headers = Lru(4000)
        #: games' chain keys ("" for a v1 chain); a key never changes once set
        self.chain_keys = Lru(4000)
        #: folded states at every INTERVAL versions, a cache for the state at any version
        self.checkpoints = Checkpoints(
            store, signer.derived_key("state-checkpoints") if signer else secrets.token_bytes(32))

    # creation ------------------------------------------------------------------------
    def create(
        self,
        caller: Player,
        title_id: str,
        raw_options: dict,
        seats: Sequence[SeatRequest],
        seed: str | None = None,
        idem: IdempotencyKey | None = None,
        time_control: dict | None = None,
        listing=None,
    ):
        """``listing``: rated, private and the seek's rating range (service/lobby/service.py)."""
        title = title_of(title_id)
        control = parse_time_control(time_control, self.clock.now()) if time_control is not None else None
        if not title.seat_count_allowed(len(seats)):
            raise Invalid(
                f"{title.name} is played by {title.min_players} to {title.max_players} seats",
                {"seats": [f"must have {title.min_players} to {title.max_players} seats"]},
            )
        try:
            options = title.parse_options(raw_options, len(seats))
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
                game_id, title.id, title.rules_version_for(options), raw_options, len(seats), seed,
                seed_commitment(seed), seed_source, caller.id,
                [(s.player_id, s.ai) for s in seats], self.clock.now(),
            )
            save_time_control(tx, game_id, control)
            if listing is not None:
                listing.save(tx, game_id, self.clock.now())
            tx.keep_chain_key(game_id, new_seed())  # 32 random bytes, like a seed
            return game_id, self._start_if_ready(tx, game_id)

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
            self.seat_rule(tx, game, caller.id)
            if not tx.take_seat(game_id, index, caller.id):
                if game.seats[index].declined:
                    raise SeatTaken(f"seat {index} was offered to a player who declined: it is closed")
                raise SeatTaken(f"seat {index} is not open")
            return game_id, self._start_if_ready(tx, game_id)

        return self._seating(caller, idem, work)

    def accept(self, caller: Player, game_id: str, index: int, idem: IdempotencyKey | None = None):
        """The invited player takes the seat; the game starts if it was the last one wanted.
        Accepting a seat already accepted changes nothing."""
        def work(tx: Tx):
            game = self._invitees_game(tx, caller, game_id, index)
            if game.seats[index].status == "invited":
                tx.accept_seat(game_id, index, caller.id)
            return game_id, self._start_if_ready(tx, game_id)

        return self._seating(caller, idem, work)

    def decline(self, caller: Player, game_id: str, index: int, idem: IdempotencyKey | None = None):
        """The invited player refuses the seat: it is closed (a private game does not
        become open to anyone), the game waits until it is cancelled."""
        def work(tx: Tx):
            game = self._invitees_game(tx, caller, game_id, index)
            if not tx.open_invited_seat(game_id, index, caller.id, self.clock.now()):
                raise NotInvited(f"seat {index} is yours already: leave the game by resigning")
            return game.id, None

        return self._seating(caller, idem, work)

    def cancel_waiting(self, caller: Player, game_id: str, idem: IdempotencyKey | None = None):
        """Cancel a game that has not started (status ``aborted``, no events): for its
        creator or a player seated in it, e.g. once an invitation was declined."""
        def work(tx: Tx) -> CommandOutcome:
            game = self._game(tx, game_id, lock=True)
            if game.status != "waiting":
                raise GameNotActive(f"this game is {game.status}, not waiting")
            seated = any(s.player_id == caller.id and s.status == "seated" for s in game.seats)
            if caller.id != game.created_by and not seated:
                raise NotYourSeat("only the game's creator or a seated player may cancel it")
            tx.conn.execute("UPDATE games SET status = 'aborted', updated_at = %s"
                            " WHERE id = %s AND status = 'waiting'", (self.clock.now(), game_id))
            return CommandOutcome(game_id, game.version, "aborted", (), [], None)

        return once(self.store, idem, work)

    def lapse_invitations(self, older_than_seconds: float) -> int:
        """Invitations not answered in time lapse: the seat is closed, as if declined.

        ``older_than_seconds`` is the one setting (7 days by default); a game with a clock
        should lapse them after its per-move time instead (the hook: pass the game's own
        duration here once games have time controls)."""
        with self.store.read() as tx:
            pending = tx.invitations_older_than(older_than_seconds, self.clock.now())
        lapsed = 0
        for game_id, index, player_id in pending:
            with self.store.tx() as tx:
                game = self._game(tx, game_id, lock=True)
                if game.status == "waiting" and tx.open_invited_seat(game_id, index, player_id, self.clock.now()):
                    lapsed += 1
        return lapsed

    def _invitees_game(self, tx: Tx, caller: Player, game_id: str, index: int) -> Game:
        game = self._game(tx, game_id, lock=True)
        if not 0 <= index < game.seat_count:
            raise NotFound(f"this game has no seat {index}")
        if game.seats[index].player_id != caller.id:
            raise NotYourSeat(f"seat {index} is not offered to you")
        if game.status != "waiting":
            if game.seats[index].status == "seated":
                return game
            raise GameNotActive("this game is not waiting for players")
        return game

    def _start_if_ready(self, tx: Tx, game_id: str):
        """Start the game (its setup events) once every seat is filled and accepted; runs
        under the game's row lock (or in the transaction that creates it), so exactly once."""
        game = self._game(tx, game_id)
        if game.status != "waiting" or not game.ready():
            return None
        title = title_of(game.title)
        return self._start(tx, title, game_id, game.options, game.seat_count, tx.seed(game_id))

    def _seating(self, caller: Player, idem: IdempotencyKey | None, work):
        """One unit of work that fills seats (and starts the game when the last one fills):
        ``work(tx)`` returns (game_id, the started state or None); the caller gets the game."""
        started = None

        def seat(tx: Tx) -> GameSnapshot:
            nonlocal started
            game_id, started = work(tx)
            return self._snapshot(tx, game_id, caller, remember=False)

        snapshot = once(self.store, idem, seat)
        if isinstance(snapshot, GameSnapshot):
            self._after_commit(snapshot.game, started)
            getattr(self.notifier, "lobby_changed", lambda: None)()  # a seek came, filled or went
        return snapshot

    def _start(self, tx: Tx, title: GameDefinition, game_id: str, raw_options: dict, seats: int, seed: str):
        options = title.parse_options(raw_options, seats)
        events = title.start(options, seats, seed)
        now = self.clock.now()
        opening = open_table(tx, game_id, now)
        events += title.decide(title.fold(events), Issued(None, chain.format_time(now), opening))
        # the table's opening is the setup's command: the audit record re-derives it too
        setup = NewCommand(None, {"kind": "server"}, chain.format_time(now), table_command_json(opening))
        _, after, _, _, _ = self._append(tx, title, game_id, Folded(None, 0, chain.genesis(game_id)), None, events,
                                         setup)
        mark_started(tx, game_id, after.version)
        return after

    # the write path ------------------------------------------------------------------
    def execute(
        self,
        actor: Player | Computer,
        game_id: str,
        seat: int | None,
        raw_command: Any,
        expected_version: int | None = None,
        idem: IdempotencyKey | None = None,
    ):
        """Decide and append one command. The only way a running game changes."""
        if expected_version is not None:
            try:
                # the version the caller names is the one this process last saw: decide on
                # it without reading the game (the append's primary key still refuses a
                # stale one); on a conflict, read it and answer with its real version
                return self._execute_once(actor, game_id, seat, raw_command, expected_version, idem, True,
                                          from_cache=True)
            except _CacheBehind:
                pass
        for attempt in range(WRITE_ATTEMPTS):
            # a lost race that will be decided again is no answer to keep under the key
            final = expected_version is not None or attempt == WRITE_ATTEMPTS - 1
            try:
                return self._execute_once(actor, game_id, seat, raw_command, expected_version, idem, final)
            except VersionConflict:
                # a person who named the version they saw is told; otherwise decide again
                if expected_version is not None or attempt == WRITE_ATTEMPTS - 1:
                    raise
        raise AssertionError("unreachable")

    def _execute_once(self, actor, game_id, seat, raw_command, expected_version, idem, final=True,
                      from_cache=False):
        # Without an Idempotency-Key the unit of work is one read and one atomic write
        # statement, so it needs no transaction; with one, the saved answer must commit
        # together with the events. ``from_cache``: decide on this process's state at
        # ``expected_version`` if it has it (no read at all); _CacheBehind for any refusal
        # then (nothing written, nothing kept under the key: the caller reads and decides
        # again).
        committed = None
        cached = None

        def work(tx: Tx) -> CommandOutcome:
            nonlocal committed, seat, cached
            cached = self.seen(game_id, expected_version) if from_cache else None
            game, folded = cached or self.live(tx, game_id)
            if game.status != "active":  # first: a waiting game has no state to ask (was a 500)
                raise GameNotActive(f"this game is {game.status}")
            title = title_of(game.title)
            seat = self.acting_seat(game, actor, seat, title.played_by_computer(folded.state))
            if expected_version is not None and expected_version != game.version:
                raise VersionConflict(
                    f"expected version {expected_version}, the game is at {game.version}",
                    game.version,
                )
            try:
                command = raw_command if isinstance(raw_command, TABLE_COMMANDS) else decode_command(title, raw_command)
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
            sent = table_command_json(command) if isinstance(command, TABLE_COMMANDS) else raw_command
            received = NewCommand(seat, sender_of(actor, game, seat), issued.at, sent)
            stored, after, status, to_act, notices = self._append(tx, title, game_id, folded, seat, events,
                                                                  received, game)
            outcome = CommandOutcome(
                game_id,
                after.version,
                status,
                to_act,
                [self._redacted(title, s, e, seat, status != "active") for s, e in zip(stored, events)],
                self._receipt(game, stored[-1]),
            )
            committed = (replace(game, version=after.version, status=outcome.status, to_act=outcome.to_act), after,
                         notices)
            return outcome

        try:
            outcome = once(self.store, idem, work, transaction_without_key=False,
                           keep_error=lambda err: cached is None and (final or not isinstance(err, VersionConflict)))
        except ServiceError as err:
            # a refusal on the cached state is answered as on a read one: the game may
            # have moved on, and then the version conflict is the answer, not the rules'.
            # An outage is no refusal: trying again at once would only wait for it twice
            if cached is not None and not isinstance(err, Unavailable):
                raise _CacheBehind() from None
            raise
        if committed is not None:
            self._after_commit(*committed)
        return outcome

    def _append(self, tx: Tx, title: GameDefinition, game_id: str, folded: Folded, seat, events,
                command: NewCommand | None = None, told: Game | None = None):
        """Append decided events, the command they answer and the read model they imply
        (and the notifications of ``told``'s players, if up to date: ``Notices``); returns
        (stored, folded after, its status, the seats to act, the notices or None)."""
        new = []
        for event in events:
            type_name, version, data = encode_event(event)
            new.append(NewEvent(type_name, version, getattr(event, "seat", seat), data))
        state = title.fold(events, folded.state)
        status = title.status(state)
        clocks = title.running_clocks(state)
        to_act = tuple(title.to_act(state)) if status == "active" else ()
        chain_key, chain_name = self._chain_key(tx, game_id)
        notices = None
        if told is not None and command is not None:
            notices = self.notifications.command_notices(title, told, folded.state, state, command.sender)
        stored = tx.append(
            game_id, folded.version, folded.last_hash, self.clock.now(), new,
            status,
            to_act,
            result_json(title.result(state) if status in ("finished", "aborted") else None),
            chain_key,
            command,
            TableRow(clocks[0].deadline if clocks else None, title.next_timer(state), title.table_json(state)),
            chain_name=chain_name,
            notices=notices,
        )
        return stored, Folded(state, stored[-1].seq, stored[-1].hash), status, to_act, notices

    def _receipt(self, game: Game, last: StoredEvent) -> dict | None:
        if self.signer is None or game.chain == chain.CHAIN_V1:
            return None
        return self.signer.receipt(game.id, last.seq, last.hash)

    def _chain_key(self, tx: Tx, game_id: str) -> tuple[str | None, str]:
        """The game's chain key (None on a v1 chain) and chain, cached: they never change
        once set."""
        cached = self.chain_keys.get(game_id)
        if cached is None:
            cached = (tx.secrets(game_id)[1] or "", tx.chain_name(game_id))
            self.chain_keys.put(game_id, cached)
        return cached[0] or None, cached[1]

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
        version, status, to_act, tail, cached_hash = head
        if cached.version > version or (cached.version and cached_hash != cached.last_hash):
            # only after the database went back (a failover that lost a commit, a restore):
            # the cache is ahead of it, or folded events it no longer holds
            cached, tail = Folded(None, 0, chain.genesis(game_id)), tx.events(game_id, upto=version)
        folded = fold_stored(title, tail, cached)
        if tail:
            self.states.put(game_id, folded)
        return replace(header, version=version, status=status, to_act=to_act), folded

    def warm(self, game_ids: Sequence[str]) -> None:
        """Bring games this process has not seen into its caches in three round trips (a
        batch of timers is about to act on them), rather than three per game."""
        cold = [game_id for game_id in game_ids if self.headers.get(game_id) is None]
        if not cold:
            return
        with self.store.read() as tx:
            games = [g for g in tx.games(cold) if g.status != "waiting"]
            for game in games:
                self.headers.put(game.id, game)
            tails = tx.events_upto({g.id: g.version for g in games if self.states.get(g.id) is None})
            keys = tx.chain_keys([g.id for g in games if self.chain_keys.get(g.id) is None])
        titles = {g.id: title_of(g.title) for g in games}
        for game_id, tail in tails.items():
            if tail:
                self.states.put(game_id, fold_stored(titles[game_id], tail, Folded(None, 0, chain.genesis(game_id))))
        chains = {g.id: g.chain for g in games}
        for game_id, key in keys.items():
            self.chain_keys.put(game_id, (key or "", chains[game_id]))

    def seen(self, game_id: str, version: int) -> tuple[Game, Folded] | None:
        """The game as this process last saw it, if that was at ``version``: no round trip.
        Only for a caller that then acts with ``expected_version=version``, which checks
        that the game is still there."""
        header, folded = self.headers.get(game_id), self.states.get(game_id)
        if header is None or folded is None or folded.version != version:
            return None
        title = title_of(header.title)
        status = title.status(folded.state)
        to_act = tuple(title.to_act(folded.state)) if status == "active" else ()
        return replace(header, version=version, status=status, to_act=to_act), folded

    def acting_seat(self, game: Game, actor, seat: int | None, stand_ins: frozenset[int] = frozenset()) -> int:
        if isinstance(actor, Timer):
            if seat is None or not 0 <= seat < game.seat_count:
                raise NotYourSeat("the table acts on a seat of the game")
            return seat
        if isinstance(actor, Computer):
            if seat is None or not (0 <= seat < game.seat_count) or (
                    game.seats[seat].ai is None and seat not in stand_ins):
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

    def _after_commit(self, game: Game, folded: Folded | None = None, notices: Notices | None = None) -> None:
        """Side effects of a committed append: cache the state, wake streams, tell the
        players what the append wrote for them (or queue the notifications' fan-out), queue
        the table's timer and computer seats."""
        stand_ins: frozenset[int] = frozenset()
        if folded is not None:
            self.states.put(game.id, folded)
            self.notifier.appended(game.id, folded.version)
            if notices is not None and notices.written is not None:
                self.notifications.told(notices)
            else:
                self.notifications.appended(game.id, folded.version)
            title = title_of(game.title)
            stand_ins = title.played_by_computer(folded.state)
            timer_at = title.next_timer(folded.state)
            if timer_at is not None:
                self.jobs.schedule_timer(game.id, folded.version, timer_at)
        if game.status == "finished":  # the ratings' projection (service/lobby/ratings.py)
            self.jobs.enqueue_job(RATE_GAME, (game.id,), f"ratings-{game.id}")
        if game.status != "active":
            return
        for seat in game.to_act:
            if game.seats[seat].ai is not None or seat in stand_ins:
                self.jobs.enqueue_computer_move(game.id, game.version, seat)

    # computer seats ------------------------------------------------------------------
    def play_computer(self, game_id: str, version: int, seat: int) -> str:
        """Play a computer seat's move (or a stand-in's for a seat that is out) if the
        game still waits for it at ``version``.  The computer sees only what the seat may
        know (domain/common/computer.py)."""
        with self.store.read() as tx:
            try:
                game, folded = self.live(tx, game_id)
            except NotFound:
                return "stale"
            if game.status != "active" or game.version != version:
                return "stale"
            title = title_of(game.title)
            stand_in = seat in title.played_by_computer(folded.state)
            if seat not in game.to_act or (game.seats[seat].ai is None and not stand_in):
                return "stale"
        # the title's own game inside the table: the computer searches the rules, not the
        # correspondence timers, and sees only what the seat may know
        level = game.seats[seat].ai or title.stand_in_level(folded.state)
        with metrics.COMPUTER_MOVE_SECONDS.labels(game.title, str(level)).time():
            command = computer_command(title.inner, folded.state.game, seat, Rng(new_seed()), level,
                                       self.ai_budget)
        raw = StandIn(seat, command) if stand_in else encode_command(command)
        try:
            outcome = self.execute(COMPUTER, game_id, seat, raw, expected_version=version)
        except VersionConflict:
            return "stale"
        if stand_in and seat not in folded.state.out:  # a timed-out move: its player is told what it was
            words = describe(game.title, title.view_for_words(folded.state, seat), encode_command(command))
            self.jobs.enqueue_job(MAIL_STOOD_IN, (game_id, seat, outcome.version, words, seat in outcome.to_act),
                                  f"mail-stood-in-{game_id}-{version}-{seat}")
        return "played"

    def sweep(self, older_than_seconds: float) -> int:
        """Re-queue computer moves that a crash or a flushed Redis lost."""
        with self.store.read() as tx:
            waiting = tx.games_waiting_on_computer(older_than_seconds, self.clock.now())
        for game_id, version, seat, _level in waiting:
            self.jobs.enqueue_computer_move(game_id, version, seat)
        return len(waiting)

    # reads ---------------------------------------------------------------------------
    def get(self, game_id: str, caller: Player | None, seat: int | None = None) -> GameSnapshot:
        with self.store.read() as tx:
            return self._snapshot(tx, game_id, caller, seat)

    def list(self, caller: Player | None, player_id, status, title_id, limit, before) -> list[Game]:
        """Public games (with an open seat, or finished) and the caller's own."""
        with self.store.read() as tx:
            games = tx.list_games(caller.id if caller else None, player_id, status, title_id, limit, before)
        now = self.clock.now()
        return [with_banks_now(g, now) for g in games]

    def legal_commands(self, game_id: str, caller: Player | None, seat: int | None) -> LegalCommands:
        if caller is None:
            raise NotYourSeat("legal commands are told only to the seat's holder")
        with self.store.read() as tx:
            game, folded = self.live(tx, game_id)
        return self._legal(game, folded, self.acting_seat(game, caller, seat))

    def legal_commands_after(self, outcome: CommandOutcome, caller: Player, seat: int | None) -> LegalCommands:
        """What the seat that sent a command may send next, at the version its answer names:
        from this process's state, which the command has just left there (no round trip),
        else read as ``legal_commands`` does (another command moved that state on meanwhile,
        or it was evicted: the version is then the one read)."""
        found = self.seen(outcome.game_id, outcome.version)
        if found is None:
            return self.legal_commands(outcome.game_id, caller, seat)
        game, folded = found
        return self._legal(game, folded, self.acting_seat(game, caller, seat))

    @staticmethod
    def _legal(game: Game, folded: Folded, seat: int) -> LegalCommands:
        if game.status != "active":
            return LegalCommands(game.version, seat, [])
        title = title_of(game.title)
        commands = [encode_command(c) for c in title.legal_commands(folded.state, seat)]
        view = title.view_for_words(folded.state, seat) if commands else None
        return LegalCommands(game.version, seat, commands, describe_all(game.title, view, commands))

    def events(self, game_id: str, caller: Player | None, after: int, limit: int, seat=None) -> EventPage:
        with self.store.read() as tx:
            game = self._game(tx, game_id)
            viewer = self._viewer(game, caller, seat)
            stored = tx.events(game_id, after=after, limit=limit)
        return event_page(game, stored, viewer, after)

    def state_at(self, game_id: str, caller: Player | None, at: int | None, seat=None) -> tuple[int, dict]:
        with self.store.read() as tx:
            game = self._game(tx, game_id)
            viewer = self._viewer(game, caller, seat)
            title = title_of(game.title)
            passed: list[Folded] = []
            if at is None or at == game.version:
                folded = self.states.load(tx, title, game_id, game.version)
            else:
                if not 1 <= at <= game.version:
                    raise NotFound(f"this game has no version {at} (it is at {game.version})")
                folded, passed = self.checkpoints.fold_to(tx, title, game_id, at)
        self.checkpoints.save(game_id, passed)  # after the read: its connection is back in the pool
        if folded.state is None:
            raise NotFound("this game has not started")
        return folded.version, title.view(folded.state, viewer)

    def game_row(self, tx: Tx, game_id: str) -> Game:
        """The game's read model row; NotFound for an unknown or malformed id."""
        return self._game(tx, game_id)

    # helpers ---------------------------------------------------------------------------
    def _game(self, tx: Tx, game_id: str, lock: bool = False) -> Game:
        game = tx.game(game_id, lock=lock) if is_game_id(game_id) else None
        if game is None:
            raise NotFound(f"no game {game_id}")
        return game

    def _viewer(self, game: Game, caller: Player | None, seat: int | None) -> int | None:
        return viewer_of(game, caller, seat)

    def _snapshot(
        self, tx: Tx, game_id: str, caller: Player | None, seat: int | None = None, remember: bool = True
    ) -> GameSnapshot:
        game = with_banks_now(self._game(tx, game_id), self.clock.now())
        viewer = self._viewer(game, caller, seat)
        if game.version == 0:
            return GameSnapshot(game, None, viewer)
        title = title_of(game.title)
        folded = self.states.load(tx, title, game_id, game.version, remember)
        seed = tx.seed(game_id) if game.status == "finished" else None
        return GameSnapshot(game, title.view(folded.state, viewer), viewer, seed)

    @staticmethod
    def _redacted(title: GameDefinition, stored: StoredEvent, event: Any, viewer, finished: bool) -> dict:
        data = stored.data if finished else title.redact_event(event, viewer)
        return public_event(stored, data)


def sender_of(actor, game: Game, seat: int | None) -> dict:
    """Who sent a command, as the audit record shows it: a player, a computer seat (with
    its level), or a machine of the server that names its ``kind`` (the clock)."""
    if isinstance(actor, Player):
        return {"kind": "player", "player_id": actor.id}
    if isinstance(actor, Computer):
        return {"kind": "computer", "level": game.seats[seat].ai}
    return {"kind": getattr(actor, "kind", "server")}


def viewer_of(game: Game, caller: Player | None, seat: int | None) -> int | None:
    """The seat whose eyes the caller reads with: ``seat`` if it is theirs, else their
    first seat, else None (a spectator)."""
    mine = game.seats_of(caller.id) if caller else []
    if game.private and not mine:  # a private game is its players' only (service/lobby/service.py)
        raise NotFound(f"no game {game.id}")
    if seat is not None:
        if seat not in mine:
            raise NotYourSeat(f"seat {seat} is not yours")
        return seat
    return mine[0] if mine else None


def event_page(game: Game, stored: list[StoredEvent], viewer: int | None, after: int) -> EventPage:
    """Stored events as ``viewer`` may see them (all of them once the game is finished)."""
    title = title_of(game.title)
    finished = game.status == "finished"  # an aborted game keeps its secrets
    events = [GameService._redacted(title, s, decode(title, s), viewer, finished) for s in stored]
    return EventPage(events, stored[-1].seq if stored else after, game.status)


def is_game_id(value: str) -> bool:
    """Whether the text is a UUID (games are named by one; so are webhooks and deliveries)."""
    try:
        uuid.UUID(value)
    except (ValueError, TypeError, AttributeError):
        return False
    return True

