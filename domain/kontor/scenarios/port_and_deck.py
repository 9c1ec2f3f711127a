"""The port and the deck several scenarios change (switches ``layout``, ``board_height``,
``removed_cards`` of scenarios/data.py):

« Disposition initiale selon le dessin » (Île Grande, Tic Tac Toe; Watergames « selon
l'image »; Canale Grande « Le cours du Canale Grande définit la taille du plateau à 4x12
cases »): the reconstructed layouts ``LAYOUTS``.
« Les 2 grues sans bateau (n°29 et n°30) sont retirées du jeu » (Île Grande, Gulliver) ;
« On retire toutes les grues du jeu (n°29, 30, 31 et 32) » (Toujours plus petit, Tic Tac
Toe, Vitesse) ; « les tavernes (n°88 et n°89), sont retirées du jeu » (Gulliver).

Hook points: ``layout``, ``dock_deck``, ``variant_view`` (a port that is not square).
"""

from __future__ import annotations

from domain.kontor.core.board import Pos
from domain.kontor.core.data import CARDS
from domain.kontor.core.hooks import Hooks
from domain.kontor.core.options import Options
from domain.kontor.core.state import KontorState
from domain.kontor.scenarios.data import LAYOUTS


def deck_filter(options: Options, deck: tuple[int, ...]) -> tuple[int, ...]:
    """« Les 2 grues sans bateau (n°29 et n°30) sont retirées » ; « On retire toutes les
    grues (n°29, 30, 31 et 32) » ; « les tavernes (n°88 et n°89) sont retirées ».  The
    cards are found by their symbols (crane without ship, crane, tavern), not numbers."""
    removed = set(options.removed_cards)
    if not removed:
        return deck
    out = []
    for card in deck:
        c = CARDS[card]
        if c.crane and "cranes" in removed:
            continue
        if c.crane and not c.ship and "cranes_without_ship" in removed:
            continue
        if c.tavern and "taverns" in removed:
            continue
        out.append(card)
    return tuple(out)


def layout_cells(options: Options) -> list[Pos] | None:
    """The canal cells of a reconstructed layout (« selon le dessin »), or None."""
    cells = LAYOUTS.get(options.layout)
    if cells is None:
        return None
    return sorted(cells, key=lambda p: (p[1], p[0]))


def view_keys(state: KontorState, out: dict) -> None:
    """A port that is not square (Canale Grande's 4x12) gives both sides."""
    opts = state.options
    if opts.board_height:
        out["board"]["width_size"], out["board"]["height_size"] = opts.board_dims


def register(hooks: Hooks) -> None:
    hooks.layout.append(layout_cells)
    hooks.dock_deck.append(deck_filter)
    hooks.add_view(lambda state, out, cells, viewer: view_keys(state, out), after="final_scoring")
