"""Building Amsterdam positions for rule tests: a real game advanced to a phase, then the
few fields a rulebook example fixes set by hand."""

from __future__ import annotations

from domain.amsterdam import GAME, data
from domain.amsterdam.state import ACTIONS, EMPTY
from domain.common.frozen import replace
from domain.decider import Issued

AT = "2026-01-01T00:00:00Z"


def vector(*colours: str) -> tuple[int, ...]:
    out = list(EMPTY)
    for colour in colours:
        out[data.COLOURS.index(colour)] += 1
    return tuple(out)


def play(state, command, seat=None):
    seat = GAME.to_act(state)[0] if seat is None else seat
    for event in GAME.decide(state, Issued(seat, AT, command)):
        state = GAME.evolve(state, event)
    return state


def started(seats: int = 2, options: dict | None = None, seed: int = 1):
    opts = GAME.parse_options(options or {}, seats)
    return GAME.fold(GAME.start(opts, seats, f"{seed:064x}"))


def at_phase(phase: str = ACTIONS, seats: int = 2, options: dict | None = None, seed: int = 1):
    """Play the first legal command of each seat until ``phase`` begins."""
    state = started(seats, options, seed)
    while state.phase != phase:
        state = play(state, GAME.legal_commands(state, GAME.to_act(state)[0])[0])
    return state


def with_seat(state, seat: int, **changes):
    seats = list(state.seats)
    seats[seat] = replace(seats[seat], **changes)
    return replace(state, seats=tuple(seats))


def acting(state) -> int:
    return GAME.to_act(state)[0]
