"""Shared by the special rules A whose placement waits for one more decision of the placer
(« Choix de la marchandise »: « il faut décider laquelle de ces 2 ou 3 marchandises on
choisit »; « Libre choix » and « Premier choix »: the pile of the draw; « Choix
d'inondation »: the second canal). Not a rule itself: each of those rules opens its step
(StepOpened: ``PendingStepState`` names it, says whose and after which card) and closes
it (StepClosed); this module records both, lets the placer alone act meanwhile, and shows
the step in the view (``step``; each rule adds its own keys to it). StepOpened and
StepClosed are defined and listed here (``EVENTS``), the vocabulary those rules share."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from domain.kontor.core.hooks import Hooks
from domain.kontor.core.state import KontorState, change_part, part


@dataclass(frozen=True)
class StepOpened:
    """The placer must now choose: step good | draw | pick | flood_water."""

    TYPE: ClassVar[str] = "kontor.StepOpened"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int
    step: str
    card: int


@dataclass(frozen=True)
class StepClosed:
    TYPE: ClassVar[str] = "kontor.StepClosed"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int
    step: str
    choice: str


EVENTS: tuple[type, ...] = (StepOpened, StepClosed)


@dataclass(frozen=True)
class PendingStepState:
    step: str = ""  # "" (none) | good | draw | pick | flood_water
    seat: int | None = None  # who must finish the pending step
    card: int | None = None  # the card whose placement opened it


def waiting_step(state: KontorState) -> str:
    """The step that waits for the placer ("": none)."""
    return part(state, PendingStepState).step


def step_seat(state: KontorState) -> int | None:
    return part(state, PendingStepState).seat


def step_card(state: KontorState) -> int | None:
    return part(state, PendingStepState).card



def to_act(state: KontorState) -> tuple[int, ...] | None:
    """While a step waits, its placer alone."""
    if waiting_step(state) and state.phase == "place":
        return (step_seat(state),)
    return None


def evolve_event(state: KontorState, event) -> KontorState | None:
    t = type(event)
    if t is StepOpened:
        return change_part(state, PendingStepState, step=event.step, seat=event.seat, card=event.card)
    if t is StepClosed:
        return change_part(state, PendingStepState, step="", seat=None, card=None)
    return None


def view_keys(state: KontorState, out: dict, cells, viewer: int | None) -> None:
    """Public: the step that waits, its placer and card."""
    if waiting_step(state):
        out["step"] = {
            "seat": step_seat(state),
            "step": waiting_step(state),
            "card": step_card(state),
        }


def register(hooks: Hooks) -> None:
    hooks.to_act.append(to_act)
    hooks.on_events((StepOpened, StepClosed), evolve_event)
    hooks.add_view(view_keys, after="you")
    hooks.step_waits.append(lambda state: bool(waiting_step(state)))
