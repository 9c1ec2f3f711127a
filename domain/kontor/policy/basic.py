"""The computer player: a greedy evaluation of placements (and ship moves).

It reads only what the seat knows: the board, public piles and money, its own hand.
It does not look into hidden information, so it needs no redetermination.  It plays for
its side (its team's colour in the team game).  In a "largest sectors" game a sector is
worth more the larger it is, since only the largest ones count at the end.
"""

from __future__ import annotations

from domain.common.frozen import replace
from domain.kontor.core.board import (
    DOCKS,
    occupancy,
    possible,
    sectors,
    supremacy,
    warehouse_counts,
)
from domain.kontor.core.commands import Bribe, ChooseCard, MoveShip, Pass, PlaceCard
from domain.kontor.core.data import CARDS
from domain.kontor.core.decide import placed_goods, placing_card
from domain.kontor.core.placement import box_of, placement_cells
from domain.kontor.core.scoring import choose_largest, goods_of
from domain.kontor.core.sides import side_count, side_of
from domain.kontor.core.state import KontorState
from domain.kontor.expansions.warehouse_goods import adjust
from domain.kontor.policy import special_rules_b as rules_b
from domain.kontor.policy.expansions import policy_event, policy_export
from domain.kontor.policy.scenarios import pending_choice, sector_weight

WIN = 10.0
LEAD = 1.5
THREAT = 4.0
MONEY = 0.6
SHIP_MARGIN = 0.5
#: "largest sectors" games: an open sector's lead grows with its size; sectors outside
#: the counted slots are worth a tenth (tuned with bench/ai_kontor.py, advanced game)
GROW_LEAD = 0.6
REST = 0.1
#: team game: 16 of the 20 florins are dealt (the treasury starts with 4) and ties on
#: points, broken by the team's money, are frequent: money is worth more
MONEY_TEAM = 2.5
#: Misère (poverty): six florins in all, and the seat left without any while the treasury
#: is empty loses at once: a florin is worth most of a sector
MONEY_POVERTY = 8.0
POVERTY_RESERVE = 1
POVERTY_GAIN = 1.0


def _poverty_pass(state: KontorState, money: int, gain: float) -> bool:
    """Misère: without a florin, the next canal that empties the treasury ends the game
    against the seat, and passing takes a florin and spares this round's taxes (« ne peut
    être soumis à aucun impôt pendant ce tour »): pass when broke, and with the last
    florin unless the card wins a sector."""
    if money == 0:
        return True
    return money <= POVERTY_RESERVE and state.treasury > 0 and gain < WIN * POVERTY_GAIN


def money_worth(state: KontorState) -> float:
    """What a florin is worth to the policy, in board-evaluation units."""
    if state.options.poverty_end:
        return MONEY * MONEY_POVERTY
    return MONEY * (MONEY_TEAM if state.options.teams else 1.0)


def _winner(state: KontorState, cells: dict, sector, warehouses: frozenset[int], sides: int):
    """Who holds the sector now (bribes and expansions' adjustments included)."""
    stored = [cells[p] for p in sorted(sector) if cells[p] in warehouses]
    if not stored:
        return None  # no warehouse counts there: nobody holds it (warehouse_counts)
    # the holder depends only on the state and which docks with warehouses the sector
    # has: a policy call evaluates the same sectors for every cell it tries
    if _WINNERS["state"] is not state or _WINNERS["sides"] != sides:
        _WINNERS.update(state=state, sides=sides, found={})
    key = (sector, tuple(stored))
    found = _WINNERS["found"]
    if key not in found:
        counts = warehouse_counts(
            cells, sector, warehouses, sides, goods_of(state), extra=state.bribes,
            adjust=adjust(state),
        )
        found[key] = supremacy(counts)[0]
    return found[key]


#: _winner's memo for the one state being evaluated (the last one asked about)
_WINNERS: dict = {"state": None, "sides": None, "found": {}}


def evaluate_board(
    state: KontorState, seat: int, cells: dict, warehouses: frozenset[int], found=None
) -> float:
    """``found``: the sectors of ``cells`` in ``sectors``' order, when the caller knows them."""
    if state.options.final_selection == "largest":
        return _evaluate_largest(state, seat, cells, warehouses, found)
    size = state.options.board_dims
    side = side_of(state.options, seat)
    sides = side_count(state.options, state.seat_count)
    box = box_of(state, cells)
    done = {frozenset(s.cells) for s in state.scored}
    value = 0.0
    for sector in sectors(cells) if found is None else found:
        if sector in done:
            continue
        winner = _winner(state, cells, sector, warehouses, sides)
        if winner is None:
            continue  # worth nothing to anyone, closed or open
        open_cells = _open_cells(cells, sector)
        # is_closed with the box computed once (box_of already covers ``cells``)
        closed = not any(possible(n, box, size) for n in open_cells)
        weight = sector_weight(state.options, sector, closed)  # scenarios
        sign = (1.0 if winner == side else -1.0) * weight
        if closed:
            value += sign * WIN
            continue
        value += sign * LEAD
        # a sector with a single open neighbour may be closed by the next canal
        if len(open_cells) == 1:
            value += sign * THREAT
    return value


def _open_cells(cells: dict, sector) -> set:
    """The empty cells next to ``sector``."""
    out = set()
    for x, y in sector:
        for n in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if n not in cells:
                out.add(n)
    return out


def _evaluate_largest(
    state: KontorState, seat: int, cells: dict, warehouses: frozenset[int], found=None
) -> float:
    """Only the largest sectors count at the end: rank every sector (already scored ones
    included) by size and value the ones in the counted slots."""
    opts = state.options
    size = opts.board_dims
    side = side_of(opts, seat)
    sides = side_count(opts, state.seat_count)
    box = box_of(state, cells)
    done = {frozenset(s.cells) for s in state.scored}
    entries: list[tuple[int, int, float]] = []  # (size, distance, value for me)

    def dist(cells_of) -> int:
        # the anchor is at (0, 0); on a dense port the path over cards is the Manhattan one
        return min(abs(x) + abs(y) for x, y in cells_of)

    for s in state.scored:
        v = 0.0 if s.winner is None else (WIN if s.winner == side else -WIN) * s.points
        entries.append((len(s.cells), dist(s.cells), v))
    for sector in sectors(cells) if found is None else found:
        if sector in done:
            continue
        winner = _winner(state, cells, sector, warehouses, sides)
        sign = 0.0 if winner is None else (1.0 if winner == side else -1.0)
        open_cells = _open_cells(cells, sector)
        closed = not any(possible(n, box, size) for n in open_cells)  # as is_closed
        sign *= sector_weight(opts, sector, closed)  # scenarios
        if closed:
            entries.append((len(sector), dist(sector), sign * WIN))
            continue
        v = sign * LEAD * (1 + len(sector) * GROW_LEAD)
        if len(open_cells) == 1:
            v += sign * THREAT
        entries.append((len(sector), dist(sector), v))
    counted, _ = choose_largest(
        tuple(e[0] for e in entries),
        tuple(e[1] for e in entries),
        opts.final_count,
        opts.final_min_docks,
    )
    chosen = set(counted)
    value = 0.0
    for i, e in enumerate(entries):
        value += e[2] if i in chosen else REST * e[2]
    return value


def _sectors_after(cells: dict, card: int, pos) -> list | None:
    """The sectors once ``card`` goes to the empty cell ``pos``, derived from those of
    ``cells`` (a policy call tries every cell against the same board); None when ``pos``
    is covered (a flood, a bridge): recount then."""
    if pos in cells:
        return None
    if _SECTORS["cells"] is not cells:
        _SECTORS.update(cells=cells, found=sectors(cells))
    found = _SECTORS["found"]
    if card not in DOCKS:
        return found  # a canal on an empty cell neither joins nor splits sectors
    x, y = pos
    touching = ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1))
    merged, rest = {pos}, []
    for sector in found:
        if any(n in sector for n in touching):
            merged |= sector
        else:
            rest.append(sector)
    rest.append(frozenset(merged))
    return sorted(rest, key=lambda sector: min((p[1], p[0]) for p in sector))  # sectors' order


#: _sectors_after's memo: the board last asked about (boards are never changed once
#: built: _after copies) and its sectors
_SECTORS: dict = {"cells": None, "found": []}


def _after(cells: dict, warehouses: frozenset[int], card: int, pos):
    """The board and warehouses after ``card`` goes to ``pos`` (covering what is there)."""
    cells = dict(cells)
    under = cells.get(pos)
    if under is not None:
        warehouses = warehouses - {under}
    cells[pos] = card
    if CARDS[card].is_dock and CARDS[card].goods:
        warehouses = warehouses | {card}
    return cells, warehouses


def _supplied(state: KontorState, seat: int, card: int) -> KontorState:
    """Embargo: the state whose goods map gives ``card`` only the warehouses its owner's
    supply still holds (core/decide.py:placed_goods); other games: ``state`` itself."""
    if not state.options.warehouse_supply or not CARDS[card].goods:
        return state

    brought = placed_goods(state, seat, card)
    return replace(state, goods_override=state.goods_override + ((card, brought),))


def placement_value(
    state: KontorState, seat: int, card: int, pos, cells=None, warehouses=None
) -> float:
    cells = occupancy(state) if cells is None else cells
    warehouses = state.warehouses if warehouses is None else warehouses
    after, wh = _after(cells, warehouses, card, pos)
    value = evaluate_board(_supplied(state, seat, card), seat, after, wh, _sectors_after(cells, card, pos))
    if CARDS[card].kind == "water" and state.treasury > 0:
        value += money_worth(state)
    return value


def best_cell(
    state: KontorState, seat: int, card: int, rng, noise: float, cells=None, warehouses=None
):
    cells = occupancy(state) if cells is None else cells
    best, best_value = None, float("-inf")
    for pos in placement_cells(state, cells, card, seat):
        v = placement_value(state, seat, card, pos, cells, warehouses)
        v += (rng.below(1000) / 1000.0) * noise
        if v > best_value:
            best, best_value = pos, v
    return best, best_value


def _reply_value(
    state: KontorState, seat: int, card: int, pos, reply_seat: int, reply: int
) -> float:
    """My placement at ``pos``, then the next placer's best answer with its revealed card
    (an opponent's worst for me, a partner's best)."""
    cells, warehouses = _after(occupancy(state), state.warehouses, card, pos)
    friendly = side_of(state.options, reply_seat) == side_of(state.options, seat)
    pick = max if friendly else min
    best = None
    for rpos in placement_cells(state, cells, reply, reply_seat):
        after, wh = _after(cells, warehouses, reply, rpos)
        v = evaluate_board(state, seat, after, wh)
        best = v if best is None else pick(best, v)
    if best is None:
        best = evaluate_board(state, seat, cells, warehouses)
    if CARDS[card].kind == "water" and state.treasury > 0:
        best += money_worth(state)
    return best


def _ship_choice(state: KontorState, seat: int, card: int, ships: list, rng, noise: float):
    """The best ship move with a removal, if it beats placing without moving."""
    cells = occupancy(state)
    _, plain = best_cell(state, seat, card, rng, noise)
    best, best_value = None, plain + SHIP_MARGIN
    side = side_of(state.options, seat)
    for cmd in ships:
        if cmd.remove_x is None:
            continue
        pos = (cmd.remove_x, cmd.remove_y)
        removed = cells[pos]
        if CARDS[removed].owner == side:
            continue
        after = dict(cells)
        del after[pos]
        wh = state.warehouses - {removed}
        _, v = best_cell(state, seat, card, rng, noise, after, wh)
        if v == float("-inf"):
            v = evaluate_board(state, seat, after, wh)
        if v > best_value:
            best, best_value = cmd, v
    if best is None and plain == float("-inf"):
        return ships[0] if ships else None
    return best


def _bribe(state: KontorState, legal: list, evaluate):
    """Bakchich: a bribe (among the legal ones) when removing the dock gains more than its
    price (1 florin per good) is worth."""
    spots = [(c.x, c.y) for c in legal if isinstance(c, Bribe)]
    if not spots:
        return None
    cells = occupancy(state)
    base = evaluate(cells, state.warehouses, state.goods_map())
    best, best_gain = None, 0.0
    for pos in spots:
        card = cells[pos]
        after = dict(cells)
        del after[pos]
        gain = evaluate(after, state.warehouses - {card}, state.goods_map()) - base
        gain -= 2.0 * len(CARDS[card].goods) + 2.0
        if gain > best_gain:
            best, best_gain = Bribe(*pos), gain
    return best


def choose(state: KontorState, seat: int, rng, level: str, legal: list):
    """The basic and advanced game's choice (after the special rules' own phases)."""
    # --- scenarios: pending decisions, bribes ---

    def evaluate(cells, warehouses, goods):
        st = replace(state, goods_override=tuple(goods.items()))
        return evaluate_board(st, seat, cells, warehouses)

    pending = pending_choice(state, rng, evaluate, legal)
    if pending is not None:
        return pending
    if state.phase == "choose":
        bribe = _bribe(state, legal, evaluate)
        if bribe is not None:
            return bribe
    noise = 0.5 if level == "easy" else 0.05
    if state.phase == "event":  # expansions: event cards
        return policy_event(state, seat, legal, rng)
    # --- special rules B: bribes, tavern decisions ---
    special = rules_b.policy_b(
        state, seat, legal, lambda st: evaluate_board(st, seat, occupancy(st), st.warehouses), rng
    )
    if special is not None:
        return special
    # --- end special rules B ---
    if state.phase == "place":
        card = placing_card(state)
        ships = [c for c in legal if isinstance(c, MoveShip)]
        if ships:
            move = _ship_choice(state, seat, card, ships, rng, noise)
            if move is not None:
                return move
        places = [c for c in legal if isinstance(c, PlaceCard)]
        if level == "strong" and len(state.order) > 1:
            # the next placer places with a card everyone has seen: answer it
            reply_seat = state.order[1]
            reply = state.revealed[reply_seat]
            scored = [
                (
                    _reply_value(state, seat, card, (c.x, c.y), reply_seat, reply)
                    + rng.below(1000) / 1e5,
                    (c.x, c.y),
                )
                for c in places
            ]
            return policy_export(state, seat, PlaceCard(*max(scored)[1]), legal)
        pos, _ = best_cell(state, seat, card, rng, noise)
        return policy_export(state, seat, PlaceCard(*pos), legal)
    base = evaluate_board(state, seat, occupancy(state), state.warehouses)
    choices = []
    for card in sorted(set(state.hands[seat])):
        pos, v = best_cell(state, seat, card, rng, noise)
        if pos is None:
            continue
        gain = v - base
        if CARDS[card].florin:
            gain += money_worth(state)  # the opponent pays tax
        choices.append((gain, card))
    money = state.money[seat]
    if not choices:
        return Pass()
    gain, card = max(choices)
    if state.options.poverty_end and _poverty_pass(state, money, gain):
        return Pass()
    if money == 0 and state.treasury > 0 and gain < WIN / 2:
        return Pass()
    hidden = rules_b.smuggle_choice(state, seat, card)  # special rules B: Contrebande
    if hidden is not None:
        return hidden
    return ChooseCard(card)
