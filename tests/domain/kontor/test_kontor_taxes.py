"""Impôts: every case."""

from __future__ import annotations

from domain.kontor.core import events as ev
from domain.kontor.core.commands import ChooseCard, Pass

from .helpers import BLACK, RED, choose, dock, given, of_type, started, water

RED_FLORIN = dock(RED, "tea", florin=True)
BLACK_FLORIN = dock(BLACK, "tea", florin=True)
RED_PLAIN = dock(RED, "wine")
BLACK_PLAIN = dock(BLACK, "wine")


def _state(money=(4, 4), treasury=12):
    hands = (
        (RED_FLORIN, RED_PLAIN, water(n=0)),
        (BLACK_FLORIN, BLACK_PLAIN, water(n=1)),
    )
    return given(started(hands=hands, money=money, treasury=treasury))


def test_single_florin_opponent_pays_treasury():
    """« si la carte jouée par un joueur comporte un florin, l'adversaire du joueur doit
    immédiatement payer un florin à la trésorerie de la ville » (« pas à votre adversaire »)."""
    events, state = choose(_state(), ChooseCard(RED_FLORIN), ChooseCard(BLACK_PLAIN))
    assert of_type(events, ev.TaxPaid) == [ev.TaxPaid(BLACK, 1)]
    assert state.money == (4, 3) and state.treasury == 13
    assert sorted(state.order) == [RED, BLACK]


def test_both_florin_both_pay():
    """Each florin card taxes the other player: both pay one florin."""
    events, state = choose(_state(), ChooseCard(RED_FLORIN), ChooseCard(BLACK_FLORIN))
    assert sorted(e.seat for e in of_type(events, ev.TaxPaid)) == [RED, BLACK]
    assert state.money == (3, 3) and state.treasury == 14


def test_cannot_pay_takes_card_back_and_turn_is_over():
    """« S'il ne peut payer, il perd le droit de jouer à ce tour et reprend donc sa carte en
    main. »"""
    events, state = choose(
        _state(money=(4, 0), treasury=16), ChooseCard(RED_FLORIN), ChooseCard(BLACK_PLAIN)
    )
    assert of_type(events, ev.CardReturned) == [ev.CardReturned(BLACK, BLACK_PLAIN, "tax_unpaid")]
    assert not of_type(events, ev.TaxPaid)
    assert BLACK_PLAIN in state.hands[BLACK] and len(state.hands[BLACK]) == 3
    assert state.order == (RED,)
    assert state.money == (4, 0)


def test_card_taken_back_with_florin_cancels_opponent_tax():
    """« Si la carte que vous reprenez en main montrait un florin, votre adversaire n'a plus
    à payer l'impôt. »"""
    events, state = choose(
        _state(money=(4, 0), treasury=16), ChooseCard(RED_FLORIN), ChooseCard(BLACK_FLORIN)
    )
    assert of_type(events, ev.CardReturned) == [ev.CardReturned(BLACK, BLACK_FLORIN, "tax_unpaid")]
    assert of_type(events, ev.TaxCancelled) == [ev.TaxCancelled(RED)]
    assert not of_type(events, ev.TaxPaid)
    assert state.money == (4, 0) and state.order == (RED,)


def test_both_unable_are_exempt_receive_a_florin_and_still_place():
    """« Si les deux joueurs doivent payer l'impôt et qu'aucun d'eux ne le peut, ils en sont
    alors tous deux dispensés, et reçoivent au contraire un florin de la trésorerie. »
    Reading (kontor.fr.txt wins over the second translation's « ils reprennent leurs cartes
    en main »): exempt means the penalty of not paying does not apply -- both still place."""
    events, state = choose(
        _state(money=(0, 0), treasury=20), ChooseCard(RED_FLORIN), ChooseCard(BLACK_FLORIN)
    )
    assert of_type(events, ev.TaxWaived) == [ev.TaxWaived((RED, BLACK), (1, 1))]
    assert not of_type(events, ev.CardReturned)
    assert state.money == (1, 1) and state.treasury == 18
    assert sorted(state.order) == [RED, BLACK]


def test_passer_is_spared_all_tax():
    """« Un joueur qui passe de cette manière ne peut être soumis à aucun impôt pendant ce
    tour. »"""
    events, state = choose(_state(), Pass(), ChooseCard(BLACK_FLORIN))
    assert not of_type(events, ev.TaxPaid)
    assert state.money == (5, 4) and state.treasury == 11
    assert state.order == (BLACK,)


def test_broke_passer_facing_florin_keeps_nothing_to_pay():
    """A passer with no money is not taxed either (« aucun impôt »)."""
    events, state = choose(_state(money=(0, 4), treasury=16), Pass(), ChooseCard(BLACK_FLORIN))
    assert not of_type(events, ev.CardReturned) and not of_type(events, ev.TaxPaid)
    assert state.money == (1, 4)


def test_water_florin_also_taxes():
    """« Certaines cartes présentent ... une pièce de monnaie » -- canals too."""
    hands = ((water(florin=True), RED_PLAIN), (BLACK_PLAIN, water(n=1)))
    state = given(started(hands=hands))
    events, state = choose(state, ChooseCard(water(florin=True)), ChooseCard(BLACK_PLAIN))
    assert of_type(events, ev.TaxPaid) == [ev.TaxPaid(BLACK, 1)]
