"""The warehouses a dock holds now, shared by the two expansions: a good sent to export
leaves its dock (« mettre dans l'entrepôt d'exportation un des entrepôts correspondant aux
marchandises de la carte »: export_warehouse.py), and « Inondation » changes one (« Chacun
peut échanger un de ses entrepôts contre un des réserves d'une autre couleur »:
event_cards.py).

Both are kept as deltas to the printed goods (``WarehouseGoodsState``: ``export_missing``,
``swapped``).
Hook points: ``counting`` (``Counting.adjust``: the counts of a sector's supremacy), its part of the view (the
board's warehouses as they are, after both expansions' own keys).
"""

from __future__ import annotations

from dataclasses import dataclass

from domain.kontor.core.data import CARDS, GOODS
from domain.kontor.core.hooks import Counting, Hooks
from domain.kontor.core.state import KontorState, part


@dataclass(frozen=True)
class WarehouseGoodsState:
    #: (dock card, good): one warehouse of that good of the dock is not in its sector (it
    #: went to export, or stayed there when another dock left: export_warehouse.py)
    export_missing: tuple[tuple[int, str], ...] = ()
    #: (dock card, good, new good): a warehouse swapped by « Inondation »
    swapped: tuple[tuple[int, str, str], ...] = ()
    #: per seat: the warehouses in its export warehouse, (tea, wine, spice)
    exports: tuple[tuple[int, int, int], ...] = ()


def moved(state: KontorState) -> WarehouseGoodsState:
    """The expansions' warehouses that are not where their dock is printed to hold them."""
    return part(state, WarehouseGoodsState)


def adjust(state: KontorState) -> dict[int, tuple[int, ...]] | None:
    """Per dock card, the deltas (tea, wine, spice) to its printed goods: exported
    warehouses (-1) and warehouses swapped by « Inondation » (-1 old, +1 new)."""
    if not moved(state).export_missing and not moved(state).swapped:
        return None
    out: dict[int, list[int]] = {}
    for card, good in moved(state).export_missing:
        out.setdefault(card, [0, 0, 0])[GOODS.index(good)] -= 1
    for card, good, new in moved(state).swapped:
        row = out.setdefault(card, [0, 0, 0])
        row[GOODS.index(good)] -= 1
        row[GOODS.index(new)] += 1
    return {k: tuple(v) for k, v in out.items()}


def actual_goods(state: KontorState, card: int) -> list[int]:
    """The warehouses (tea, wine, spice counts) the dock holds now."""
    if card not in state.warehouses:
        return [0, 0, 0]
    row = [0, 0, 0]
    for g in CARDS[card].goods:
        row[GOODS.index(g)] += 1
    delta = (adjust(state) or {}).get(card)
    if delta:
        row = [a + b for a, b in zip(row, delta)]
    return row


def view_keys(state: KontorState, out: dict, viewer) -> None:
    """The board's warehouses with the goods they hold now."""
    opts = state.options
    if not (opts.export_warehouse or opts.event_cards):
        return
    if moved(state).export_missing or moved(state).swapped:
        delta = adjust(state) or {}
        for w in out["board"]["warehouses"]:
            d = delta.get(w["card"])
            if d:
                row = [0, 0, 0]
                for g in CARDS[w["card"]].goods:
                    row[GOODS.index(g)] += 1
                row = [a + b for a, b in zip(row, d)]
                w["goods"] = [g for i, g in enumerate(GOODS) for _ in range(row[i])]


def register(hooks: Hooks) -> None:
    hooks.counting.append(lambda state: Counting(adjust=adjust(state)))
    hooks.add_view(lambda state, out, cells, viewer: view_keys(state, out, viewer), after="you")
