"""Scenario « Grande marée pour 2 joueurs » (``spring_tide``; switches
``second_canal_cost``, ``final_min_docks``):

« Disposition initiale normale. Plateau : 7x7 cases.

Lorsqu'on joue un canal, on peut placer immédiatement un deuxième canal, en payant un
florin à la trésorerie. Le deuxième canal ne rapporte cependant aucun florin.

Les secteurs ne comportant qu'un seul dock ne sont pas comptabilisés. »

Tables (scenarios/data.py): ``SCENARIO_SETTINGS["spring_tide"]`` (7x7, one florin, sectors
of two docks or more: the core's final count). Here: the offer after a canal
(``after_turn``, event ``SecondCanalOffered``), the second canal or a refusal (command
``SecondCanal``: ``legal_commands``, ``command``; events ``SecondCanalPlaced``,
``SecondCanalDeclined``; who decides: decisions.py), what the events record (evolve), the
view.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from domain.common.frozen import replace
from domain.decider import RuleViolation
from domain.kontor.core import events as ev
from domain.kontor.core.board import Pos, occupancy
from domain.kontor.core.changes import add_at, grown, set_at, without_one
from domain.kontor.core.data import CARDS
from domain.kontor.core.hooks import Hooks
from domain.kontor.core.placement import placement_cells, placement_error
from domain.kontor.core.scoring import score_closed_sectors
from domain.kontor.core.state import Cell, KontorState, change_part
from domain.kontor.scenarios.decisions import (
    DecisionsState,
    SecondCanal,
    decisions_of,
    pending_seat,
)


@dataclass(frozen=True)
class SecondCanalOffered:
    """Grande marée: the seat that just placed a canal may place a second one."""

    TYPE: ClassVar[str] = "kontor.SecondCanalOffered"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int


@dataclass(frozen=True)
class SecondCanalPlaced:
    """Grande marée: a canal from the hand at (x, y), ``cost`` paid to the treasury."""

    TYPE: ClassVar[str] = "kontor.SecondCanalPlaced"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int
    card: int
    x: int
    y: int
    cost: int


@dataclass(frozen=True)
class SecondCanalDeclined:
    TYPE: ClassVar[str] = "kontor.SecondCanalDeclined"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int


EVENTS: tuple[type, ...] = (SecondCanalOffered, SecondCanalPlaced, SecondCanalDeclined)


def hand_water(state: KontorState, seat: int) -> list[int]:
    return sorted(c for c in state.hands[seat] if CARDS[c].kind == "water")


def second_canal_cells(state: KontorState, seat: int, card: int) -> list[Pos]:
    return placement_cells(state, occupancy(state), card, seat)


def offer_step(log, turn) -> bool:
    """A step of the placer's turn (core/decide.py:TURN_STEPS, before "next")."""
    offer(log, turn.seat, turn.card)
    return False


def offer(log, seat: int, card: int) -> None:
    """« Lorsqu'on joue un canal, on peut placer immédiatement un deuxième canal, en payant
    un florin à la trésorerie »: offered after the canal's draw and income, when the seat
    can pay and has a canal that fits."""
    st = log.state
    if st.phase == "over":
        return
    cost = st.options.second_canal_cost
    if cost and CARDS[card].kind == "water" and st.money[seat] >= cost:
        waters = hand_water(st, seat)
        if waters and second_canal_cells(st, seat, waters[0]):
            log.emit(SecondCanalOffered(seat))


def legal_commands(state: KontorState, seat: int) -> list | None:
    """Decline, or any canal of the hand on any cell it may take."""
    pending = pending_seat(state)
    if pending is None:
        return None
    if pending != seat:
        return []
    out: list = [SecondCanal()]
    for card in hand_water(state, seat):
        for x, y in second_canal_cells(state, seat, card):
            out.append(SecondCanal(card, x, y))
    return out


def decide_command(log, seat: int, command) -> bool:
    if not isinstance(command, SecondCanal):
        return False
    st = log.state
    if decisions_of(st).second_canal != seat or decisions_of(st).sunken_pending:
        raise RuleViolation(
            "kontor.no_second_canal",
            "Grande marée: a second canal only right after placing a canal.",
        )
    if command.card is None:
        log.emit(SecondCanalDeclined(seat))
        log.advance()
        return True
    card = command.card
    if card not in st.hands[seat] or CARDS[card].kind != "water":
        raise RuleViolation(
            "kontor.second_canal_card", "Grande marée: the second canal comes from your hand."
        )
    if (command.x, command.y) not in second_canal_cells(st, seat, card):
        raise placement_error(st, occupancy(st), card, seat, (command.x, command.y))
    place_second_canal(log, seat, card, (command.x, command.y))
    log.advance()
    return True


def place_second_canal(log, seat: int, card: int, pos: Pos) -> None:
    """« Le deuxième canal ne rapporte cependant aucun florin. »  It is placed like any
    canal (no ship move, no tax), may close sectors, and is replaced from the pile; it
    brings no further offer."""
    cost = log.state.options.second_canal_cost
    log.emit(SecondCanalPlaced(seat, card, pos[0], pos[1], cost))
    score_closed_sectors(log)
    if log.ends_early():
        return
    st = log.state
    if len(occupancy(st)) >= st.options.board_cells:
        log.end_game("board_full")
        return
    if st.water_pile:
        log.emit(ev.CardDrawn(seat, st.water_pile[0], "water"))


def evolve_second_canal(state: KontorState, event) -> KontorState | None:
    t = type(event)
    if t is SecondCanalOffered:
        return change_part(state, DecisionsState, second_canal=event.seat)
    if t is SecondCanalDeclined:
        return change_part(state, DecisionsState, second_canal=None)
    if t is SecondCanalPlaced:
        state = replace(
            state,
            board=state.board + (Cell(event.x, event.y, event.card),),
            hands=set_at(state.hands, event.seat, without_one(state.hands[event.seat], event.card)),
            money=add_at(state.money, event.seat, -event.cost),
            treasury=state.treasury + event.cost,
            span=grown(state.span, event.x, event.y),
        )
        return change_part(state, DecisionsState, second_canal=None)
    return None


def view_keys(state: KontorState, out: dict) -> None:
    """Public: who may place a second canal now, and its price."""
    opts = state.options
    if opts.second_canal_cost:
        out.setdefault("scenario", {})["second_canal"] = {
            "seat": decisions_of(state).second_canal,
            "cost": opts.second_canal_cost,
        }


def register(hooks: Hooks) -> None:
    hooks.legal_commands.append(legal_commands)
    hooks.on_commands((SecondCanal,), decide_command)
    hooks.add_step("spring_tide_second_canal", offer_step, before="next")
    hooks.add_view(lambda state, out, cells, viewer: view_keys(state, out), after="final_scoring")
    hooks.on_events((SecondCanalOffered, SecondCanalDeclined, SecondCanalPlaced), evolve_second_canal)
