"""The computer player's choices for the special rules A (policy/__init__.py calls
``choose``).

Only what the seat knows: its own hand, deck and pile (when it may look), public money,
piles' tops and the board."""

from __future__ import annotations

from domain.kontor.core.board import occupancy, sector_of, supremacy, warehouse_counts
from domain.kontor.core.commands import DrawCard, PlaceCard
from domain.kontor.core.data import CARDS
from domain.kontor.core.scoring import goods_of
from domain.kontor.core.sides import side_count, side_of
from domain.kontor.policy.basic import WIN, best_cell, placement_value
from domain.kontor.rules.buy_special_cards import BuySpecialCard
from domain.kontor.rules.choice_of_goods import ChooseGood
from domain.kontor.rules.first_choice import TakeFromPile
from domain.kontor.rules.flood_choice import PlaceWater
from domain.kontor.rules.justice import ChooseStartingDock
from domain.kontor.rules.pending_step import step_card, waiting_step


def _dock_worth(card: int) -> tuple:
    c = CARDS[card]
    return (len(c.goods), c.florin, c.ship, c.crane, -card)


def choose(state, seat: int, rng, level: str, legal: list):
    """A command for the special phases and steps, or None (the normal policy decides)."""
    first = legal[0]
    if isinstance(first, ChooseStartingDock):
        # the docks with most goods (then a florin, a ship) make the strongest start
        return max(legal, key=lambda c: _dock_worth(c.card))
    if isinstance(first, BuySpecialCard):
        # buy while it leaves a reserve of 2 florins for taxes
        price = state.options.special_price
        want = state.money[seat] >= price + 2
        return BuySpecialCard(want) if BuySpecialCard(want) in legal else legal[-1]
    if isinstance(first, ChooseGood):
        return _good(state, seat, legal)
    if isinstance(first, DrawCard):
        return _draw(state, seat, legal)
    if isinstance(first, TakeFromPile):
        return max(legal, key=lambda c: _dock_worth(c.card))
    waters = [c for c in legal if isinstance(c, PlaceWater)]
    if waters:
        return _water(state, seat, rng, level, legal, waters)
    return None


def _good(state, seat: int, legal: list):
    """The good that gives the seat's side the lead in the dock's sector, if any."""
    side = side_of(state.options, seat)
    sides = side_count(state.options, state.seat_count)
    card = step_card(state)
    cells = occupancy(state)
    pos = next(p for p, c in cells.items() if c == card)
    sector = sector_of(cells, pos)
    best, best_key = legal[0], None
    for cmd in legal:
        goods = dict(goods_of(state) or {})
        goods[card] = (cmd.good,)
        counts = warehouse_counts(cells, sector, state.warehouses | {card}, sides, goods)
        winner, _ = supremacy(counts)
        mine = counts[side][["tea", "wine", "spice"].index(cmd.good)]
        key = (winner == side, winner is None, -mine)
        if best_key is None or key > best_key:
            best, best_key = cmd, key
    return best


def _draw(state, seat: int, legal: list):
    piles = [c.pile for c in legal]
    hand = state.hands[seat]
    docks = sum(1 for c in hand if CARDS[c].kind == "dock")
    canals = sum(1 for c in hand if CARDS[c].kind == "water")
    if "dock_pick" in piles and state.money[seat] >= 5:
        return DrawCard("dock_pick")
    want = "dock" if docks <= canals + 1 else "water"
    if want in piles:
        return DrawCard(want)
    return DrawCard(piles[0])


def _water(state, seat: int, rng, level: str, legal: list, waters: list):
    """Flood as two water cards when covering is impossible or worth little."""
    noise = 0.5 if level == "easy" else 0.05
    places = [c for c in legal if isinstance(c, PlaceCard)]
    best_water = max(
        waters,
        key=lambda c: placement_value(state, seat, c.card, (c.x, c.y)) + rng.below(1000) / 1e5,
    )
    if waiting_step(state) == "flood_water" or not places:
        return best_water
    card = state.revealed[seat]
    _, flood_value = best_cell(state, seat, card, rng, noise)
    water_value = placement_value(state, seat, best_water.card, (best_water.x, best_water.y))
    if water_value + (WIN / 20) > flood_value:
        return best_water
    return None
