"""The advanced game for 2 players, « Le Grand Affrontement »."""

from __future__ import annotations

from dataclasses import replace
from random import Random

import pytest

from domain.decider import RuleViolation
from domain.kontor import GAME
from domain.kontor.core import events as ev
from domain.kontor.core.commands import ChooseCard, MoveShip, Pass, PlaceCard
from domain.kontor.core.data import CARDS
from domain.kontor.core.options import parse_options
from domain.kontor.core.scoring import anchor_distance, choose_largest
from domain.kontor.core.state import ScoredSector

from .helpers import BLACK, RED, SEED, choose, cross_layout, given, of_type, started, then, when

ADV = parse_options({"variant": "advanced"}, 2)


def _ids(pred) -> list[int]:
    return [c.id for c in CARDS.values() if pred(c)]


def ship_dock(owner: int, n: int = 0, goods: int | None = None) -> int:
    return _ids(
        lambda c: (
            c.kind == "dock"
            and c.owner == owner
            and c.ship
            and not c.crane
            and not c.florin
            and (goods is None or len(c.goods) == goods)
        )
    )[n]


def plain_dock(owner: int, n: int = 0, good: str | None = None) -> int:
    return _ids(
        lambda c: (
            c.kind == "dock"
            and c.owner == owner
            and not c.ship
            and not c.florin
            and not c.crane
            and not c.tavern
            and len(c.goods) == 1
            and (good is None or c.goods == (good,))
        )
    )[n]


def plain_water(n: int = 0) -> int:
    return _ids(lambda c: c.kind == "water" and not c.ship and not c.florin)[n]


def ship_water(n: int = 0) -> int:
    return _ids(lambda c: c.kind == "water" and c.ship)[n]


def cross() -> dict:
    """The cross with canals that show no ship and no florin (taken from the end)."""
    plain = _ids(lambda c: c.kind == "water" and not c.ship and not c.florin)
    layout = cross_layout()
    for i, pos in enumerate(p for p in layout if p != (0, 0)):
        layout[pos] = plain[-1 - i]
    return layout


def warehouses(layout) -> list:
    return [
        ev.WarehousesAdded(CARDS[c].owner, c, CARDS[c].goods)
        for c in layout.values()
        if CARDS[c].kind == "dock" and CARDS[c].goods
    ]


def reveal(layout, red_card, black_card=None, pre=(), **kw):
    """Advanced game, after the reveal; each seat keeps a spare canal in hand."""
    hands = (
        ((red_card,) if red_card is not None else ()) + (plain_water(20),),
        ((black_card,) if black_card is not None else ()) + (plain_water(21),),
    )
    state = given(started(layout, hands=hands, options=ADV, **kw), *pre)
    red_cmd = ChooseCard(red_card) if red_card is not None else Pass()
    black_cmd = ChooseCard(black_card) if black_card is not None else Pass()
    return choose(state, red_cmd, black_cmd)


def test_advanced_setup():
    """« Le plateau de jeu est de 7x7 cartes. La disposition de départ reste le même, une
    croix » ; « Au début de la partie, le bateau commence sur l'ancre »."""
    state = GAME.fold(GAME.start(ADV, 2, SEED))
    assert state.options.board_size == 7 and state.ship == (0, 0)
    assert state.rules_version == "kontor-advanced-2"
    assert len(state.board) == 9 and state.money == (4, 4) and state.treasury == 12
    in_game = set()
    for s in range(2):
        in_game |= set(state.hands[s]) | set(state.dock_piles[s])
    assert not any(CARDS[c].is_special for c in in_game)
    view = GAME.view(state, 0)
    assert view["board"]["ship"] == {"x": 0, "y": 0} and view["board"]["size"] == 7
    assert view["final_scoring"]["count"] == 5


def test_board_is_7x7():
    """« Le plateau de jeu est de 7x7 cartes »: the port may grow to 7 columns, not 8."""
    layout = cross() | {(3, 0): plain_water(0)}
    _, state = reveal(layout, plain_water(1))
    cells = {(c.x, c.y) for c in GAME.legal_commands(state, RED)}
    assert (4, 0) in cells  # 7 wide
    layout[(4, 0)] = plain_water(2)
    _, state = reveal(layout, plain_water(1))
    cells = {(c.x, c.y) for c in GAME.legal_commands(state, RED) if isinstance(c, PlaceCard)}
    assert (5, 0) not in cells and (-3, 0) not in cells and (-2, -1) in cells


def test_ship_move_only_with_a_ship_card():
    """« Quand un joueur joue une carte avec un bateau, il peut alors, avant d'effectuer
    l'action "placer la carte", déplacer le bateau »."""
    _, state = reveal(cross(), ship_water(0), plain_water(1))
    placer = state.order[0]
    assert state.revealed[placer] == ship_water(0) or state.revealed[placer] == plain_water(1)
    red_first = state.order[0] == RED
    if not red_first:  # black's plain card first: no ship move
        assert not any(isinstance(c, MoveShip) for c in GAME.legal_commands(state, BLACK))
        with pytest.raises(RuleViolation) as err:
            when(state, BLACK, MoveShip(1, 0))
        assert err.value.code == "kontor.no_ship_move"
        _, state = then(state, BLACK, PlaceCard(-1, -1))
    assert any(isinstance(c, MoveShip) for c in GAME.legal_commands(state, RED))


def test_ship_goes_to_any_other_water_card():
    """« il peut être posé sur n'importe quel canal de son choix sur le plateau sauf celui
    sur lequel il se trouve actuellement »."""
    layout = cross() | {(1, 1): plain_dock(BLACK)}
    _, state = reveal(layout, ship_water(0))
    moves = {(c.x, c.y) for c in GAME.legal_commands(state, RED) if isinstance(c, MoveShip)}
    water_cells = {p for p, c in layout.items() if CARDS[c].is_water}
    assert moves == water_cells - {(0, 0)}
    for bad in ((0, 0), (1, 1), (5, 5)):
        with pytest.raises(RuleViolation) as err:
            when(state, RED, MoveShip(*bad))
        assert err.value.code == "kontor.ship_target"
    events, state = then(state, RED, MoveShip(2, 0))
    assert of_type(events, ev.ShipMoved) == [ev.ShipMoved(RED, 2, 0)]
    assert state.ship == (2, 0) and not of_type(events, ev.DockRemoved)
    # once per placement: now only placements
    assert all(isinstance(c, PlaceCard) for c in GAME.legal_commands(state, RED))


def test_removal_to_the_bottom_of_its_owners_pile_and_refill():
    """« l'un de ces docks peut être enlevé. Il est replacé sous la pile de son
    propriétaire » ; « Lors de son action suivante, "placer la carte", le joueur peut
    remplir la case qui vient d'être libérée » ; « tous les entrepôts correspondant aux
    marchandises de la carte doivent naturellement être également enlevés »."""
    target = ship_dock(BLACK, goods=1)
    layout = cross() | {(1, 1): target}
    card = ship_dock(RED, goods=1)
    _, state = reveal(
        layout, card, pre=warehouses(layout), dock_piles=((), (plain_dock(BLACK, 3),))
    )
    events, state = then(state, RED, MoveShip(1, 0, 1, 1, BLACK))
    assert of_type(events, ev.DockRemoved) == [ev.DockRemoved(RED, target, 1, 1, BLACK)]
    assert state.dock_piles[BLACK] == (plain_dock(BLACK, 3), target)
    assert target not in state.warehouses
    assert (1, 1) not in {(c.x, c.y) for c in state.board}
    assert PlaceCard(1, 1) in GAME.legal_commands(state, RED)
    events, state = then(state, RED, PlaceCard(1, 1))
    assert of_type(events, ev.CardPlaced)[0].card == card
    view = GAME.view(state, None)
    assert view["players"][BLACK]["dock_pile"]["known_bottom"] == [target]


def test_own_dock_may_be_removed_but_not_a_dock_without_ship_nor_a_closed_one():
    """« Il est permis d'enlever un de ses propres docks avec un bateau » ; « Les docks sans
    bateau sont inamovibles, ainsi que tous les canaux et tous les docks d'un secteur
    terminé » ; « Les secteurs terminés ne peuvent être modifiés »."""
    own = ship_dock(RED, goods=1, n=1)
    layout = cross() | {(1, 1): own, (-1, 1): plain_dock(BLACK), (1, -1): ship_dock(BLACK)}
    closed = ScoredSector(((1, -1),), None, "empty", None, 0)
    _, state = reveal(layout, ship_water(0))
    state = replace(state, scored=(closed,))
    legal = GAME.legal_commands(state, RED)
    assert MoveShip(1, 0, 1, 1, RED) in legal
    for bad in (MoveShip(-1, 0, -1, 1, BLACK), MoveShip(1, 0, 1, -1, BLACK)):
        assert bad not in legal
        with pytest.raises(RuleViolation) as err:
            when(state, RED, bad)
        assert err.value.code == "kontor.not_removable"
    with pytest.raises(RuleViolation) as err:
        when(state, RED, MoveShip(1, 0, 1, 1, BLACK))
    assert err.value.code == "kontor.removal_pile"


def test_no_move_no_removal_and_both_may_move_in_one_round():
    """« Si le joueur ne souhaite pas déplacer le bateau, il le laisse là où il est. Dans ce
    cas, il ne peut pas enlever de dock » ; « Les deux joueurs peuvent déplacer le bateau
    pendant le même tour si tous deux ont joué des cartes montrant un bateau »."""
    _, state = reveal(cross(), ship_water(0), ship_water(1))
    first, second = state.order
    events, state = then(state, first, PlaceCard(-1, -1))
    assert state.ship == (0, 0) and not of_type(events, ev.ShipMoved)
    assert any(isinstance(c, MoveShip) for c in GAME.legal_commands(state, second))
    _, state = then(state, second, MoveShip(0, 1))
    assert state.ship == (0, 1)


def test_rulebook_example_dock_3_removed_sector_splits():
    """« le joueur Noir retire le dock n°3 (avec trois marchandise) grâce au bateau. Rouge
    doit rendre les trois entrepôts à la réserve et défausser le dock n°3 sous sa pile. Les
    docks n°36 et n°16 forment maintenant des secteurs indépendants et Noir doit séparer
    ses entrepôts. L'entrepôt vert est ainsi déplacé sur la carte n°16. »

    Our reconstructed decks make 36 and 16 red (changing that would alter stored games),
    so Black's two docks sit next to them: Black's centre is its wine dock by 36; after
    the split its spice (green) warehouse is shown on its spice dock by 16."""
    assert CARDS[3].owner == RED and len(CARDS[3].goods) == 3 and CARDS[3].ship
    assert "spice" in CARDS[16].goods
    black_wine, black_spice = plain_dock(BLACK, good="wine"), plain_dock(BLACK, good="spice")
    # row y=1: 36 (x=1), 3 (x=2), 16 (x=3); black docks below 36 and 16; canal above 3
    layout = cross() | {
        (1, 1): 36,
        (1, 2): black_wine,
        (2, 1): 3,
        (3, 1): 16,
        (3, 2): black_spice,
        (2, 0): cross()[(2, 0)],
    }
    pre = [
        ev.WarehousesAdded(RED, 36, CARDS[36].goods),
        ev.WarehousesAdded(BLACK, black_wine, ("wine",)),
        ev.WarehousesAdded(RED, 3, CARDS[3].goods),
        ev.WarehousesAdded(RED, 16, CARDS[16].goods),
        ev.WarehousesAdded(BLACK, black_spice, ("spice",)),
    ]
    state = given(
        started(layout, hands=((plain_water(20),), (ship_water(0), plain_water(21))), options=ADV),
        *pre,
    )
    before = GAME.view(state, None)["board"]["sectors"]
    big = next(s for s in before if len(s["cells"]) == 5)
    assert big["distribution_centres"]["black"] == {"x": 1, "y": 2}
    assert big["warehouses"]["black"] == {"tea": 0, "wine": 1, "spice": 1}
    _, state = choose(state, Pass(), ChooseCard(ship_water(0)))
    events, state = then(state, BLACK, MoveShip(2, 0, 2, 1, RED))
    assert of_type(events, ev.DockRemoved) == [ev.DockRemoved(BLACK, 3, 2, 1, RED)]
    assert state.dock_piles[RED][-1] == 3 and 3 not in state.warehouses
    after = GAME.view(state, None)["board"]["sectors"]
    by_cells = {frozenset((c["x"], c["y"]) for c in s["cells"]): s for s in after}
    left = by_cells[frozenset({(1, 1), (1, 2)})]
    right = by_cells[frozenset({(3, 1), (3, 2)})]
    assert left["warehouses"]["black"] == {"tea": 0, "wine": 1, "spice": 0}
    assert right["warehouses"]["black"] == {"tea": 0, "wine": 0, "spice": 1}
    assert right["distribution_centres"]["black"] == {"x": 3, "y": 2}
    assert right["warehouses"]["red"] == {"tea": 1, "wine": 0, "spice": 1}


def test_five_largest_example_6_5_4_4_3_3_3_2():
    """Second translation: « il existe 8 secteurs, respectivement de taille 6, 5, 4, 4, 3,
    3, 3, 2. Les secteurs de taille 6, 5, 4, 4 sont pris en compte. Pour les secteurs de
    taille 3, on regarde le quel est le plus proche de la carte de l'ancre. Si ils sont
    tous à distance égale, se sera la secteur de taille 2 qui sera pris en compte. »"""
    sizes = (6, 5, 4, 4, 3, 3, 3, 2)
    # all three size-3 sectors at the same distance: none counts, the 2 moves up
    assert choose_largest(sizes, (1, 1, 1, 1, 2, 2, 2, 3), 5) == ((0, 1, 2, 3, 7), (4, 5, 6))
    # one size-3 sector is nearest: it counts
    assert choose_largest(sizes, (1, 1, 1, 1, 3, 1, 2, 3), 5) == ((0, 1, 2, 3, 5), ())
    # five sectors or fewer: all count; ties that fit need no tie-break
    assert choose_largest((3, 3, 3), (1, 1, 1), 5) == ((0, 1, 2), ())
    assert choose_largest((4, 4, 1), (1, 1, 1), 2) == ((0, 1), ())


def test_anchor_distance_is_shortest_path_over_cards():
    """« On regarde lequel a le plus court itinéraire par des cartes orthogonales jusqu'à
    l'ancre »."""
    cells = {(0, 0): 0, (1, 0): 50, (2, 0): 51, (2, 1): 5, (3, 1): 6, (0, 2): 7}
    assert anchor_distance(cells, [(2, 1), (3, 1)]) == 3
    assert anchor_distance(cells, [(0, 2)]) is None  # no path over cards
    cells[(0, 1)] = 52
    assert anchor_distance(cells, [(0, 2)]) == 2


def _steps_from_sector(cells, sector):
    """The rule read literally: a search from the sector's cells over cards to the anchor."""
    anchor = next((p for p, c in cells.items() if c == 0), None)
    seen, frontier, d = set(sector), list(sector), 0
    while frontier and anchor is not None:
        if anchor in frontier:
            return d
        nxt = []
        for x, y in frontier:
            for n in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                if n in cells and n not in seen:
                    seen.add(n)
                    nxt.append(n)
        frontier, d = nxt, d + 1
    return None


def test_anchor_distance_agrees_with_a_search_from_the_sector():
    """The distance is found by one search from the anchor per layout (shared by every
    sector of a view): the same answer as searching from each sector, also for a sector
    cell without a card, an anchor inside the sector, no anchor, and unreachable cards."""
    rng = Random(7)
    for case in range(300):
        grid = [(x, y) for x in range(7) for y in range(7)]
        cells = {p: 100 + i for i, p in enumerate(rng.sample(grid, rng.randint(1, 40)))}
        if case % 10:
            cells[rng.choice(sorted(cells))] = 0
        sector = rng.sample(grid, rng.randint(1, 4))
        assert anchor_distance(cells, sector) == _steps_from_sector(cells, sector), (cells, sector)


def test_closed_sectors_scored_at_once_but_only_five_largest_count_at_the_end():
    """« Des secteurs terminés sont marqués comme dans le jeu de base et occupés par des
    gardiens d'entrepôt. Mais à la fin de la partie, seuls les cinq plus grands secteurs
    comptent pour les points de victoire. »"""
    state = GAME.fold(GAME.start(ADV, 2, SEED))
    sectors = [((i, 5),) for i in range(6)] + [((0, 9), (1, 9))]
    scored = tuple(
        ScoredSector(cells, RED if i < 6 else BLACK, "highest", None, 1)
        for i, cells in enumerate(sectors)
    )
    state = replace(state, scored=scored, points=(6, 1))
    from domain.kontor.core.scoring import final_points, select_final

    counted, eliminated, sizes, _ = select_final(state, {(0, 0): 0})
    # the 2-dock sector counts first; of six 1-dock sectors (no path to the anchor, equal
    # "distance") none fits in the four slots left: all eliminated
    assert counted == (6,) and eliminated == tuple(range(6)) and sizes[6] == 2
    assert final_points(state, counted) == (0, 1)


def test_port_size_stays_fixed_after_a_removal():
    """« Une fois que la largeur ... atteint six colonnes ..., la taille du plateau de jeu
    dans cette orientation est définie » (7 in the advanced game): removing an edge dock
    with the ship does not reopen the far side."""
    edge = ship_dock(BLACK, goods=1)
    layout = cross() | {(3, 0): plain_water(0), (4, 0): edge, (4, 1): plain_water(2)}
    _, state = reveal(layout, ship_water(0))
    _, state = then(state, RED, MoveShip(3, 0, 4, 0, BLACK))
    cells = {(c.x, c.y) for c in GAME.legal_commands(state, RED)}
    assert (4, 0) in cells and (-3, 0) not in cells  # still 7 wide: x in -2..4


def test_ship_may_free_a_cell_when_the_card_has_none():
    """« Lors de son action suivante, "placer la carte", le joueur peut remplir la case qui
    vient d'être libérée »: a ship card with no free cell still lets its player move the
    ship and remove a dock first; without a removal the card goes back to the hand."""
    target = ship_dock(BLACK, goods=1)
    card = ship_dock(RED, goods=1)
    spare = {plain_water(20), plain_water(21)}
    fill = [c for c in _ids(lambda c: c.kind == "water") if c not in spare]
    fill += _ids(lambda c: c.kind == "dock" and c.owner == BLACK and not c.ship and not c.crane)
    layout = {(0, 0): 0, (1, 1): target}
    for y in range(-3, 4):
        for x in range(-3, 4):
            if (x, y) not in layout:
                layout[(x, y)] = fill.pop(0)
    _, state = reveal(layout, card)
    legal = GAME.legal_commands(state, RED)
    assert legal and all(isinstance(c, MoveShip) for c in legal)
    assert MoveShip(1, 0, 1, 1, BLACK) in legal
    events, state = then(state, RED, MoveShip(1, 0, 1, 1, BLACK))
    assert GAME.legal_commands(state, RED) == [PlaceCard(1, 1)]
    _, other = reveal(layout, card)
    events, other = then(other, RED, MoveShip(2, 0))
    assert of_type(events, ev.CardReturned) == [ev.CardReturned(RED, card, "no_legal_cell")]


def test_view_points_are_provisional_until_the_end():
    """« à la fin de la partie, seuls les cinq plus grands secteurs comptent »: the view's
    points are what the seat would score now; guardian points are all guardians."""
    state = GAME.fold(GAME.start(ADV, 2, SEED))
    scored = tuple(ScoredSector(((i, 5), (i, 6)), RED, "highest", None, 1) for i in range(6))
    state = replace(state, scored=scored, points=(6, 0))
    view = GAME.view(state, None)
    # six 2-dock sectors with no path to the anchor: one tie group for five slots, none
    # counts (« aucun des secteurs à égalité ne rapporte de points »)
    assert view["players"][RED]["points"] == 0
    assert view["players"][RED]["guardian_points"] == 6
    assert view["final_scoring"]["provisional"] is True
