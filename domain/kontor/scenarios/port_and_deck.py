"""The port and the deck several scenarios change (switches ``layout``, ``board_height``,
``removed_cards`` of scenarios/data.py):

« Disposition initiale selon le dessin » (Île Grande, Tic Tac Toe; Watergames « selon
l'image »; Canale Grande « Le cours du Canale Grande définit la taille du plateau à 4x12
cases »): the reconstructed layouts ``LAYOUTS``.
« Les 2 grues sans bateau (n°29 et n°30) sont retirées du jeu » (Île Grande, Gulliver) ;
« On retire toutes les grues du jeu (n°29, 30, 31 et 32) » (Toujours plus petit, Tic Tac
Toe, Vitesse) ; « les tavernes (n°88 et n°89), sont retirées du jeu » (Gulliver).

The set-up's tables ``layouts`` (a layout's name -> its canal cells) and ``removed_cards``
(a removed cards' name -> which cards), and a part of the view (a port that is not square).
"""

from __future__ import annotations

from domain.kontor.core.data import CARDS
from domain.kontor.core.hooks import Hooks
from domain.kontor.core.state import KontorState
from domain.kontor.scenarios.data import LAYOUTS

#: a name of ``Options.removed_cards`` -> the cards it takes out of the dock decks, found by
#: their symbols (crane without ship, crane, tavern), not numbers: « Les 2 grues sans bateau
#: (n°29 et n°30) sont retirées » ; « On retire toutes les grues (n°29, 30, 31 et 32) » ;
#: « les tavernes (n°88 et n°89) sont retirées »
REMOVED_CARDS = {
    "cranes": lambda card: CARDS[card].crane,
    "cranes_without_ship": lambda card: CARDS[card].crane and not CARDS[card].ship,
    "taverns": lambda card: CARDS[card].tavern,
}


def view_keys(state: KontorState, out: dict) -> None:
    """A port that is not square (Canale Grande's 4x12) gives both sides."""
    opts = state.options
    if opts.board_height:
        out["board"]["width_size"], out["board"]["height_size"] = opts.board_dims


def register(hooks: Hooks) -> None:
    # « selon le dessin »: the canal cells of the reconstructed layouts, in dealing order
    hooks.layouts.update((name, sorted(cells, key=lambda p: (p[1], p[0]))) for name, cells in LAYOUTS.items())
    hooks.removed_cards.update(REMOVED_CARDS)
    hooks.add_view(lambda state, out, cells, viewer: view_keys(state, out), after="final_scoring")
