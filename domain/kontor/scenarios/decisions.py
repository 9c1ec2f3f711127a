"""A decision a scenario leaves pending after a placement, shared by Euphrate (« Il peut
placer l'entrepôt sur n'importe lequel de ses centres de distribution »: euphrates.py) and
Grande marée (« on peut placer immédiatement un deuxième canal »: spring_tide.py): who
decides, that nobody else acts and nothing else is sent meanwhile, and the view's
``pending`` key. The two scenarios' commands are defined and listed here (``COMMANDS``:
SecondCanal, PlaceSunkenWarehouse), since this module names them too; each scenario decides
its own.

Hook points: ``to_act``, ``step_waits`` (the turn waits for the decision), ``command``
(registered before the two scenarios' own), its part of the view.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from domain.decider import RuleViolation
from domain.kontor.core.hooks import Hooks
from domain.kontor.core.state import KontorState, part


@dataclass(frozen=True)
class SecondCanal:
    """Grande marée: right after placing a canal, place a canal of the hand at (x, y) for
    1 florin to the treasury (no income); ``card`` None declines."""

    TYPE: ClassVar[str] = "SecondCanal"
    card: int | None = None
    x: int | None = None
    y: int | None = None


@dataclass(frozen=True)
class PlaceSunkenWarehouse:
    """Euphrate: put the raised warehouse on the distribution centre at (x, y) (one of the
    seat's, in an unfinished sector)."""

    TYPE: ClassVar[str] = "PlaceSunkenWarehouse"
    x: int
    y: int


COMMANDS: tuple[type, ...] = (SecondCanal, PlaceSunkenWarehouse)


@dataclass(frozen=True)
class DecisionsState:
    """The scenarios' decisions that hold the turn (shared by Euphrate and Grande marée)."""

    #: Euphrate: (seat, good) raised and waiting for the seat to choose a centre
    sunken_pending: tuple[tuple[int, str], ...] = ()
    #: Grande marée: the seat that may now place a second canal
    second_canal: int | None = None


def decisions_of(state: KontorState) -> DecisionsState:
    return part(state, DecisionsState)


#: the commands of a pending decision (Grande marée, Euphrate)
DECISION_COMMANDS: tuple[type, ...] = (SecondCanal, PlaceSunkenWarehouse)


def pending_seat(state: KontorState) -> int | None:
    """The seat whose decision the game waits for: a raised warehouse first, then a second
    canal."""
    if state.phase == "over":
        return None
    if decisions_of(state).sunken_pending:
        return decisions_of(state).sunken_pending[0][0]
    if decisions_of(state).second_canal is not None:
        return decisions_of(state).second_canal
    return None


def pending_to_act(state: KontorState) -> tuple[int, ...] | None:
    pending = pending_seat(state)
    return None if pending is None else (pending,)


def refuse_other_commands(state: KontorState, command) -> None:
    """While a decision waits, only its commands (decided by its scenario's rule)."""
    if pending_seat(state) is not None and not isinstance(command, DECISION_COMMANDS):
        raise RuleViolation(
            "kontor.decision_pending",
            "Finish the pending decision first (second canal or raised warehouse).",
        )


def view_keys(state: KontorState, out: dict) -> None:
    pending = pending_seat(state)
    if pending is not None:
        out["pending"] = {
            "seat": pending,
            "kind": "sunken_warehouse" if decisions_of(state).sunken_pending else "second_canal",
        }


def register(hooks: Hooks) -> None:
    hooks.to_act.append(pending_to_act)
    hooks.guard(refuse_other_commands)
    # the turn waits for the decision (placement.step_waits), as for the special rules A's
    # pending step; the guard, registered before, refuses every other command first
    hooks.step_waits.append(lambda state: pending_seat(state) is not None)
    hooks.add_view(lambda state, out, cells, viewer: view_keys(state, out), after="final_scoring")
