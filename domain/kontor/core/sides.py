"""Sides: who plays which colour, who is whose opponent, who pays tax to whom.

A *side* is a colour (0 red, 1 black) and owns docks, warehouses and points.  In the
basic and advanced games seat s plays side s; in the team game two seats share a side
(« Une équipe prend les cartes ... rouges, l'autre équipe prend les noirs »; the options'
``teams`` and ``tax_pairs``); in free for all each seat is its own side and owns the docks
it placed.  Rules ask these functions, never the variant name.  What only the team game
shows (teams in the view, partners, when they may talk) is the form forms/team.py.
"""

from __future__ import annotations

from domain.kontor.core.data import CARDS
from domain.kontor.core.hooks import rules_for
from domain.kontor.core.options import Options
from domain.kontor.core.state import KontorState


def side_count(options: Options, seat_count: int) -> int:
    return len(options.teams) if options.teams else seat_count


def side_of(options: Options, seat: int) -> int:
    for side, seats in enumerate(options.teams):
        if seat in seats:
            return side
    return seat


def seats_of(options: Options, side: int, seat_count: int) -> tuple[int, ...]:
    if options.teams:
        return tuple(options.teams[side])
    return (side,) if side < seat_count else ()


def tax_groups(options: Options, seat_count: int) -> tuple[tuple[int, ...], ...]:
    """Groups inside which a florin card taxes the others: every seat together, or the
    pairs of facing opponents (« C'est dans chacune de ces paires d'adversaires qu'on
    détermine si des impôts sont dus »)."""
    if options.tax_pairs:
        return tuple(tuple(p) for p in options.tax_pairs)
    return (tuple(range(seat_count)),)


def side_values(options: Options, per_seat: tuple[int, ...]) -> tuple[int, ...]:
    """A per-seat tuple summed per side (team money for the tie-break)."""
    n = side_count(options, len(per_seat))
    out = [0] * n
    for seat, v in enumerate(per_seat):
        out[side_of(options, seat)] += v
    return tuple(out)


def side_lead(options: Options, per_seat: tuple[int, ...], seat: int) -> int:
    """How far ``seat``'s side leads the best other side in a per-seat tuple summed per
    side (0 with no other side)."""
    values = side_values(options, per_seat)
    mine = side_of(options, seat)
    return values[mine] - max((v for side, v in enumerate(values) if side != mine), default=values[mine])


def owner_side(state: KontorState, card: int) -> int | None:
    """The side a dock belongs to: in free for all the seat that played it (« Il place
    ensuite un marqueur à sa couleur sur le numéro »), else its printed colour."""
    if state.options.shared_dock_pile:
        own = rules_for(state.options).swaps.dock_owner  # free for all records it
        return own(state, card) if own is not None else None
    return CARDS[card].owner
