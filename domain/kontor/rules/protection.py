"""Special rule B « Protection » (2 and 4 players; kontor.fr.txt, « Règles spéciales »):

« La taverne protège du bateau, les docks du même secteur montrant un bateau. La
protection n'agit que pour les docks du propriétaire de la taverne et du même secteur. »

Switch: ``Options.protection`` (identifier "protection" in ``special_rules``; its player
counts and conflicts are the tables of core/data.py). It needs the ship
(``SPECIAL_RULES_NEED_SHIP``). Hook points: ``ship_protected`` (the ship may not remove
such a dock) and ``view`` (the protected docks under ``board.protected_docks``).
Tests: tests/domain/kontor/test_kontor_special_b.py (protection).
"""

from __future__ import annotations

from collections.abc import Mapping

from domain.kontor.core.board import Pos, sector_of
from domain.kontor.core.data import CARDS
from domain.kontor.core.hooks import Hooks
from domain.kontor.core.state import KontorState


def _protected_by_a_tavern(cells: Mapping[Pos, int], pos: Pos) -> bool:
    """A tavern of the dock's owner stands in the dock's sector."""
    owner = CARDS[cells[pos]].owner
    return any(
        p != pos and CARDS[cells[p]].tavern and CARDS[cells[p]].owner == owner
        for p in sector_of(cells, pos)
    )


def ship_protected(state: KontorState, cells: Mapping[Pos, int], pos: Pos) -> bool:
    """The ship may not remove the dock at ``pos`` (registered under Protection only:
    registry.ACTIVE)."""
    return _protected_by_a_tavern(cells, pos)


def view_keys(state: KontorState, out: dict, cells: Mapping[Pos, int], viewer) -> None:
    """Public: every dock showing a ship that a tavern protects."""
    protected = [
        pos
        for pos, card in cells.items()
        if CARDS[card].kind == "dock" and CARDS[card].ship and _protected_by_a_tavern(cells, pos)
    ]
    out["board"]["protected_docks"] = [
        {"x": p[0], "y": p[1]} for p in sorted(protected, key=lambda p: (p[1], p[0]))
    ]


def register(hooks: Hooks) -> None:
    hooks.ship_protected.append(ship_protected)
    hooks.add_view(view_keys, after="you")
