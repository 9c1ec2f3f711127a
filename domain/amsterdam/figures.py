"""The expansion figures: the foreman and the bailiff (expansion 1, L745-796) and the
black-market pawn (expansion 3, L836-864). Setup placements, bonuses and moves; where a
move has tied destinations the mover names one in the command (B27, B28, B29)."""

from __future__ import annotations

from domain.amsterdam import data
from domain.amsterdam.board import amstel_order, first_free_roof
from domain.amsterdam.state import State

FOREMAN, BAILIFF, PAWN = "foreman", "bailiff", "market_pawn"


def placements(state: State) -> tuple[tuple[str, int], ...]:
    """L760-762, L848: the last on the Amstel places the foreman, the second-to-last the
    bailiff, the leader the black-market pawn; in this order (AMSTERDAM.md §2.1 step 12)."""
    order = amstel_order(state)
    out: list[tuple[str, int]] = []
    placer = data.FIGURE_PLACERS
    if state.options.skilled_workers:
        out += [(FOREMAN, order[placer[FOREMAN]]), (BAILIFF, order[placer[BAILIFF]])]
    if state.options.black_market_pawn:
        out.append((PAWN, order[placer[PAWN]]))
    return tuple(out)


def placement_spaces(figure: str) -> tuple[str, ...]:
    if figure == FOREMAN:
        return tuple(data.DEPOTS)
    if figure == BAILIFF:
        return tuple(b.id for b in data.BLOCKS.values() if b.double)
    return data.GOODS


# -- the foreman -------------------------------------------------------------------------
def _water_distances(origin: str) -> dict[str, int]:
    """The fewest water spaces on a path from ``origin`` to every node (B27)."""
    best = {origin: 0}
    frontier = [origin]
    while frontier:
        node = frontier.pop(0)
        for other in data.HARBOUR[node]:
            cost = best[node] + (other in data.WATER)
            if other not in best or cost < best[other]:
                best[other] = cost
                frontier.append(other)
    return best


WATER_DISTANCE = {place: _water_distances(place) for place in (*data.GOODS, *data.DEPOTS)}


def has_room(state: State, place: str) -> bool:
    if place in data.DEPOTS:
        return state.depots[tuple(data.DEPOTS).index(place)] is None
    return first_free_roof(state, place) is not None


def foreman_destinations(state: State) -> tuple[str, ...]:
    """L782: the nearest warehouse or depot with room through the water spaces; empty when
    every place is full (he leaves the game)."""
    here = state.foreman
    free = [p for p in (*data.GOODS, *data.DEPOTS) if p != here and has_room(state, p)]
    if not free:
        return ()
    distance = WATER_DISTANCE[here]
    nearest = min(distance[p] for p in free)
    return tuple(p for p in free if distance[p] == nearest)


# -- the bailiff -------------------------------------------------------------------------
def bailiff_destinations(state: State, block: str) -> tuple[str, ...]:
    """L790: an adjacent unowned block across a bridge; else the nearest unowned block."""
    owner = dict(zip(data.BLOCK_IDS, state.block_owner))
    seen = {block}
    frontier = [block]
    while frontier:
        free = sorted({n for b in frontier for n in data.BRIDGES[b] if n not in seen
                       and owner[n] is None})
        if free:
            return tuple(free)
        nxt = [n for b in frontier for n in data.BRIDGES[b] if n not in seen]
        seen.update(nxt)
        frontier = list(dict.fromkeys(nxt))
    return ()


# -- the black-market pawn -----------------------------------------------------------------
def pawn_destinations(state: State, sold: str) -> tuple[str, ...]:
    """L858: a free adjacent space (diagonals too); else the nearest free one (B29)."""
    grid = data.BLACK_MARKET["grid"]
    taken = set(state.black_market) | {sold}
    free = [g for g in data.GOODS if g not in taken]
    if not free:
        return ()
    x, y = grid[sold]
    distance = {g: max(abs(grid[g][0] - x), abs(grid[g][1] - y)) for g in free}
    nearest = min(distance.values())
    return tuple(g for g in free if distance[g] == nearest)
