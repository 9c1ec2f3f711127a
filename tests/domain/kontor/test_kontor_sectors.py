"""Sectors, closing, supremacy, guardians."""

from __future__ import annotations

from domain.kontor import GAME
from domain.kontor.core import events as ev
from domain.kontor.core.board import is_closed, sectors, supremacy

from .helpers import (
    BLACK,
    RED,
    crane,
    cross_layout,
    dock,
    of_type,
    take_turn,
    water,
    with_warehouses,
)

# counts are (tea, wine, spice) per seat


def test_supremacy_example_highest():
    """« Rouge a deux entrepôts beiges de plus que son adversaire (+2). Il a également deux
    entrepôts verts de plus (+2). Mais Noir a trois entrepôts bruns de plus que lui (+3) ;
    Noir possède plus haute suprématie »."""
    assert supremacy(((2, 0, 2), (0, 3, 0))) == (BLACK, "highest")
    assert supremacy(((3, 1, 4), (1, 4, 2))) == (BLACK, "highest")


def test_supremacy_example_most():
    """« les deux joueurs ont des suprématies de 1 ... comme Noir a plus de suprématies que
    Rouge (deux contre une), c'est lui qui reçoit le point de victoire »."""
    assert supremacy(((1, 0, 0), (0, 1, 1))) == (BLACK, "most")


def test_supremacy_example_value():
    """« les deux joueurs ont une suprématie de 1 et une seule ... le vin (brun) valant plus
    que les épices (vertes), le joueur Rouge obtient le point de victoire »."""
    assert supremacy(((0, 1, 0), (0, 0, 1))) == (RED, "value")


def test_supremacy_cyclic_tea_beats_wine():
    """« le vin vaut plus que les épices, les épices plus que le thé et le thé plus que le
    vin »."""
    assert supremacy(((1, 0, 0), (0, 1, 0))) == (RED, "value")
    assert supremacy(((0, 0, 1), (1, 0, 0))) == (RED, "value")
    assert supremacy(((0, 1, 0), (1, 0, 0))) == (BLACK, "value")


def test_complete_tie_and_empty_sector():
    """« En cas d'égalité complète, le secteur ne rapporte aucun point à personne. Un secteur
    sans entrepôts ne rapporte rien à personne non plus. »"""
    assert supremacy(((1, 2, 0), (1, 2, 0))) == (None, "tie")
    assert supremacy(((0, 0, 0), (0, 0, 0))) == (None, "empty")


def test_sector_is_docks_of_any_owner():
    """« Des docks connectés ensemble horizontalement ou verticalement forment un secteur,
    sans qu'on ait à tenir compte du propriétaire de ces docks. Un secteur est limité par des
    cartes d'eau »."""
    layout = cross_layout() | {
        (1, 1): dock(RED, "wine"),
        (2, 1): dock(BLACK, "tea"),
        (-1, 1): dock(RED, "tea"),
    }
    found = sorted(sorted(s) for s in sectors(layout))
    assert found == [[(-1, 1)], [(1, 1), (2, 1)]]


def test_closing_with_water_scores_immediately():
    """« Quand un secteur est entièrement terminé, on détermine immédiatement le joueur qui
    l'emporte. » ; « y dépose à titre de témoin l'un de ses gardiens. Chacun enlève alors les
    entrepôts du secteur marqué »."""
    red_dock = dock(RED, "wine")
    layout = cross_layout() | {(1, 1): red_dock, (2, 1): water(n=3)}
    events, state = take_turn(layout, water(n=0), (1, 2), pre=with_warehouses(layout))
    scored = of_type(events, ev.SectorScored)
    assert len(scored) == 1
    s = scored[0]
    assert s.cells == ((1, 1),) and s.winner == RED and s.guardian == (1, 1) and s.points == 1
    assert s.warehouses_returned == (red_dock,)
    assert state.points == (1, 0) and red_dock not in state.warehouses
    names = [type(e).__name__ for e in events]
    assert names.index("CardPlaced") < names.index("SectorScored") < names.index("IncomePaid")
    view = GAME.view(state, None)
    sector = next(x for x in view["board"]["sectors"] if x["cells"] == [{"x": 1, "y": 1}])
    assert sector["scored"] and sector["winner"] == "red" and sector["guardian"] == {"x": 1, "y": 1}
    assert view["players"][RED]["points"] == 1


def test_mixed_sector_value_rule_in_play():
    """Example 3 on the table: red wine vs black spice, red takes the point."""
    layout = cross_layout() | {
        (1, 1): dock(RED, "wine"),
        (2, 1): dock(BLACK, "spice"),
        (1, 2): water(n=3),
        (2, 2): water(n=4),
    }
    events, state = take_turn(layout, water(n=0), (3, 1), pre=with_warehouses(layout))
    (s,) = of_type(events, ev.SectorScored)
    assert s.winner == RED and s.rule == "value" and s.warehouses == ((0, 1, 0), (0, 0, 1))


def test_open_neighbour_keeps_sector_open():
    """« ce secteur n'est pas entièrement terminé et pourrait encore être étendu »: a free
    cell that may still hold a card keeps it open (here x=3 is still possible: the width is 5)."""
    layout = cross_layout() | {(2, 1): dock(RED, "wine"), (1, 1): water(n=3)}
    events, _ = take_turn(layout, water(n=0), (2, 2), pre=with_warehouses(layout))
    assert not of_type(events, ev.SectorScored)


def test_width_edge_closes_sector():
    """« Une fois que la largeur ... atteint six colonnes ... la taille du plateau de jeu
    dans cette orientation est définie » -- a cell beyond it can never hold a card, so it
    closes the sector like water."""
    layout = cross_layout() | {(3, 0): water(n=3), (3, 1): dock(RED, "wine"), (2, 1): water(n=4)}
    events, _ = take_turn(layout, water(n=0), (3, 2), pre=with_warehouses(layout))
    (s,) = of_type(events, ev.SectorScored)
    assert s.cells == ((3, 1),) and s.winner == RED


def test_fixing_the_width_closes_a_far_sector():
    """The edge is fixed only when the width reaches 6: placing the sixth column closes a
    sector on the opposite edge at once."""
    layout = cross_layout() | {(-2, 1): dock(RED, "wine"), (-1, 1): water(n=3), (-2, 2): water(n=4)}
    cells = dict(layout)
    assert not is_closed(cells, [(-2, 1)], 6)
    events, state = take_turn(layout, water(n=0), (3, 0), pre=with_warehouses(layout))
    (s,) = of_type(events, ev.SectorScored)
    assert s.cells == ((-2, 1),) and s.winner == RED
    assert GAME.view(state, None)["board"]["width_fixed"] is True


def test_fixing_the_height_closes_a_sector():
    """« la hauteur du dispositif atteint six ... rangées »."""
    layout = cross_layout() | {(1, 2): dock(RED, "tea"), (1, 1): water(n=3), (2, 2): water(n=4)}
    events, state = take_turn(layout, water(n=0), (0, -3), pre=with_warehouses(layout))
    (s,) = of_type(events, ev.SectorScored)
    assert s.cells == ((1, 2),)
    assert GAME.view(state, None)["board"]["height_fixed"] is True


def test_tie_no_point_and_warehouses_back():
    """« En cas d'égalité complète, le secteur ne rapporte aucun point à personne. »"""
    layout = cross_layout() | {
        (1, 1): dock(RED, "wine"),
        (2, 1): dock(BLACK, "wine"),
        (1, 2): water(n=3),
        (2, 2): water(n=4),
    }
    events, state = take_turn(layout, water(n=0), (3, 1), pre=with_warehouses(layout))
    (s,) = of_type(events, ev.SectorScored)
    assert s.winner is None and s.rule == "tie" and s.points == 0 and s.guardian is None
    assert state.points == (0, 0) and not state.warehouses


def test_sector_without_warehouses_scores_nothing():
    """« Un secteur sans entrepôts ne rapporte rien à personne non plus. »"""
    layout = cross_layout() | {(1, 1): crane(RED), (2, 1): water(n=3)}
    events, state = take_turn(layout, water(n=0), (1, 2))
    (s,) = of_type(events, ev.SectorScored)
    assert s.winner is None and s.rule == "empty" and state.points == (0, 0)


def test_dock_placement_can_close_its_own_sector():
    """A dock placed into a pocket of water forms a closed sector at once (« la carte de dock
    numérotée 7 forme son propre secteur »)."""
    layout = cross_layout() | {(2, 1): water(n=3), (1, 2): water(n=4)}
    events, state = take_turn(layout, dock(RED, "tea"), (1, 1))
    (s,) = of_type(events, ev.SectorScored)
    assert s.winner == RED and s.cells == ((1, 1),)


def test_guardians_not_capped_at_five():
    """« Chaque joueur compte un point par secteur où se trouve un gardien de sa couleur »
    (RULES-NOTES: not capped by the five physical guardians)."""
    pre = [
        ev.SectorScored(
            ((10 + i, 10),), ((1, 0, 0), (0, 0, 0)), RED, "highest", (10 + i, 10), 1, ()
        )
        for i in range(5)
    ]
    layout = cross_layout() | {(1, 1): dock(RED, "wine"), (2, 1): water(n=3)}
    events, state = take_turn(layout, water(n=0), (1, 2), pre=pre + with_warehouses(layout))
    assert of_type(events, ev.SectorScored)[0].winner == RED
    assert state.points == (6, 0)


def test_sectors_merge_warehouses_stay_on_their_docks():
    """« Si au cours du jeu deux secteurs se rejoignent ... les entrepôts sont regroupés »
    (RULES-NOTES: warehouses belong to their dock; the centre is only where they are shown)."""
    layout = cross_layout() | {(1, 1): dock(RED, "wine"), (1, 3): dock(RED, "tea")}
    events, state = take_turn(layout, dock(RED, "spice"), (1, 2), pre=with_warehouses(layout))
    view = GAME.view(state, None)
    merged = next(s for s in view["board"]["sectors"] if len(s["cells"]) == 3)
    assert merged["warehouses"]["red"] == {"tea": 1, "wine": 1, "spice": 1}
    assert merged["distribution_centres"]["red"] == {"x": 1, "y": 1}
