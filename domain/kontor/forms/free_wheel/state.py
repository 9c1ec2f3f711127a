"""The free wheel's own part of the state (sequential turns, taverns, alliances, free for
all's common dock pile): what only this form reads, held in ``KontorState.ext``."""

from __future__ import annotations

from dataclasses import dataclass

from domain.kontor.core.state import KontorState, part


@dataclass(frozen=True)
class FreeWheelState:
    current: int | None = None  # whose turn it is
    skip_next: tuple[bool, ...] = ()  # « il doit passer à son prochain tour »
    #: (tavern card, owner seat, drunk dock card or None)
    taverns: tuple[tuple[int, int, int | None], ...] = ()
    tavern_moved: tuple[int, ...] = ()  # taverns whose coin moved this turn
    common_docks: tuple[int, ...] = ()  # free for all: the one dock pile, top first
    common_known: int = 0  # cards at its bottom put back by the ship (public)
    #: (seat a, seat b, cells of the sector when declared), a < b
    alliances: tuple[tuple[int, int, tuple[tuple[int, int], ...]], ...] = ()
    #: pending proposal: (proposer, partner, x, y)
    proposal: tuple[int, int, int, int] | None = None
    proposed: bool = False  # the current seat has proposed this turn
    barred: tuple[int, ...] = ()  # seats whose alliances broke: none until their turn
    results: tuple = ()  # the kontor.SectorCounted events of the final count
    dock_owners: tuple[tuple[int, int], ...] = ()  # free for all: (dock card, seat)


def fw(state: KontorState) -> FreeWheelState:
    """The free wheel's part of ``state``."""
    return part(state, FreeWheelState)
