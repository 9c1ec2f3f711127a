"""Special rule B « Corruption » (``bribery_1`` / ``bribery_2``, 2 and 4 players; switch
``bribery``: 1 or 2; kontor.fr.txt, « Règles spéciales »):

« La taverne est une sorte de joker. On ne peut pas la placer pour terminer un secteur.
Après avoir posé la taverne :

Corruption 1 : le joueur peut ajouter, sur une carte ne montrant qu'une marchandise dans le
secteur de la taverne, un entrepôt de même type.

Corruption 2 : le joueur peut ajouter, sur deux docks ne présentant qu'une seule
marchandise, deux entrepôts du même type. Ces deux docks, ainsi que la taverne, ne doivent
pas être dans le même secteur. »

Hook points: a tavern that would finish a sector has no cell (cell_filters,
placement_error); after a tavern's warehouses the turn waits for the bribe
(after_warehouses: BribeOffered), the placer alone acts (to_act, legal_commands) and
adds its warehouses or ends the bribe (command: PlaceBribeWarehouse, EndBribe; while it
waits no other command: command_guard); the bribe warehouses count in their sector
(``BriberyState.bribes``, the hook point ``counting``: ``Counting.extra``); the view shows the bribe.
Events and commands: its own, here (``EVENTS``, ``COMMANDS``). Readings and tests:
docs/rules/kontor.md (Special rules B), tests/domain/kontor/test_kontor_special_b.py.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar

from domain.decider import RuleViolation
from domain.kontor.core import events as ev
from domain.kontor.core.board import (
    Pos,
    grow,
    is_closed,
    legal_cells,
    occupancy,
    sector_of,
    sectors,
)
from domain.kontor.core.data import CARDS, SEAT_COLORS
from domain.kontor.core.hooks import Counting, Hooks
from domain.kontor.core.placement import scored_cells
from domain.kontor.core.sides import side_of
from domain.kontor.core.state import KontorState, change_part, part


@dataclass(frozen=True)
class BribeOffered:
    """Corruption: the tavern was placed at (x, y); its placer may add ``count``
    warehouses."""

    TYPE: ClassVar[str] = "kontor.BribeOffered"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int
    x: int
    y: int
    count: int


@dataclass(frozen=True)
class BribeWarehouseAdded:
    TYPE: ClassVar[str] = "kontor.BribeWarehouseAdded"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int
    card: int
    x: int
    y: int
    good: str


@dataclass(frozen=True)
class BribeEnded:
    TYPE: ClassVar[str] = "kontor.BribeEnded"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int


EVENTS: tuple[type, ...] = (BribeOffered, BribeWarehouseAdded, BribeEnded)


@dataclass(frozen=True)
class PlaceBribeWarehouse:
    """Corruption: after placing the tavern, add one warehouse on the own single-good dock
    at (x, y)."""

    TYPE: ClassVar[str] = "PlaceBribeWarehouse"
    x: int
    y: int


@dataclass(frozen=True)
class EndBribe:
    """Corruption: add no (more) bribe warehouse."""

    TYPE: ClassVar[str] = "EndBribe"


COMMANDS: tuple[type, ...] = (PlaceBribeWarehouse, EndBribe)


@dataclass(frozen=True)
class BriberyState:
    #: (seat, warehouses left, tavern x, tavern y, sectors used: cells) while the tavern's
    #: placer adds bribe warehouses (None: no bribe under way)
    bribe: tuple | None = None
    #: dock cards holding one bribe warehouse more (counted while they hold their own)
    bribes: tuple[int, ...] = ()


def pending_bribe(state: KontorState) -> tuple | None:
    """The bribe under way (BriberyState.bribe)."""
    return part(state, BriberyState).bribe


#: the events this rule records (its own evolve)
BRIBE_EVENTS = (BribeOffered, BribeWarehouseAdded, BribeEnded)

# ---------------------------------------------------------------------------------------
# « On ne peut pas la placer pour terminer un secteur »


def _box(state: KontorState, cells: Mapping[Pos, int]):
    return grow(state.span, cells) if state.span is not None else grow(None, cells)


def closes_a_sector(state: KontorState, cells: Mapping[Pos, int], card: int, pos: Pos) -> bool:
    """Would ``card`` at ``pos`` finish a sector that is not finished now?"""
    size = state.options.board_size
    after = dict(cells)
    after[pos] = card
    box_after = _box(state, after)
    box_before = _box(state, cells)
    for sector in sectors(after):
        if not is_closed(after, sector, size, box_after):
            continue
        if pos in sector or not is_closed(cells, sector, size, box_before):
            return True
    return False


def filter_cells(
    state: KontorState, cells: Mapping[Pos, int], card: int, seat: int, found: list[Pos]
) -> list[Pos]:
    """A tavern that would finish a sector has no cell there."""
    if state.options.bribery and CARDS[card].tavern:
        found = [p for p in found if not closes_a_sector(state, cells, card, p)]
    return found


def placement_error(
    state: KontorState, cells: Mapping[Pos, int], card: int, seat: int, pos: Pos
) -> RuleViolation | None:
    """Name this rule when it is what forbids the cell."""
    opts = state.options
    if opts.bribery and CARDS[card].tavern and pos not in cells:
        side = side_of(opts, seat)
        base = legal_cells(cells, card, side, opts.board_size, _box(state, cells))
        if pos in base and closes_a_sector(state, cells, card, pos):
            return RuleViolation(
                "kontor.tavern_closes_sector",
                "Bribery: the tavern may not finish a sector (« On ne peut pas la placer pour "
                "terminer un secteur »).",
            )
    return None


# ---------------------------------------------------------------------------------------
# « Après avoir posé la taverne »: the bribe


def bribe_targets(state: KontorState) -> list[Pos]:
    """Own single-good docks holding their warehouses in an open sector: Corruption 1 in
    the tavern's sector; Corruption 2 outside it and outside the sector already bribed
    (« Ces deux docks, ainsi que la taverne, ne doivent pas être dans le même secteur »)."""
    if pending_bribe(state) is None:
        return []
    seat, _left, tx, ty, used = pending_bribe(state)
    cells = occupancy(state)
    side = side_of(state.options, seat)
    size = state.options.board_size
    box = grow(state.span, cells) if state.span is not None else None
    closed = scored_cells(state)
    tavern_sector = sector_of(cells, (tx, ty))
    used_sectors = [sector_of(cells, tuple(p)) for p in used]
    out = []
    for pos, card in cells.items():
        c = CARDS[card]
        if c.kind != "dock" or c.owner != side or len(c.goods) != 1:
            continue
        if card not in state.warehouses or pos in closed:
            continue
        if state.options.bribery == 1:
            if pos not in tavern_sector:
                continue
        else:
            if pos in tavern_sector or any(pos in s for s in used_sectors):
                continue
        sector = sector_of(cells, pos)
        if is_closed(cells, sector, size, box):
            continue
        out.append(pos)
    return sorted(out, key=lambda p: (p[1], p[0]))


def bribe_step(log, turn) -> bool:
    """A step of the placer's turn (core/decide.py:TURN_STEPS, before "board_full"): only
    right after a placement (not when a rule's step resumes the turn after scoring)."""
    return turn.at is not None and offer_bribe(log, turn.seat, turn.card, turn.at)


def offer_bribe(log, seat: int, card: int, pos: Pos) -> bool:
    """After the tavern: « le joueur peut ajouter ... un entrepôt de même type ». Pauses
    the turn (True) when there is a dock to bribe."""
    st = log.state
    if not st.options.bribery or not CARDS[card].tavern:
        return False
    count = 1 if st.options.bribery == 1 else 2
    log.emit(BribeOffered(seat, pos[0], pos[1], count))
    if bribe_targets(log.state):
        return True
    log.emit(BribeEnded(seat))
    return False


def to_act(state: KontorState) -> tuple[int, ...] | None:
    """A pending bribe: its tavern's placer."""
    return (pending_bribe(state)[0],) if pending_bribe(state) is not None else None


def legal_commands(state: KontorState, seat: int) -> list | None:
    if pending_bribe(state) is None:
        return None
    return [PlaceBribeWarehouse(x, y) for x, y in bribe_targets(state)] + [EndBribe()]


def refuse_while_bribing(state: KontorState, command) -> None:
    """While a bribe waits, only its commands are accepted."""
    if pending_bribe(state) is not None and not isinstance(command, (PlaceBribeWarehouse, EndBribe)):
        raise RuleViolation(
            "kontor.bribe_pending",
            "First add the bribe warehouses or end the bribe (PlaceBribeWarehouse / EndBribe).",
        )


def decide(log, seat: int, command) -> bool:
    """PlaceBribeWarehouse / EndBribe (``log`` is the decide context)."""
    if not isinstance(command, (PlaceBribeWarehouse, EndBribe)):
        return False
    st = log.state
    if pending_bribe(st) is None or pending_bribe(st)[0] != seat:
        raise RuleViolation("kontor.no_bribe", "A bribe follows only the placement of a tavern.")
    tavern = occupancy(st)[(pending_bribe(st)[2], pending_bribe(st)[3])]
    if isinstance(command, PlaceBribeWarehouse):
        pos = (command.x, command.y)
        if pos not in bribe_targets(st):
            raise RuleViolation(
                "kontor.bribe_target",
                "A bribe warehouse goes on an own dock showing a single good, in an open "
                "sector: with Corruption 1 the tavern's, with Corruption 2 two other "
                "sectors, one each (« Ces deux docks, ainsi que la taverne, ne doivent "
                "pas être dans le même secteur »).",
            )
        card = occupancy(st)[pos]
        log.emit(BribeWarehouseAdded(seat, card, pos[0], pos[1], CARDS[card].goods[0]))
        if pending_bribe(log.state)[1] > 0 and bribe_targets(log.state):
            log.after_command()
            return True
    log.emit(BribeEnded(seat))
    log.finish_place(seat, tavern, "dock")
    log.after_command()
    return True


# ---------------------------------------------------------------------------------------
# evolve (only records)


def evolve_own(state: KontorState, event) -> KontorState | None:
    t = type(event)
    if t is BribeOffered:
        return change_part(state, BriberyState, bribe=(event.seat, event.count, event.x, event.y, ()))
    if t is BribeWarehouseAdded:
        seat, left, x, y, used = pending_bribe(state)
        return change_part(
            state,
            BriberyState,
            bribe=(seat, left - 1, x, y, used + ((event.x, event.y),)),
            bribes=part(state, BriberyState).bribes + (event.card,),
        )
    if t is BribeEnded:
        return change_part(state, BriberyState, bribe=None)
    return None


def evolved(old: KontorState | None, event, new: KontorState) -> KontorState:
    """A dock placed again (after the ship removed it) comes without a bribe."""
    bribes = part(new, BriberyState).bribes
    if new.options.bribery and type(event) is ev.WarehousesAdded and bribes:
        return change_part(new, BriberyState, bribes=tuple(b for b in bribes if b != event.card))
    return new


def extra_warehouses(state: KontorState) -> tuple[int, ...] | None:
    """The bribe warehouses: one more warehouse of its dock's good each."""
    return part(state, BriberyState).bribes or None


# ---------------------------------------------------------------------------------------
# view


def _xy(pos) -> dict:
    return {"x": pos[0], "y": pos[1]}


def view_keys(state: KontorState, out: dict, cells, viewer: int | None) -> None:
    """Public: the pending bribe and the bribe warehouses on the board."""
    opts = state.options
    if not opts.bribery:
        return
    out["bribery"] = {
        "level": opts.bribery,
        "pending": None
        if pending_bribe(state) is None
        else {
            "seat": pending_bribe(state)[0],
            "tavern": _xy(pending_bribe(state)[2:4]),
            "left": pending_bribe(state)[1],
            "targets": [_xy(p) for p in bribe_targets(state)],
        },
    }
    out["board"]["bribe_warehouses"] = [
        {
            **_xy(pos),
            "card": card,
            "owner": SEAT_COLORS[CARDS[card].owner],
            "good": CARDS[card].goods[0],
        }
        for pos, card in sorted(cells.items(), key=lambda kv: (kv[0][1], kv[0][0]))
        if card in state.warehouses
        for _ in range(part(state, BriberyState).bribes.count(card))
    ]


def register(hooks: Hooks) -> None:
    hooks.placement_error.append(placement_error)
    hooks.cell_filters.append(filter_cells)
    hooks.to_act.append(to_act)
    hooks.legal_commands.append(legal_commands)
    hooks.command_guard.append(refuse_while_bribing)
    # the waiting rules' guard (theirs too): before this rule's commands and all later
    hooks.guard(hooks.refuse_while_waiting)
    hooks.on_commands((PlaceBribeWarehouse, EndBribe), decide)
    hooks.add_step("bribe", bribe_step, before="board_full")
    hooks.on_events((BribeOffered, BribeWarehouseAdded, BribeEnded), evolve_own)
    hooks.after_event((ev.WarehousesAdded,), evolved, when=lambda options: options.bribery)
    hooks.add_view(view_keys, after="you")
    hooks.counting.append(lambda state: Counting(extra=extra_warehouses(state)))
