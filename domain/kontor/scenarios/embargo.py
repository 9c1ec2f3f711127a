"""Scenario « Embargo pour 2 joueurs » (``embargo``; switch ``warehouse_supply``):

« Chaque joueur reçoit au début de la partie 4 entrepôts de chaque couleur. Ce sont ses
réserves personnelles dans lesquelles il doit puiser s'il a besoin de poser des
entrepôts. Le reste est retiré du jeu.

Lorsqu'un secteur est terminé, le gagnant place normalement son gardien. Mais ses
entrepôts restent sur le secteur. Ils ne sont plus disponibles. Le perdant, par contre,
reprend ses entrepôts dans ses réserves. Si un joueur pose un dock pour lequel il n'a plus
d'entrepôt correspondant dans ses réserves, il ne peut donc pas placer d'entrepôt. Si les
deux joueurs n'ont plus aucun entrepôt en réserve, la partie se termine prématurément. En
cas d'égalité sur un secteur, personne ne marque de point et les deux joueurs récupèrent
leurs entrepôts. Si un dock est enlevé du fait du bateau, le joueur récupère l'entrepôt
dans ses réserves. »

Tables (scenarios/data.py): ``SCENARIO_SETTINGS["embargo"]``. Here: each colour's supply
(what is not on the board), the warehouses a dock brings from it (its swap of the core's
``placed_goods``, also read by the policy through core/placement.py:placed_goods), the
winner's warehouses staying on a scored sector (its swap of ``returned_warehouses``), the early end (``early_end``), the supplies
in the view. A dock the ship removes takes its warehouses off the board: they are back in
the supply.
"""

from __future__ import annotations

from domain.kontor.core import events as ev
from domain.kontor.core.changes import goods_recorded
from domain.kontor.core.data import CARDS, GOODS
from domain.kontor.core.hooks import Hooks
from domain.kontor.core.state import KontorState


def supply(state: KontorState, side: int) -> dict[str, int]:
    """« 4 entrepôts de chaque couleur ... ses réserves personnelles »: what is not on the
    board (warehouses kept on won sectors are no longer available)."""
    left = {g: state.options.warehouse_supply for g in GOODS}
    goods = state.goods_map()
    for card in state.warehouses:
        c = CARDS[card]
        if c.owner != side:
            continue
        for g in goods.get(card, c.goods):
            left[g] -= 1
    return left


def placed_goods(state: KontorState, seat: int, card: int) -> tuple[str, ...]:
    """The warehouses a goods dock brings: those its owner's supply still holds (« il ne
    peut donc pas placer d'entrepôt »). Swapped for the core's (registered under
    warehouse_supply only)."""
    left = supply(state, CARDS[card].owner)
    out = []
    for g in CARDS[card].goods:
        if left[g] > 0:
            left[g] -= 1
            out.append(g)
    return tuple(out)


def record_goods(event: ev.WarehousesAdded, state: KontorState) -> KontorState:
    """A dock whose owner's supply lacked some of its goods records those it got."""
    if not state.options.warehouse_supply:
        return state
    return goods_recorded(state, event.card, event.goods)


def kept_warehouses(state: KontorState, winner: int | None, returned: tuple[int, ...]):
    """« le gagnant place normalement son gardien. Mais ses entrepôts restent sur le
    secteur ... Le perdant, par contre, reprend ses entrepôts » ; a tie: « les deux
    joueurs récupèrent leurs entrepôts »."""
    if winner is None:
        return returned
    return tuple(c for c in returned if CARDS[c].owner != winner)


def supplies_empty(state: KontorState) -> bool:
    return all(sum(supply(state, side).values()) == 0 for side in range(2))


def early_end(log) -> bool:
    """« Si les deux joueurs n'ont plus aucun entrepôt en réserve, la partie se termine
    prématurément »: True if it ended."""
    st = log.state
    if st.options.warehouse_supply and supplies_empty(st):
        log.end_game("supplies_empty")
        return True
    return False


def view_keys(state: KontorState, out: dict) -> None:
    """Public: each colour's supply."""
    out.setdefault("scenario", {})["supply"] = {
        ["red", "black"][side]: supply(state, side) for side in range(2)
    }


def register(hooks: Hooks) -> None:
    hooks.swap("placed_goods", placed_goods)
    hooks.before_event(
        ev.WarehousesAdded,
        lambda state, event: record_goods(event, state),
        when=lambda options: options.warehouse_supply,
    )
    hooks.swap("returned_warehouses", kept_warehouses)
    hooks.early_end.append(early_end)
    hooks.add_view(lambda state, out, cells, viewer: view_keys(state, out), after="final_scoring")
