"""Scenario « Tic Tac Toe pour 2 joueurs » (kontor.fr.txt, « Scénarios »):

« Disposition initiale selon le dessin. Le plateau de jeu de 8x8 cases est déjà défini.
On enlève toutes les grues du jeu (n°29, 30, 31 et 32). Un joueur qui gagne trois
secteurs en ligne, horizontalement, verticalement ou en diagonale, gagne la partie. Les
secteurs doivent être complètement terminés et appartenir à un joueur. Si un joueur
réalise l'objectif, le jeu cesse immédiatement. Si personne ne parvient à ce résultat, le
gagnant est le joueur qui a le plus de secteurs. Il est possible de jouer des canaux, mais
il est interdit de créer plusieurs secteurs sur une "case" du Tic Tac Toe. »

Tables (scenarios/data.py): ``SCENARIO_SETTINGS["tic_tac_toe"]`` (8x8, no cranes, every
sector counts, the switch ``Options.tic_tac_toe``), the reconstructed layout and its
cases (``TIC_TAC_TOE_COLUMNS``, ``TIC_TAC_TOE_ROWS``, ``LAYOUTS``). Hook points:
``cell_filters`` and ``placement_violation`` (no canal that splits a case), ``early_end``
(three cases in a line), its part of the view (the cases and their owners under
``scenario.cases``). Tests: tests/domain/kontor/test_kontor_scenarios*.py (Tic Tac Toe),
tests/conformance/test_kontor_scenarios.py.
"""

from __future__ import annotations

from collections.abc import Mapping

from domain.decider import RuleViolation
from domain.kontor.core import events as ev
from domain.kontor.core.board import Pos, neighbours
from domain.kontor.core.data import CARDS
from domain.kontor.core.hooks import Hooks
from domain.kontor.core.sides import seats_of
from domain.kontor.core.state import KontorState
from domain.kontor.scenarios.data import TIC_TAC_TOE_COLUMNS, TIC_TAC_TOE_ROWS

Case = tuple[int, int]

# --- the cases ---------------------------------------------------------------------------


def tic_tac_toe_case(pos: Pos) -> Case | None:
    """(column, row) of the Tic Tac Toe case holding ``pos`` (None on the grid)."""
    col = next((i for i, xs in enumerate(TIC_TAC_TOE_COLUMNS) if pos[0] in xs), None)
    row = next((i for i, ys in enumerate(TIC_TAC_TOE_ROWS) if pos[1] in ys), None)
    if col is None or row is None:
        return None
    return col, row


def case_cells(case: Case) -> list[Pos]:
    return [(x, y) for x in TIC_TAC_TOE_COLUMNS[case[0]] for y in TIC_TAC_TOE_ROWS[case[1]]]


def _is_water(card: int | None) -> bool:
    return card is not None and CARDS[card].is_water


# --- placement: « il est interdit de créer plusieurs secteurs sur une case » ---------------


def splits_case(cells: Mapping[Pos, int], pos: Pos) -> bool:
    """Water at ``pos`` would leave the case's other cells (docks or empty) in more than
    one piece."""
    case = tic_tac_toe_case(pos)
    if case is None:
        return False
    land = {p for p in case_cells(case) if p != pos and not _is_water(cells.get(p))}
    if not land:
        return False
    start = next(iter(land))
    seen = {start}
    stack = [start]
    while stack:
        p = stack.pop()
        for n in neighbours(p):
            if n in land and n not in seen:
                seen.add(n)
                stack.append(n)
    return len(seen) != len(land)


def _splitting(state: KontorState, cells: Mapping[Pos, int], card: int, pos: Pos) -> bool:
    return state.options.tic_tac_toe and CARDS[card].is_water and splits_case(cells, pos)


def filter_cells(state, cells, card: int, seat: int, found: list[Pos]) -> list[Pos]:
    return [p for p in found if not _splitting(state, cells, card, p)]


def placement_violation(state, cells, card: int, pos: Pos) -> RuleViolation | None:
    if not _splitting(state, cells, card, pos):
        return None
    return RuleViolation(
        "kontor.case_split",
        "Tic Tac Toe: this canal would make two sectors in one case (« il est interdit "
        "de créer plusieurs secteurs sur une case »).",
    )


# --- the early end: three cases in a line --------------------------------------------------


def lines() -> list[list[Case]]:
    out = [[(c, r) for c in range(3)] for r in range(3)]
    out += [[(c, r) for r in range(3)] for c in range(3)]
    out += [[(i, i) for i in range(3)], [(i, 2 - i) for i in range(3)]]
    return out


def case_owners(state: KontorState) -> dict[Case, int]:
    """Case -> the side that won the finished sector in it."""
    out = {}
    for s in state.scored:
        if s.winner is None:
            continue
        case = tic_tac_toe_case(s.cells[0])
        if case is not None:
            out[case] = s.winner
    return out


def three_in_a_line(state: KontorState) -> tuple[int, ...]:
    """Sides owning three cases in a line (« horizontalement, verticalement ou en
    diagonale »)."""
    owners = case_owners(state)
    out = set()
    for line in lines():
        sides = {owners.get(c) for c in line}
        if len(sides) == 1 and None not in sides:
            out |= sides
    return tuple(sorted(out))


def early_end(log) -> bool:
    """« Si un joueur réalise l'objectif, le jeu cesse immédiatement »: True if it ended."""
    st = log.state
    if not st.options.tic_tac_toe:
        return False
    sides = three_in_a_line(st)
    if not sides:
        return False
    winners = tuple(s for side in sides for s in seats_of(st.options, side, st.seat_count))
    log.emit(ev.GameEnded("three_in_a_line", st.points, st.money, winners))
    return True


# --- the view ------------------------------------------------------------------------------


def view_keys(state: KontorState, out: dict, cells, viewer) -> None:
    """Public: the nine cases, their cells and who won each."""
    owners = case_owners(state)
    out.setdefault("scenario", {})["cases"] = [
        {
            "column": c,
            "row": r,
            "cells": [{"x": x, "y": y} for x, y in case_cells((c, r))],
            "owner": ["red", "black"][owners[(c, r)]] if (c, r) in owners else None,
        }
        for r in range(3)
        for c in range(3)
    ]


def register(hooks: Hooks) -> None:
    hooks.cell_filters.append(filter_cells)
    hooks.placement_violation.append(placement_violation)
    hooks.early_end.append(early_end)
    hooks.add_view(view_keys, after="you")
