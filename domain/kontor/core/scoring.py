"""Scoring: closed sectors during play, the final selection of counted sectors, winners.

Extension point: scenarios that count other sectors (« Seuls les trois plus petits
secteurs », « Tous les secteurs rapportent », sizes worth their size...) add a value of
``Options.final_selection`` handled in ``select_final``; rules that change a sector's
worth (Isola grande's inner sector, final point) add to ``sector_points``.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping
from functools import lru_cache

from domain.kontor.core import events as ev
from domain.kontor.core.board import (
    Pos,
    is_closed,
    neighbours,
    occupancy,
    sectors,
    supremacy,
    warehouse_counts,
)
from domain.kontor.core.data import ANCHOR_ID, CARDS, SETUP
from domain.kontor.core.hooks import answer, rules_for
from domain.kontor.core.placement import box_of
from domain.kontor.core.sides import seats_of, side_count, side_of, side_values
from domain.kontor.core.state import KontorState


def _counted(state: KontorState, part: str):
    """The first rule's answer for that part of Counting (hook point ``counting``)."""
    for counting in rules_for(state.options).counting:
        found = counting(state)
        if found is not None and getattr(found, part) is not None:
            return getattr(found, part)
    return None


def goods_beats(state: KontorState) -> dict[str, str] | None:
    """Which good beats which now, when a rule changed the printed order; None: the
    printed order."""
    return _counted(state, "beats")


def count_adjust(state: KontorState):
    """counts -> counts: a sector's counts as a rule adjusts them (None: as counted)."""
    return _counted(state, "adjust")


def goods_of(state: KontorState) -> dict[int, tuple[str, ...]] | None:
    """The goods that got warehouses, per dock, where they are not the printed ones: as
    the rules record them (Counting.goods), then ``state.goods_override``. None when every
    dock holds its printed goods."""
    found = {}
    for counting in rules_for(state.options).counting:
        recorded = counting(state)
        if recorded is not None:
            found.update(recorded.goods or ())
    found.update(state.goods_override)
    return found or None


def extra_warehouses(state: KontorState) -> tuple[int, ...]:
    """Docks that count one warehouse more each, once per listing (Counting.extra)."""
    return _counted(state, "extra") or ()


def bonus_points(state: KontorState) -> tuple[int, ...] | None:
    """Victory points per seat besides the sectors (Counting.points; None: none)."""
    return _counted(state, "points")


def sector_points(cells: Mapping[Pos, int], sector: Iterable[Pos], options=None) -> int:
    """1 per won sector, + 1 per customs house in it (« Un secteur comportant deux douanes
    rapporte ainsi trois points de victoire »; RULES-NOTES)."""
    customs = sum(1 for p in sector if CARDS[cells[p]].kind == "customs")
    if options is not None:  # scenarios: the island, sizes worth their size
        worth = answer(rules_for(options).sector_worth, options, sector, SETUP["guardian_points"], customs)
        if worth is not None:
            return worth
    return SETUP["guardian_points"] + customs


def score_closed_sectors(log) -> None:
    """« Quand un secteur est entièrement terminé, on détermine immédiatement le joueur qui
    l'emporte. » Every closed sector not yet scored is scored now."""
    st = log.state
    cells = occupancy(st)
    size = st.options.board_dims
    box = box_of(st, cells)
    done = {frozenset(s.cells) for s in st.scored}
    sides = side_count(st.options, st.seat_count)
    first = len(st.scored)  # special rules B
    for sector in sectors(cells):
        if sector in done or not is_closed(cells, sector, size, box):
            continue
        if any(CARDS[cells[p]].is_hidden for p in sector):
            continue  # a face-down card: « ne sera comptabilisé qu'à la fin » (Contrebande)
        st = log.state
        counts = warehouse_counts(
            cells, sector, st.warehouses, sides, goods_of(st), extra=extra_warehouses(st),
            adjust=count_adjust(st),
        )
        winner, rule = supremacy(counts, goods_beats(st))
        guardian = None
        if winner is not None:
            guardian = distribution_centre(st, sector, winner)
        ordered = tuple(sorted(sector, key=lambda p: (p[1], p[0])))
        returned = tuple(sorted(cells[p] for p in sector if cells[p] in st.warehouses))
        keep = log.rules.swaps.returned_warehouses  # scenarios: Embargo
        if keep is not None:
            returned = keep(st, winner, returned)
        log.emit(
            ev.SectorScored(
                cells=ordered,
                warehouses=counts,
                winner=winner,
                rule=rule,
                guardian=guardian,
                points=sector_points(cells, sector, st.options) if winner is not None else 0,
                warehouses_returned=returned,
            )
        )
    log.sectors_scored(first)  # the steps of decide.SECTORS_SCORED


def distribution_centre(st: KontorState, sector, side: int) -> tuple[int, int] | None:
    """The first goods dock of the side placed in the sector (where its warehouses are
    shown; the team's partners share it: « utilisent le même centre de distribution »)."""
    top = occupancy(st)
    for cell in st.board:
        pos = (cell.x, cell.y)
        if (
            pos in sector
            and top.get(pos) == cell.card
            and cell.card in st.warehouses
            and CARDS[cell.card].owner == side
        ):
            return pos
    return None


def anchor_distance(cells: Mapping[Pos, int], sector: Iterable[Pos]) -> int | None:
    """« le plus court itinéraire par des cartes orthogonales jusqu'à l'ancre »: the
    fewest orthogonal steps over cards from a card of the sector to the anchor."""
    return distance_by_steps(anchor_steps(cells), cells, sector)


def distance_by_steps(
    steps: dict[Pos, int] | None, cells: Mapping[Pos, int], sector: Iterable[Pos]
) -> int | None:
    """``anchor_distance`` with the board's ``anchor_steps`` worked out by the caller: once
    for all the sectors of a board."""
    if steps is None:
        return None
    best = None
    for pos in sector:
        if pos in cells:
            d = steps.get(pos)
        else:  # a sector's cell that lost its card: one step onto a card next to it
            near = [steps[n] for n in neighbours(pos) if n in steps]
            d = min(near) + 1 if near else None
        if d is not None and (best is None or d < best):
            best = d
    return best


def anchor_steps(cells: Mapping[Pos, int]) -> dict[Pos, int] | None:
    """``_steps_from_anchor`` of this board (shared: read it, never change it)."""
    return _steps_from_anchor(frozenset(cells.items()))


@lru_cache(maxsize=256)
def _steps_from_anchor(cells: frozenset[tuple[Pos, int]]) -> dict[Pos, int] | None:
    """The fewest orthogonal steps over cards from the anchor to every card it reaches, or
    None without an anchor. One search per layout: every view asks it for every sector
    (twice in the final selection), and most consecutive versions share their layout.
    The answer is shared between callers: read it, never change it."""
    anchor = next((p for p, c in cells if c == ANCHOR_ID), None)
    if anchor is None:
        return None
    occupied = {p for p, _ in cells}
    steps = {anchor: 0}
    queue = deque([anchor])
    while queue:
        pos = queue.popleft()
        d = steps[pos] + 1
        x, y = pos
        for n in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if n in occupied and n not in steps:
                steps[n] = d
                queue.append(n)
    return steps


def select_final(
    state: KontorState, cells: Mapping[Pos, int], steps: dict[Pos, int] | None = None
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int | None, ...]]:
    """Which scored sectors count at the end: (counted, eliminated, sizes, distances).

    « seuls les cinq plus grands secteurs comptent ... S'il y a plus de cinq secteurs et
    égalité de taille ..., on regarde lequel est le plus près de l'ancre ... S'il y a
    toujours égalité pour la distance, aucun des secteurs à égalité ne rapporte de
    points ; ceci peut aboutir à ce que d'autres secteurs moins importants rapportent des
    points à la place. » Sectors are ranked by (size desc, distance asc); a group with the
    same size and distance that does not fit in the slots left is eliminated whole, and
    the next groups move up.  Sectors below ``final_min_docks`` docks never count."""
    opts = state.options
    sizes = tuple(len(s.cells) for s in state.scored)
    steps = anchor_steps(cells) if steps is None else steps  # the caller's, when it has them
    dists = tuple(distance_by_steps(steps, cells, s.cells) for s in state.scored)
    # scenarios: smallest, every eligible, straight lines, at most N docks
    own = answer(rules_for(state.options).final_selection, state, sizes, dists)
    if own is not None:
        counted, eliminated = own
        return counted, eliminated, sizes, dists
    if opts.final_selection == "all":
        return tuple(range(len(state.scored))), (), sizes, dists
    counted, eliminated = choose_largest(
        sizes, dists, opts.final_count, max(1, opts.final_min_docks)
    )
    return counted, eliminated, sizes, dists


def choose_largest(
    sizes: tuple[int, ...], dists: tuple[int | None, ...], slots: int, min_docks: int = 1
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The ``slots`` largest sectors (indices), ties by distance to the anchor, unbroken
    ties eliminated whole; and the eliminated ones."""
    eligible = [i for i, n in enumerate(sizes) if n >= min_docks]
    if len(eligible) <= slots:
        return tuple(sorted(eligible)), ()
    far = 10**6

    def key(i: int) -> tuple[int, int]:
        return (-sizes[i], dists[i] if dists[i] is not None else far)

    return fill_slots(eligible, key, slots)


def fill_slots(eligible: list[int], key, slots: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Sectors ranked by ``key`` (best first) take the ``slots``; a group tied on ``key``
    that does not fit in the slots left is eliminated whole and the next ones move up
    (« aucun des secteurs à égalité ne rapporte de points ; ceci peut aboutir à ce que
    d'autres secteurs moins importants rapportent des points à la place »)."""
    ranked = sorted(eligible, key=key)
    counted: list[int] = []
    eliminated: list[int] = []
    i = 0
    while i < len(ranked) and slots > 0:
        group = [j for j in ranked[i:] if key(j) == key(ranked[i])]
        if len(group) <= slots:
            counted += group
            slots -= len(group)
        else:
            eliminated += group
        i += len(group)
    return tuple(sorted(counted)), tuple(sorted(eliminated))


def final_points(state: KontorState, counted: Iterable[int]) -> tuple[int, ...]:
    points = [0] * state.seat_count
    for i in counted:
        s = state.scored[i]
        if s.winner is None:
            continue
        for seat in seats_of(state.options, s.winner, state.seat_count):
            points[seat] += s.points
    return tuple(points)


def current_points(state: KontorState, counted: tuple[int, ...] | None = None) -> tuple[int, ...]:
    """Points per seat if the game ended now (the view's ``points``): every guardian in
    the basic game; the counted sectors in a "largest sectors" game (``counted``: those
    of ``select_final``, when the caller has them)."""
    if state.phase == "over":
        return state.points
    if state.options.final_selection == "all":
        points = state.points
    else:
        if counted is None:
            counted, _, _, _ = select_final(state, occupancy(state))
        points = final_points(state, counted)
    bonus = bonus_points(state)
    if bonus:
        points = tuple(p + b for p, b in zip(points, bonus))
    return points


def winners(state: KontorState, points: tuple[int, ...], money: tuple[int, ...]) -> tuple[int, ...]:
    """Most points; tie: most money (a team's money added up); still tied: shared win
    (« ex æquo »). Partners win together."""
    opts = state.options
    n = side_count(opts, len(points))
    side_points = [0] * n
    for seat, p in enumerate(points):
        side_points[side_of(opts, seat)] = p  # partners hold the same score
    side_money = side_values(opts, money)
    best = max(zip(side_points, side_money))
    return tuple(
        s
        for s in range(len(points))
        if (side_points[side_of(opts, s)], side_money[side_of(opts, s)]) == best
    )
