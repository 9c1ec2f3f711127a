"""Warehouses, drawing, income."""

from __future__ import annotations

from domain.kontor import GAME
from domain.kontor.core import events as ev
from domain.kontor.core.commands import PlaceCard

from .helpers import (
    BLACK,
    RED,
    crane,
    cross_layout,
    dock,
    of_type,
    take_turn,
    tavern,
    water,
)


def test_goods_dock_gets_its_warehouses():
    """« Poser les entrepôts : si la carte qui vient d'être posée est un dock avec des
    marchandises, il pose sur la carte les entrepôts des couleurs correspondant aux
    marchandises. »"""
    card = dock(RED, "tea", "wine")
    events, _ = take_turn(cross_layout(), card, (1, 1))
    assert of_type(events, ev.WarehousesAdded) == [ev.WarehousesAdded(RED, card, ("tea", "wine"))]


def test_crane_and_tavern_have_no_warehouses_and_tavern_no_effect():
    """« Chaque joueur a également deux docks avec une grue et un dock avec une taverne » ;
    taverns « n'ont une fonction spéciale que dans les règles avancées »."""
    for card in (crane(RED), tavern(RED)):
        events, state = take_turn(cross_layout(), card, (1, 1))
        assert not of_type(events, ev.WarehousesAdded)
        assert [type(e).__name__ for e in events] == ["CardPlaced", "RoundStarted"]


def test_draw_from_own_dock_pile_after_a_dock():
    """« Compléter sa main : il tire une carte pour remplacer celle qu'il vient de jouer, de
    la pioche des docks s'il a joué un dock »."""
    top, below = dock(RED, "spice"), dock(RED, "tea")
    events, state = take_turn(
        cross_layout(), dock(RED, "wine"), (1, 1), dock_piles=((top, below), ())
    )
    assert of_type(events, ev.CardDrawn) == [ev.CardDrawn(RED, top, "dock")]
    assert top in state.hands[RED] and state.dock_piles[RED] == (below,)
    assert GAME.view(state, None)["players"][RED]["dock_pile"]["top"]["number"] == below


def test_draw_from_water_pile_after_a_canal_and_income():
    """« ou de la pile des canaux s'il a joué un canal » ; « Quand un joueur place un canal,
    il reçoit une subvention ... et prend un Florin de la trésorerie »."""
    top = water(n=5)
    events, state = take_turn(cross_layout(), water(n=0), (1, 1), water_pile=(top, water(n=6)))
    assert of_type(events, ev.CardDrawn) == [ev.CardDrawn(RED, top, "water")]
    assert of_type(events, ev.IncomePaid) == [ev.IncomePaid(RED, 1)]
    assert state.money == (5, 5) and state.treasury == 10  # black passed: +1 too
    assert GAME.view(state, BLACK)["water_pile"]["size"] == 1
    assert GAME.view(state, BLACK)["water_pile"]["top"]["number"] == water(n=6)


def test_no_income_when_treasury_empty():
    """« S'il n'y a plus d'argent dans la trésorerie, il ne reçoit rien. »"""
    events, state = take_turn(cross_layout(), water(n=0), (1, 1), money=(10, 10), treasury=0)
    assert not of_type(events, ev.IncomePaid)
    assert state.money == (10, 10)


def test_no_income_for_a_dock():
    events, _ = take_turn(cross_layout(), dock(RED, "wine"), (1, 1))
    assert not of_type(events, ev.IncomePaid)


def test_exhausted_pile_fewer_cards():
    """« Si une pile de carte vient à s'épuiser, il n'est plus possible de tirer ce type de
    carte, et le joueur aura en conséquence des cartes en moins dans la main. »"""
    extra = ((dock(RED, "tea"), water(n=1)), ())
    events, state = take_turn(
        cross_layout(), dock(RED, "wine"), (1, 1), extra=extra, dock_piles=((), ())
    )
    assert not of_type(events, ev.CardDrawn)
    assert len(state.hands[RED]) == 2
    events, state = take_turn(cross_layout(), water(n=0), (1, 1), extra=extra, water_pile=())
    assert not of_type(events, ev.CardDrawn)
    assert of_type(events, ev.IncomePaid)  # the canal is still paid


def test_drawn_card_was_public():
    """The piles are « face visible »: the drawn card was the visible top card."""
    top = dock(RED, "spice")
    events, _ = take_turn(cross_layout(), dock(RED, "wine"), (1, 1), dock_piles=((top,), ()))
    drawn = of_type(events, ev.CardDrawn)[0]
    assert GAME.redact_event(drawn, BLACK)["card"] == top
    assert PlaceCard  # (imported for symmetry with other modules)
