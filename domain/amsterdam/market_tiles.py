"""Expansion 4, the extra market tiles (L866-884, L2176-2255), mode b (A11): each half
gets 3 of its C tiles (2 in the short game) shuffled with 3 base tiles; the rest are
removed unseen. The C tiles' effects."""

from __future__ import annotations

from domain.amsterdam import data
from domain.amsterdam import events as ev
from domain.amsterdam.commands import BuyPrestige
from domain.amsterdam.state import State


def stack(rng, rounds: int) -> tuple[tuple[str, ...], tuple[str, ...]]:
    out: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()
    for half in ("A", "B"):
        base = rng.shuffle([t.id for t in data.MARKET_TILES.values()
                            if t.half == half and not t.expansion])
        extra = rng.shuffle([t.id for t in data.MARKET_TILES.values()
                             if t.half == half and t.expansion])
        keep_base = data.EXTRA_MARKET_TILES["base_kept"]
        keep_c = data.EXTRA_MARKET_TILES["c_kept"][rounds]
        out += rng.shuffle(base[:keep_base] + extra[:keep_c])
        removed += base[keep_base:] + extra[keep_c:]
    return out, removed


def exchange_commands(state: State, seat_index: int) -> list[BuyPrestige]:
    """CA 18: one inactive card for one from the discard pile; if it is empty, the top of
    the craftsman or building pile (never the plans). Without an inactive card or anything
    to take, the tile is bought for nothing."""
    seat = state.seats[seat_index]
    takes = list(dict.fromkeys(state.discard)) or [
        kind for kind, pile in (("craftsman", state.craftsmen), ("building", state.buildings))
        if pile]
    out = [BuyPrestige(give=g, take=t) for g in dict.fromkeys(seat.inactive) for t in takes]
    return out or [BuyPrestige()]


def apply(tx, seat: int, tile: data.MarketTile, command: BuyPrestige) -> None:
    """The tile's own effect. The two tiles that grant an ordinary action (CB 21: the barge
    to any node; CB 22: a free block) only record it here; ``actions.buy_prestige`` then
    runs that action's usual steps."""
    state = tx.state
    if tile.special == "barge_three":                         # CA 17 (B31: up to 3)
        tx.emit(ev.BargeCreditGained(seat, tile.count))
    elif tile.special == "exchange_card" and command.give is not None:   # CA 18 (B30)
        taken = command.take
        if taken == "craftsman":
            taken = state.craftsmen[0]
        elif taken == "building":
            taken = state.buildings[0]
        tx.emit(ev.CardExchanged(seat, command.give, taken))
    elif tile.special in ("free_activations_1", "free_activations_2"):  # CA 20, CB 24
        tx.emit(ev.FreeActivationsGained(seat, tile.count))
    elif tile.special == "barge_anywhere":                    # CB 21
        tx.emit(ev.BargeMoved(seat, command.node, tx.seat(seat).turn.barge_credit))
    elif tile.special == "one_of_each":                       # CB 23
        tx.resources(seat, data.COLOURS, "CB23")
