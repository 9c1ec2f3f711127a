"""Scenario « Watergames pour 2 joueurs » (``watergames``; switch ``docks_touch_water``):

« Disposition initiale selon l'image. Plateau : 6x6 cases.

Tous les secteurs rapportent. Les cartes de dock doivent obligatoirement toucher au moins
un canal. Si un joueur ne peut pas placer un dock, faute de case libre à côté de l'eau,
il reprend sa carte en main. »

Tables (scenarios/data.py): ``SCENARIO_SETTINGS["watergames"]``, the reconstructed
layout ``LAYOUTS["watergames"]`` (laid by port_and_deck.py); every sector counts (the
core). Here: a dock must touch a canal (hook points ``cell_filters`` and
``placement_violation``); a dock with no such cell goes back to the hand like any card
without a cell (core/decide.py).
"""

from __future__ import annotations

from collections.abc import Mapping

from domain.decider import RuleViolation
from domain.kontor.core.board import Pos, neighbours
from domain.kontor.core.data import CARDS
from domain.kontor.core.hooks import Hooks
from domain.kontor.core.state import KontorState


def _is_water(card: int | None) -> bool:
    return card is not None and CARDS[card].is_water


def water_next(cells: Mapping[Pos, int], pos: Pos) -> bool:
    return any(_is_water(cells.get(n)) for n in neighbours(pos))


def _dock_needs_water(state: KontorState, card: int) -> bool:
    return state.options.docks_touch_water and CARDS[card].is_dock


def filter_cells(
    state: KontorState, cells: Mapping[Pos, int], card: int, seat: int, found: list[Pos]
) -> list[Pos]:
    """« Les cartes de dock doivent obligatoirement toucher au moins un canal. »"""
    if not _dock_needs_water(state, card):
        return found
    return [p for p in found if water_next(cells, p)]


def placement_violation(
    state: KontorState, cells: Mapping[Pos, int], card: int, pos: Pos
) -> RuleViolation | None:
    if not _dock_needs_water(state, card) or water_next(cells, pos):
        return None
    return RuleViolation(
        "kontor.dock_needs_water",
        "Watergames: a dock must touch a canal (« Les cartes de dock doivent "
        "obligatoirement toucher au moins un canal »).",
    )


def register(hooks: Hooks) -> None:
    hooks.cell_filters.append(filter_cells)
    hooks.placement_violation.append(placement_violation)
