"""evolve copies states without ``__init__`` (domain/amsterdam/evolve.py: replay speed), so a
misspelt field name would add an attribute instead of failing: every state of the golden
streams and of random games of every option set has exactly its dataclass's fields."""

from __future__ import annotations

import dataclasses

import pytest

from domain.amsterdam import GAME
from domain.amsterdam.state import SeatState, State, TomState, Turn
from domain.rng import Rng
from tests.conformance.harness import play_random_game, seed_for, states_along
from tests.golden.record import HERE, golden_events

FIELDS = {cls: {f.name for f in dataclasses.fields(cls)} for cls in (State, SeatState, Turn, TomState)}


def _exact_fields(state: State) -> None:
    assert set(state.__dict__) == FIELDS[State]
    for seat in state.seats:
        assert set(seat.__dict__) == FIELDS[SeatState]
        assert set(seat.turn.__dict__) == FIELDS[Turn]
    if state.tom is not None:
        assert set(state.tom.__dict__) == FIELDS[TomState]


@pytest.mark.parametrize("path", sorted(HERE.glob("amsterdam-*.json")), ids=lambda p: p.stem)
def test_golden_states_have_exactly_their_fields(path):
    for state in states_along(GAME, golden_events(path)):
        _exact_fields(state)


@pytest.mark.parametrize("seats, options", [
    (1, {}),
    (3, {"expansions": ["skilled_workers", "tasks", "black_market", "market_tiles"]}),
    (4, {"rounds": 10, "dice_choice": "simultaneous", "docker_pickup": "both"}),
])
def test_random_game_states_have_exactly_their_fields(seats, options):
    played = play_random_game(GAME, GAME.parse_options(options, seats), seats, seed_for(77),
                              Rng(seed_for(78)))
    for state in states_along(GAME, played.events):
        _exact_fields(state)
    assert state == played.final


def test_an_unknown_event_is_refused():
    with pytest.raises(TypeError, match="unknown event"):
        GAME.evolve(None, object())
