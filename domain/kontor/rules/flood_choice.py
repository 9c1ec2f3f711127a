"""Special rule A « Choix d'inondation » (``flood_choice``, 2 and 4 players; switch
``flood_as_water``: the number of canals; kontor.fr.txt, « Règles spéciales »):

« La carte d'inondation peut être employée de deux façons. Au lieu de l'utiliser comme
énoncé dans les règles normales, on peut choisir de l'utiliser pour jouer deux cartes
d'eau. Après quoi, elle est défaussée et le joueur tire deux nouvelles cartes d'eau. »

Hook points: the placer of a revealed flood holding two canals may play them instead
(after_ship_commands, command: PlaceWater; the second canal waits in step
``flood_water`` of rules/pending_step.py); such a flood without a cell may still be played
(its step "flood_as_water" for a card without a cell); the flood is then discarded (FloodDiscarded), two canals drawn, each
canal's subsidy paid. Tests: tests/domain/kontor/test_kontor_special_a.py (flood choice).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from domain.common.frozen import replace
from domain.decider import RuleViolation
from domain.kontor.core import events as ev
from domain.kontor.core.board import occupancy
from domain.kontor.core.changes import set_at, without_one
from domain.kontor.core.data import CARDS, SETUP
from domain.kontor.core.hooks import Hooks
from domain.kontor.core.placement import placement_cells, placement_error
from domain.kontor.core.scoring import score_closed_sectors
from domain.kontor.core.state import Cell, KontorState, change_part, part
from domain.kontor.rules.pending_step import StepClosed, StepOpened, waiting_step
from domain.kontor.rules.water_fill import WaterPlacedForFlood


@dataclass(frozen=True)
class FloodDiscarded:
    """Choix d'inondation: the flood used for two water cards leaves the game."""

    TYPE: ClassVar[str] = "kontor.FloodDiscarded"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int
    card: int


EVENTS: tuple[type, ...] = (FloodDiscarded,)


@dataclass(frozen=True)
class PlaceWater:
    """Choix d'inondation: instead of placing the revealed flood, place a canal of your hand
    at (x, y) (two in all; then the flood is discarded and two water cards drawn)."""

    TYPE: ClassVar[str] = "PlaceWater"
    card: int
    x: int
    y: int


COMMANDS: tuple[type, ...] = (PlaceWater,)


@dataclass(frozen=True)
class FloodState:
    flood_water: tuple[int, ...] = ()  # canals placed for the current flood
    discarded: tuple[int, ...] = ()  # floods discarded


def _own(state: KontorState) -> FloodState:
    return part(state, FloodState)



def may_use_flood_as_water(state: KontorState, seat: int) -> bool:
    """« on peut choisir de l'utiliser pour jouer deux cartes d'eau »: a flood revealed,
    and the two water cards in hand."""
    k = state.options.flood_as_water
    card = state.revealed[seat] if state.revealed else None
    if not k or card is None or CARDS[card].kind != "flood":
        return False
    canals = [c for c in state.hands[seat] if CARDS[c].kind == "water"]
    return len(canals) >= k


def water_commands(state: KontorState, seat: int) -> list:
    """Each canal of the hand on each of its cells."""
    cells = occupancy(state)
    out = []
    canals = sorted(c for c in state.hands[seat] if CARDS[c].kind == "water")
    for card in canals:
        for x, y in placement_cells(state, cells, card, seat):
            out.append(PlaceWater(card, x, y))
    return out


def place_commands(state: KontorState, seat: int) -> list:
    """The placer of a flood may place canals instead."""
    if state.phase != "place" or waiting_step(state) or not state.order or state.order[0] != seat:
        return []
    if not may_use_flood_as_water(state, seat):
        return []
    return water_commands(state, seat)


def legal_commands(state: KontorState, seat: int) -> list | None:
    if waiting_step(state) != "flood_water":
        return None
    return water_commands(state, seat)


def alternative_play(state: KontorState, seat: int) -> bool:
    """A flood without a legal cell may still be played as two water cards."""
    return may_use_flood_as_water(state, seat)


def decide(log, seat: int, command) -> bool:
    """PlaceWater: « Après quoi, elle est défaussée et le joueur tire deux nouvelles
    cartes d'eau » (``log`` is the decide context)."""
    if not isinstance(command, PlaceWater):
        return False
    _place_water(log, seat, command)
    log.after_command()
    return True


def _place_water(log, seat: int, cmd: PlaceWater) -> None:
    st = log.state
    first = waiting_step(st) == "" and st.phase == "place" and st.order and st.order[0] == seat
    if not (waiting_step(st) == "flood_water" or (first and may_use_flood_as_water(st, seat))):
        raise RuleViolation(
            "kontor.no_flood_water",
            "Water cards are played for a flood only by its placer (« Choix d'inondation »).",
        )
    if cmd.card not in st.hands[seat] or CARDS[cmd.card].kind != "water":
        raise RuleViolation("kontor.card_not_in_hand", "Play a canal from your hand.")
    cells = occupancy(st)
    if (cmd.x, cmd.y) not in placement_cells(st, cells, cmd.card, seat):
        raise placement_error(st, cells, cmd.card, seat, (cmd.x, cmd.y))
    flood = st.revealed[seat]
    if waiting_step(st) == "flood_water":
        log.emit(StepClosed(seat, "flood_water", str(cmd.card)))
    log.emit(WaterPlacedForFlood(seat, cmd.card, cmd.x, cmd.y))
    score_closed_sectors(log)
    st = log.state
    size = st.options.board_size
    if len(occupancy(st)) >= size * size:
        log.end_game("board_full")
        return
    placed = len(_own(st).flood_water)
    if placed < st.options.flood_as_water and water_commands(st, seat):
        log.emit(StepOpened(seat, "flood_water", flood))
        return
    log.emit(FloodDiscarded(seat, flood))
    for _ in range(placed):
        if log.state.water_pile:
            log.emit(ev.CardDrawn(seat, log.state.water_pile[0], "water"))
    # each canal played earns the subsidy (« Quand un joueur place un canal, il reçoit
    # une subvention »), while the treasury has coins
    amount = min(SETUP["canal_income"] * placed, log.state.treasury)
    if amount:
        log.emit(ev.IncomePaid(seat, amount))
    log.advance()


def evolve_event(state: KontorState, event) -> KontorState | None:
    t = type(event)
    if t is WaterPlacedForFlood:
        seat = event.seat
        span = state.span
        if span is not None:
            span = (
                min(span[0], event.x),
                max(span[1], event.x),
                min(span[2], event.y),
                max(span[3], event.y),
            )
        state = replace(
            state,
            board=state.board + (Cell(event.x, event.y, event.card),),
            hands=set_at(state.hands, seat, without_one(state.hands[seat], event.card)),
            placed_this_round=True,
            span=span,
        )
        water = _own(state).flood_water + (event.card,)
        return change_part(state, FloodState, flood_water=water)
    if t is FloodDiscarded:
        state = replace(
            state, order=tuple(s for s in state.order if s != event.seat), ship_moved=False
        )
        discarded = _own(state).discarded + (event.card,)
        return change_part(state, FloodState, discarded=discarded, flood_water=())
    return None


def view_keys(state: KontorState, out: dict, cells, viewer: int | None) -> None:
    """Public: the canals played for the flood so far; the floods discarded."""
    own = _own(state)
    if state.options.flood_as_water and own.flood_water:
        out["flood_water"] = list(own.flood_water)
    if own.discarded:
        out["discarded"] = list(own.discarded)


def register(hooks: Hooks) -> None:
    hooks.legal_commands.append(legal_commands)
    hooks.on_commands((PlaceWater,), decide)
    hooks.add_commands("flood_as_water", lambda state, seat, _: place_commands(state, seat), after="ship")
    # a flood without a cell (core/decide.py: NO_CELL), after the blockade's ship
    hooks.add_step("flood_as_water", lambda log, turn: alternative_play(log.state, turn.seat), after="ship_may_free")
    hooks.on_events((WaterPlacedForFlood, FloodDiscarded), evolve_event)
    hooks.add_view(view_keys, after="you")
