"""Low-level hooks of the special rules B (placement, ship, scoring), importing only the
board geometry so that placement.py, ship.py and scoring.py may call them.

« Corruption » (the tavern may not finish a sector) ;
« Contrebande » (sectors holding a face-down card wait for the end) ; « Point final »
(which sectors were finished last).  See special_rules_b.py and
docs/rules/kontor.md (Special rules B).
"""

from __future__ import annotations

from collections.abc import Mapping

from domain.decider import RuleViolation
from domain.kontor.core.board import (
    Pos,
    grow,
    is_closed,
    legal_cells,
    neighbours,
    possible,
    sectors,
)
from domain.kontor.core.data import CARDS
from domain.kontor.core.events_b import LastSectorsClosed
from domain.kontor.core.sides import side_of
from domain.kontor.core.state import KontorState


def _box(state: KontorState, cells: Mapping[Pos, int]):
    return grow(state.span, cells) if state.span is not None else grow(None, cells)


def closes_a_sector(state: KontorState, cells: Mapping[Pos, int], card: int, pos: Pos) -> bool:
    """Would ``card`` at ``pos`` finish a sector that is not finished now?"""
    size = state.options.board_size
    after = dict(cells)
    after[pos] = card
    box_after = _box(state, after)
    box_before = _box(state, cells)
    for sector in sectors(after):
        if not is_closed(after, sector, size, box_after):
            continue
        if pos in sector or not is_closed(cells, sector, size, box_before):
            return True
    return False


def filter_cells(
    state: KontorState, cells: Mapping[Pos, int], card: int, seat: int, found: list[Pos]
) -> list[Pos]:
    """placement_cells hook: a tavern that would finish a sector under Corruption (« On ne
    peut pas la placer pour terminer un secteur »)."""
    opts = state.options
    if opts.bribery and CARDS[card].tavern:
        found = [p for p in found if not closes_a_sector(state, cells, card, p)]
    return found


def placement_error(
    state: KontorState, cells: Mapping[Pos, int], card: int, seat: int, pos: Pos
) -> RuleViolation | None:
    """placement_error hook: name the special rule that forbids the cell, if any."""
    opts = state.options
    if opts.bribery and CARDS[card].tavern and pos not in cells:
        side = side_of(opts, seat)
        base = legal_cells(cells, card, side, opts.board_size, _box(state, cells))
        if pos in base and closes_a_sector(state, cells, card, pos):
            return RuleViolation(
                "kontor.tavern_closes_sector",
                "Bribery: the tavern may not finish a sector (« On ne peut pas la placer pour "
                "terminer un secteur »).",
            )
    return None


def held(cells: Mapping[Pos, int], sector) -> bool:
    """« Un secteur qui contiendrait une telle carte ne sera comptabilisé qu'à la fin,
    après avoir retourné la carte. »"""
    return any(CARDS[cells[p]].kind == "face_down" for p in sector)


def after_scoring(log, first: int) -> None:
    """Point final: remember the sectors scored by this call (the latest finished)."""
    st = log.state
    if st.options.final_point and len(st.scored) > first:
        log.emit(LastSectorsClosed(tuple(range(first, len(st.scored)))))


__all__ = [
    "after_scoring",
    "closes_a_sector",
    "filter_cells",
    "held",
    "neighbours",
    "placement_error",
    "possible",
]


def register(hooks) -> None:
    hooks.placement_error.append(placement_error)
    hooks.cell_filters.append(filter_cells)
    hooks.sector_held.append(held)
    hooks.after_scoring.append(after_scoring)
