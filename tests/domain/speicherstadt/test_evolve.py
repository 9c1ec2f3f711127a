"""evolve copies states without ``__init__`` (domain/speicherstadt/evolve.py: replay speed),
so a misspelt field name would add an attribute instead of failing: every state of the
golden streams and of random games of every seat count has exactly its dataclass's
fields, in their declared order."""

from __future__ import annotations

import dataclasses

import pytest

from domain.rng import Rng
from domain.speicherstadt import GAME
from domain.speicherstadt.state import Column, SeatState, State
from tests.conformance.harness import play_random_game, seed_for, states_along
from tests.golden.record import HERE, golden_events

FIELDS = {cls: [f.name for f in dataclasses.fields(cls)] for cls in (State, SeatState, Column)}


def _exact_fields(state: State) -> None:
    assert list(state.__dict__) == FIELDS[State]
    for seat in state.seats:
        assert list(seat.__dict__) == FIELDS[SeatState]
    for column in state.offer:
        assert list(column.__dict__) == FIELDS[Column]


@pytest.mark.parametrize("path", sorted(HERE.glob("speicherstadt-*.json")), ids=lambda p: p.stem)
def test_golden_states_have_exactly_their_fields(path):
    for state in states_along(GAME, golden_events(path)):
        _exact_fields(state)


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_random_game_states_have_exactly_their_fields(seats):
    played = play_random_game(GAME, GAME.parse_options({}, seats), seats, seed_for(91),
                              Rng(seed_for(92)))
    for state in states_along(GAME, played.events):
        _exact_fields(state)
    assert state == played.final


def test_an_unknown_event_is_refused():
    with pytest.raises(TypeError, match="unknown event"):
        GAME.evolve(None, object())
