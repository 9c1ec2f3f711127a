"""The computer player: a greedy evaluation of placements.

It reads only what the seat knows: the board, public piles and money, its own hand.
It does not look into hidden information, so it needs no redetermination.
"""

from __future__ import annotations

from domain.kontor.board import (
    is_closed,
    legal_cells,
    neighbours,
    occupancy,
    sectors,
    supremacy,
    warehouse_counts,
)
from domain.kontor.commands import ChooseCard, Pass, PlaceCard
from domain.kontor.data import CARDS
from domain.kontor.decide import legal_commands, placing_card
from domain.kontor.state import KontorState

WIN = 10.0
LEAD = 1.5
THREAT = 4.0
MONEY = 0.6


def _evaluate(state: KontorState, seat: int, cells: dict, warehouses: frozenset[int]) -> float:
    size = state.options.board_size
    done = {frozenset(s.cells) for s in state.scored}
    value = 0.0
    for sector in sectors(cells):
        if sector in done:
            continue
        counts = warehouse_counts(cells, sector, warehouses, state.seat_count)
        winner, _ = supremacy(counts)
        if is_closed(cells, sector, size):
            if winner is not None:
                value += WIN if winner == seat else -WIN
            continue
        if winner is None:
            continue
        sign = 1.0 if winner == seat else -1.0
        value += sign * LEAD
        # a sector with a single open neighbour may be closed by the next canal
        open_cells = {n for p in sector for n in neighbours(p) if n not in cells}
        if len(open_cells) == 1:
            value += sign * THREAT
    return value


def placement_value(state: KontorState, seat: int, card: int, pos) -> float:
    cells = occupancy(state)
    cells[pos] = card
    c = CARDS[card]
    warehouses = state.warehouses | {card} if c.goods else state.warehouses
    value = _evaluate(state, seat, cells, warehouses)
    if c.is_water and state.treasury > 0:
        value += MONEY
    return value


def _best_cell(state: KontorState, seat: int, card: int, rng, noise: float):
    cells = legal_cells(occupancy(state), card, seat, state.options.board_size)
    best, best_value = None, float("-inf")
    for pos in cells:
        v = placement_value(state, seat, card, pos) + (rng.below(1000) / 1000.0) * noise
        if v > best_value:
            best, best_value = pos, v
    return best, best_value


def _reply_value(
    state: KontorState, seat: int, card: int, pos, reply_seat: int, reply: int
) -> float:
    """My placement at ``pos``, then the opponent's best answer with its revealed card."""
    cells = occupancy(state)
    cells[pos] = card
    warehouses = state.warehouses | {card} if CARDS[card].goods else state.warehouses
    worst = None
    for rpos in legal_cells(cells, reply, reply_seat, state.options.board_size):
        after = dict(cells)
        after[rpos] = reply
        wh = warehouses | {reply} if CARDS[reply].goods else warehouses
        v = _evaluate(state, seat, after, wh)
        worst = v if worst is None else min(worst, v)
    if worst is None:
        worst = _evaluate(state, seat, cells, warehouses)
    if CARDS[card].is_water and state.treasury > 0:
        worst += MONEY
    return worst


def policy(state: KontorState, seat: int, rng, level: str = "normal"):
    legal = legal_commands(state, seat)
    if not legal:
        raise ValueError("the seat may not act now")
    if level == "easy" and rng.below(3) == 0:
        return rng.choice(legal)
    noise = 0.5 if level == "easy" else 0.05
    if state.phase == "place":
        card = placing_card(state)
        if level == "strong" and len(state.order) > 1:
            # the opponent places next with a card everyone has seen: answer it
            reply_seat = state.order[1]
            reply = state.revealed[reply_seat]
            cells = legal_cells(occupancy(state), card, seat, state.options.board_size)
            scored = [
                (
                    _reply_value(state, seat, card, pos, reply_seat, reply) + rng.below(1000) / 1e5,
                    pos,
                )
                for pos in cells
            ]
            return PlaceCard(*max(scored)[1])
        pos, _ = _best_cell(state, seat, card, rng, noise)
        return PlaceCard(*pos)
    base = _evaluate(state, seat, occupancy(state), state.warehouses)
    choices = []
    for card in sorted(set(state.hands[seat])):
        pos, v = _best_cell(state, seat, card, rng, noise)
        if pos is None:
            continue
        gain = v - base
        if CARDS[card].florin:
            gain += MONEY  # the opponent pays tax
        choices.append((gain, card))
    money = state.money[seat]
    if not choices:
        return Pass()
    gain, card = max(choices)
    if money == 0 and state.treasury > 0 and gain < WIN / 2:
        return Pass()
    return ChooseCard(card)
