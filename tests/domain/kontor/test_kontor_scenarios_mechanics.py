"""Kontor scenarios with their own mechanics: Bakchich (bribes), Embargo (personal
supplies), Euphrate (sunken warehouses), Grande marée (second canal), Vitesse and Tic Tac
Toe (early ends)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from domain.decider import NotYourTurn, RuleViolation
from domain.kontor import GAME
from domain.kontor.core import events as ev
from domain.kontor.core.commands import ChooseCard, MoveShip, Pass, PlaceCard
from domain.kontor.core.data import CARDS
from domain.kontor.core.decide import legal_commands, to_act
from domain.kontor.core.state import ScoredSector, part
from domain.kontor.scenarios.baksheesh import BaksheeshState, Bribe, DockBribed
from domain.kontor.scenarios.data import LAYOUTS
from domain.kontor.scenarios.decisions import DecisionsState, PlaceSunkenWarehouse, SecondCanal
from domain.kontor.scenarios.embargo import supply
from domain.kontor.scenarios.euphrates import (
    EuphratesState,
    SunkenWarehousePlaced,
    SunkenWarehouseRaised,
    SunkenWarehouseUsed,
    reserve,
    surrounded,
)
from domain.kontor.scenarios.spring_tide import (
    SecondCanalDeclined,
    SecondCanalOffered,
    SecondCanalPlaced,
)
from tests.refusals import refused

from .helpers import BLACK, RED, choose, given, of_type, started, then, types, when, with_warehouses
from .test_kontor_scenarios import CROSS, goods_dock, ids, layout, opts, red_plays, spare_water


def red_dock(n: int = 0, count: int = 1, good=None) -> int:
    return goods_dock(RED, n, good, count)


def black_dock(n: int = 0, count: int = 1, good=None) -> int:
    return goods_dock(BLACK, n, good, count)


def spare(owner: int) -> int:
    """A dock kept in hand (spice, spice: used nowhere else in these tests)."""
    return ids(lambda c: c.owner == owner and c.goods == ("spice", "spice"))[0]


# ---------------------------------------------------------------------------------------
# Bakchich


def bribe_state(docks, money=(3, 3), treasury=14, pre=()):
    lay = layout(CROSS, docks)
    hands = ((spare(RED), spare_water(0)), (spare(BLACK), spare_water(1)))
    return lay, given(
        started(lay, hands=hands, money=money, treasury=treasury, options=opts("baksheesh")),
        *with_warehouses(lay),
        *pre,
    )


def test_bribe_buys_back_an_opponent_goods_dock():
    """« Avant de choisir la carte, au début du tour, chaque joueur peut "racheter" un dock
    de son choix, contenant au moins une marchandise et appartenant à son adversaire ...
    avec deux marchandises 2 florins ... Placez le dessous de table dans la trésorerie de
    la ville et la carte retirée est remise sous la pile de son propriétaire. »"""
    target = black_dock(0, count=2)
    lay, state = bribe_state({(1, 1): target})
    assert Bribe(1, 1) in legal_commands(state, RED)
    events, state = then(state, RED, Bribe(1, 1))
    assert events == [DockBribed(RED, target, 1, 1, 2, BLACK)]
    assert state.money == (1, 3) and state.treasury == 16
    assert (1, 1) not in {(c.x, c.y) for c in state.board}
    assert target not in state.warehouses
    assert state.dock_piles[BLACK][-1] == target
    # still before choosing; once a round
    assert RED in to_act(state)
    assert not [c for c in legal_commands(state, RED) if isinstance(c, Bribe)]
    with pytest.raises(RuleViolation) as err:
        when(state, RED, Bribe(1, 1))
    assert err.value.code == "kontor.not_bribable"
    v = GAME.view(state, BLACK)
    assert v["scenario"]["bribed"] == [True, False]
    assert v["players"][BLACK]["dock_pile"]["known_bottom"] == [target]


def test_bribe_cost_is_the_number_of_goods_and_no_credit():
    """« Un dock contenant une marchandise coûte une pièce de monnaie, avec deux
    marchandises 2 florins et avec trois 3 florins. » ; « gare à la faillite » (no
    credit)."""
    three = black_dock(0, count=3)
    one = black_dock(0, count=1)
    _, state = bribe_state({(1, 1): three, (-1, -1): one}, money=(2, 3), treasury=15)
    legal = [c for c in legal_commands(state, RED) if isinstance(c, Bribe)]
    assert legal == [Bribe(-1, -1)]
    events = when(state, RED, Bribe(-1, -1))
    assert events[0].cost == 1


def test_bribe_not_own_dock_nor_dock_without_goods_nor_finished_sector():
    """« appartenant à son adversaire » ; « contenant au moins une marchandise » ; « Les
    secteurs terminés restent intouchables. »"""
    tavern = ids(lambda c: c.owner == BLACK and c.tavern)[0]
    mine = red_dock(0)
    done = black_dock(1)
    scored = ev.SectorScored(((2, 2),), ((0, 0, 0), (0, 0, 0)), BLACK, "highest", (2, 2), 1, ())
    _, state = bribe_state({(1, 1): tavern, (-1, -1): mine, (2, 2): done}, pre=(scored,))
    assert not [c for c in legal_commands(state, RED) if isinstance(c, Bribe)]
    for x, y in ((1, 1), (-1, -1), (2, 2)):
        with refused("kontor.not_bribable"):
            when(state, RED, Bribe(x, y))


def test_bribe_only_before_choosing():
    """« Avant de choisir la carte »."""
    _, state = bribe_state({(1, 1): black_dock(0)})
    _, state = then(state, RED, ChooseCard(spare(RED)))
    assert RED not in to_act(state)
    with pytest.raises(NotYourTurn):
        when(state, RED, Bribe(1, 1))


def test_bribe_flag_resets_each_round():
    """« au début du tour, chaque joueur peut » -- once in every round."""
    _, state = bribe_state({(1, 1): black_dock(0), (-1, -1): black_dock(1)})
    _, state = then(state, RED, Bribe(1, 1))
    _, state = choose(state, Pass(), Pass())
    assert state.round == 2 and part(state, BaksheeshState).bribed == (False, False)
    assert Bribe(-1, -1) in legal_commands(state, RED)


# ---------------------------------------------------------------------------------------
# Embargo


def test_embargo_no_warehouse_when_the_supply_is_empty():
    """« Chaque joueur reçoit au début de la partie 4 entrepôts de chaque couleur ... Si un
    joueur pose un dock pour lequel il n'a plus d'entrepôt correspondant dans ses
    réserves, il ne peut donc pas placer d'entrepôt. »"""
    o = opts("embargo")
    teas = ids(
        lambda c: c.owner == RED and c.kind == "dock" and c.goods and set(c.goods) == {"tea"}
    )
    on_board = {(-2, -2): teas[0], (-2, 2): teas[1], (2, -2): teas[2]}
    lay = layout(CROSS, on_board)
    count = sum(len(CARDS[c].goods) for c in on_board.values())
    assert count >= 3
    tea_wine = ids(lambda c: c.owner == RED and c.kind == "dock" and c.goods == ("tea", "wine"))[0]
    state = red_plays(lay, tea_wine, o, extra_red=(spare_water(0),), pre=with_warehouses(lay))
    left = supply(state, RED)
    assert left["tea"] == 4 - count
    events, state = then(state, RED, PlaceCard(1, 1))
    added = of_type(events, ev.WarehousesAdded)
    expected = ("tea", "wine") if left["tea"] > 0 else ("wine",)
    assert added and added[0].goods == expected
    assert GAME.view(state, 0)["scenario"]["supply"]["red"]["wine"] == 3


def test_embargo_closing_a_sector_keeps_the_winners_warehouses():
    """« le gagnant ... ses entrepôts restent sur le secteur ... Le perdant ... reprend ses
    entrepôts » ; « En cas d'égalité ... les deux joueurs récupèrent leurs entrepôts »."""
    o = opts("embargo")
    r = ids(lambda c: c.owner == RED and c.kind == "dock" and c.goods == ("wine", "wine"))[0]
    b = ids(lambda c: c.owner == BLACK and c.kind == "dock" and c.goods == ("tea",) and not c.ship)[
        0
    ]
    # sector (1, 1)-(1, 2): canals around except (2, 2)
    lay = layout([*CROSS, (2, 1), (1, 3), (0, 2)], {(1, 1): r, (1, 2): b})
    # (1, 1): (1, 0) canal, (0, 1) canal, (2, 1) canal; (1, 2): (0, 2) canal, (1, 3) canal
    state = red_plays(lay, spare_water(0), o, extra_red=(spare(RED),), pre=with_warehouses(lay))
    events, state = then(state, RED, PlaceCard(2, 2))
    scored = of_type(events, ev.SectorScored)
    assert len(scored) == 1 and scored[0].winner == RED
    assert scored[0].warehouses_returned == (b,)
    assert r in state.warehouses and b not in state.warehouses
    assert supply(state, RED)["wine"] == 2 and supply(state, BLACK)["tea"] == 4


def test_embargo_tie_both_get_warehouses_back():
    """« En cas d'égalité sur un secteur, personne ne marque de point et les deux joueurs
    récupèrent leurs entrepôts. »"""
    o = opts("embargo")
    r = ids(lambda c: c.owner == RED and c.kind == "dock" and c.goods == ("tea",) and not c.ship)[0]
    b = ids(lambda c: c.owner == BLACK and c.kind == "dock" and c.goods == ("tea",) and not c.ship)[
        0
    ]
    lay = layout([*CROSS, (2, 1), (1, 3), (0, 2)], {(1, 1): r, (1, 2): b})
    state = red_plays(lay, spare_water(0), o, extra_red=(spare(RED),), pre=with_warehouses(lay))
    events, state = then(state, RED, PlaceCard(2, 2))
    scored = of_type(events, ev.SectorScored)
    assert scored[0].winner is None and set(scored[0].warehouses_returned) == {r, b}
    assert supply(state, RED)["tea"] == 4 and supply(state, BLACK)["tea"] == 4


def test_embargo_ship_removal_returns_the_warehouse():
    """« Si un dock est enlevé du fait du bateau, le joueur récupère l'entrepôt dans ses
    réserves. »"""
    o = opts("embargo")
    ship_b = ids(
        lambda c: c.owner == BLACK and c.kind == "dock" and c.ship and c.goods and not c.crane
    )[0]
    ship_r = ids(
        lambda c: c.owner == RED and c.kind == "dock" and c.ship and c.goods and not c.florin
    )[1]
    lay = layout(CROSS, {(1, 1): ship_b})
    state = red_plays(lay, ship_r, o, extra_red=(spare_water(0),), pre=with_warehouses(lay))
    before = supply(state, BLACK)
    assert sum(before.values()) == 12 - len(CARDS[ship_b].goods)
    events, state = then(state, RED, MoveShip(1, 0, 1, 1, BLACK))
    assert of_type(events, ev.DockRemoved)
    assert supply(state, BLACK) == {"tea": 4, "wine": 4, "spice": 4}


def test_embargo_ends_when_both_supplies_are_empty():
    """« Si les deux joueurs n'ont plus aucun entrepôt en réserve, la partie se termine
    prématurément. »"""
    o = replace(opts("embargo"), warehouse_supply=1)
    r = ids(
        lambda c: (
            c.owner == RED
            and c.kind == "dock"
            and c.goods == ("tea", "wine", "spice")
            and not c.ship
            and not c.florin
        )
    )[0]
    b = ids(
        lambda c: (
            c.owner == BLACK
            and c.kind == "dock"
            and c.goods == ("tea", "wine", "spice")
            and not c.ship
            and not c.florin
        )
    )[0]
    lay = layout(CROSS, {(-1, -1): b})
    state = red_plays(lay, r, o, extra_red=(spare_water(0),), pre=with_warehouses(lay))
    events, state = then(state, RED, PlaceCard(1, 1))
    assert state.is_over() and state.end_reason == "supplies_empty"
    assert "FinalSectorsCounted" in types(events)


# ---------------------------------------------------------------------------------------
# Euphrate


def euphrates_state(docks, card, sunken=((1, 0, "tea"),), seats=2, extra=()):
    o = opts("euphrates")
    lay = layout(CROSS, docks)
    start = replace(
        started(lay, hands=((card, *extra), (spare_water(5),)), options=o), sunken=sunken
    )
    state = given(start, *with_warehouses(lay))
    _, state = choose(state, ChooseCard(card), Pass())
    return state


def test_euphrates_surrounded_canal_gives_its_warehouse_to_the_last_placer():
    """« Lorsqu'un canal qui contient un entrepôt est entouré de tous côtés, horizontalement
    et verticalement, le joueur qui a mis la dernière carte reçoit en plus l'entrepôt qui
    était noyé. Il peut placer l'entrepôt sur n'importe lequel de ses centres de
    distribution »: a single centre takes it at once."""
    state = euphrates_state(
        {(1, -1): black_dock(0)}, red_dock(0, good="wine"), extra=(spare_water(0),)
    )
    events, state = then(state, RED, PlaceCard(1, 1))
    raised = of_type(events, SunkenWarehouseRaised)
    assert raised == [SunkenWarehouseRaised(RED, 1, 0, "tea", False)]
    placed = of_type(events, SunkenWarehousePlaced)
    assert placed and placed[0].card == red_dock(0, good="wine") and placed[0].good == "tea"
    assert part(state, EuphratesState).sunken == ()
    assert state.goods_map()[red_dock(0, good="wine")] == (
        *CARDS[red_dock(0, good="wine")].goods,
        "tea",
    )
    v = GAME.view(state, None)
    wh = next(w for w in v["board"]["warehouses"] if w["card"] == red_dock(0, good="wine"))
    assert "tea" in wh["goods"]


def test_euphrates_choice_of_centre_in_an_unfinished_sector():
    """« Il peut placer l'entrepôt sur n'importe lequel de ses centres de distribution, mais
    dans un secteur qui n'est pas terminé. »"""
    state = euphrates_state({(1, -1): red_dock(1)}, red_dock(0), extra=(spare_water(0),))
    events, state = then(state, RED, PlaceCard(1, 1))
    assert of_type(events, SunkenWarehouseRaised)[0].pending is True
    assert to_act(state) == (RED,)
    legal = legal_commands(state, RED)
    assert set(legal) == {PlaceSunkenWarehouse(1, -1), PlaceSunkenWarehouse(1, 1)}
    with pytest.raises(RuleViolation) as err:
        when(state, RED, PlaceSunkenWarehouse(-1, -1))
    assert err.value.code == "kontor.sunken_centre"
    with refused("kontor.decision_pending"):
        when(state, RED, Pass())
    events, state = then(state, RED, PlaceSunkenWarehouse(1, -1))
    assert of_type(events, SunkenWarehousePlaced)[0].card == red_dock(1)
    assert part(state, DecisionsState).sunken_pending == () and state.round == 2


def test_euphrates_no_centre_the_warehouse_goes_to_the_reserve():
    """« mais dans un secteur qui n'est pas terminé »: with no such centre, nothing to put
    it on -- it leaves the canal for the reserve."""
    state = euphrates_state({(1, -1): black_dock(0)}, spare_water(0), extra=(red_dock(0),))
    # red closes the last side with a canal; red has no centre
    events, state = then(state, RED, PlaceCard(1, 1))
    assert of_type(events, SunkenWarehouseRaised) == [
        SunkenWarehouseRaised(RED, 1, 0, "tea", False)
    ]
    assert not of_type(events, SunkenWarehousePlaced)
    assert part(state, EuphratesState).sunken == ()


def test_euphrates_edge_counts_as_a_side():
    """« entouré de tous côtés »: a side beyond the port's fixed edge cannot take a card,
    so it counts as closed (as a sector is limited by the board's edge)."""
    o = opts("euphrates")  # 6x6: the canal at (3, 0) makes the layout 6 wide (x -2..3)
    lay = layout([*CROSS, (3, 0)])
    state = given(replace(started(lay, options=o), sunken=((3, 0, "wine"),)))
    cells = {(c.x, c.y): c.card for c in state.board}
    assert not surrounded(state, cells, (3, 0))
    cells[(3, -1)] = red_dock(0)
    assert not surrounded(state, cells, (3, 0))
    cells[(3, 1)] = red_dock(1)
    assert surrounded(state, cells, (3, 0))  # (4, 0) lies beyond the edge


def test_euphrates_reserve_shortage_takes_from_the_canal():
    """« Si les entrepôts viennent à manquer dans les réserves, vers la fin de la partie,
    on peut prendre ceux qui sont encore dans le canal. »"""
    card = red_dock(0, good="wine")
    state = euphrates_state({}, card, sunken=((-1, 0, "wine"),), extra=(spare_water(0),))
    # pretend 15 wine warehouses are out: the reserve is empty of wine
    fake = replace(
        state, goods_override=((red_dock(1), ("wine",) * 15),), warehouses=frozenset({red_dock(1)})
    )
    assert reserve(fake)["wine"] == 0
    events, _ = then(fake, RED, PlaceCard(1, 1))
    assert of_type(events, SunkenWarehouseUsed) == [SunkenWarehouseUsed(-1, 0, "wine")]
    assert "wine" in of_type(events, ev.WarehousesAdded)[0].goods


# ---------------------------------------------------------------------------------------
# Grande marée


def test_spring_tide_second_canal_for_one_florin_without_income():
    """« Lorsqu'on joue un canal, on peut placer immédiatement un deuxième canal, en payant
    un florin à la trésorerie. Le deuxième canal ne rapporte cependant aucun florin. »"""
    o = opts("spring_tide")
    first, second = spare_water(0), spare_water(1)
    lay = layout(CROSS)
    state = red_plays(
        lay, first, o, extra_red=(second, red_dock(0)), water_pile=(spare_water(2), spare_water(3))
    )
    events, state = then(state, RED, PlaceCard(1, 1))
    assert of_type(events, ev.IncomePaid) == [ev.IncomePaid(RED, 1)]
    assert of_type(events, SecondCanalOffered) == [SecondCanalOffered(RED)]
    assert to_act(state) == (RED,)
    legal = legal_commands(state, RED)
    assert SecondCanal() in legal and SecondCanal(second, 1, 2) in legal
    money = state.money[RED]
    events, state = then(state, RED, SecondCanal(second, 1, 2))
    assert of_type(events, SecondCanalPlaced) == [SecondCanalPlaced(RED, second, 1, 2, 1)]
    assert not of_type(events, ev.IncomePaid)
    assert of_type(events, ev.CardDrawn) == [ev.CardDrawn(RED, spare_water(3), "water")]
    assert state.money[RED] == money - 1
    assert second not in state.hands[RED] and state.round == 2


def test_spring_tide_may_decline_and_not_offered_without_money_or_after_a_dock():
    """« on peut placer » -- a choice; « en payant un florin » -- not without one."""
    o = opts("spring_tide")
    lay = layout(CROSS)
    state = red_plays(lay, spare_water(0), o, extra_red=(spare_water(1),))
    _, state = then(state, RED, PlaceCard(1, 1))
    events, state = then(state, RED, SecondCanal())
    assert of_type(events, SecondCanalDeclined) == [SecondCanalDeclined(RED)]
    assert part(state, DecisionsState).second_canal is None and state.round == 2
    # broke and the treasury empty: no offer
    state = red_plays(
        lay, spare_water(0), o, extra_red=(spare_water(1),), money=(0, 4), treasury=0 + 16
    )
    state = replace(state, treasury=0)
    events, state = then(state, RED, PlaceCard(1, 1))
    assert not of_type(events, SecondCanalOffered)
    # a dock: no offer
    state = red_plays(lay, red_dock(0), o, extra_red=(spare_water(1),))
    events, _ = then(state, RED, PlaceCard(1, 1))
    assert not of_type(events, SecondCanalOffered)


# ---------------------------------------------------------------------------------------
# Vitesse and Tic Tac Toe


def test_speed_ends_at_the_first_finished_sector():
    """« La partie est finie dès que le premier secteur est terminé. Le joueur qui a la
    suprématie sur ce secteur est le vainqueur. »"""
    o = opts("speed")
    lay = layout([*CROSS, (2, 1), (1, 2)], {(1, 1): red_dock(0)})
    state = red_plays(lay, spare_water(0), o, extra_red=(red_dock(1),), pre=with_warehouses(lay))
    # (1, 1) has canals at (1, 0), (0, 1), (2, 1), (1, 2): it is closed once red places
    events, state = then(state, RED, PlaceCard(-1, -1))
    assert state.is_over() and state.end_reason == "first_sector"
    assert state.winners == (RED,)
    assert GAME.result(state).winners == (RED,)


def test_tic_tac_toe_three_sectors_in_a_line_win_at_once():
    """« Un joueur qui gagne trois secteurs en ligne, horizontalement, verticalement ou en
    diagonale, gagne la partie. Les secteurs doivent être complètement terminés et
    appartenir à un joueur. Si un joueur réalise l'objectif, le jeu cesse
    immédiatement. »"""
    o = opts("tic_tac_toe")
    # diagonal cases (0, 0), (1, 1) won by red; red closes case (2, 2) at (3, 4)
    pre_scored = [
        ev.SectorScored(((-3, -2),), ((1, 0, 0), (0, 0, 0)), RED, "highest", (-3, -2), 1, ()),
        ev.SectorScored(((0, 1),), ((1, 0, 0), (0, 0, 0)), RED, "highest", (0, 1), 1, ()),
    ]
    docks = {(-3, -2): red_dock(1), (0, 1): red_dock(2)}
    lay = layout([*LAYOUTS["tic_tac_toe"], (4, 4), (3, 5), (4, 5)], docks)
    state = red_plays(lay, red_dock(0), o, extra_red=(spare_water(0),), pre=pre_scored)
    events, state = then(state, RED, PlaceCard(3, 4))
    assert of_type(events, ev.SectorScored)[0].winner == RED
    assert state.is_over() and state.end_reason == "three_in_a_line"
    assert state.winners == (RED,)
    v = GAME.view(state, None)
    owners = {(c["column"], c["row"]): c["owner"] for c in v["scenario"]["cases"]}
    assert owners[(0, 0)] == owners[(1, 1)] == owners[(2, 2)] == "red"


def test_tic_tac_toe_otherwise_most_sectors_win():
    """« Si personne ne parvient à ce résultat, le gagnant est le joueur qui a le plus de
    secteurs. »"""
    o = opts("tic_tac_toe")
    pre_scored = [
        ev.SectorScored(((-3, -2),), ((1, 0, 0), (0, 0, 0)), RED, "highest", (-3, -2), 1, ()),
        ev.SectorScored(((3, -2),), ((0, 0, 0), (1, 0, 0)), BLACK, "highest", (3, -2), 1, ()),
    ]
    docks = {(-3, -2): red_dock(1), (3, -2): black_dock(2)}
    lay = layout([*LAYOUTS["tic_tac_toe"], (4, 4), (3, 5), (4, 5)], docks)
    state = red_plays(lay, red_dock(0), o, extra_red=(spare_water(0),), pre=pre_scored)
    events, state = then(state, RED, PlaceCard(3, 4))
    assert not state.is_over()
    assert state.points == (2, 1)
    assert isinstance(state.scored[-1], ScoredSector)
