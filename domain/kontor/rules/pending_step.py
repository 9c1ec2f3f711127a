"""Shared by the special rules A whose placement waits for one more decision of the placer
(« Choix de la marchandise »: « il faut décider laquelle de ces 2 ou 3 marchandises on
choisit »; « Libre choix » and « Premier choix »: the pile of the draw; « Choix
d'inondation »: the second canal). Not a rule itself: each of those rules opens its step
(StepOpened: ``state.pending`` names it, ``PendingStepState`` says whose and after which card) and closes
it (StepClosed); this module records both, lets the placer alone act meanwhile, and shows
the step in the view (``step``; each rule adds its own keys to it)."""

from __future__ import annotations

from dataclasses import dataclass

from domain.common.frozen import replace
from domain.kontor.core import events as ev
from domain.kontor.core.hooks import Hooks
from domain.kontor.core.state import KontorState, change_part, part


@dataclass(frozen=True)
class PendingStepState:
    seat: int | None = None  # who must finish the pending step
    card: int | None = None  # the card whose placement opened it


def step_seat(state: KontorState) -> int | None:
    return part(state, PendingStepState).seat


def step_card(state: KontorState) -> int | None:
    return part(state, PendingStepState).card



def to_act(state: KontorState) -> tuple[int, ...] | None:
    """While a step waits, its placer alone."""
    if state.pending and state.phase == "place":
        return (step_seat(state),)
    return None


def evolve_event(state: KontorState, event) -> KontorState | None:
    t = type(event)
    if t is ev.StepOpened:
        state = replace(state, pending=event.step)
        return change_part(state, PendingStepState, seat=event.seat, card=event.card)
    if t is ev.StepClosed:
        return change_part(replace(state, pending=""), PendingStepState, seat=None, card=None)
    return None


def view_keys(state: KontorState, out: dict, cells, viewer: int | None) -> None:
    """Public: the step that waits, its placer and card."""
    if state.pending:
        out["step"] = {
            "seat": step_seat(state),
            "step": state.pending,
            "card": step_card(state),
        }


def register(hooks: Hooks) -> None:
    hooks.to_act.append(to_act)
    hooks.on_events((ev.StepOpened, ev.StepClosed), evolve_event)
    hooks.add_view(view_keys, after="you")
