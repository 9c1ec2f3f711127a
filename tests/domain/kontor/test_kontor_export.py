"""Expansion « Kontor – l'entrepôt d'exportation » (2 players)."""

from __future__ import annotations

import pytest

from domain.decider import OptionsError, RuleViolation
from domain.kontor import GAME
from domain.kontor.core import events as ev
from domain.kontor.core.commands import ChooseCard, MoveShip, Pass, PlaceCard
from domain.kontor.core.data import CARDS
from domain.kontor.core.options import parse_options
from domain.kontor.core.state import part
from domain.kontor.expansions.export_warehouse import (
    ExportWarehouse,
    ExportWarehouseKept,
    ExportWarehouseReturned,
    WarehouseExported,
)
from domain.kontor.expansions.final_bonuses import FinalBonusesCounted
from domain.kontor.expansions.warehouse_goods import WarehouseGoodsState

from .helpers import (
    BLACK,
    RED,
    cards,
    full_board,
    given,
    of_type,
    placing,
    started,
    take_turn,
    then,
    water,
    when,
)
from .test_kontor_advanced import cross, plain_dock

EXPORT = parse_options({"expansions": ["export_warehouse"]}, 2)
EXPORT_ADV = parse_options({"variant": "advanced", "expansions": ["export_warehouse"]}, 2)


def two_good(owner: int) -> int:
    return next(
        c.id
        for c in CARDS.values()
        if c.kind == "dock" and c.owner == owner and len(set(c.goods)) == 2 and not c.ship
    )


def test_export_is_available_for_two_players_only():
    """« Extension pour 2 joueurs »; « Cette variante peut être combinée avec d'autres
    variantes »."""
    assert EXPORT.export_warehouse and EXPORT_ADV.export_warehouse and EXPORT_ADV.ship
    with pytest.raises(OptionsError) as err:
        parse_options({"variant": "team", "expansions": ["export_warehouse"]}, 4)
    assert "for 2 players" in err.value.errors["expansions"][0]


def test_placing_a_dock_offers_both_ways():
    """« Lorsqu'un joueur place un dock dans un secteur, il peut agir de deux façons au
    choix » : all warehouses as usual, or one good to export (one command per good)."""
    card = two_good(RED)
    _, state = placing(cross(), card, None, options=EXPORT)
    legal = GAME.legal_commands(state, RED)
    places = [c for c in legal if isinstance(c, PlaceCard)]
    exports = [c for c in legal if isinstance(c, ExportWarehouse)]
    assert places and len(exports) == len(places) * len(set(CARDS[card].goods))


def test_one_warehouse_to_export_the_others_to_the_sector():
    """« Soit mettre dans l'entrepôt d'exportation un des entrepôts correspondant aux
    marchandises de la carte. Si la carte indique plusieurs marchandises, un seul entrepôt
    peut être posé à l'exportation. Les autres marchandises sont placées comme auparavant
    sur le centre de distribution »."""
    card = two_good(RED)
    goods = CARDS[card].goods
    _, state = placing(cross(), card, None, options=EXPORT)
    events, state = then(state, RED, ExportWarehouse(1, 1, goods[0]))
    assert of_type(events, WarehouseExported) == [WarehouseExported(RED, card, goods[0])]
    assert of_type(events, ev.WarehousesAdded) == [ev.WarehousesAdded(RED, card, goods[1:])]
    view = GAME.view(state, BLACK)
    assert view["players"][RED]["export_warehouse"][goods[0]] == 1
    sector = next(s for s in view["board"]["sectors"] if {"x": 1, "y": 1} in s["cells"])
    assert sector["warehouses"]["red"][goods[0]] == 0
    assert sector["warehouses"]["red"][goods[1]] == 1
    cell = next(w for w in view["board"]["warehouses"] if w["card"] == card)
    assert cell["goods"] == list(goods[1:])


def test_single_good_dock_may_export_its_only_warehouse():
    """« un des entrepôts correspondant aux marchandises de la carte »: a dock with one good
    sends it to export and leaves nothing in the sector."""
    card = plain_dock(RED, good="tea")
    _, state = placing(cross(), card, None, options=EXPORT)
    events, state = then(state, RED, ExportWarehouse(1, 1, "tea"))
    assert not of_type(events, ev.WarehousesAdded)
    assert card not in state.warehouses and part(state, WarehouseGoodsState).exports[RED] == (1, 0, 0)


def test_only_a_good_of_the_card_may_be_exported():
    """« un des entrepôts correspondant aux marchandises de la carte »."""
    card = plain_dock(RED, good="tea")
    _, state = placing(cross(), card, None, options=EXPORT)
    with pytest.raises(RuleViolation) as err:
        when(state, RED, ExportWarehouse(1, 1, "wine"))
    assert err.value.code == "kontor.export_good"
    _, plain = placing(cross(), card, None)
    assert not [c for c in GAME.legal_commands(plain, RED) if isinstance(c, ExportWarehouse)]
    with pytest.raises(RuleViolation) as err:
        when(plain, RED, ExportWarehouse(1, 1, "tea"))
    assert err.value.code == "kontor.no_export_warehouse"


def _ship_setup(extra_red_dock: bool):
    """Red's ship dock 7 (wine) at (1, 1) exported its wine; black removes it with the ship
    from the canal (1, 0). Optionally red has another wine dock in the same sector."""
    target = next(
        c.id for c in CARDS.values() if c.owner == RED and c.ship and c.goods == ("wine",)
    )
    layout = cross() | {(1, 1): target}
    pre = [WarehouseExported(RED, target, "wine")]
    other = None
    if extra_red_dock:
        other = plain_dock(RED, good="wine")
        layout[(2, 1)] = other
        pre.append(ev.WarehousesAdded(RED, other, ("wine",)))
    ship_card = next(c.id for c in CARDS.values() if c.kind == "water" and c.ship)
    state = given(
        started(layout, hands=((water(n=20),), (ship_card, water(n=21))), options=EXPORT_ADV),
        *pre,
    )
    _, state = then(state, RED, Pass())
    _, state = then(state, BLACK, ChooseCard(ship_card))
    return state, target, other


def test_ship_removal_takes_the_warehouse_from_export_when_none_in_the_sector():
    """« Si un dock est enlevé par le bateau, et que le joueur concerné n'a aucun entrepôt
    correspondant au dock retiré dans le secteur, il doit alors prendre l'entrepôt dans son
    entrepôt d'exportation »."""
    state, target, _ = _ship_setup(extra_red_dock=False)
    assert part(state, WarehouseGoodsState).exports[RED] == (0, 1, 0)
    events, state = then(state, BLACK, MoveShip(1, 0, 1, 1, RED))
    assert of_type(events, ExportWarehouseReturned) == [
        ExportWarehouseReturned(RED, target, "wine")
    ]
    assert part(state, WarehouseGoodsState).exports[RED] == (0, 0, 0) and not part(state, WarehouseGoodsState).export_missing


def test_ship_removal_keeps_the_export_when_the_sector_has_that_good():
    """« C'est le seul cas où il est autorisé à retirer un entrepôt qu'il avait placé à
    l'exportation »: with a wine warehouse of his in the sector, that one leaves instead."""
    state, target, other = _ship_setup(extra_red_dock=True)
    events, state = then(state, BLACK, MoveShip(1, 0, 1, 1, RED))
    assert of_type(events, ExportWarehouseKept) == [
        ExportWarehouseKept(RED, target, "wine", other)
    ]
    assert part(state, WarehouseGoodsState).exports[RED] == (0, 1, 0)
    view = GAME.view(state, None)
    sector = next(s for s in view["board"]["sectors"] if {"x": 2, "y": 1} in s["cells"])
    assert sector["warehouses"]["red"]["wine"] == 0


def test_majorities_per_good_score_one_point_ties_nothing():
    """« A la fin de la partie, on compare combien chacun possède d'entrepôts sur l'entrepôt
    d'exportation ... par type de marchandise. Chaque joueur reçoit respectivement un point
    de victoire pour chaque majorité ... En cas d'égalité, aucun point n'est attribué »."""
    spare = cards("water", None, (), None)[:3]
    layout = full_board(holes=[(3, 3)], spare_water=3)
    red_docks = [c for c in cards("dock", RED, None, None) if CARDS[c].goods][:3]
    black_docks = [c for c in cards("dock", BLACK, None, None) if CARDS[c].goods][:2]
    pre = [
        WarehouseExported(RED, red_docks[0], "tea"),
        WarehouseExported(RED, red_docks[1], "tea"),
        WarehouseExported(RED, red_docks[2], "wine"),
        WarehouseExported(BLACK, black_docks[0], "tea"),
        WarehouseExported(BLACK, black_docks[1], "wine"),
    ]
    events, state = take_turn(
        layout, spare[0], (3, 3), extra=((spare[1],), (spare[2],)), pre=pre, options=EXPORT
    )
    bonus = of_type(events, FinalBonusesCounted)
    assert bonus and bonus[0].export_majorities == (RED, None, None)
    ended = of_type(events, ev.GameEnded)[0]
    assert ended.points == (1, 0) and ended.winners == (RED,)
    assert GAME.result(state).scores == (1.0, 0.0)


@pytest.mark.parametrize("scenario", ["embargo", "euphrates"])
def test_export_is_refused_with_scenarios_that_ration_warehouses(scenario):
    """« Cette variante peut être combinée avec d'autres variantes », but Embargo (« Ce sont
    ses réserves personnelles dans lesquelles il doit puiser ») and Euphrate (« Si les
    entrepôts viennent à manquer dans les réserves ») already decide which warehouses a
    dock brings: the combination is refused, saying why, rather than guessed."""
    from domain.decider import OptionsError
    from domain.kontor.core.options import parse_options

    with pytest.raises(OptionsError) as err:
        parse_options({"variant": "advanced", "scenario": scenario, "expansions": ["export_warehouse"]}, 2)
    assert scenario in err.value.errors["expansions"][0]
