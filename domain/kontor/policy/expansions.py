"""The computer player's choices in the expansions: which good to export, and the answer
to an event card that waits for a choice (« Mariage », « Inondation »)."""

from __future__ import annotations

from domain.kontor.core.board import occupancy, sector_of, supremacy, warehouse_counts
from domain.kontor.core.commands import PlaceCard
from domain.kontor.core.data import CARDS, GOODS
from domain.kontor.core.scoring import goods_beats
from domain.kontor.core.state import KontorState, change_part
from domain.kontor.expansions.event_cards import ChooseFromPile, PutUnder, SkipEvent, SwapWarehouse
from domain.kontor.expansions.export_warehouse import ExportWarehouse
from domain.kontor.expansions.final_bonuses import exports_of
from domain.kontor.expansions.warehouse_goods import WarehouseGoodsState, adjust, moved


def _dock_worth(card: int) -> float:
    c = CARDS[card]
    return len(c.goods) + (0.5 if c.florin else 0.0) + (0.3 if c.crane else 0.0)


def policy_export(state: KontorState, seat: int, place: PlaceCard, legal: list):
    """Export one good of a dock with two or three goods when that good's export majority
    is not already ours (the other goods still go to the sector); a single-good dock keeps
    its warehouse in the sector, where it may win the sector."""
    if not state.options.export_warehouse:
        return place
    card = state.revealed[seat]
    c = CARDS[card]
    if not c.is_dock or len(c.goods) < 2:
        return place
    ex = exports_of(state)
    other = 1 - seat
    best = None
    for good in sorted(set(c.goods)):
        i = GOODS.index(good)
        margin = ex[seat][i] - ex[other][i]
        if margin <= 0 and (best is None or margin < best[0]):
            best = (margin, good)
    if best is None:
        return place
    cmd = ExportWarehouse(place.x, place.y, best[1])
    return cmd if cmd in legal else place


def policy_event(state: KontorState, seat: int, legal: list, rng):
    """Mariage: take the pile's best dock (most goods), put the weakest one under.
    Inondation: the swap that makes the seat lead a sector it does not lead, else skip."""
    takes = [c for c in legal if isinstance(c, ChooseFromPile)]
    if takes:
        return max(takes, key=lambda c: (_dock_worth(c.card), -c.card))
    unders = [c for c in legal if isinstance(c, PutUnder)]
    if unders:
        return min(unders, key=lambda c: (_dock_worth(c.card), c.card))
    swaps = [c for c in legal if isinstance(c, SwapWarehouse)]
    if swaps:
        cells = occupancy(state)
        for cmd in swaps:
            sector = sector_of(cells, (cmd.x, cmd.y))
            before = warehouse_counts(cells, sector, state.warehouses, 2, adjust=adjust(state))
            lead, _ = supremacy(before, goods_beats(state))
            if lead == seat:
                continue
            card = cells[(cmd.x, cmd.y)]
            after_state = change_part(
                state, WarehouseGoodsState, swapped=moved(state).swapped + ((card, cmd.good, cmd.new_good),)
            )
            after = warehouse_counts(cells, sector, state.warehouses, 2, adjust=adjust(after_state))
            if supremacy(after, goods_beats(state))[0] == seat:
                return cmd
    skip = [c for c in legal if isinstance(c, SkipEvent)]
    return skip[0] if skip else rng.choice(legal)
