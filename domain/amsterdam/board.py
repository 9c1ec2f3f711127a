"""Board reading: turn order on the Amstel, the city's groups and majorities."""

from __future__ import annotations

from domain.amsterdam import data
from domain.amsterdam.state import State

#: 034 (L1314-1315): « votre pion ... toujours au-dessus »
ON_TOP = frozenset(data.cards_with("amstel_on_top"))


def amstel_key(pawn) -> tuple:
    """Sort key, smallest first: the mouth by arrival (L605), then further, then higher
    in the stack (L293); 034 keeps its owner on top (L1315)."""
    if pawn.mouth_slot is not None:
        return (0, pawn.mouth_slot, 0, 0)
    return (1, -pawn.amstel, -int(not ON_TOP.isdisjoint(getattr(pawn, "active", ()))),
            -pawn.stamp)


def amstel_order(state: State) -> tuple[int, ...]:
    """Every pawn on the river, first first; in the solo game TOM is data.TOM."""
    pawns = dict(enumerate(state.seats))
    if state.tom is not None:
        pawns[data.TOM] = state.tom
    return tuple(sorted(pawns, key=lambda p: amstel_key(pawns[p])))


def seat_order(state: State) -> tuple[int, ...]:
    """The seats' turn order (without TOM, who acts before you in the solo game)."""
    return tuple(p for p in amstel_order(state) if p < state.seat_count)


def blocks_of(state: State, seat: int) -> tuple[str, ...]:
    return tuple(b for b, owner in zip(data.BLOCK_IDS, state.block_owner) if owner == seat)


def largest_group(blocks) -> int:
    """L700: the largest set of your blocks connected through bridges."""
    left = set(blocks)
    best = 0
    while left:
        stack = [left.pop()]
        size = 0
        while stack:
            block = stack.pop()
            size += 1
            for other in data.BRIDGES[block]:
                if other in left:
                    left.remove(other)
                    stack.append(other)
        best = max(best, size)
    return best


def district_points(counts: list[int], table: tuple[int, ...]) -> list[int]:
    """L706-717, B24: rank by coats of arms (at least 1 to rank); tied ranks share the sum
    of their points, rounded down."""
    out = [0] * len(counts)
    ranked = sorted({c for c in counts if c > 0}, reverse=True)
    rank = 0
    for value in ranked:
        tied = [i for i, c in enumerate(counts) if c == value]
        pts = sum(table[r] for r in range(rank, rank + len(tied)) if r < len(table))
        for i in tied:
            out[i] = pts // len(tied)
        rank += len(tied)
    return out


def first_free_roof(state: State, good: str) -> int | None:
    filled = state.roofs[data.GOODS.index(good)]
    return data.ROOFS[good][filled] if filled < len(data.ROOFS[good]) else None
