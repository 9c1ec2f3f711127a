"""Small changes of a state's tuples, shared by the core's evolve and the extensions' own
evolvers (their events change the same fields: money, hands, the board, piles)."""

from __future__ import annotations

from domain.common.frozen import replace
from domain.kontor.core.data import CARDS
from domain.kontor.core.state import KontorState, without_cell


def grown(span, x: int, y: int):
    """The board's extent (min x, max x, min y, max y) with (x, y) in it."""
    if span is None:
        return (x, x, y, y)
    return (min(span[0], x), max(span[1], x), min(span[2], y), max(span[3], y))


def set_at(values: tuple, index: int, value) -> tuple:
    return values[:index] + (value,) + values[index + 1 :]


def add_at(values: tuple[int, ...], index: int, amount: int) -> tuple[int, ...]:
    return set_at(values, index, values[index] + amount)


def without_one(hand: tuple[int, ...], card: int) -> tuple[int, ...]:
    """``hand`` less one copy of ``card`` (which it holds)."""
    i = hand.index(card)
    return hand[:i] + hand[i + 1 :]


def goods_recorded(state: KontorState, card: int, goods) -> KontorState:
    """Record the goods of a dock's warehouses when they differ from the printed ones
    (None or the printed goods: no override)."""
    rest = tuple(o for o in state.goods_override if o[0] != card)
    if goods is not None and tuple(goods) != CARDS[card].goods:
        rest = rest + ((card, tuple(goods)),)
    if rest == state.goods_override:
        return state
    return replace(state, goods_override=rest)


def dock_to_pile_bottom(state: KontorState, card: int, x: int, y: int, to: int) -> KontorState:
    """A dock leaves the board for the bottom of ``to``'s pile (the ship, a bribe): its
    warehouses go with it, and everyone knows one more card at the pile's bottom."""
    known = state.pile_known or (0,) * state.seat_count
    return replace(
        goods_recorded(state, card, None),
        board=without_cell(state.board, x, y),
        warehouses=state.warehouses - {card},
        dock_piles=set_at(state.dock_piles, to, state.dock_piles[to] + (card,)),
        pile_known=add_at(known, to, 1),
    )
