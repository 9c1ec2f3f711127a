"""Phase 4) Expédition."""

from __future__ import annotations

from dataclasses import replace

import pytest

from domain.decider import RuleViolation
from domain.speicherstadt import GAME
from domain.speicherstadt.commands import (
    BuyCard,
    DeliverCube,
    EndShipping,
    KeepCube,
    MarketConvert,
    MarketSell,
    RefuseCard,
    RetrieveCube,
    SellCube,
    StoreCube,
)
from domain.speicherstadt.events import ShippingEnded, ShippingStarted
from domain.speicherstadt.scoring import score_seat
from domain.speicherstadt.state import PURCHASE, SHIPPING, Column, SeatState
from tests.refusals import refused

from .helpers import act, fresh_seats, new_game

BLUE = 0
LEFT, RIGHT = "A-contract-1", "C-contract-3"  # (saffron, carpet) 5; (coffee, tea, rubber, carpet) 11


def _shipping(seat0: SeatState, seats: int = 3, reserve=(0, 0, 0, 0, 0), others=()):
    state = new_game(seats)
    rest = list(fresh_seats(seats))
    for i, s in others:
        rest[i] = s
    rest[0] = seat0
    return replace(state, phase=SHIPPING, shipping=frozenset({0, *(i for i, _ in others)}),
                   seats=tuple(rest), reserve=reserve, offer=())


def _blue(reserve=(1, 0, 0, 0, 0)):
    blue = SeatState(coins=0, cards=("A-tea-trader", LEFT, RIGHT, "B-ship-1", "B-ship-2"),
                     contracts=((LEFT, ("saffron",)), (RIGHT, ())),
                     loose=("tea", "tea", "saffron", "rubber", "rubber", "carpet"))
    return _shipping(blue, reserve=reserve)


def test_rulebook_example_blue():
    """« Exemple: Bleu achète 2 navires ... Il place 1 caoutchouc et 1 thé sur son contrat
    de droite ... Bleu décide de placer le tissu sur son marché ... Bleu vend le thé au
    dégustateur de thé et reçoit 1 pièce de la réserve. Il vend son caoutchouc et son safran
    au marché et reçoit 1 pièce de plus de la réserve »."""
    state = _blue()
    # the alternatives the example names are legal
    legal = GAME.legal_commands(state, BLUE)
    assert DeliverCube(good="carpet", contract=LEFT) in legal  # would complete: 5 points
    assert MarketConvert(first="tea", second="saffron", third="rubber", take="coffee") in legal
    for command in (DeliverCube(good="rubber", contract=RIGHT),
                    DeliverCube(good="tea", contract=RIGHT), KeepCube(good="carpet"),
                    SellCube(good="tea"), MarketSell(first="saffron", second="rubber")):
        state, _ = act(state, BLUE, command)
    blue = state.seats[BLUE]
    assert blue.coins == 2 and blue.market == ("carpet",) and blue.loose == ()
    assert dict(blue.contracts)[RIGHT] == ("tea", "rubber")
    state, events = act(state, BLUE, EndShipping())
    assert events[0] == ShippingEnded(seat=BLUE, lost=())


def test_carpet_completes_the_left_contract_for_5_points():
    """« Il peut placer le tissu sur le contrat de gauche; ce qui compléterait le contrat et
    lui rapporterait 5 points à la fin de la partie »."""
    state, _ = act(_blue(), BLUE, DeliverCube(good="carpet", contract=LEFT))
    assert score_seat(state.seats[BLUE]).contracts == 5


def test_contract_takes_matching_goods_only_never_back():
    """« Le type de marchandise doit correspondre à la carte Contrat ... Vous ne pouvez pas
    retirer les cubes Marchandise qui ont déjà été placés sur des contrats »."""
    state = _blue()
    with pytest.raises(RuleViolation) as err:
        act(state, BLUE, DeliverCube(good="tea", contract=LEFT))
    assert err.value.code == "speicherstadt.contract_goods"
    with refused("speicherstadt.contract_goods"):
        act(state, BLUE, DeliverCube(good="saffron", contract=LEFT))  # already filled
    legal = GAME.legal_commands(state, BLUE)
    assert not any(isinstance(c, RetrieveCube) for c in legal)  # nothing takes a cube back


def test_traders_buy_their_good_for_one_coin_to_the_reserve():
    """« Chaque marchand paye 1 pièce par cube Marchandise du type de marchandise illustré
    sur sa carte ... Placez les marchandises vendues dans la réserve »."""
    state = _blue()
    with pytest.raises(RuleViolation) as err:
        act(state, BLUE, SellCube(good="rubber"))
    assert err.value.code == "speicherstadt.no_trader"
    state, _ = act(state, BLUE, SellCube(good="tea"))
    assert state.seats[BLUE].coins == 1 and state.reserve[1] == 1


def test_warehouse_owner_only_at_most_four():
    """« Pendant l'expédition vous pouvez placer des cubes Marchandise dans votre entrepôt
    ou les retirer ... il ne peut pas y avoir plus de 4 cubes dans un entrepôt »."""
    state = _blue()
    assert not any(isinstance(c, StoreCube) for c in GAME.legal_commands(state, BLUE))
    seat = replace(state.seats[BLUE], cards=state.seats[BLUE].cards + ("A-warehouse",),
                   warehouse=("coffee", "coffee", "tea"))
    state = replace(state, seats=(seat,) + state.seats[1:])
    state, _ = act(state, BLUE, StoreCube(good="rubber"))
    assert len(state.seats[BLUE].warehouse) == 4
    assert not any(isinstance(c, StoreCube) for c in GAME.legal_commands(state, BLUE))
    with pytest.raises(RuleViolation) as err:
        act(state, BLUE, StoreCube(good="rubber"))
    assert err.value.code == "speicherstadt.warehouse_full"
    state, _ = act(state, BLUE, RetrieveCube(good="coffee", place="warehouse"))
    assert state.seats[BLUE].warehouse == ("coffee", "tea", "rubber")
    # stored cubes may be used later
    state, _ = act(state, BLUE, DeliverCube(good="coffee", contract=RIGHT))


def test_market_convert_three_for_one_from_the_reserve():
    """« Convertir: Placez 3 cubes Marchandise de votre choix sur la réserve et prenez 1
    autre cube Marchandise de votre choix de la réserve. Note: Vous ne devez pas tirer des
    cubes Marchandise du sac ni en remettre dans le sac! »"""
    state = _blue(reserve=(1, 0, 0, 0, 0))
    bag = state.bag
    state, _ = act(state, BLUE, MarketConvert(first="tea", second="saffron", third="rubber",
                                              take="coffee"))
    blue = state.seats[BLUE]
    assert sorted(blue.loose) == sorted(("tea", "rubber", "carpet", "coffee"))
    assert state.reserve == (0, 1, 1, 1, 0) and state.bag == bag
    # the reserve has no coffee left: coffee cannot be taken
    with pytest.raises(RuleViolation) as err:
        act(state, BLUE, MarketConvert(first="tea", second="rubber", third="carpet", take="coffee"))
    assert err.value.code == "speicherstadt.reserve_empty"


def test_market_sell_two_for_one_coin_and_keep_one():
    """« Vendre: Placez 2 cubes Marchandise de votre choix dans la réserve et prenez 1
    pièce » and « Conserver: Vous ne pouvez pas garder plus d'un cube Marchandise sur votre
    marché »."""
    state = _blue()
    state, _ = act(state, BLUE, MarketSell(first="rubber", second="rubber"))
    assert state.seats[BLUE].coins == 1
    state, _ = act(state, BLUE, KeepCube(good="carpet"))
    assert not any(isinstance(c, KeepCube) for c in GAME.legal_commands(state, BLUE))
    with pytest.raises(RuleViolation) as err:
        act(state, BLUE, KeepCube(good="tea"))
    assert err.value.code == "speicherstadt.market_full"


def test_unused_cubes_go_to_the_reserve_not_the_bag():
    """« Tout cube Marchandise inutilisé est perdu. Placez le dans la réserve des
    Marchandises ...: ne les remettez pas dans le sac! »"""
    state = _blue(reserve=(0, 0, 0, 0, 0))
    bag = state.bag
    state, events = act(state, BLUE, EndShipping())
    assert sorted(events[0].lost) == sorted(("tea", "tea", "saffron", "rubber", "rubber", "carpet"))
    assert state.reserve == (0, 2, 1, 2, 1) and state.bag == bag


def test_every_seat_ships_at_once_and_ends_explicitly():
    """« Le premier joueur commence, les autres suivent dans le sens horaire. (Pour
    accélérer le rythme, vous pouvez tous le faire en même temps.) »"""
    other = SeatState(coins=0, loose=("coffee", "tea", "tea"))
    state = _shipping(SeatState(coins=0, loose=("tea",)), others=((2, other),))
    assert GAME.to_act(state) == (0, 2)
    state, _ = act(state, 2, KeepCube(good="coffee"))
    state, _ = act(state, 2, EndShipping())
    assert GAME.to_act(state) == (0,)
    state, events = act(state, 0, EndShipping())
    assert type(events[-1]).__name__ in ("SupplyCompleted", "GameEnded")
    assert state.seats[2].market == ("coffee",)


def test_bought_ship_is_unloaded_and_shipping_only_with_work():
    """« Si vous avez acheté un ou plusieurs navires lors de cette manche, vous avez besoin
    de les décharger. Retirez toutes les marchandises des navires »; the phase « survient
    pour la première fois lors du Printemps (B), dès que le premier navire a été acheté »."""
    state = new_game(3)
    state = replace(state, phase=PURCHASE, purchase_column=0, seats=fresh_seats(3),
                    offer=(Column("B-ship-1", workers=(1,), cubes=("tea", "carpet", "tea")),))
    state, events = act(state, 1, BuyCard())
    assert isinstance(events[-1], ShippingStarted) and events[-1].seats == (1,)
    assert state.seats[1].loose == ("tea", "tea", "carpet")
    assert GAME.to_act(state) == (1,)


def test_only_your_own_contract_cards():
    """« Chaque carte peut seulement être utilisée par le joueur qui l'a achetée »."""
    state = _blue()
    with pytest.raises(RuleViolation) as err:
        act(state, BLUE, DeliverCube(good="coffee", contract="B-contract-1"))
    assert err.value.code == "speicherstadt.not_your_contract"


def test_stored_cubes_serve_contracts_traders_and_the_market():
    """Contrat: « n'importe quel nombre de cubes Marchandise de vos navires, de votre
    entrepôt, ou de votre marché »; Marchand: « de vos navires, de votre entrepôt, ou de
    votre marché »; the warehouse keeps cubes « pour les utiliser dans des manches
    suivantes »."""
    seat = SeatState(coins=0, cards=("A-warehouse", "A-tea-trader", "A-contract-2"),
                     contracts=(("A-contract-2", ()),), market=("coffee",),
                     warehouse=("tea", "tea", "rubber", "carpet"))
    state = _shipping(seat)
    state, events = act(state, BLUE, DeliverCube(good="coffee", contract="A-contract-2"))
    assert events[0].source == "market" and state.seats[BLUE].market == ()
    state, events = act(state, BLUE, SellCube(good="tea"))
    assert events[0].source == "warehouse" and state.seats[BLUE].coins == 1
    state, events = act(state, BLUE, MarketSell(first="rubber", second="carpet"))
    assert events[0].sources == ("warehouse", "warehouse") and state.seats[BLUE].coins == 2
    assert state.seats[BLUE].warehouse == ("tea",)


def test_a_seat_with_nothing_to_do_is_skipped_and_so_is_the_phase():
    """« Cette phase survient pour la première fois lors du Printemps (B), dès que le
    premier navire a été acheté »: no cube anywhere, no shipping phase; a seat whose only
    cube is kept on its market and who can do nothing with it is not asked."""
    state = new_game(3)
    state = replace(state, phase=PURCHASE, purchase_column=0, seats=fresh_seats(3),
                    offer=(Column("A-office", workers=(0,)),))
    _, events = act(state, 0, BuyCard())
    assert "ShippingStarted" not in [type(e).__name__ for e in events]
    seats = list(fresh_seats(3))
    seats[2] = SeatState(coins=5, market=("tea",))
    state = replace(state, seats=tuple(seats),
                    offer=(Column("B-ship-1", workers=(1,), cubes=("coffee", "tea", "tea")),))
    _, events = act(state, 1, BuyCard())
    started = next(e for e in events if isinstance(e, ShippingStarted))
    assert started.seats == (1,)


def test_the_market_cube_may_go_into_the_warehouse():
    """Entrepôt: « Lors de la phase 4) Expédition, vous pouvez placer des cubes Marchandise
    dans votre entrepôt » and « A la fin de la partie, vous recevrez 1 point pour chaque cube
    Marchandise dans votre entrepôt »: a warehouse owner whose only cube is on its market is
    asked, and may move it into the warehouse."""
    state = new_game(3)
    seats = list(fresh_seats(3))
    seats[2] = SeatState(coins=5, cards=("A-warehouse",), market=("tea",))
    state = replace(state, phase=PURCHASE, purchase_column=0, seats=tuple(seats),
                    offer=(Column("B-ship-1", workers=(1,), cubes=("coffee", "tea", "tea")),))
    state, events = act(state, 1, BuyCard())
    assert next(e for e in events if isinstance(e, ShippingStarted)).seats == (1, 2)
    assert RetrieveCube(good="tea", place="market") in GAME.legal_commands(state, 2)
    state, _ = act(state, 2, RetrieveCube(good="tea", place="market"))
    state, _ = act(state, 2, StoreCube(good="tea"))
    assert state.seats[2].warehouse == ("tea",) and state.seats[2].market == ()
    assert score_seat(state.seats[2]).warehouse == 1


def test_shipping_comes_every_round_once_cubes_exist():
    """« Cette phase survient pour la première fois lors du Printemps (B) »: afterwards it
    comes each round for whoever can use its stored cubes, even without a ship bought."""
    seat = SeatState(coins=0, cards=("A-coffee-trader",), market=("coffee",))
    state = new_game(3)
    seats = list(fresh_seats(3))
    seats[0] = seat
    state = replace(state, phase=PURCHASE, purchase_column=0, seats=tuple(seats),
                    offer=(Column("A-office", workers=(1,)),))
    state, events = act(state, 1, RefuseCard())
    assert next(e for e in events if isinstance(e, ShippingStarted)).seats == (0,)
    state, _ = act(state, 0, SellCube(good="coffee"))
    assert state.seats[0].coins == 1 and state.reserve[0] == 1


def test_no_command_moves_anything_between_players():
    """« Attention: vous ne pouvez pas commercer ou échanger entre vous - ni des pièces ni
    des marchandises ni des cartes Commerce! »: no command names another seat."""
    from dataclasses import fields

    for command_type in GAME.command_types:
        assert not {f.name for f in fields(command_type)} & {"seat", "to", "target", "player"}
