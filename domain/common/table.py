"""The table around a title: clocks, resignations, aborts and vacations of correspondence play.

A ``TableGame`` wraps a title's ``GameDefinition`` and is itself one, so the single write
path folds, decides and redacts a game's whole stream without knowing which events are
the title's and which are the table's. The table's events (``ClockStarted``,
``ReminderSent``, ``TimedOut``, ``Resigned``, ``Aborted``, ``VacationStarted``, ...) are
facts of the stream beside the title's; the title never sees them and never sees a clock:
it knows at most, through ``domain.common.absent``, that a seat is out.

Everything here is pure: the time arrives on the command (``Issued.at``), and what only
the service knows (which seats are people, who is on vacation, whether anyone has moved)
arrives in the table's commands.
"""

from __future__ import annotations

import typing
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from datetime import datetime, timedelta
from typing import Any, ClassVar

from domain.common.absent import rank_out_last, won_by_default
from domain.common.codec import CodecError, from_data, to_data
from domain.common.envelope import decode_command, encode_command
from domain.common.times import format_time as _text
from domain.common.times import parse_time as _time
from domain.decider import GameDefinition, GameOver, Issued, NotYourTurn, Result, RuleViolation
from domain.rng import Rng

#: The stand-in's level when the game chose none (no time control, or an older stream).
STAND_IN_LEVEL = "normal"
#: How many title events back a takeback may reach (one move is a few events).
RECENT = 24


# events ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class TimeControlSet:
    TYPE: ClassVar[str] = "TimeControlSet"
    per_move: str
    per_move_seconds: float
    on_timeout: str
    reminders: tuple[float, ...]
    clocked_seats: tuple[int, ...]  # the seats people hold: computers need no clock
    #: the computer level that plays a timed-out move and the seats that are out (streams
    #: recorded before it was chosen read "normal")
    level: str = "normal"
    #: after this many consecutive timeouts under "computer" the seat's next timeout puts
    #: it out (a forfeit); None (streams recorded before the limit existed): no limit
    max_stand_ins: int | None = None
    #: a time bank instead of a time per move (per_move is then ""): the seconds each seat
    #: starts with, gains after each of its moves, and may hold at most
    bank_seconds: float | None = None
    increment_seconds: float = 0.0
    max_bank_seconds: float | None = None


@dataclass(frozen=True)
class ClockStarted:
    TYPE: ClassVar[str] = "ClockStarted"
    seat: int
    started_at: str
    deadline: str
    paused: bool  # started while the seat's player is away: runs when they are back


@dataclass(frozen=True)
class ReminderSent:
    TYPE: ClassVar[str] = "ReminderSent"
    seat: int
    fraction: float
    deadline: str


@dataclass(frozen=True)
class TimedOut:
    TYPE: ClassVar[str] = "TimedOut"
    seat: int
    deadline: str
    on_timeout: str  # "computer": the server makes this one move; "forfeit": the seat is out
    by: str = "server"


@dataclass(frozen=True)
class Resigned:
    TYPE: ClassVar[str] = "Resigned"
    seat: int


@dataclass(frozen=True)
class SeatOut:
    """The seat left the game (resigned or forfeited); the computer plays it from now on
    and it ranks after every seat still in."""

    TYPE: ClassVar[str] = "SeatOut"
    seat: int
    reason: str  # "resigned" | "timeout"


@dataclass(frozen=True)
class WonByDefault:
    """At most one seat is still in: the game ends, that seat wins."""

    TYPE: ClassVar[str] = "WonByDefault"
    winners: tuple[int, ...]
    out: tuple[int, ...]


@dataclass(frozen=True)
class AbortRequested:
    TYPE: ClassVar[str] = "AbortRequested"
    seat: int


@dataclass(frozen=True)
class Aborted:
    TYPE: ClassVar[str] = "Aborted"
    reason: str  # "before_first_move" | "all_agreed"
    requested_by: tuple[int, ...]


@dataclass(frozen=True)
class VacationStarted:
    TYPE: ClassVar[str] = "VacationStarted"
    seat: int
    vacation: str
    started_at: str
    until: str


@dataclass(frozen=True)
class VacationEnded:
    TYPE: ClassVar[str] = "VacationEnded"
    seat: int
    vacation: str
    ended_at: str


@dataclass(frozen=True)
class BankCharged:
    """A seat on a time bank moved: its bank is what was left of its clock, plus the
    increment, capped at the largest bank."""

    TYPE: ClassVar[str] = "BankCharged"
    seat: int
    used_seconds: float
    bank_seconds: float


@dataclass(frozen=True)
class TakebackRequested:
    """The seat asks to take back its last move (of ``events`` title events)."""

    TYPE: ClassVar[str] = "TakebackRequested"
    seat: int
    events: int


@dataclass(frozen=True)
class TakebackAccepted:
    TYPE: ClassVar[str] = "TakebackAccepted"
    seat: int


@dataclass(frozen=True)
class TakebackDeclined:
    TYPE: ClassVar[str] = "TakebackDeclined"
    seat: int


@dataclass(frozen=True)
class MoveTakenBack:
    """The compensating event of a takeback: the game is again as it was before the last
    ``events`` title events (they stay in the history; the fold undoes them)."""

    TYPE: ClassVar[str] = "MoveTakenBack"
    seat: int
    events: int


TABLE_EVENTS: tuple[type, ...] = (
    TimeControlSet, ClockStarted, ReminderSent, TimedOut, Resigned, SeatOut, WonByDefault,
    AbortRequested, Aborted, VacationStarted, VacationEnded, BankCharged,
    TakebackRequested, TakebackAccepted, TakebackDeclined, MoveTakenBack,
)
TABLE_EVENT_NAMES = frozenset(cls.TYPE for cls in TABLE_EVENTS)


# commands (issued by the service only: never decoded from a request body) ---------------
@dataclass(frozen=True)
class OpenTable:
    control: Mapping[str, Any] | None  # TimeControl.to_json(), or None for no clock
    clocked_seats: tuple[int, ...]
    away: tuple[tuple[int, str, str], ...]  # (seat, vacation id, until) of players away now


@dataclass(frozen=True)
class Remind:
    seat: int


@dataclass(frozen=True)
class TimeOut:
    seat: int
    seat_count: int
    #: the computer's move for the seat when on_timeout is "computer", made with the
    #: timeout (as recorded before the move had a job of its own); without it the seat
    #: waits for its stand-in's move (StandIn)
    move: Any = None


@dataclass(frozen=True)
class Resign:
    seat: int
    seat_count: int


@dataclass(frozen=True)
class StandIn:
    """The computer's move for a seat that is out, or for a seat's timed-out move."""

    seat: int
    move: Any


@dataclass(frozen=True)
class RequestAbort:
    seat: int
    humans: tuple[int, ...]
    moved: bool


@dataclass(frozen=True)
class BeginVacation:
    seat: int
    vacation: str
    until: str


@dataclass(frozen=True)
class EndVacation:
    seat: int
    vacation: str
    ended_at: str


@dataclass(frozen=True)
class RequestTakeback:
    """Take back ``move``, the seat's last move (sent at ``at``, ``events`` title events),
    once every other person's seat still in agrees (``humans``: the seats people hold)."""

    seat: int
    events: int
    at: str
    humans: tuple[int, ...]
    move: Any = None


@dataclass(frozen=True)
class AnswerTakeback:
    seat: int
    accept: bool
    humans: tuple[int, ...]


TABLE_COMMANDS: tuple[type, ...] = (OpenTable, Remind, TimeOut, Resign, StandIn, RequestAbort,
                                     BeginVacation, EndVacation, RequestTakeback, AnswerTakeback)


def table_command_json(command: Any) -> dict:
    """A table command as the audit record keeps it: its type, its fields, and the title's
    command it carries (a timeout's or a stand-in's move) in the title's JSON form."""
    fields = {name: getattr(command, name) for name in command.__dataclass_fields__}
    move = fields.pop("move", None)
    data = {"type": type(command).__name__, **to_data_fields(fields)}
    if move is not None:
        data["move"] = encode_command(move)
    return data


def to_data_fields(fields: dict) -> dict:
    return {name: to_data(value) for name, value in fields.items()}


TABLE_COMMAND_NAMES = {cls.__name__: cls for cls in TABLE_COMMANDS}


def table_command_from_json(title: GameDefinition, data: Mapping[str, Any]) -> Any:
    """A table command from its audit-record form (``table_command_json``); the move it
    carries is decoded as a command of ``title``. CodecError if malformed."""
    cls = TABLE_COMMAND_NAMES.get(data.get("type"))
    if cls is None:
        raise CodecError({"command.type": [f"must be one of {', '.join(sorted(TABLE_COMMAND_NAMES))}"]})
    values = {k: v for k, v in data.items() if k != "type"}
    move = values.pop("move", None)
    control = values.pop("control", None)
    if control is not None and not isinstance(control, Mapping):
        raise CodecError({"command.control": ["must be an object or null"]})
    hints = typing.get_type_hints(cls)
    decoded = {name: from_data(hints[name], value, f"command.{name}") for name, value in values.items()
               if name in hints}
    if "control" in hints:
        decoded["control"] = control
    if "move" in hints:
        decoded["move"] = decode_command(title, move) if move is not None else None
    try:
        return cls(**decoded)
    except TypeError as err:
        raise CodecError({"command": [str(err)]}) from None


# state ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class SeatClock:
    seat: int
    started_at: datetime
    deadline: datetime  # moved by every pause that has ended
    paused_since: datetime | None
    reminders_sent: int
    #: the seconds this clock was started with (a time per move, or the seat's bank)
    span: float = 0.0


@dataclass(frozen=True)
class Away:
    seat: int
    vacation: str
    until: datetime


@dataclass(frozen=True)
class Table:
    game: Any  # the title's state
    control: TimeControlSet | None = None
    clocks: Mapping[int, SeatClock] = field(default_factory=dict)
    away: Mapping[int, Away] = field(default_factory=dict)
    out: frozenset[int] = frozenset()
    abort_requests: frozenset[int] = frozenset()
    ended: str | None = None  # "won_by_default" | "aborted"
    winners: tuple[int, ...] = ()
    #: why each out seat left ("resigned" | "timeout")
    out_reasons: Mapping[int, str] = field(default_factory=dict)
    #: consecutive timeouts of each seat whose move the computer made ("computer")
    stand_ins: Mapping[int, int] = field(default_factory=dict)
    #: each clocked seat's time bank in seconds (a time bank control only)
    banks: Mapping[int, float] = field(default_factory=dict)
    #: what the table was before each of the last title events (at most RECENT): what a
    #: takeback returns to
    recent: tuple[Before, ...] = ()
    #: the takeback asked and not yet answered by everyone (any title event voids it)
    takeback: Takeback | None = None


class Before(typing.NamedTuple):
    """The parts of the table a takeback restores, as they were before a title event."""

    game: Any
    banks: Mapping[int, float]
    clocks: Mapping[int, SeatClock]


def _with_game(state: Table, game: Any, recent: tuple[Before, ...]) -> Table:
    """``replace(state, game=game, recent=recent, takeback=None)`` without dataclasses'
    per-field work: it runs for every title event of every fold."""
    new = object.__new__(Table)
    new.__dict__.update(state.__dict__)
    new.__dict__.update(game=game, recent=recent, takeback=None)
    return new


@dataclass(frozen=True)
class Takeback:
    seat: int
    events: int
    accepted: frozenset[int] = frozenset()


@dataclass(frozen=True)
class Clock:
    """A running clock as the game shows it."""

    seat: int
    deadline: datetime  # if the seat is away: the deadline once it is back as planned
    paused_until: datetime | None
    next_reminder: datetime | None


@dataclass(frozen=True)
class TableGame(GameDefinition):
    """A title with its table. Build with ``seat_table(title)``."""

    inner: GameDefinition | None = None

    # what the service reads beyond a GameDefinition ------------------------------------
    def status(self, state: Table) -> str:
        if state.ended == "aborted":
            return "aborted"
        return "finished" if self.is_finished(state) else "active"

    def played_by_computer(self, state: Table) -> frozenset[int]:
        """The seats out, and those whose timed-out move the computer owes."""
        return state.out | owed_moves(self.inner, state)

    def stand_in_level(self, state: Table) -> str:
        """The level of the computer that plays a timed-out move or a seat that is out."""
        return state.control.level if state.control is not None else STAND_IN_LEVEL

    def running_clocks(self, state: Table) -> list[Clock]:
        return running_clocks(self.inner, state)

    def next_timer(self, state: Table) -> datetime | None:
        """When the table next has something to do by itself: a reminder, a deadline, or
        a vacation ending."""
        times = [c.next_reminder or c.deadline for c in self.running_clocks(state) if c.paused_until is None]
        if self.status(state) == "active":
            times += [a.until for a in state.away.values()]
        return min(times, default=None)

    def due(self, state: Table, now: datetime, seat_count: int) -> Any:
        """The table's first command due at ``now``, or None."""
        for away in sorted(state.away.values(), key=lambda a: a.until):
            if away.until <= now:
                return EndVacation(away.seat, away.vacation, _text(away.until))
        for clock in self.running_clocks(state):
            if clock.paused_until is not None:
                continue
            if clock.deadline <= now:
                return TimeOut(clock.seat, seat_count)
            if clock.next_reminder is not None and clock.next_reminder <= now:
                return Remind(clock.seat)
        return None

    def table_json(self, state: Table) -> dict:
        """The read model the games row keeps (and the API shows)."""
        clocks = self.running_clocks(state)
        running = {c.seat for c in clocks}
        return {
            "clocks": [
                {"seat": c.seat, "deadline": _text(c.deadline),
                 "paused_until": _text(c.paused_until) if c.paused_until else None}
                for c in clocks
            ],
            "away": [{"seat": a.seat, "until": _text(a.until), "vacation": a.vacation}
                     for a in sorted(state.away.values(), key=lambda a: a.seat)],
            "out": sorted(state.out),
            "abort_requests": sorted(state.abort_requests),
            # a time bank: each clocked seat's bank as of its last move (a running clock
            # spends it: the seat's deadline is when it runs dry)
            "banks": [{"seat": seat, "seconds": seconds, "running": seat in running}
                      for seat, seconds in sorted(state.banks.items())],
            "takeback": None if state.takeback is None else {
                "seat": state.takeback.seat, "accepted": sorted(state.takeback.accepted)},
        }


def seat_table(title: GameDefinition) -> TableGame:
    """``title`` with the table of correspondence play around it."""

    def evolve(state: Table | None, event: Any) -> Table:
        if type(event) in _TABLE_EVOLVE:
            return _TABLE_EVOLVE[type(event)](state, event)
        if state is None:
            return Table(title.evolve(None, event))
        # keep the table as it was before this event (a takeback returns to it); a move
        # voids a takeback asked before it
        kept = Before(state.game, state.banks, state.clocks)
        return _with_game(state, title.evolve(state.game, event), (*state.recent[1 - RECENT:], kept))

    def decide(state: Table, issued: Issued) -> list[Any]:
        command = issued.command
        if isinstance(command, OpenTable):
            return _open_table(title, state, command, issued.at)
        if state.ended is not None or title.is_finished(state.game):
            raise GameOver()
        handler = _TABLE_DECIDE.get(type(command))
        if handler is not None:
            return handler(title, state, command, _time(issued.at))
        if isinstance(command, RequestTakeback | AnswerTakeback):
            handler = _request_takeback if isinstance(command, RequestTakeback) else _answer_takeback
            return handler(title, state, command, _time(issued.at))
        if issued.seat in state.out:
            raise NotYourTurn("this seat is out of the game: the computer plays it")
        if issued.seat in owed_moves(title, state):
            raise NotYourTurn("this seat's time ran out: the computer makes this move")
        return _move(title, state, Issued(issued.seat, issued.at, command))

    def legal_commands(state: Table, seat: int) -> list[Any]:
        if seat in state.out or state.ended is not None or seat in owed_moves(title, state):
            return []
        return title.legal_commands(state.game, seat)

    def is_finished(state: Table) -> bool:
        return state.ended is not None or title.is_finished(state.game)

    def result(state: Table) -> Result | None:
        out = tuple(sorted(state.out_reasons.items()))
        if state.ended == "aborted":
            return Result((), (), {}, "aborted", out)
        if state.ended == "won_by_default":
            last = list(state.out_reasons.values())[-1] if state.out_reasons else "forfeit"
            found = won_by_default(len(state.winners) + len(state.out), state.out, last)
            # nobody still in (a solo game given up): nobody won it, it was abandoned
            return replace(found, reason=last if state.winners else "abandoned", out=out)
        found = title.result(state.game)
        if found is None:
            return None
        return replace(rank_out_last(found, state.out), reason="scored", out=out)

    def view(state: Table, viewer: int | None) -> dict:
        shown = title.view(state.game, viewer)
        return ended_view(shown, state.ended) if state.ended is not None else shown

    def redact_event(event: Any, viewer: int | None) -> dict:
        if type(event) in _TABLE_EVOLVE:
            return to_data(event)
        return title.redact_event(event, viewer)

    # every field of the title as it is (new ones too), the wrapped ones replaced
    kept = {f.name: getattr(title, f.name) for f in fields(GameDefinition)}
    return TableGame(**{
        **kept,
        "event_types": title.event_types + TABLE_EVENTS,
        "decide": decide,
        "evolve": evolve,
        "to_act": lambda state: () if state.ended else title.to_act(state.game),
        "legal_commands": legal_commands,
        "view": view,
        "words_view": (lambda state, viewer: title.words_view(state.game, viewer)) if title.words_view else None,
        "redact_event": redact_event,
        "is_finished": is_finished,
        "result": result,
        "redetermine": lambda state, observer, rng: replace(state, game=title.redetermine(state.game, observer, rng)),
        "policy": lambda state, seat, rng, level: title.policy(state.game, seat, rng, level),
        "may_confer": lambda state, seat: title.may_confer(state.game, seat),
    }, inner=title)


def ended_view(view: dict, ended: str) -> dict:
    """A title's view of a game the table ended (won by default or aborted) before the
    title did: no seat is asked to act any more, and a game won by default shows as
    finished (the title's phase is the one it was stopped in)."""
    shown = dict(view)
    if isinstance(shown.get("to_act"), list):
        shown["to_act"] = []
    players = shown.get("players")
    if isinstance(players, list):
        shown["players"] = [{**p, "to_act": False} if isinstance(p, dict) and "to_act" in p else p
                            for p in players]
    for key in ("placing",):
        if key in shown:
            shown[key] = None
    if ended == "won_by_default":
        shown["phase"] = "finished"
        shown["finished"] = True
    else:
        shown["phase"] = "aborted"
    return shown


def running_clocks(title: GameDefinition, state: Table) -> list[Clock]:
    """The clocks of the seats asked to act now, earliest deadline first."""
    if state.control is None or state.ended is not None or title.is_finished(state.game):
        return []
    clocks = []
    for seat in title.to_act(state.game):
        clock = state.clocks.get(seat)
        if clock is None or seat in state.out:
            continue
        away = state.away.get(seat)
        if clock.paused_since is not None and away is not None:
            left = clock.deadline - clock.paused_since
            deadline, paused_until = away.until + left, away.until
        else:
            deadline, paused_until = clock.deadline, None
        fractions = state.control.reminders[clock.reminders_sent:]
        reminder = deadline - _span(state.control, clock) * (1 - fractions[0]) if fractions else None
        clocks.append(Clock(seat, deadline, paused_until, reminder))
    return sorted(clocks, key=lambda c: (c.deadline, c.seat))


def owed_moves(title: GameDefinition, state: Table) -> frozenset[int]:
    """The seats whose timed-out move the computer owes (``on_timeout`` "computer"): a
    clocked seat asked to act gets a clock, which only its timeout or its leaving takes
    away, so one asked to act without a clock has timed out and waits for its stand-in."""
    control = state.control
    if control is None or control.on_timeout != "computer" or state.ended is not None \
            or title.is_finished(state.game):
        return frozenset()
    return frozenset(seat for seat in title.to_act(state.game)
                     if seat in control.clocked_seats and seat not in state.clocks and seat not in state.out)


# deciding -------------------------------------------------------------------------------
def _open_table(title: GameDefinition, state: Table, command: OpenTable, at: str) -> list[Any]:
    events: list[Any] = [VacationStarted(seat, vacation, at, until) for seat, vacation, until in command.away]
    if command.control is not None:
        c = command.control
        events.insert(0, TimeControlSet(c["per_move"], float(c["per_move_seconds"]), c["on_timeout"],
                                        tuple(c["reminders"]), tuple(command.clocked_seats),
                                        c.get("level", STAND_IN_LEVEL), c.get("max_stand_ins"),
                                        _seconds(c.get("bank_seconds")), float(c.get("increment_seconds") or 0.0),
                                        _seconds(c.get("max_bank_seconds"))))
        opened = _fold(state, events)
        events += _clock_starts(title, opened, opened, None, _time(at))
    return events


def _seconds(value: Any) -> float | None:
    return None if value is None else float(value)


def _move(title: GameDefinition, state: Table, issued: Issued) -> list[Any]:
    events = title.decide(state.game, issued)
    after = replace(state, game=title.fold(events, state.game))
    charged = _charge_bank(title, state, issued.seat, _time(issued.at))
    if charged:
        events = events + charged
        after = _fold(after, charged)
    return events + _clock_starts(title, state, after, issued.seat, _time(issued.at))


def _charge_bank(title, state: Table, seat: int | None, now: datetime) -> list[Any]:
    """On a time bank, the seat that moved on its running clock keeps what was left of it,
    plus the increment, up to the largest bank."""
    control = state.control
    if control is None or control.bank_seconds is None or seat is None or seat in state.out:
        return []
    clock = state.clocks.get(seat)
    if clock is None or seat not in title.to_act(state.game):
        return []
    stopped = clock.paused_since if clock.paused_since is not None else now
    left = max((clock.deadline - stopped).total_seconds(), 0.0)
    bank = left + control.increment_seconds
    if control.max_bank_seconds is not None:
        bank = min(bank, control.max_bank_seconds)
    return [BankCharged(seat, round(max(clock.span - left, 0.0), 6), round(bank, 6))]


def clock_seconds(control: TimeControlSet, banks: Mapping[int, float], seat: int) -> float:
    """How long a clock that starts now for ``seat`` runs: the time per move, or the seat's
    bank (at least a second, so a bank emptied by a timeout still gives a move's chance)."""
    if control.bank_seconds is None:
        return control.per_move_seconds
    return max(banks.get(seat, control.bank_seconds), 1.0)


def _span(control: TimeControlSet, clock: SeatClock) -> timedelta:
    """The length a clock's reminders are fractions of."""
    if control.bank_seconds is None:
        return timedelta(seconds=control.per_move_seconds)
    return timedelta(seconds=clock.span)


def _clock_starts(title, before: Table, after: Table, acted: int | None, at: datetime) -> list[Any]:
    """A clock starts for each clocked seat newly asked to act, and again for the seat
    that just acted if it must act again; a seat still deciding keeps its clock."""
    control = after.control
    if control is None or after.ended is not None or title.is_finished(after.game):
        return []
    waiting = set(title.to_act(before.game)) if before is not after else set()
    owed = owed_moves(title, before) if before is not after else frozenset()
    events = []
    for seat in title.to_act(after.game):
        if seat not in control.clocked_seats or seat in after.out:
            continue
        if seat in waiting and seat != acted and (seat in before.clocks or seat in owed):
            continue  # still deciding on its clock, or still owed its timed-out move
        deadline = at + timedelta(seconds=clock_seconds(control, after.banks, seat))
        events.append(ClockStarted(seat, _text(at), _text(deadline), seat in after.away))
    return events


def _running(title, state: Table, seat: int) -> SeatClock:
    if seat not in title.to_act(state.game) or seat not in state.clocks or seat in state.out:
        raise RuleViolation("clock.not_running", "this seat's clock is not running")
    return state.clocks[seat]


def _remind(title, state: Table, command: Remind, now: datetime) -> list[Any]:
    clock = _running(title, state, command.seat)
    found = next((c for c in running_clocks(title, state) if c.seat == command.seat), None)
    if found is None or found.paused_until is not None or found.next_reminder is None or found.next_reminder > now:
        raise RuleViolation("clock.no_reminder_due", "no reminder is due for this seat now")
    # a late reminder sends only the latest fraction due: one mail, not a burst
    span = _span(state.control, clock)
    fraction = max(f for f in state.control.reminders[clock.reminders_sent:]
                   if found.deadline - span * (1 - f) <= now)
    return [ReminderSent(command.seat, fraction, _text(found.deadline))]


def _time_out(title, state: Table, command: TimeOut, now: datetime) -> list[Any]:
    clock = _running(title, state, command.seat)
    if clock.paused_since is not None or clock.deadline > now:
        raise RuleViolation("clock.not_due", "this seat's deadline has not passed")
    action = state.control.on_timeout
    limit = state.control.max_stand_ins
    if action == "computer" and limit is not None and state.stand_ins.get(command.seat, 0) >= limit:
        action = "forfeit"  # no winning by absence: the computer stood in enough times
    timed_out = TimedOut(command.seat, _text(clock.deadline), action)
    if action == "computer":
        if command.move is None:  # the stand-in's move follows (StandIn), from the computers' queue
            return [timed_out]
        moved = _move(title, _fold(state, [timed_out]), Issued(command.seat, _text(now), command.move))
        return [timed_out, *moved]
    return [timed_out, *_leave(_fold(state, [timed_out]), command.seat, command.seat_count, "timeout")]


def _resign(title, state: Table, command: Resign, now: datetime) -> list[Any]:
    if command.seat in state.out:
        raise RuleViolation("table.already_out", "this seat is already out of the game")
    resigned = Resigned(command.seat)
    return [resigned, *_leave(_fold(state, [resigned]), command.seat, command.seat_count, "resigned")]


def _leave(state: Table, seat: int, seat_count: int, reason: str) -> list[Any]:
    events: list[Any] = [SeatOut(seat, reason)]
    out = state.out | {seat}
    still_in = [s for s in range(seat_count) if s not in out]
    if len(still_in) <= 1:
        events.append(WonByDefault(tuple(still_in), tuple(sorted(out))))
    return events


def _stand_in(title, state: Table, command: StandIn, now: datetime) -> list[Any]:
    if command.seat not in state.out and command.seat not in owed_moves(title, state):
        raise RuleViolation("table.not_out",
                            "the computer stands in only for a seat that is out or whose time ran out")
    return _move(title, state, Issued(command.seat, _text(now), command.move))


def _request_abort(title, state: Table, command: RequestAbort, now: datetime) -> list[Any]:
    if not command.moved:
        return [Aborted("before_first_move", (command.seat,))]
    if command.seat in state.abort_requests:
        raise RuleViolation("table.abort_already_requested", "this seat has already asked to abort")
    asked = state.abort_requests | {command.seat}
    events: list[Any] = [AbortRequested(command.seat)]
    if set(command.humans) - state.out <= asked:
        events.append(Aborted("all_agreed", tuple(sorted(asked))))
    return events


def _begin_vacation(title, state: Table, command: BeginVacation, now: datetime) -> list[Any]:
    current = state.away.get(command.seat)
    if current is not None and current.vacation == command.vacation:
        raise RuleViolation("table.already_away", "this vacation has already started here")
    return [VacationStarted(command.seat, command.vacation, _text(now), command.until)]


def _end_vacation(title, state: Table, command: EndVacation, now: datetime) -> list[Any]:
    current = state.away.get(command.seat)
    if current is None or current.vacation != command.vacation:
        raise RuleViolation("table.not_away", "this seat is not away on that vacation")
    return [VacationEnded(command.seat, command.vacation, command.ended_at)]


def takeback_refusal(title: GameDefinition, state: Table, seat: int, count: int, move: Any, at: str) -> str | None:
    """Why ``seat`` may not take back ``move`` (its last move, ``count`` title events sent
    at ``at``), or None if it may: the move must be the last one, made by the seat itself,
    and must have revealed nothing hidden or random (a drawn card, a secret choice of
    another seat, dice) that the seat could use when it moves again."""
    if seat in state.out:
        return "this seat is out of the game"
    if count < 1 or count > len(state.recent) or move is None:
        return "there is no move of yours to take back"
    before = state.recent[-count]
    if seat not in title.to_act(before.game):
        return "the last move was not this seat's"
    issued = Issued(seat, at, move)
    try:
        decided = title.decide(before.game, issued)
    except (RuleViolation, NotYourTurn, GameOver):
        return "the last move was not this one"
    if title.fold(decided, before.game) != state.game:
        return "another seat has acted since your move"
    if getattr(before.game, "rng_counter", None) != getattr(state.game, "rng_counter", None):
        return "your move drew at random (a card, a tile or dice): what it revealed cannot be taken back"
    # a re-deal of everything the seat could not see must not change what its move did
    # (its events, and what the seat sees after it: a pile's next card turned face up, say)
    wanted = ([encode_event_data(e) for e in decided], title.view(state.game, seat))
    for attempt in range(3):
        other = title.redetermine(before.game, seat, Rng(f"{attempt + 1:064x}"))
        try:
            events = title.decide(other, issued)
            again = ([encode_event_data(e) for e in events], title.view(title.fold(events, other), seat))
        except (RuleViolation, NotYourTurn, GameOver):
            again = None
        if again != wanted:
            return "your move revealed something hidden (a card drawn, a secret choice): it cannot be taken back"
    return None


def encode_event_data(event: Any) -> tuple[str, Any]:
    return event.TYPE, to_data(event)


def _request_takeback(title, state: Table, command: RequestTakeback, now: datetime) -> list[Any]:
    if state.takeback is not None:
        raise RuleViolation("takeback.pending", "a takeback is already asked and not yet answered")
    why = takeback_refusal(title, state, command.seat, command.events, command.move, command.at)
    if why is not None:
        raise RuleViolation("takeback.unavailable", why)
    events: list[Any] = [TakebackRequested(command.seat, command.events)]
    asked = {h for h in command.humans if h != command.seat and h not in state.out}
    if not asked:  # nobody to ask (only computers besides): taken back at once
        events += _take_back(title, _fold(state, events), command.seat, command.events, now)
    return events


def _answer_takeback(title, state: Table, command: AnswerTakeback, now: datetime) -> list[Any]:
    asked = state.takeback
    if asked is None:
        raise RuleViolation("takeback.none_asked", "no takeback is asked now")
    if command.seat == asked.seat:
        raise RuleViolation("takeback.own_request", "this seat asked for the takeback itself")
    if command.seat not in command.humans or command.seat in state.out:
        raise RuleViolation("takeback.not_asked", "this seat is not asked about the takeback")
    if command.seat in asked.accepted:
        raise RuleViolation("takeback.already_answered", "this seat has already accepted")
    if not command.accept:
        return [TakebackDeclined(command.seat)]
    events: list[Any] = [TakebackAccepted(command.seat)]
    others = {h for h in command.humans if h != asked.seat and h not in state.out}
    if others <= asked.accepted | {command.seat}:
        events += _take_back(title, _fold(state, events), asked.seat, asked.events, now)
    return events


def _take_back(title, state: Table, seat: int, count: int, now: datetime) -> list[Any]:
    """The compensating event, and a fresh clock for the seat that moves again."""
    events: list[Any] = [MoveTakenBack(seat, count)]
    after = _fold(state, events)
    control = after.control
    if control is not None and seat in control.clocked_seats and seat in title.to_act(after.game):
        deadline = now + timedelta(seconds=clock_seconds(control, after.banks, seat))
        events.append(ClockStarted(seat, _text(now), _text(deadline), seat in after.away))
    return events


_TABLE_DECIDE = {
    Remind: _remind, TimeOut: _time_out, Resign: _resign, StandIn: _stand_in,
    RequestAbort: _request_abort, BeginVacation: _begin_vacation, EndVacation: _end_vacation,
}


# evolving -------------------------------------------------------------------------------
def _fold(state: Table, events: list[Any]) -> Table:
    for event in events:
        state = _TABLE_EVOLVE[type(event)](state, event)
    return state


def _control_set(state: Table, e: TimeControlSet) -> Table:
    banks = {seat: e.bank_seconds for seat in e.clocked_seats} if e.bank_seconds is not None else {}
    return replace(state, control=e, banks=banks)


def _clock_started(state: Table, e: ClockStarted) -> Table:
    started = _time(e.started_at)
    deadline = _time(e.deadline)
    clock = SeatClock(e.seat, started, deadline, started if e.paused else None, 0,
                      (deadline - started).total_seconds())
    stand_ins = state.stand_ins
    if e.seat in state.clocks and stand_ins.get(e.seat):
        # its last clock ended with its own move, not a timeout: the run of timeouts is over
        stand_ins = {s: n for s, n in stand_ins.items() if s != e.seat}
    return replace(state, clocks={**state.clocks, e.seat: clock}, stand_ins=stand_ins)


def _bank_charged(state: Table, e: BankCharged) -> Table:
    return replace(state, banks={**state.banks, e.seat: e.bank_seconds})


def _reminder_sent(state: Table, e: ReminderSent) -> Table:
    clock = state.clocks[e.seat]
    sent = state.control.reminders.index(e.fraction) + 1
    return replace(state, clocks={**state.clocks, e.seat: replace(clock, reminders_sent=sent)})


def _without_clock(state: Table, seat: int) -> Table:
    return replace(state, clocks={s: c for s, c in state.clocks.items() if s != seat})


def _timed_out(state: Table, e: TimedOut) -> Table:
    state = _without_clock(state, e.seat)
    if e.on_timeout == "computer":
        state = replace(state, stand_ins={**state.stand_ins, e.seat: state.stand_ins.get(e.seat, 0) + 1})
    control = state.control
    if control is not None and control.bank_seconds is not None:
        # the bank ran dry: the seat's next clock has the increment (clock_seconds: 1 s at least)
        bank = control.increment_seconds
        if control.max_bank_seconds is not None:
            bank = min(bank, control.max_bank_seconds)
        state = replace(state, banks={**state.banks, e.seat: bank})
    return state


def _seat_out(state: Table, e: SeatOut) -> Table:
    return replace(_without_clock(state, e.seat), out=state.out | {e.seat},
                   out_reasons={**state.out_reasons, e.seat: e.reason})


def _won_by_default(state: Table, e: WonByDefault) -> Table:
    return replace(state, ended="won_by_default", winners=e.winners)


def _abort_requested(state: Table, e: AbortRequested) -> Table:
    return replace(state, abort_requests=state.abort_requests | {e.seat})


def _aborted(state: Table, e: Aborted) -> Table:
    return replace(state, ended="aborted")


def _vacation_started(state: Table, e: VacationStarted) -> Table:
    started = _time(e.started_at)
    clocks = dict(state.clocks)
    clock = clocks.get(e.seat)
    if clock is not None and clock.paused_since is None:
        clocks[e.seat] = replace(clock, paused_since=started)
    return replace(state, away={**state.away, e.seat: Away(e.seat, e.vacation, _time(e.until))}, clocks=clocks)


def _vacation_ended(state: Table, e: VacationEnded) -> Table:
    ended = _time(e.ended_at)
    clocks = dict(state.clocks)
    clock = clocks.get(e.seat)
    if clock is not None and clock.paused_since is not None:
        paused = max(ended - clock.paused_since, timedelta(0))
        clocks[e.seat] = replace(clock, deadline=clock.deadline + paused, paused_since=None)
    return replace(state, away={s: a for s, a in state.away.items() if s != e.seat}, clocks=clocks)


def _takeback_requested(state: Table, e: TakebackRequested) -> Table:
    return replace(state, takeback=Takeback(e.seat, e.events))


def _takeback_accepted(state: Table, e: TakebackAccepted) -> Table:
    asked = state.takeback
    if asked is None:
        return state
    return replace(state, takeback=replace(asked, accepted=asked.accepted | {e.seat}))


def _move_taken_back(state: Table, e: MoveTakenBack) -> Table:
    before = state.recent[-e.events]
    # the title's state and the banks as they were; the clocks of seats asked to act by
    # the move taken back go (the mover's own clock starts afresh: ClockStarted follows)
    clocks = {s: c for s, c in state.clocks.items() if s in before.clocks}
    return replace(state, game=before.game, banks=before.banks, clocks=clocks,
                   recent=state.recent[:-e.events], takeback=None)


_TABLE_EVOLVE = {
    TimeControlSet: _control_set, ClockStarted: _clock_started, ReminderSent: _reminder_sent,
    TimedOut: _timed_out, Resigned: lambda state, e: state, SeatOut: _seat_out,
    WonByDefault: _won_by_default, AbortRequested: _abort_requested, Aborted: _aborted,
    VacationStarted: _vacation_started, VacationEnded: _vacation_ended, BankCharged: _bank_charged,
    TakebackRequested: _takeback_requested, TakebackAccepted: _takeback_accepted,
    TakebackDeclined: lambda state, e: replace(state, takeback=None), MoveTakenBack: _move_taken_back,
}
