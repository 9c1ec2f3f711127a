"""The computer player for free wheel games (called from policy/__init__.py).

Greedy, one ply, from public information and the seat's own hand only: a position is
worth the seat's provisional final points (every sector of at least two docks, as the
final count would score it now, alliances and drunk docks included) minus the best
opponent's, plus a little for money where money decides games (three or more sides).
Tavern coins, alliance proposals, answers and leaving are taken when they raise that
value; the draw takes the pile whose visible top card would be worth more.
"""

from __future__ import annotations

from domain.common.frozen import replace
from domain.kontor.core.board import occupancy, sector_of, sectors, supremacy_leads
from domain.kontor.core.commands import (
    AcceptAlliance,
    ChooseCard,
    DeclineAlliance,
    DrawCard,
    LeaveAlliance,
    MoveShip,
    Pass,
    PlaceCard,
    ProposeAlliance,
    SetDrunkDock,
)
from domain.kontor.core.data import CARDS
from domain.kontor.core.placement import placement_cells
from domain.kontor.core.sides import owner_side, side_count, side_lead, side_of
from domain.kontor.core.state import KontorState
from domain.kontor.forms.free_wheel.alliances import pairs_in
from domain.kontor.forms.free_wheel.scoring import (
    dock_count,
    drunk_docks,
    owners_map,
    sector_result,
)

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


def _tally(state: KontorState, cells, warehouses, owners, drunk):
    """Provisional points per seat and capped warehouse leads per side, in one pass."""
    points = [0.0] * state.seat_count
    margins = [0.0] * side_count(state.options, state.seat_count)
    for sector in sectors(cells):
        r = sector_result(state, cells, sector, warehouses, drunk, owners)
        small = dock_count(cells, sector) < state.options.final_min_docks
        for party, lead in zip(r["parties"], supremacy_leads(r["warehouses"])):
            lead = max(-MARGIN_CAP, min(MARGIN_CAP, lead))
            for side in party:
                margins[side] += SMALL * lead if small else lead  # small: may still grow
        if small:
            continue
        for s, p in enumerate(r["shares"]):
            points[s] += p
    return points, margins


def _seat_value(state: KontorState, seat: int, tally) -> float:
    points, margins = tally
    side = side_of(state.options, seat)
    others = [points[s] for s in range(state.seat_count) if side_of(state.options, s) != side]
    return points[seat] - (max(others) if others else 0.0) + MARGIN * margins[side]


def _value(state: KontorState, seat: int, cells, warehouses, owners, drunk) -> float:
    return _seat_value(state, seat, _tally(state, cells, warehouses, owners, drunk))


def _base(state: KontorState):
    return occupancy(state), state.warehouses, owners_map(state), drunk_docks(state)


def position_value(state: KontorState, seat: int) -> float:
    return _value(state, seat, *_base(state))


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


def _placed_value(state: KontorState, seat: int, card: int, pos, base=None) -> float:
    v = _value(state, seat, *_placed(state, seat, card, pos, base or _base(state)))
    c = CARDS[card]
    money = money_worth(state)
    if c.kind == "water" and state.treasury > 0:
        v += money
    if c.florin:
        v += money
    return v


def _best_cell(state: KontorState, seat: int, card: int, rng, noise: float, base=None):
    base = base or _base(state)
    best, best_v = None, float("-inf")
    for pos in placement_cells(state, base[0], card, seat):
        v = _placed_value(state, seat, card, pos, base) + rng.below(1000) / 1000.0 * noise
        if v > best_v:
            best, best_v = pos, v
    return best, best_v


def policy(state: KontorState, seat: int, rng, level: str, legal: list):
    noise = 0.5 if level == "easy" else 0.05
    if level == "easy" and rng.below(3) == 0:
        return rng.choice(legal)
    phase = state.phase
    now = position_value(state, seat)
    if phase == "alliance":
        a, b, x, y = state.proposal
        cells = occupancy(state)
        where = tuple(sorted(sector_of(cells, (x, y))))
        allied = replace(state, alliances=state.alliances + ((min(a, b), max(a, b), where),))
        return AcceptAlliance() if position_value(allied, seat) > now + GAIN else DeclineAlliance()
    if phase in ("drunk", "turn"):
        moves = [c for c in legal if isinstance(c, SetDrunkDock)]
        best, best_v = None, now + (GAIN if phase == "turn" else float("-inf"))
        cells = occupancy(state)
        for m in moves:
            tavern = cells[(m.tavern_x, m.tavern_y)]
            taverns = tuple(
                (t, o, cells[(m.x, m.y)] if t == tavern else d) for t, o, d in state.taverns
            )
            v = position_value(replace(state, taverns=taverns), seat)
            if v > best_v:
                best, best_v = m, v
        if best is not None:
            return best
    if phase == "turn":
        cells = occupancy(state)
        for cmd in legal:
            if isinstance(cmd, LeaveAlliance):
                sector = sector_of(cells, (cmd.x, cmd.y))
                mine = [p for p in pairs_in(state.alliances, sector) if seat in p]
                rest = tuple(
                    al
                    for al in state.alliances
                    if not ((al[0], al[1]) in mine and any(p in sector for p in al[2]))
                )
                if position_value(replace(state, alliances=rest), seat) > now + GAIN:
                    return cmd
        proposals = [c for c in legal if isinstance(c, ProposeAlliance)]
        best, best_v = None, now + 2 * GAIN
        for cmd in proposals:
            where = tuple(sorted(sector_of(cells, (cmd.x, cmd.y))))
            a, b = sorted((seat, cmd.seat))
            v = position_value(replace(state, alliances=state.alliances + ((a, b, where),)), seat)
            if v > best_v:
                best, best_v = cmd, v
        if best is not None:
            return best
        base = _base(state)
        choices = []
        for cmd in legal:
            if isinstance(cmd, ChooseCard):
                pos, v = _best_cell(state, seat, cmd.card, rng, noise, base)
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
        base = _base(state)
        pos, plain = _best_cell(state, seat, card, rng, noise, base)
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
            _, v = _best_cell(state, seat, card, rng, noise, after)
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
                top = state.common_docks[0]
            else:
                top = state.dock_piles[seat][0]
            _, v = _best_cell(state, seat, top, rng, noise)
            scored.append((v, cmd.pile == "water", cmd))
        return max(scored, key=lambda t: (t[0], t[1]))[2]
    return legal[0]
