"""Phase 3) Achat."""

from __future__ import annotations

from dataclasses import replace

import pytest

from domain.decider import RuleViolation
from domain.speicherstadt import GAME
from domain.speicherstadt.commands import BuyCard, RefuseCard
from domain.speicherstadt.events import CardBought, CardDiscarded, CardRefused
from domain.speicherstadt.state import PURCHASE, Column

from .helpers import act, fresh_seats, new_game, types

BEIGE, ORANGE, VIOLET = 0, 1, 2


def _purchase(offer, coins=10, seats=3):
    state = new_game(seats)
    return replace(state, phase=PURCHASE, offer=tuple(offer), purchase_column=0,
                   seats=fresh_seats(seats, coins))


def test_rulebook_example_4_3_2_1():
    """« Exemple: Beige peut acheter la carte pour 4 pièces. Si Beige refuse, Orange peut
    l'acheter pour 3 pièces. Si Orange refuse aussi, Beige a à nouveau le choix, mais cette
    fois pour 2 pièces. Si Beige refuse encore, Violet peut acheter la carte pour 1 pièce »."""
    state = _purchase([Column("A-office", workers=(BEIGE, ORANGE, BEIGE, VIOLET)),
                       Column("A-warehouse", workers=(ORANGE,))])
    seen = []
    for expected_seat in (BEIGE, ORANGE, BEIGE):
        assert GAME.to_act(state) == (expected_seat,)
        seen.append(GAME.view(state, None)["current_offer"]["price"])
        state, events = act(state, expected_seat, RefuseCard())
        assert isinstance(events[0], CardRefused)
    assert GAME.to_act(state) == (VIOLET,)
    seen.append(GAME.view(state, None)["current_offer"]["price"])
    assert seen == [4, 3, 2, 1]
    state, events = act(state, VIOLET, BuyCard())
    assert events[0] == CardBought(seat=VIOLET, column=0, card="A-office", price=1)
    assert state.seats[VIOLET].coins == 9 and "A-office" in state.seats[VIOLET].cards
    assert GAME.to_act(state) == (ORANGE,)  # next card, left to right


def test_buyer_pays_the_number_of_workers_and_workers_return():
    """« S'il l'achète, il paye autant de pièces à la réserve que le nombre total
    d'ouvriers au-dessus de la carte ... Tous les ouvriers dans la ligne au-dessus de la
    carte sont rendus à leur propriétaire »."""
    state = _purchase([Column("A-office", workers=(ORANGE, BEIGE, VIOLET)),
                       Column("A-warehouse", workers=(BEIGE,))])
    state, _ = act(state, ORANGE, BuyCard())
    assert state.seats[ORANGE].coins == 7
    assert state.offer[0].workers == () and state.offer[0].buyer == ORANGE
    assert GAME.to_act(state) == (BEIGE,)


def test_cannot_pay_must_refuse():
    """« Si le joueur ne veut pas ou ne peut pas payer la carte, il reprend son ouvrier »."""
    state = _purchase([Column("A-office", workers=(BEIGE, ORANGE, VIOLET))], coins=2)
    assert GAME.legal_commands(state, BEIGE) == [RefuseCard()]
    with pytest.raises(RuleViolation) as err:
        act(state, BEIGE, BuyCard())
    assert err.value.code == "speicherstadt.cannot_pay"
    state, _ = act(state, BEIGE, RefuseCard())
    assert state.offer[0].workers == (ORANGE, VIOLET)
    assert BuyCard() in GAME.legal_commands(state, ORANGE)


def test_nobody_buys_or_no_worker_discarded():
    """« Si personne ne veut l'acheter, placez-la sur la défause. Faites de même s'il n'y a
    pas d'ouvrier au-dessus de la carte. Ensuite, passez à la carte suivante »."""
    state = _purchase([Column("A-office", workers=(BEIGE,)), Column("A-warehouse"),
                       Column("B-ship-1", cubes=("tea", "tea", "rubber")),
                       Column("A-fireman-1", workers=(VIOLET,))])
    state, events = act(state, BEIGE, RefuseCard())
    assert types(events) == ["CardRefused", "CardDiscarded", "CardDiscarded", "CardDiscarded"]
    assert [e.card for e in events if isinstance(e, CardDiscarded)] == ["A-office", "A-warehouse",
                                                                     "B-ship-1"]
    assert {"A-office", "A-warehouse", "B-ship-1"} <= set(state.discard)
    # an unsold ship's cubes go to the reserve, not back to the bag
    assert state.reserve[1] == 2 and state.reserve[3] == 1
    assert GAME.to_act(state) == (VIOLET,)


def test_a_seat_may_buy_several_cards():
    """« Le joueur prend ensuite la carte et la place devant lui. A partir de maintenant,
    le joueur peut utiliser la fonction de la carte »: nothing limits purchases per round."""
    state = _purchase([Column("A-office", workers=(BEIGE,)), Column("A-warehouse", workers=(BEIGE,))])
    state, _ = act(state, BEIGE, BuyCard())
    state, _ = act(state, BEIGE, BuyCard())
    assert {"A-office", "A-warehouse"} <= set(state.seats[BEIGE].cards)


def test_a_bought_card_works_at_once_bank_and_contract():
    """« A partir de maintenant, le joueur peut utiliser la fonction de la carte »: the Bank
    bought this round pays in this round's income (« vous recevez 2 pièces si vous avez au
    moins acheté une carte Commerce lors de cette manche »), and a Contract bought this round
    takes the cubes of a ship bought after it in the same round."""
    from domain.speicherstadt.commands import DeliverCube, EndShipping
    from domain.speicherstadt.events import RoundEnded

    state = _purchase([Column("C-bank", workers=(BEIGE,)),
                       Column("A-contract-2", workers=(ORANGE,)),
                       Column("B-ship-1", workers=(ORANGE,), cubes=("coffee", "tea", "rubber"))],
                      coins=5)
    state, _ = act(state, BEIGE, BuyCard())
    state, _ = act(state, ORANGE, BuyCard())
    state, _ = act(state, ORANGE, BuyCard())
    assert GAME.to_act(state) == (ORANGE,)
    state, _ = act(state, ORANGE, DeliverCube(good="coffee", contract="A-contract-2"))
    state, _ = act(state, ORANGE, DeliverCube(good="tea", contract="A-contract-2"))
    state, events = act(state, ORANGE, EndShipping())
    income = next(e for e in events if isinstance(e, RoundEnded)).income
    assert income == (2, 1, 2)  # Beige: 1 + the bank; Orange bought; Violet: 1 + 1
    assert dict(state.seats[ORANGE].contracts)["A-contract-2"] == ("coffee", "tea")


def test_the_price_is_paid_to_the_reserve_not_to_other_players():
    """« il paye autant de pièces à la réserve que le nombre total d'ouvriers au-dessus de
    la carte »: the other seats in the column gain nothing."""
    state = _purchase([Column("A-office", workers=(BEIGE, ORANGE, VIOLET)),
                       Column("A-warehouse", workers=(VIOLET,))], coins=5)
    state, _ = act(state, BEIGE, BuyCard())
    assert [s.coins for s in state.seats] == [2, 5, 5]
    assert GAME.to_act(state) == (VIOLET,)
