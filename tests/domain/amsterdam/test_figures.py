"""Expansion 1 (skilled workers: foreman and bailiff, L745-796) and expansion 3 (the
black-market pawn, L836-864)."""

from __future__ import annotations

from domain.amsterdam import GAME, data
from domain.amsterdam.board import amstel_order
from domain.amsterdam.commands import ChooseResource, DeliverGood, EndTurn, PlaceFigure, TakeBlock
from domain.amsterdam.state import ACTIONS, OPENING_RESOURCES, PLACEMENTS
from domain.common.frozen import replace
from tests.domain.amsterdam.helpers import acting, at_phase, play, vector, with_seat
from tests.refusals import refused

BOTH = {"expansions": ["skilled_workers", "black_market"]}


def test_who_places_which_figure():
    """L760: "Le joueur en dernière position sur la rivière Amstel place le Contremaître sur
    n'importe lequel des petits dépôts"; L762: the second-to-last places the bailiff on a
    double block; L848: the leader places the black-market pawn."""
    state = at_phase(OPENING_RESOURCES, 3, BOTH)
    while state.phase != PLACEMENTS:
        state = play(state, GAME.legal_commands(state, acting(state))[0])
    order = amstel_order(state)
    assert state.placing == ("foreman", "bailiff", "market_pawn")
    assert state.order == (order[-1], order[-2], order[0])
    assert {c.space for c in GAME.legal_commands(state, acting(state))} == set(data.DEPOTS)
    with refused("amsterdam.placement"):
        play(state, PlaceFigure("foreman", "tulip"))
    state = play(state, PlaceFigure("foreman", "D2"))
    doubles = {c.space for c in GAME.legal_commands(state, acting(state))}
    assert doubles == {b.id for b in data.BLOCKS.values() if b.double}
    state = play(state, PlaceFigure("bailiff", sorted(doubles)[0]))
    state = play(state, PlaceFigure("market_pawn", "coffee"))
    assert (state.foreman, state.market_pawn) == ("D2", "coffee") and state.phase == "cards"


def test_jan_delivers_a_tulip_to_the_foreman_who_moves_to_lace():
    """L780: "Jan livre une marchandise (tulipe) à l'entrepôt sur lequel se trouve le
    Contremaître. Il gagne donc 5 points ... et 2 points supplémentaires ... Il le déplace
    ensuite de deux cases Eau vers l'entrepôt le plus proche (dentelle)"."""
    state = replace(at_phase(ACTIONS, 2, {"expansions": ["skilled_workers"]}), round=9, foreman="tulip")
    roofs = list(state.roofs)
    roofs[data.GOODS.index("tulip")] = 2
    state = replace(state, roofs=tuple(roofs))
    jan = acting(state)
    state = with_seat(state, jan, barge="tulip", cargo=("tulip",), reserve=vector())
    points = state.seats[jan].points
    state = play(state, DeliverGood("tulip"))
    assert state.seats[jan].points == points + 5 + 2
    assert [c.foreman_to for c in GAME.legal_commands(state, jan) if isinstance(c, EndTurn)] == ["lace"]
    with refused("amsterdam.house"):
        play(state, EndTurn(None, None))
    state = play(state, EndTurn(None, "lace"))
    assert state.foreman == "lace"


def test_anne_buys_the_bailiffs_grey_block_for_one_and_moves_him_right():
    """L796: "Anne achète le bloc de maisons sur lequel le Bailli se trouve ... une seule
    ressource grise (au lieu de 2) ... sur le bloc de maisons adjacent de droite"."""
    block = next(b for b in data.BLOCKS.values() if b.colour == "grey" and b.double and b.cost == 2)
    right = next(n for n in data.BRIDGES[block.id]
                 if data.BLOCKS[n].x == block.x + 1 and data.BLOCKS[n].y == block.y)
    state = replace(at_phase(ACTIONS, 2, {"expansions": ["skilled_workers"]}), bailiff=block.id)
    state = replace(state, block_owner=(None,) * 36)
    anne = acting(state)
    state = with_seat(state, anne, reserve=vector("grey", "grey"))
    legal = [c for c in GAME.legal_commands(state, anne)
             if isinstance(c, TakeBlock) and c.block == block.id and c.sale is None]
    assert {c.payment for c in legal} == {("grey",)} and right in {c.bailiff_to for c in legal}
    state = play(state, TakeBlock(block.id, ("grey",), bailiff_to=right))
    assert state.bailiff == right and state.seats[anne].reserve == vector("grey")


def test_the_bailiff_walks_to_the_nearest_free_block_and_leaves_when_none_is_free():
    """L790: "déplacez le Bailli vers le blocs de maisons suivant jusqu'à en trouver un de
    libre. Une fois qu'il n'y a plus aucun bloc de maisons libre, retirez le Bailli"."""
    from domain.amsterdam.figures import bailiff_destinations

    state = at_phase(ACTIONS, 2, {"expansions": ["skilled_workers"]})
    block = "grey3"
    owners = tuple(None if b in (block, "black6") else 0 for b in data.BLOCK_IDS)
    assert bailiff_destinations(replace(state, block_owner=owners), block) == ("black6",)
    owners = tuple(None if b == block else 0 for b in data.BLOCK_IDS)
    assert bailiff_destinations(replace(state, block_owner=owners), block) == ()


def test_mareike_sells_coffee_on_the_pawn_and_moves_it_to_crystal():
    """L862-864: "Mareike vend une marchandise (café) ... elle gagne 2 Florins et une
    ressource de son choix. Puis elle déplace le pion d'une case en diagonale vers la case du
    milieu (cristal)"."""
    state = replace(at_phase(ACTIONS, 2, {"expansions": ["black_market"]}), market_pawn="coffee")
    mareike = acting(state)
    block = next(b for b, g, o in zip(data.BLOCK_IDS, state.block_goods, state.block_owner)
                 if g == "coffee" and o is None)
    cost = (data.BLOCKS[block].colour,) * data.BLOCKS[block].cost
    state = with_seat(state, mareike, reserve=(9,) * 6, florins=0)
    sales = {(c.sale, c.pawn_to) for c in GAME.legal_commands(state, mareike)
             if isinstance(c, TakeBlock) and c.block == block and c.payment == cost}
    assert sales == {(None, None), ("both", "furniture"), ("both", "genever"), ("both", "crystal")}
    state = play(state, TakeBlock(block, cost, sale="both", pawn_to="crystal"))
    state = play(state, ChooseResource("pink"))
    assert state.seats[mareike].florins == 2 and state.market_pawn == "crystal"
    assert state.black_market == ("coffee",)
