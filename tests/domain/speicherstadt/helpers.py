"""Builders for Speicherstadt rule tests: a started game, then the scenario replaced in."""

from __future__ import annotations

from dataclasses import replace

from domain.decider import Issued
from domain.speicherstadt import GAME
from domain.speicherstadt.state import SeatState, State

AT = "2026-01-01T00:00:00Z"


def seed(n: int = 1) -> str:
    return f"{n:064x}"


def new_game(seats: int = 3, n: int = 1) -> State:
    return GAME.fold(GAME.start(GAME.parse_options({}, seats), seats, seed(n)))


def act(state: State, seat: int, command) -> tuple[State, list]:
    events = GAME.decide(state, Issued(seat, AT, command))
    return GAME.fold(events, state), events


def with_seat(state: State, i: int, **changes) -> State:
    seats = list(state.seats)
    seats[i] = replace(seats[i], **changes)
    return replace(state, seats=tuple(seats))


def fresh_seats(count: int, coins: int = 5) -> tuple[SeatState, ...]:
    return tuple(SeatState(coins=coins) for _ in range(count))


def types(events) -> list[str]:
    return [type(e).__name__ for e in events]
