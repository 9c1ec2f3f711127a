"""Scenario « Île Grande pour 2 et 4 joueurs » (``isola_grande``; switch
``island_points``):

« Disposition initiale selon le dessin.

Plateau : 7x7 pour 2 joueurs, 8x8 pour 4 joueurs.

Les 2 grues sans bateau (n°29 et n°30) sont retirées du jeu.

A 4 joueurs, on n'utilise pas les cartes spéciales.

Le secteur intérieur vaut deux points de victoire, et aucun canal ne peut y être placé.
Tous les secteurs rapportent. »

Tables (scenarios/data.py): ``SCENARIO_SETTINGS["isola_grande"]`` and
``SCENARIO_SEAT_SETTINGS`` (port size, no special cards at 4), the reconstructed ring
``LAYOUTS["isola_grande"]`` and the island ``ISLAND_CELLS``; the layout and the removed
cranes are laid by port_and_deck.py. Here: no canal on the island (``cell_filters``,
``placement_violation``), the island is worth 2 (``sector_worth``), no special rule with
special cards at 4 players (``option_conflicts``), the island in the view.
"""

from __future__ import annotations

from collections.abc import Mapping

from domain.decider import RuleViolation
from domain.kontor.core.board import Pos
from domain.kontor.core.data import CARDS
from domain.kontor.core.hooks import Hooks
from domain.kontor.core.options import Options
from domain.kontor.core.state import KontorState
from domain.kontor.scenarios.data import ISLAND_CELLS, RULES_WITH_SPECIAL_CARDS


def is_island(sector) -> bool:
    return bool(sector) and all(p in ISLAND_CELLS for p in sector)


def _canal_on_island(state: KontorState, card: int, pos: Pos) -> bool:
    return bool(state.options.island_points) and CARDS[card].is_water and pos in ISLAND_CELLS


def filter_cells(
    state: KontorState, cells: Mapping[Pos, int], card: int, seat: int, found: list[Pos]
) -> list[Pos]:
    """« aucun canal ne peut y être placé »"""
    if not CARDS[card].is_water:
        return found
    return [p for p in found if p not in ISLAND_CELLS]


def placement_violation(
    state: KontorState, cells: Mapping[Pos, int], card: int, pos: Pos
) -> RuleViolation | None:
    if not _canal_on_island(state, card, pos):
        return None
    return RuleViolation(
        "kontor.no_canal_on_island",
        "Isola grande: no canal on the island (« aucun canal ne peut y être placé »).",
    )


def sector_worth(options: Options, sector, base: int, customs: int) -> int | None:
    """« Le secteur intérieur vaut deux points de victoire » (customs houses add theirs)."""
    if options.island_points and is_island(sector):
        return options.island_points + customs
    return None


def option_conflicts(settings: dict, scenario: str, special_rules, seat_count: int) -> list[str]:
    """« A 4 joueurs, on n'utilise pas les cartes spéciales »: no special rule that brings
    special cards into play."""
    if scenario != "isola_grande" or seat_count != 4:
        return []
    return [
        f"{rule} uses special cards, and isola_grande at 4 players does not (« A 4 "
        "joueurs, on n'utilise pas les cartes spéciales »)"
        for rule in sorted(set(special_rules) & RULES_WITH_SPECIAL_CARDS)
    ]


def view_keys(state: KontorState, out: dict) -> None:
    """Public: the island's cells and what it is worth."""
    opts = state.options
    if not opts.island_points:
        return
    out.setdefault("scenario", {}).update(
        {
            "island": [
                {"x": x, "y": y} for x, y in sorted(ISLAND_CELLS, key=lambda p: (p[1], p[0]))
            ],
            "island_points": opts.island_points,
        }
    )


def register(hooks: Hooks) -> None:
    hooks.cell_filters.append(filter_cells)
    hooks.placement_violation.append(placement_violation)
    hooks.sector_worth.append(sector_worth)
    hooks.option_conflicts.append(option_conflicts)
    hooks.add_view(lambda state, out, cells, viewer: view_keys(state, out), after="final_scoring")
