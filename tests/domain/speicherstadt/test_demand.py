"""Phase 2) Demande."""

from __future__ import annotations

from dataclasses import replace

import pytest

from domain.decider import NotYourTurn, RuleViolation
from domain.speicherstadt import GAME
from domain.speicherstadt.commands import BuyCard, PlaceWorker
from domain.speicherstadt.state import DEMAND, PURCHASE, Column
from tests.refusals import refused

from .helpers import act, new_game


def test_seat_order_from_first_player_one_worker_at_a_time():
    """« Le joueur avec la pièce en métal est le premier joueur et commence. Dans le sens
    horaire, choisissez 1 carte en plaçant 1 ouvrier ... Quand tous les joueurs ont placé 1
    ouvrier, répétez l'opération »."""
    state = new_game(4, 5)
    first = state.first_player
    order = []
    for _ in range(12):
        (seat,) = GAME.to_act(state)
        order.append(seat)
        state, _ = act(state, seat, PlaceWorker(column=0 if len(state.offer[0].workers) < 8 else 1))
    assert order == [(first + k) % 4 for k in range(12)]


def test_worker_goes_to_lowest_free_space():
    """« Placez votre ouvrier sur la case du bâtiment la plus basse et inoccupée ... placez
    simplement votre ouvrier sur la case inoccupée suivante »."""
    state = new_game(3, 2)
    seats = []
    for _ in range(3):
        (seat,) = GAME.to_act(state)
        seats.append(seat)
        state, events = act(state, seat, PlaceWorker(column=2))
    assert state.offer[2].workers == tuple(seats)
    assert events[0].space == 2


def test_several_workers_of_one_seat_on_a_card():
    """« vous pouvez placer plus d'un ouvrier au-dessus d'une même carte »."""
    state = new_game(2, 1)
    state = replace(state, placed=0, first_player=0)
    state, _ = act(state, 0, PlaceWorker(column=1))
    state, _ = act(state, 1, PlaceWorker(column=0))
    state, _ = act(state, 0, PlaceWorker(column=1))
    assert state.offer[1].workers == (0, 0)


def test_column_of_eight_is_full():
    """« Si les 8 cases d'un bâtiment d'une carte sont occupées par des ouvriers, vous ne
    pouvez plus y placer d'ouvrier »."""
    state = new_game(4, 1)
    full = Column(state.offer[0].card, workers=(0, 1, 2, 3, 0, 1, 2, 3))
    state = replace(state, offer=(full,) + state.offer[1:], placed=8, first_player=0)
    (seat,) = GAME.to_act(state)
    assert PlaceWorker(column=0) not in GAME.legal_commands(state, seat)
    with pytest.raises(RuleViolation) as err:
        act(state, seat, PlaceWorker(column=0))
    assert err.value.code == "speicherstadt.column_full"


def test_no_pass_and_all_three_workers_placed():
    """« Vous devez faire cette action, vous ne pouvez pas passer. Répétez ce processus
    jusqu'à ce que tous les joueurs aient placé leurs 3 ouvriers »."""
    state = new_game(3, 4)
    (seat,) = GAME.to_act(state)
    assert all(isinstance(c, PlaceWorker) for c in GAME.legal_commands(state, seat))
    with refused("speicherstadt.demand_place_worker"):
        act(state, seat, BuyCard())
    other = (seat + 1) % 3
    with pytest.raises(NotYourTurn):
        act(state, other, PlaceWorker(column=0))
    for _ in range(8):
        (seat,) = GAME.to_act(state)
        state, _ = act(state, seat, PlaceWorker(column=3))
        assert state.phase == DEMAND
    (seat,) = GAME.to_act(state)
    state, _ = act(state, seat, PlaceWorker(column=0))
    assert state.phase != DEMAND
    assert state.phase == PURCHASE or state.round == 2
