"""Expansion « Kontor – l'entrepôt d'exportation » (2 players).

« Lorsqu'un joueur place un dock dans un secteur, il peut agir de deux façons au choix :
- Soit, comme d'habitude, placer tous les entrepôts correspondants dans le centre de
  distribution de ce secteur,
- Soit mettre dans l'entrepôt d'exportation un des entrepôts correspondant aux
  marchandises de la carte. Si la carte indique plusieurs marchandises, un seul entrepôt
  peut être posé à l'exportation. Les autres marchandises sont placées comme auparavant
  sur le centre de distribution. »

« Si un dock est enlevé par le bateau, et que le joueur concerné n'a aucun entrepôt
correspondant au dock retiré dans le secteur, il doit alors prendre l'entrepôt dans son
entrepôt d'exportation. C'est le seul cas où il est autorisé à retirer un entrepôt qu'il
avait placé à l'exportation. »

« A la fin de la partie, on compare combien chacun possède d'entrepôts sur l'entrepôt
d'exportation ... par type de marchandise. Chaque joueur reçoit respectivement un point
de victoire pour chaque majorité ... En cas d'égalité, aucun point n'est attribué. »

Model (RULES-NOTES: warehouses belong to the dock that produced them): an exported good
is recorded as ``(dock, good)`` in ``WarehouseGoodsState.export_missing`` -- that dock has one warehouse
of that good fewer in its sector; ``WarehouseGoodsState.exports`` counts each seat's export warehouse.
Shared with the event cards: the warehouses a dock holds now (warehouse_goods.py) and the
final count (final_bonuses.py: the majorities).

Hook points: ``place_commands`` and ``command`` (``ExportWarehouse``), its step "export" (right
after "place": the exported good and the others), its step "export_kept" of the ship's
move (before "dock_removed"), its events (``on_events``), its part of the view.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from domain.decider import RuleViolation
from domain.kontor.core import events as ev
from domain.kontor.core.board import occupancy, sector_of
from domain.kontor.core.commands import PlaceCard
from domain.kontor.core.data import CARDS, GOODS, SEAT_COLORS
from domain.kontor.core.hooks import Hooks
from domain.kontor.core.placement import step_waits
from domain.kontor.core.state import KontorState, change_part
from domain.kontor.expansions.final_bonuses import export_majorities, exports_of
from domain.kontor.expansions.warehouse_goods import WarehouseGoodsState, actual_goods, moved


@dataclass(frozen=True)
class WarehouseExported:
    """Export warehouse: the warehouse of ``good`` of the placed dock went to export."""

    TYPE: ClassVar[str] = "kontor.WarehouseExported"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int
    card: int
    good: str


@dataclass(frozen=True)
class ExportWarehouseKept:
    """The ship removed ``card``, whose ``good`` was not in the sector; the owner had
    another warehouse of that good in the sector (on ``from_card``): that one leaves, the
    export warehouse stays."""

    TYPE: ClassVar[str] = "kontor.ExportWarehouseKept"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int
    card: int
    good: str
    from_card: int


@dataclass(frozen=True)
class ExportWarehouseReturned:
    """The ship removed ``card``; the owner had no warehouse of ``good`` in the sector: he
    takes it from his export warehouse back to the reserve."""

    TYPE: ClassVar[str] = "kontor.ExportWarehouseReturned"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int
    card: int
    good: str


EVENTS: tuple[type, ...] = (WarehouseExported, ExportWarehouseKept, ExportWarehouseReturned)


@dataclass(frozen=True)
class ExportWarehouse:
    """Export warehouse expansion: place the revealed goods dock at (x, y) and put the
    warehouse of ``good`` (one of its goods) into your export warehouse; the others go to
    the sector as usual."""

    TYPE: ClassVar[str] = "ExportWarehouse"
    x: int
    y: int
    good: str


COMMANDS: tuple[type, ...] = (ExportWarehouse,)


# ---------------------------------------------------------------------------------------
# placing: the choice


def export_commands(state: KontorState, seat: int, places: list[PlaceCard]) -> list:
    """Every PlaceCard of a goods dock also exists as ExportWarehouse, one per good."""
    if not places:
        return []
    card = state.revealed[seat]
    c = CARDS[card]
    if not (c.is_dock and c.goods):
        return []
    goods = [g for g in GOODS if g in c.goods]
    return [ExportWarehouse(p.x, p.y, g) for p in places for g in goods]


def check_export(state: KontorState, seat: int, cmd: ExportWarehouse) -> None:
    if not state.options.export_warehouse:
        raise RuleViolation(
            "kontor.no_export_warehouse", "This game is played without the export warehouse."
        )
    if state.phase != "place":
        raise RuleViolation("kontor.not_placing", "Cards are placed only after the reveal.")
    c = CARDS[state.revealed[seat]]
    if not (c.is_dock and c.goods) or cmd.good not in c.goods:
        raise RuleViolation(
            "kontor.export_good",
            "Only one of the placed dock's own goods may go to export (« mettre dans "
            "l'entrepôt d'exportation un des entrepôts correspondant aux marchandises de la "
            "carte »).",
        )


def warehouse_events(seat: int, card: int, good: str) -> list:
    """« un seul entrepôt peut être posé à l'exportation. Les autres marchandises sont
    placées comme auparavant sur le centre de distribution »."""
    goods = list(CARDS[card].goods)
    goods.remove(good)
    out: list = [WarehouseExported(seat, card, good)]
    if goods:
        out.insert(0, ev.WarehousesAdded(seat, card, tuple(goods)))
    return out


def export_step(log, turn) -> bool:
    """A step of the placer's turn (core/decide.py: TURN_STEPS, right after "place",
    before the other rules' warehouses): the exported good and the others."""
    c = CARDS[turn.card]
    if turn.export is None or not (c.is_dock and c.goods):
        return False
    for event in warehouse_events(turn.seat, turn.card, turn.export):
        log.emit(event)
    turn.warehoused = True
    return False


# ---------------------------------------------------------------------------------------
# removal by the ship


def removal_step(log, move) -> bool:
    """A step of the ship's move (core/decide.py: SHIP_MOVE, before "dock_removed")."""
    if move.removal is not None:
        for event in before_dock_removed(log.state, move.card):
            log.emit(event)
    return False


def before_dock_removed(state: KontorState, card: int) -> list:
    """For each good of the removed dock that is not in its sector (it went to export):
    if the owner has another warehouse of that good in the sector, that one leaves (the
    export stays); otherwise the owner takes it back from his export warehouse."""
    if not state.options.export_warehouse:
        return []
    missing = [g for d, g in moved(state).export_missing if d == card]
    if not missing:
        return []
    cells = occupancy(state)
    pos = next(p for p, c in cells.items() if c == card)
    sector = sector_of(cells, pos)
    owner = CARDS[card].owner
    out: list = []
    taken: dict[int, list[int]] = {}
    for good in missing:
        i = GOODS.index(good)
        donor = None
        for cell in state.board:
            p = (cell.x, cell.y)
            d = cell.card
            if p not in sector or cells.get(p) != d or d == card or CARDS[d].owner != owner:
                continue
            have = actual_goods(state, d)
            have[i] -= taken.get(d, [0, 0, 0])[i]
            if have[i] > 0:
                donor = d
                break
        if donor is not None:
            taken.setdefault(donor, [0, 0, 0])[i] += 1
            out.append(ExportWarehouseKept(owner, card, good, donor))
        else:
            out.append(ExportWarehouseReturned(owner, card, good))
    return out


# ---------------------------------------------------------------------------------------
# evolve


def _remove_one(entries: tuple, entry) -> tuple:
    i = entries.index(entry)
    return entries[:i] + entries[i + 1 :]


def _bump(state: KontorState, seat: int, good: str, delta: int) -> tuple:
    ex = [list(r) for r in exports_of(state)]
    ex[seat][GOODS.index(good)] += delta
    return tuple(tuple(r) for r in ex)


def evolve_export(state: KontorState, event) -> KontorState | None:
    t = type(event)
    if t is WarehouseExported:
        return change_part(
            state,
            WarehouseGoodsState,
            exports=_bump(state, event.seat, event.good, 1),
            export_missing=moved(state).export_missing + ((event.card, event.good),),
        )
    if t is ExportWarehouseKept:
        missing = _remove_one(moved(state).export_missing, (event.card, event.good))
        return change_part(
            state, WarehouseGoodsState, export_missing=missing + ((event.from_card, event.good),)
        )
    if t is ExportWarehouseReturned:
        return change_part(
            state,
            WarehouseGoodsState,
            exports=_bump(state, event.seat, event.good, -1),
            export_missing=_remove_one(moved(state).export_missing, (event.card, event.good)),
        )
    return None


def view_keys(state: KontorState, out: dict) -> None:
    ex = exports_of(state)
    for seat, p in enumerate(out["players"]):
        p["export_warehouse"] = dict(zip(GOODS, ex[seat]))
    majorities = export_majorities(state)

    out["export_majorities"] = {
        g: (SEAT_COLORS[s] if s is not None else None) for g, s in zip(GOODS, majorities)
    }


def decide_export(log, seat: int, command) -> bool:
    """``ExportWarehouse``: the card is placed like ``PlaceCard``, one good to export."""
    if not isinstance(command, ExportWarehouse) or step_waits(log.state):
        return False
    check_export(log.state, seat, command)
    log.place(seat, command.x, command.y, command.good)
    log.after_command()
    return True


def register(hooks: Hooks) -> None:
    hooks.on_commands((ExportWarehouse,), decide_export)
    hooks.add_commands("export", export_commands, after="cells")
    hooks.add_step("export_kept", removal_step, before="dock_removed")
    hooks.add_step("export", export_step, after="place")
    hooks.on_events((WarehouseExported, ExportWarehouseKept, ExportWarehouseReturned), evolve_export)
    hooks.add_view(lambda state, out, cells, viewer: view_keys(state, out), after="you")
