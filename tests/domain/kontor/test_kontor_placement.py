"""Placement: contact, no covering, the 6x6 limit, cranes, no legal cell."""

from __future__ import annotations

import pytest

from domain.decider import RuleViolation
from domain.kontor import GAME
from domain.kontor.core import events as ev
from domain.kontor.core.commands import PlaceCard

from .helpers import (
    BLACK,
    RED,
    crane,
    cross_layout,
    dock,
    full_board,
    of_type,
    placing,
    then,
    types,
    water,
    when,
)


def _cells(state, seat):
    return {(c.x, c.y) for c in GAME.legal_commands(state, seat)}


def _violation(state, seat, x, y) -> str:
    with pytest.raises(RuleViolation) as err:
        when(state, seat, PlaceCard(x, y))
    return err.value.code


def test_card_must_touch_a_side():
    """« La carte doit toucher par un côté une carte déjà existante, soit horizontalement,
    soit verticalement » ; « la carte ne peut être placée en diagonale »."""
    _, state = placing(cross_layout(), dock(RED, "wine"), None)
    cells = _cells(state, RED)
    expected = {(1, 1), (-1, 1), (1, -1), (-1, -1)}
    expected |= {(a, b) for a in (-1, 1) for b in (-2, 2)} | {
        (b, a) for a in (-1, 1) for b in (-2, 2)
    }
    expected |= {(0, 3), (0, -3), (3, 0), (-3, 0)}
    assert cells == expected
    assert _violation(state, RED, 2, 2) == "kontor.not_adjacent"


def test_owner_and_kind_of_neighbour_do_not_matter():
    """« Que cette carte soit un canal ou un dock, qu'elle appartienne à l'un ou l'autre des
    joueurs n'a pas d'importance. »"""
    layout = cross_layout() | {(1, 1): dock(BLACK, "tea")}
    _, state = placing(layout, dock(RED, "wine"), None)
    assert {(2, 1), (1, 2)} <= _cells(state, RED)


def test_never_on_an_occupied_cell():
    """« les cartes ne peuvent pas être déplacées une fois posées, ni recouvertes »."""
    _, state = placing(cross_layout(), dock(RED, "wine"), None)
    assert _violation(state, RED, 1, 0) == "kontor.cell_occupied"
    assert _violation(state, RED, 0, 0) == "kontor.cell_occupied"


def test_width_fixed_at_six():
    """« Une fois que la largeur ou la hauteur du dispositif atteint six colonnes ou
    rangées, la taille du plateau de jeu dans cette orientation est définie et il n'est
    plus possible de jouer des cartes qui agrandiraient davantage le plateau dans ce sens »."""
    _, state = placing(cross_layout(), water(n=0), water(n=1))
    first = state.order[0]
    _, state = then(state, first, PlaceCard(3, 0))
    second = state.order[0]
    cells = _cells(state, second)
    assert (-3, 0) not in cells and (4, 0) not in cells
    assert (0, 3) in cells and (0, -3) in cells  # height is not fixed yet
    assert _violation(state, second, -3, 0) == "kontor.board_limit"


def test_height_fixed_at_six():
    """Same passage, the other direction: « la hauteur ... atteint six ... rangées »."""
    layout = cross_layout() | {(0, 3): water(n=5)}
    _, state = placing(layout, dock(RED, "wine"), None)
    cells = _cells(state, RED)
    assert (0, -3) not in cells and (0, 4) not in cells and (3, 0) in cells
    assert _violation(state, RED, 0, -3) == "kontor.board_limit"


def test_opponent_crane_blocks_docks():
    """« Une grue influence les cases directement adjacentes, verticalement et
    horizontalement » -- no opponent dock there."""
    layout = cross_layout() | {(1, 1): crane(BLACK)}
    _, state = placing(layout, dock(RED, "wine"), None)
    cells = _cells(state, RED)
    assert (2, 1) not in cells and (1, 2) not in cells
    assert (-1, 1) in cells
    assert _violation(state, RED, 2, 1) == "kontor.crane_blocks_dock"


def test_own_crane_does_not_block():
    """« les joueurs peuvent interdire à l'adversaire de poser des docks » -- only the
    adversary."""
    layout = cross_layout() | {(1, 1): crane(BLACK)}
    _, state = placing(layout, None, dock(BLACK, "wine"))
    assert {(2, 1), (1, 2)} <= _cells(state, BLACK)


def test_water_allowed_next_to_opponent_crane():
    """« L'adversaire peut, cependant, jouer des canaux sur ces cases. »"""
    layout = cross_layout() | {(1, 1): crane(BLACK)}
    _, state = placing(layout, water(n=0), None)
    assert {(2, 1), (1, 2)} <= _cells(state, RED)
    events, _ = then(state, RED, PlaceCard(2, 1))
    assert of_type(events, ev.CardPlaced)[0].x == 2


def test_previously_placed_cards_unaffected():
    """« Les cartes précédemment jouées ne sont pas affectées par la grue. »"""
    red_dock = dock(RED, "wine")
    layout = cross_layout() | {(1, 1): red_dock}
    _, state = placing(layout, None, crane(BLACK))
    assert (2, 1) in _cells(state, BLACK)  # a crane may go next to an opponent's dock
    _, state = then(state, BLACK, PlaceCard(2, 1))
    assert any(c.card == red_dock and (c.x, c.y) == (1, 1) for c in state.board)


def test_cell_between_two_opponent_cranes_only_water():
    """« une case adjacente à deux grues adverses ne peut recevoir qu'un canal » (at two
    players: a cell next to a red and a black crane takes no dock at all)."""
    layout = cross_layout() | {(1, 1): crane(BLACK), (2, 2): crane(RED), (2, 1): water(n=7)}
    _, state = placing(layout, dock(RED, "wine"), dock(BLACK, "wine"))
    first = state.order[0]
    assert (1, 2) not in _cells(state, first)
    _, state = placing(layout, water(n=0), None)
    assert (1, 2) in _cells(state, RED)


def test_crane_is_a_dock_for_blocking():
    """A crane is a dock card: it may not be placed next to an opponent's crane."""
    layout = cross_layout() | {(1, 1): crane(BLACK)}
    _, state = placing(layout, crane(RED), None)
    assert (2, 1) not in _cells(state, RED)


def test_no_legal_cell_card_back_to_hand():
    """« Il est possible qu'un joueur ne puisse poser la carte qu'il a jouée. » (RULES-NOTES:
    the card goes back to the hand: no placement, no draw, no income.)"""
    layout = full_board(
        holes={(2, 3), (3, 2), (3, 3)}, overrides={(2, 2): crane(BLACK)}, spare_water=4
    )
    red_card = dock(RED, "wine")
    # the empty cells (2, 3) and (3, 2) touch the black crane at (2, 2); (3, 3) touches nothing
    events, state = placing(
        layout, red_card, None, extra=((water(n=0),), ()), dock_piles=((dock(RED, "tea"),), ())
    )
    assert of_type(events, ev.CardReturned) == [ev.CardReturned(RED, red_card, "no_legal_cell")]
    assert not of_type(events, ev.CardDrawn) and not of_type(events, ev.IncomePaid)
    assert red_card in state.hands[RED] and len(state.hands[RED]) == 2
    assert state.dock_piles[RED] == (dock(RED, "tea"),)
    assert types(events)[-1] == "RoundStarted"
