"""Low-level hooks of the special rules B (placement, ship, scoring), importing only the
board geometry so that placement.py, ship.py and scoring.py may call them.

« Blocus » ; « Corruption » (the tavern may not finish a sector) ;
« Contrebande » (sectors holding a face-down card wait for the end) ; « Point final »
(which sectors were finished last).  See special_rules_b.py and
docs/rules/kontor.md (Special rules B).
"""

from __future__ import annotations

from collections.abc import Mapping

from domain.common.frozen import replace
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


def next_to_ship(state: KontorState, pos: Pos) -> bool:
    """« Il est maintenant interdit de placer une carte qui avoisinerait directement le
    bateau, par un côté. »"""
    if not state.options.blockade or state.ship is None:
        return False
    return abs(pos[0] - state.ship[0]) + abs(pos[1] - state.ship[1]) == 1


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
    """placement_cells hook: the blockade around the ship; a tavern that would finish a
    sector under Corruption (« On ne peut pas la placer pour terminer un secteur »)."""
    opts = state.options
    if opts.blockade and state.ship is not None:
        found = [p for p in found if not next_to_ship(state, p)]
    if opts.bribery and CARDS[card].tavern:
        found = [p for p in found if not closes_a_sector(state, cells, card, p)]
    return found


def placement_error(
    state: KontorState, cells: Mapping[Pos, int], card: int, seat: int, pos: Pos
) -> RuleViolation | None:
    """placement_error hook: name the special rule that forbids the cell, if any."""
    opts = state.options
    if opts.blockade and next_to_ship(state, pos):
        return RuleViolation(
            "kontor.blockade",
            "Blockade: no card may be placed next to the ship by a side (« Il est maintenant "
            "interdit de placer une carte qui avoisinerait directement le bateau »).",
        )
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


def without_blockade(state: KontorState) -> KontorState:
    return replace(state, options=replace(state.options, blockade=False))


__all__ = [
    "after_scoring",
    "closes_a_sector",
    "filter_cells",
    "held",
    "neighbours",
    "next_to_ship",
    "placement_error",
    "possible",
    "without_blockade",
]


def register(hooks) -> None:
    hooks.placement_error.append(placement_error)
    hooks.cell_filters.append(filter_cells)
    hooks.sector_held.append(held)
    hooks.after_scoring.append(after_scoring)
