"""Scenario « Euphrate pour 2 et 4 joueurs » (``euphrates``; switch ``sunken_warehouses``):

« Disposition initiale normale. Plateau : 6x6 cases.

On place 1 entrepôt de type différent sur 3 canaux de la croix de départ. Ces entrepôts
représentent les cargaisons coulées dans le canal. Lorsqu'un canal qui contient un
entrepôt est entouré de tous côtés, horizontalement et verticalement, le joueur qui a mis
la dernière carte reçoit en plus l'entrepôt qui était noyé. Il peut placer l'entrepôt sur
n'importe lequel de ses centres de distribution, mais dans un secteur qui n'est pas
terminé. Si les entrepôts viennent à manquer dans les réserves, vers la fin de la partie,
on peut prendre ceux qui sont encore dans le canal. »

Tables (scenarios/data.py): ``SCENARIO_SETTINGS["euphrates"]``, ``WAREHOUSES_PER_GOOD``.
Here: the sunken warehouses drawn at the start (``start_fields``, after every other draw),
no bridge over one (reading, ``cell_filters``), a surrounded canal's warehouse raised
after a placement (``after_turn``; events ``SunkenWarehouseRaised``,
``SunkenWarehousePlaced``), the choice of a distribution centre (command
``PlaceSunkenWarehouse``: ``legal_commands``, ``command``; who decides: decisions.py),
the reserve's shortage (its step "euphrates_sunken_warehouses", after Choix des
marchandises' "choose_good" and before the core's "warehouses"; event ``SunkenWarehouseUsed``), what the events
record (evolve), the view.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar

from domain.common.frozen import replace
from domain.decider import RuleViolation
from domain.kontor.core import events as ev
from domain.kontor.core.board import Pos, neighbours, occupancy, possible, sectors
from domain.kontor.core.changes import goods_recorded
from domain.kontor.core.data import CARDS, GOODS
from domain.kontor.core.hooks import Hooks
from domain.kontor.core.options import Options
from domain.kontor.core.placement import box_of, placed_goods
from domain.kontor.core.scoring import distribution_centre
from domain.kontor.core.sides import side_of
from domain.kontor.core.state import KontorState, change_part, part
from domain.kontor.scenarios.data import WAREHOUSES_PER_GOOD
from domain.kontor.scenarios.decisions import DecisionsState, PlaceSunkenWarehouse, decisions_of


@dataclass(frozen=True)
class SunkenWarehouseRaised:
    """Euphrate: the canal at (x, y) is surrounded; ``seat`` (who placed the last card)
    gets its warehouse. ``pending``: the seat must choose the centre; otherwise it is
    placed at once (SunkenWarehousePlaced) or, with no centre in an unfinished sector,
    goes to the reserve."""

    TYPE: ClassVar[str] = "kontor.SunkenWarehouseRaised"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int
    x: int
    y: int
    good: str
    pending: bool


@dataclass(frozen=True)
class SunkenWarehousePlaced:
    """Euphrate: the raised warehouse is added to the distribution centre ``card``."""

    TYPE: ClassVar[str] = "kontor.SunkenWarehousePlaced"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int
    good: str
    card: int
    x: int
    y: int


@dataclass(frozen=True)
class SunkenWarehouseUsed:
    """Euphrate: the reserve ran out of ``good``; the warehouse sunk at (x, y) is used."""

    TYPE: ClassVar[str] = "kontor.SunkenWarehouseUsed"
    SCHEMA_VERSION: ClassVar[int] = 1
    x: int
    y: int
    good: str


EVENTS: tuple[type, ...] = (SunkenWarehouseRaised, SunkenWarehousePlaced, SunkenWarehouseUsed)


@dataclass(frozen=True)
class EuphratesState:
    #: (x, y, good) of the warehouses still sunk in canals
    sunken: tuple[tuple[int, int, str], ...] = ()


def _own(state: KontorState) -> EuphratesState:
    return part(state, EuphratesState)


# --- set-up: « On place 1 entrepôt de type différent sur 3 canaux de la croix » ------------


def sunken_at_start(options: Options, rng, cross, water: list[int]) -> dict:
    """GameStarted's ``sunken``: drawn after everything else (the basic game's draws are
    unchanged)."""
    canals = [c for c in cross if CARDS[c.card].kind == "water"]
    chosen = list(rng.shuffle(canals))[: options.sunken_warehouses]
    goods = list(rng.shuffle(GOODS))
    placed = [(c.x, c.y, goods[i % len(goods)]) for i, c in enumerate(chosen)]
    return {"sunken": tuple(sorted(placed, key=lambda s: (s[1], s[0])))}


def filter_cells(
    state: KontorState, cells: Mapping[Pos, int], card: int, seat: int, found: list[Pos]
) -> list[Pos]:
    """Reading: a bridge does not cover a canal that still holds a sunken warehouse."""
    if CARDS[card].kind != "bridge":
        return found
    sunk = {(x, y) for x, y, _ in _own(state).sunken}
    return [p for p in found if p not in sunk]


# --- « Si les entrepôts viennent à manquer dans les réserves » ------------------------------


def reserve(state: KontorState) -> dict[str, int]:
    """The common reserve (16 of each good) less the warehouses on the board and those
    still sunk in canals."""
    left = {g: WAREHOUSES_PER_GOOD for g in GOODS}
    goods = state.goods_map()
    for card in state.warehouses:
        for g in goods.get(card, CARDS[card].goods):
            left[g] -= 1
    for _x, _y, g in _own(state).sunken:
        left[g] -= 1
    return left


def take_goods(log, seat: int, card: int) -> tuple[str, ...] | None:
    """The warehouses a placed dock brings; a good missing from the reserve is taken from
    a canal: « on peut prendre ceux qui sont encore dans le canal. »  With none there
    either, that warehouse is not placed."""
    st = log.state
    if not st.options.sunken_warehouses:
        return None
    goods = placed_goods(st, seat, card)
    if not goods:
        return goods
    left = reserve(st)
    out = []
    for g in goods:
        if left[g] > 0:
            left[g] -= 1
            out.append(g)
            continue
        spot = next(((x, y) for x, y, s in _own(log.state).sunken if s == g), None)
        if spot is not None:
            log.emit(SunkenWarehouseUsed(spot[0], spot[1], g))
            out.append(g)
    return tuple(out)


def take_goods_step(log, turn) -> bool:
    """A step of the placer's turn (core/decide.py: TURN_STEPS, before "warehouses"): the
    dock's warehouses, from the reserve or a canal."""
    c = CARDS[turn.card]
    if turn.warehoused or not (c.is_dock and c.goods):
        return False
    goods = take_goods(log, turn.seat, turn.card)
    if goods is None:
        return False
    if goods:
        log.emit(ev.WarehousesAdded(turn.seat, turn.card, goods))
    turn.warehoused = True
    return False


# --- « entouré de tous côtés ... reçoit en plus l'entrepôt qui était noyé » -----------------


def surrounded(state: KontorState, cells: Mapping[Pos, int], pos: Pos) -> bool:
    """« entouré de tous côtés, horizontalement et verticalement »: each side holds a card
    or lies beyond the port's fixed edge (as a sector is closed by the edge)."""
    box = box_of(state, cells)
    dims = state.options.board_dims
    return all(n in cells or not possible(n, box, dims) for n in neighbours(pos))


def sunken_centres(state: KontorState, seat: int) -> list[Pos]:
    """The seat's (its colour's) distribution centres in unfinished sectors."""
    cells = occupancy(state)
    done = {frozenset(s.cells) for s in state.scored}
    side = side_of(state.options, seat)
    out = []
    for sector in sectors(cells):
        if sector in done:
            continue
        centre = distribution_centre(state, sector, side)
        if centre is not None:
            out.append(centre)
    return sorted(out, key=lambda p: (p[1], p[0]))


def raise_sunken(log, seat: int) -> None:
    """« le joueur qui a mis la dernière carte reçoit en plus l'entrepôt qui était noyé. Il
    peut placer l'entrepôt sur n'importe lequel de ses centres de distribution, mais dans
    un secteur qui n'est pas terminé. »  One centre: placed at once; several: the seat
    chooses (PlaceSunkenWarehouse); none: the warehouse goes to the reserve."""
    st = log.state
    cells = occupancy(st)
    for x, y, good in _own(st).sunken:
        if not surrounded(st, cells, (x, y)):
            continue
        centres = sunken_centres(log.state, seat)
        log.emit(SunkenWarehouseRaised(seat, x, y, good, len(centres) > 1))
        if len(centres) == 1:
            pos = centres[0]
            log.emit(SunkenWarehousePlaced(seat, good, cells[pos], pos[0], pos[1]))


def after_turn_step(log, turn) -> bool:
    """A step of the placer's turn (core/decide.py:TURN_STEPS, before "next")."""
    after_turn(log, turn.seat, turn.card)
    return False


def after_turn(log, seat: int, card: int) -> None:
    """After a placement (its draw and income): the warehouses of surrounded canals."""
    st = log.state
    if st.phase == "over":
        return
    if st.options.sunken_warehouses and _own(st).sunken:
        raise_sunken(log, seat)


# --- the choice of a centre ------------------------------------------------------------------


def legal_commands(state: KontorState, seat: int) -> list | None:
    if state.phase == "over" or not decisions_of(state).sunken_pending:
        return None
    if decisions_of(state).sunken_pending[0][0] != seat:
        return []
    return [PlaceSunkenWarehouse(x, y) for x, y in sunken_centres(state, seat)]


def decide_command(log, seat: int, command) -> bool:
    if not isinstance(command, PlaceSunkenWarehouse):
        return False
    st = log.state
    if not decisions_of(st).sunken_pending or decisions_of(st).sunken_pending[0][0] != seat:
        raise RuleViolation("kontor.no_sunken_warehouse", "No raised warehouse to place.")
    pos = (command.x, command.y)
    if pos not in sunken_centres(st, seat):
        raise RuleViolation(
            "kontor.sunken_centre",
            "Euphrate: the warehouse goes on one of your distribution centres in an "
            "unfinished sector (« mais dans un secteur qui n'est pas terminé »).",
        )
    good = decisions_of(st).sunken_pending[0][1]
    log.emit(SunkenWarehousePlaced(seat, good, occupancy(st)[pos], pos[0], pos[1]))
    log.advance()
    return True


# --- evolve: what the events record ---------------------------------------------------------


def started(event: ev.GameStarted, state: KontorState) -> KontorState:
    if not event.options.sunken_warehouses:
        return state
    return change_part(state, EuphratesState, sunken=event.sunken)


def record_goods(event: ev.WarehousesAdded, state: KontorState) -> KontorState:
    """A dock that got fewer warehouses than printed (the reserve ran short) records them."""
    if not state.options.sunken_warehouses:
        return state
    return goods_recorded(state, event.card, event.goods)


def _without_sunken(state: KontorState, x: int, y: int) -> tuple:
    return tuple(s for s in _own(state).sunken if (s[0], s[1]) != (x, y))


def evolve_sunken(state: KontorState, event) -> KontorState | None:
    t = type(event)
    if t is SunkenWarehouseRaised:
        pending = decisions_of(state).sunken_pending
        if event.pending:
            pending = pending + ((event.seat, event.good),)
        state = change_part(state, DecisionsState, sunken_pending=pending)
        return change_part(state, EuphratesState, sunken=_without_sunken(state, event.x, event.y))
    if t is SunkenWarehouseUsed:
        return change_part(state, EuphratesState, sunken=_without_sunken(state, event.x, event.y))
    if t is SunkenWarehousePlaced:
        pending = list(decisions_of(state).sunken_pending)
        if (event.seat, event.good) in pending:
            pending.remove((event.seat, event.good))
        goods = state.goods_map().get(event.card, CARDS[event.card].goods)
        state = goods_recorded(state, event.card, (*goods, event.good))
        state = replace(state, warehouses=state.warehouses | {event.card})
        return change_part(state, DecisionsState, sunken_pending=tuple(pending))
    return None


# --- the view --------------------------------------------------------------------------------


def view_keys(state: KontorState, out: dict) -> None:
    """Public: the warehouses still sunk, and those raised waiting for a centre."""
    out.setdefault("scenario", {}).update(
        {
            "sunken": [{"x": x, "y": y, "good": g} for x, y, g in _own(state).sunken],
            "sunken_pending": [{"seat": s, "good": g} for s, g in decisions_of(state).sunken_pending],
        }
    )


def register(hooks: Hooks) -> None:
    hooks.legal_commands.append(legal_commands)
    hooks.cell_filters.append(filter_cells)
    hooks.on_commands((PlaceSunkenWarehouse,), decide_command)
    # after Choix des marchandises' step: a chosen good is not taken from a canal
    hooks.add_step("euphrates_sunken_warehouses", take_goods_step, after="choose_good")
    hooks.add_step("euphrates_surrounded_canals", after_turn_step, before="next")
    hooks.start_fields.append(sunken_at_start)
    hooks.add_view(lambda state, out, cells, viewer: view_keys(state, out), after="final_scoring")
    sunken = lambda options: options.sunken_warehouses  # noqa: E731
    hooks.after_event((ev.GameStarted,), lambda old, event, new: started(event, new), when=sunken)
    hooks.before_event(ev.WarehousesAdded, lambda state, event: record_goods(event, state), when=sunken)
    hooks.on_events((SunkenWarehouseRaised, SunkenWarehouseUsed, SunkenWarehousePlaced), evolve_sunken)
