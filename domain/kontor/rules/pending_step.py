"""Shared by the special rules A whose placement waits for one more decision of the placer
(« Choix de la marchandise »: « il faut décider laquelle de ces 2 ou 3 marchandises on
choisit »; « Libre choix » and « Premier choix »: the pile of the draw; « Choix
d'inondation »: the second canal). Not a rule itself: each of those rules opens its step
(StepOpened: ``state.pending`` names it, ``pending_seat`` and ``pending_card``) and closes
it (StepClosed); this module records both, lets the placer alone act meanwhile, and shows
the step in the view (``step``; each rule adds its own keys to it)."""

from __future__ import annotations

from domain.common.frozen import replace
from domain.kontor.core import events as ev
from domain.kontor.core.hooks import Hooks
from domain.kontor.core.state import KontorState


def to_act(state: KontorState) -> tuple[int, ...] | None:
    """While a step waits, its placer alone."""
    if state.pending and state.phase == "place":
        return (state.pending_seat,)
    return None


def evolve_event(state: KontorState, event) -> KontorState | None:
    t = type(event)
    if t is ev.StepOpened:
        return replace(state, pending=event.step, pending_seat=event.seat, pending_card=event.card)
    if t is ev.StepClosed:
        return replace(state, pending="", pending_seat=None, pending_card=None)
    return None


def view_keys(state: KontorState, out: dict, cells, viewer: int | None) -> None:
    """Public: the step that waits, its placer and card."""
    if state.pending:
        out["step"] = {
            "seat": state.pending_seat,
            "step": state.pending,
            "card": state.pending_card,
        }


def register(hooks: Hooks) -> None:
    hooks.to_act.append(to_act)
    hooks.on_events((ev.StepOpened, ev.StepClosed), evolve_event)
    hooks.view.append(view_keys)
