"""The computer player for free wheel games (called from policy/__init__.py).

Greedy, one ply, from public information and the seat's own hand only: a position is
worth the seat's provisional final points (every sector of at least two docks, as the
final count would score it now, alliances and drunk docks included) minus the best
opponent's, plus a little for money where money decides games (three or more sides).
Tavern coins, alliance proposals, answers and leaving are taken when they raise that
value; the draw takes the pile whose visible top card would be worth more.
"""

from __future__ import annotations

from domain.kontor.core.board import (
    DOCKS,
    neighbours,
    occupancy,
    sector_of,
    sectors,
    supremacy_leads,
)
from domain.kontor.core.commands import ChooseCard, DrawCard, MoveShip, Pass, PlaceCard
from domain.kontor.core.data import CARDS
from domain.kontor.core.placement import placement_cells
from domain.kontor.core.sides import owner_side, side_count, side_lead, side_of
from domain.kontor.core.state import KontorState, change_part
from domain.kontor.forms.free_wheel.alliances import pairs_in
from domain.kontor.forms.free_wheel.commands import (
    AcceptAlliance,
    DeclineAlliance,
    LeaveAlliance,
    ProposeAlliance,
    SetDrunkDock,
)
from domain.kontor.forms.free_wheel.scoring import (
    dock_count,
    drunk_docks,
    owners_map,
    sector_result,
)
from domain.kontor.forms.free_wheel.state import FreeWheelState, fw

#: a florin (a canal's income, a florin card's tax) with three or more sides, where ties
#: on points are common (27 % of 3-seat games) and money breaks them.  With two sides
#: (2 seats, or teams at 4) ties are rare (5 %): valuing money there made the normal
#: level prefer canals and the canal pile whenever no point changed hands, leaving it
#: fewer warehouses on the board than easy (bench/ai_levels.py, free_wheel: normal vs
#: easy 36.7 % with money at 0.3, 30 % at 0.05, 77.5 % at 0)
MONEY = 0.3
GAIN = 0.5  # a side action must be worth this much
#: a sector's lead in warehouses, capped, is worth this much per warehouse (tuned with
#: bench/ai_kontor.py, free_wheel); a sector of one dock counts for SMALL of it
MARGIN = 0.15
MARGIN_CAP = 3
SMALL = 0.3


def _sector_part(state: KontorState, cells, sector, warehouses, owners, drunk) -> tuple[int, ...]:
    """One sector's share of the tally, as integers: its points per seat (none while it
    has too few docks to count), then its capped warehouse lead per side, then that lead
    again for a sector too small to count yet (weighted SMALL: it may still grow)."""
    sides = side_count(state.options, state.seat_count)
    points, whole, small = [0] * state.seat_count, [0] * sides, [0] * sides
    r = sector_result(state, cells, sector, warehouses, drunk, owners)
    too_small = dock_count(cells, sector) < state.options.final_min_docks
    for party, lead in zip(r["parties"], supremacy_leads(r["warehouses"])):
        lead = max(-MARGIN_CAP, min(MARGIN_CAP, lead))
        for side in party:
            (small if too_small else whole)[side] += lead
    if not too_small:
        points = list(r["shares"])
    return (*points, *whole, *small)


class _Board:
    """A position's tally kept per sector, so that the value after placing one card
    recomputes only the sectors that card touches: the policy rates every cell for every
    card in hand, and the search asks it thousands of times a move."""

    def __init__(self, state: KontorState, base) -> None:
        self.state, self.base = state, base
        cells, warehouses, owners, drunk = base
        self.parts: dict[frozenset, tuple[int, ...]] = {}
        self.sector_at: dict = {}
        for sector in sectors(cells):
            self.parts[sector] = _sector_part(state, cells, sector, warehouses, owners, drunk)
            self.sector_at.update(dict.fromkeys(sector, sector))
        self.totals = [sum(column) for column in zip(*self.parts.values())] or [0] * self._width()

    def _width(self) -> int:
        return self.state.seat_count + 2 * side_count(self.state.options, self.state.seat_count)

    def value(self, seat: int) -> float:
        return _seat_value(self.state, seat, _tally_of(self.state, self.totals))

    def placed_value(self, seat: int, card: int, pos) -> float:
        """``seat``'s value once it has placed ``card`` at ``pos``."""
        if card not in DOCKS and pos not in self.sector_at:
            return self.value(seat)  # water beside the docks changes no sector
        cells, warehouses, owners, drunk = _placed(self.state, seat, card, pos, self.base)
        touched = {self.sector_at[p] for p in (pos, *neighbours(pos)) if p in self.sector_at}
        totals = list(self.totals)
        for sector in touched:
            totals = [t - v for t, v in zip(totals, self.parts[sector])]
        if card in DOCKS:  # the dock joins every sector it touches: no flood fill
            fresh = [frozenset({pos}).union(*touched)]
        else:  # a dock covered by another card may split its sector
            fresh, done = [], set()
            for start in (p for sector in touched for p in sector):
                if start not in done and cells.get(start) in DOCKS:
                    fresh.append(sector_of(cells, start))
                    done |= fresh[-1]
        for sector in fresh:
            part = _sector_part(self.state, cells, sector, warehouses, owners, drunk)
            totals = [t + v for t, v in zip(totals, part)]
        return _seat_value(self.state, seat, _tally_of(self.state, totals))


def _tally_of(state: KontorState, totals) -> tuple[list[int], list[float]]:
    """(points per seat, capped warehouse leads per side) from a _Board's integer sums."""
    seats, sides = state.seat_count, side_count(state.options, state.seat_count)
    whole, small = totals[seats:seats + sides], totals[seats + sides:]
    return totals[:seats], [w + SMALL * m for w, m in zip(whole, small)]


def _seat_value(state: KontorState, seat: int, tally) -> float:
    points, margins = tally
    side = side_of(state.options, seat)
    others = [points[s] for s in range(state.seat_count) if side_of(state.options, s) != side]
    return points[seat] - (max(others) if others else 0.0) + MARGIN * margins[side]


def _base(state: KontorState):
    return occupancy(state), state.warehouses, owners_map(state), drunk_docks(state)


def position_value(state: KontorState, seat: int) -> float:
    return _Board(state, _base(state)).value(seat)


def lead(state: KontorState, seat: int) -> float:
    """The search's cut-off measure (policy.evaluate): the position's value plus the
    money lead where money decides ties (three or more sides)."""
    return position_value(state, seat) + money_worth(state) * side_lead(state.options, state.money, seat)


def _placed(state: KontorState, seat: int, card: int, pos, base):
    """The (cells, warehouses, owners, drunk docks) after ``seat`` places ``card``."""
    cells, warehouses, owners, drunk = base
    cells = dict(cells)
    under = cells.get(pos)
    if under is not None:
        warehouses = warehouses - {under}
    cells[pos] = card
    c = CARDS[card]
    if c.kind == "dock" and c.goods:
        warehouses = warehouses | {card}
    if state.options.shared_dock_pile and c.kind == "dock":
        owners = dict(owners)
        owners[card] = seat
    return cells, warehouses, owners, drunk


def money_worth(state: KontorState) -> float:
    """A florin's worth: nothing with two sides (see MONEY)."""
    return MONEY if side_count(state.options, state.seat_count) > 2 else 0.0


def _placed_value(board: _Board, seat: int, card: int, pos) -> float:
    state = board.state
    v = board.placed_value(seat, card, pos)
    c = CARDS[card]
    money = money_worth(state)
    if c.kind == "water" and state.treasury > 0:
        v += money
    if c.florin:
        v += money
    return v


def _best_cell(board: _Board, seat: int, card: int, rng, noise: float):
    best, best_v = None, float("-inf")
    for pos in placement_cells(board.state, board.base[0], card, seat):
        v = _placed_value(board, seat, card, pos) + rng.below(1000) / 1000.0 * noise
        if v > best_v:
            best, best_v = pos, v
    return best, best_v


def policy(state: KontorState, seat: int, rng, level: str, legal: list):
    noise = 0.5 if level == "easy" else 0.05
    if level == "easy" and rng.below(3) == 0:
        return rng.choice(legal)
    phase = state.phase
    board = _Board(state, _base(state))  # one tally of the position, for every phase below
    now = board.value(seat)
    if phase == "alliance":
        a, b, x, y = fw(state).proposal
        cells = occupancy(state)
        where = tuple(sorted(sector_of(cells, (x, y))))
        allied = change_part(state, FreeWheelState, alliances=fw(state).alliances + ((min(a, b), max(a, b), where),))
        return AcceptAlliance() if position_value(allied, seat) > now + GAIN else DeclineAlliance()
    if phase in ("drunk", "turn"):
        moves = [c for c in legal if isinstance(c, SetDrunkDock)]
        best, best_v = None, now + (GAIN if phase == "turn" else float("-inf"))
        cells = occupancy(state)
        for m in moves:
            tavern = cells[(m.tavern_x, m.tavern_y)]
            taverns = tuple(
                (t, o, cells[(m.x, m.y)] if t == tavern else d) for t, o, d in fw(state).taverns
            )
            v = position_value(change_part(state, FreeWheelState, taverns=taverns), seat)
            if v > best_v:
                best, best_v = m, v
        if best is not None:
            return best
    if phase == "turn":
        cells = occupancy(state)
        for cmd in legal:
            if isinstance(cmd, LeaveAlliance):
                sector = sector_of(cells, (cmd.x, cmd.y))
                mine = [p for p in pairs_in(fw(state).alliances, sector) if seat in p]
                rest = tuple(
                    al
                    for al in fw(state).alliances
                    if not ((al[0], al[1]) in mine and any(p in sector for p in al[2]))
                )
                if position_value(change_part(state, FreeWheelState, alliances=rest), seat) > now + GAIN:
                    return cmd
        proposals = [c for c in legal if isinstance(c, ProposeAlliance)]
        best, best_v = None, now + 2 * GAIN
        for cmd in proposals:
            where = tuple(sorted(sector_of(cells, (cmd.x, cmd.y))))
            a, b = sorted((seat, cmd.seat))
            v = position_value(change_part(state, FreeWheelState, alliances=fw(state).alliances + ((a, b, where),)), seat)
            if v > best_v:
                best, best_v = cmd, v
        if best is not None:
            return best
        choices = []
        for cmd in legal:
            if isinstance(cmd, ChooseCard):
                pos, v = _best_cell(board, seat, cmd.card, rng, noise)
                if pos is None:
                    v = now - 0.1  # a ship card that may only free a cell
                choices.append((v, cmd.card))
        if not choices:
            return Pass()
        v, card = max(choices)
        if state.money[seat] == 0 and state.treasury > 0 and v < now + 0.5:
            return Pass()
        return ChooseCard(card)
    if phase == "place":
        card = state.revealed[seat]
        base = board.base
        pos, plain = _best_cell(board, seat, card, rng, noise)
        best, best_v = None, plain + GAIN
        side = side_of(state.options, seat)
        for cmd in legal:
            if not isinstance(cmd, MoveShip) or cmd.remove_x is None:
                continue
            removed = base[0][(cmd.remove_x, cmd.remove_y)]
            if owner_side(state, removed) == side:
                continue
            cells = dict(base[0])
            del cells[(cmd.remove_x, cmd.remove_y)]
            after = (cells, base[1] - {removed}, base[2], base[3] - {removed})
            _, v = _best_cell(_Board(state, after), seat, card, rng, noise)
            if v > best_v:
                best, best_v = cmd, v
        if best is not None:
            return best
        if pos is None:
            ships = [c for c in legal if isinstance(c, MoveShip)]
            return ships[0] if ships else legal[0]
        return PlaceCard(*pos)
    if phase == "draw":
        draws = [c for c in legal if isinstance(c, DrawCard)]
        if len(draws) == 1:
            return draws[0]
        scored = []
        for cmd in draws:
            if cmd.pile == "water":
                top = state.water_pile[0]
            elif state.options.shared_dock_pile:
                top = fw(state).common_docks[0]
            else:
                top = state.dock_piles[seat][0]
            _, v = _best_cell(board, seat, top, rng, noise)
            scored.append((v, cmd.pile == "water", cmd))
        return max(scored, key=lambda t: (t[0], t[1]))[2]
    return legal[0]
