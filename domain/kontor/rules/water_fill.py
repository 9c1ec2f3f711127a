"""Shared by the special rules that fill free cells with water cards (« Crue
exceptionnelle », « Sprint final »): not a rule itself. The top cards of the water pile go,
one by one, on the given free cells inside the port's limit; one WaterFilled event, which
``record`` applies (each of those rules hands it to its evolve). WaterFilled, and
WaterPlacedForFlood (« Choix d'inondation »'s canal instead of the flood, which « Sprint
final » also counts as a placement), are defined and listed here (``EVENTS``): the water
vocabulary those rules share."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from domain.common.frozen import replace
from domain.kontor.core.board import occupancy, possible
from domain.kontor.core.placement import box_of
from domain.kontor.core.state import Cell, KontorState


@dataclass(frozen=True)
class WaterPlacedForFlood:
    """Choix d'inondation: a canal from the hand placed instead of the flood."""

    TYPE: ClassVar[str] = "kontor.WaterPlacedForFlood"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int
    card: int
    x: int
    y: int


@dataclass(frozen=True)
class WaterFilled:
    """Cells filled with water cards from the draw pile: (x, y, card) each -- around a
    flood (Crue exceptionnelle) or every free cell at the end (Sprint final)."""

    TYPE: ClassVar[str] = "kontor.WaterFilled"
    SCHEMA_VERSION: ClassVar[int] = 1
    cells: tuple[tuple[int, int, int], ...]
    reason: str  # great_flood | final_sprint


EVENTS: tuple[type, ...] = (WaterPlacedForFlood, WaterFilled)


def fill_with_water(log, start_cells: list, reason: str) -> None:
    """Fill free cells (inside the port's limit) with the top water cards, one by one."""
    st = log.state
    size = st.options.board_size
    cells = dict(occupancy(st))
    pile = list(st.water_pile)
    box = box_of(st, cells)
    out = []
    for pos in start_cells:
        if not pile:
            break
        if pos in cells or not possible(pos, box, size):
            continue
        card = pile.pop(0)
        cells[pos] = card
        box = (min(box[0], pos[0]), max(box[1], pos[0]), min(box[2], pos[1]), max(box[3], pos[1]))
        out.append((pos[0], pos[1], card))
    if out:
        log.emit(WaterFilled(tuple(out), reason))


def record(state: KontorState, event) -> KontorState | None:
    """WaterFilled: the water cards leave the pile for their cells (None: another event)."""
    if type(event) is not WaterFilled:
        return None
    board = state.board + tuple(Cell(x, y, c) for x, y, c in event.cells)
    span = state.span
    for x, y, _ in event.cells:
        span = (min(span[0], x), max(span[1], x), min(span[2], y), max(span[3], y))
    used = {c for _, _, c in event.cells}
    return replace(
        state,
        board=board,
        span=span,
        water_pile=tuple(c for c in state.water_pile if c not in used),
    )
