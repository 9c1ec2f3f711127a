"""Where a card may go in free wheel (called from placement.py).

- « 9. La grue ne peut pas être placée contre une carte déjà placée. Elle ne peut être
  jouée qu'en diagonale par rapport à une carte déjà placée. »
- free for all: a crane blocks the docks of every player but the one who played it (« Il
  place ensuite un marqueur à sa couleur sur le numéro pour marquer sa propriété »).
- « 8. Un pont ou une inondation peuvent affecter des secteurs déjà terminés »: nothing is
  scored during play, so ``scored_cells`` is empty and the specials may go anywhere.
"""

from __future__ import annotations

from collections.abc import Mapping

from domain.decider import RuleViolation
from domain.kontor.core.board import Pos, grow, is_closed, neighbours, possible, sector_of
from domain.kontor.core.data import CARDS
from domain.kontor.core.placement import box_of, cover_cells
from domain.kontor.core.sides import owner_side, side_of
from domain.kontor.core.state import KontorState

DIAGONALS: tuple[Pos, ...] = ((1, 1), (1, -1), (-1, 1), (-1, -1))


def crane_blocks(state: KontorState, cells: Mapping[Pos, int], pos: Pos, side: int) -> bool:
    for n in neighbours(pos):
        card = cells.get(n)
        if card is not None and CARDS[card].crane:
            owner = owner_side(state, card)
            if owner is not None and owner != side:
                return True
    return False


def diagonal_only(cells: Mapping[Pos, int], pos: Pos) -> bool:
    """No card on a side, at least one on a corner."""
    x, y = pos
    if any(n in cells for n in neighbours(pos)):
        return False
    return any((x + dx, y + dy) in cells for dx, dy in DIAGONALS)


def placement_cells(
    state: KontorState, cells: Mapping[Pos, int], card: int, seat: int
) -> list[Pos]:
    opts = state.options
    size = opts.board_size
    side = side_of(opts, seat)
    c = CARDS[card]
    kind = c.kind
    if kind in ("flood", "bridge"):
        out = cover_cells(state, cells, kind, lambda pos: crane_blocks(state, cells, pos, side))
        return sorted(out, key=lambda p: (p[1], p[0]))
    box = grow(box_of(state, cells), cells)
    diagonal = c.crane and opts.diagonal_cranes
    steps = DIAGONALS if diagonal else ((1, 0), (-1, 0), (0, 1), (0, -1))
    found: set[Pos] = set()
    for x, y in cells:
        for dx, dy in steps:
            n = (x + dx, y + dy)
            if n in cells or n in found or not possible(n, box, size):
                continue
            if diagonal and not diagonal_only(cells, n):
                continue
            if c.is_dock and crane_blocks(state, cells, n, side):
                continue
            if kind == "customs":
                after = dict(cells)
                after[n] = card
                if is_closed(after, sector_of(after, n), size, box_of(state, after)):
                    continue
            found.add(n)
    return sorted(found, key=lambda p: (p[1], p[0]))


def placement_error(
    state: KontorState, cells: Mapping[Pos, int], card: int, seat: int, pos: Pos
) -> RuleViolation | None:
    """The free wheel reasons (None: the shared reasons apply)."""
    c = CARDS[card]
    if c.crane and state.options.diagonal_cranes and pos not in cells:
        if not diagonal_only(cells, pos):
            return RuleViolation(
                "kontor.crane_diagonal",
                "A crane is placed only diagonally to a card, touching none by a side (« La "
                "grue ne peut pas être placée contre une carte déjà placée. Elle ne peut être "
                "jouée qu'en diagonale »).",
            )
    if (
        c.is_dock
        and pos not in cells
        and crane_blocks(state, cells, pos, side_of(state.options, seat))
    ):
        return RuleViolation(
            "kontor.crane_blocks_dock",
            "A dock may not be placed next to an opponent's crane (canals may).",
        )
    return None


def register(hooks) -> None:
    """Registered with diagonal cranes or the shared dock pile only (registry.ACTIVE)."""
    hooks.swap("legal_cells", placement_cells)
    hooks.placement_error.append(placement_error)
