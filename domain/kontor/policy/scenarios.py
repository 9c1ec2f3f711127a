"""The computer player's view of the scenarios: the weight of a sector under a scenario's
final count, and the answer to a decision a scenario left pending (a raised warehouse in
Euphrate, a second canal in Grande marée). Reads the options and the legal commands only
(the scenarios' modules are the registry's)."""

from __future__ import annotations

from domain.kontor.core.board import occupancy
from domain.kontor.core.data import CARDS
from domain.kontor.core.options import Options
from domain.kontor.core.state import KontorState
from domain.kontor.scenarios.data import ISLAND_CELLS
from domain.kontor.scenarios.decisions import PlaceSunkenWarehouse, SecondCanal, decisions_of
from domain.kontor.scenarios.final_count import is_straight


def _on_island(sector) -> bool:
    return bool(sector) and all(p in ISLAND_CELLS for p in sector)


def sector_weight(options: Options, sector, closed: bool) -> float:
    """The policy's weight of a sector under the scenario's final count (1: as usual)."""
    n = len(sector)
    if options.size_points:
        if options.final_max_docks and n > options.final_max_docks:
            return 0.0 if closed else 0.2
        return float(n)
    if options.final_straight and not is_straight(sector):
        return 0.0 if closed else 0.5
    if closed and n < options.final_min_docks and options.final_selection != "largest":
        return 0.0  # ("largest" games leave small sectors out in choose_largest)
    if options.island_points and _on_island(sector):
        return float(options.island_points)
    return 1.0


def pending_choice(state: KontorState, rng, evaluate, legal: list):
    """The answer to a pending decision (raised warehouse, second canal), or None when
    none waits for the seat (``legal`` then holds no such command).  ``evaluate(cells,
    warehouses, goods)`` values a board for the seat."""
    legal = [c for c in legal if isinstance(c, (PlaceSunkenWarehouse, SecondCanal))]
    if not legal:
        return None
    cells = occupancy(state)
    base = evaluate(cells, state.warehouses, state.goods_map())
    best, best_value = legal[0], None
    for cmd in legal:
        if isinstance(cmd, PlaceSunkenWarehouse):
            card = cells[(cmd.x, cmd.y)]
            goods = state.goods_map()
            goods[card] = (*goods.get(card, CARDS[card].goods), decisions_of(state).sunken_pending[0][1])
            v = evaluate(cells, state.warehouses, goods)
        elif cmd.card is None:
            v = base
        else:
            after = dict(cells)
            after[(cmd.x, cmd.y)] = cmd.card
            v = (
                evaluate(after, state.warehouses, state.goods_map())
                - 0.6 * (state.options.second_canal_cost)
                - 0.3
            )
        v += rng.below(1000) / 1e5
        if best_value is None or v > best_value:
            best, best_value = cmd, v
    return best
