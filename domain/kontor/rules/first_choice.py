"""Special rule A « Premier choix » (``first_choice``, 2 and 4 players; switch
``pile_pick_cost``; kontor.fr.txt, « Règles spéciales »):

« En payant 2 pièces de monnaie, on peut choisir un dock dans la pile. Il est interdit de
changer à cette occasion l'ordre des cartes. »

Hook points: with a dock draw, the draw step (rules/draw_step.py) also offers
``dock_pick`` (draw_choices: a pile of two cards at least, and the money); DrawCard
"dock_pick" pays (PilePickPaid) and opens the pick (step ``pick``: the seat sees its whole
pile, ``you.dock_pile``, and takes one with TakeFromPile; the others keep their order).
Redetermine: the picking seat keeps the pile it saw. Tests:
tests/domain/kontor/test_kontor_special_a.py (first choice).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from domain.common.frozen import replace
from domain.decider import RuleViolation
from domain.kontor.core import events as ev
from domain.kontor.core.changes import set_at
from domain.kontor.core.commands import DrawCard
from domain.kontor.core.hooks import Hooks, Seen
from domain.kontor.core.state import KontorState
from domain.kontor.rules.draw_step import check
from domain.kontor.rules.pending_step import (
    StepClosed,
    StepOpened,
    step_card,
    step_seat,
    waiting_step,
)


@dataclass(frozen=True)
class PilePickPaid:
    """Premier choix: the seat paid to take a dock from within its pile."""

    TYPE: ClassVar[str] = "kontor.PilePickPaid"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int
    amount: int


EVENTS: tuple[type, ...] = (PilePickPaid,)


@dataclass(frozen=True)
class TakeFromPile:
    """Premier choix, after paying: the dock taken from within your pile (order kept)."""

    TYPE: ClassVar[str] = "TakeFromPile"
    card: int


COMMANDS: tuple[type, ...] = (TakeFromPile,)


#: the draw this rule adds to the step's piles
DOCK_PICK = "dock_pick"



def pick_offered(state: KontorState, seat: int, card: int, piles: list[str]) -> list[str]:
    """« En payant 2 pièces de monnaie »: with a dock draw and a pile of two cards."""
    cost = state.options.pile_pick_cost
    if "dock" in piles and cost and len(state.dock_piles[seat]) >= 2 and state.money[seat] >= cost:
        return list(piles) + [DOCK_PICK]
    return piles


def legal_commands(state: KontorState, seat: int) -> list | None:
    if waiting_step(state) != "pick":
        return None
    return [TakeFromPile(c) for c in sorted(set(state.dock_piles[seat]))]


def decide(log, seat: int, command) -> bool:
    """DrawCard "dock_pick" (pay, then pick) and TakeFromPile (``log``: the decide context)."""
    st = log.state
    if isinstance(command, DrawCard) and command.pile == DOCK_PICK:
        card = step_card(st)
        check(st, seat, command.pile)
        log.emit(StepClosed(seat, "draw", command.pile))
        log.emit(PilePickPaid(seat, st.options.pile_pick_cost))
        log.emit(StepOpened(seat, "pick", card))
        log.after_command()
        return True
    if not isinstance(command, TakeFromPile):
        return False
    if waiting_step(st) != "pick":
        raise RuleViolation("kontor.no_pick", "Pay to pick from your pile first (DrawCard).")
    if command.card not in st.dock_piles[seat]:
        raise RuleViolation("kontor.card_not_in_pile", "This dock is not in your pile.")
    card = step_card(st)
    log.emit(StepClosed(seat, "pick", str(command.card)))
    # « Il est interdit de changer à cette occasion l'ordre des cartes »
    log.emit(ev.CardDrawn(seat, command.card, "dock"))
    log.income_and_advance(seat, card)
    log.after_command()
    return True


def evolve_event(state: KontorState, event) -> KontorState | None:
    if type(event) is not PilePickPaid:
        return None
    return replace(
        state,
        money=set_at(state.money, event.seat, state.money[event.seat] - event.amount),
        treasury=state.treasury + event.amount,
    )


def view_keys(state: KontorState, out: dict, cells, viewer: int | None) -> None:
    """The picking seat sees its whole pile."""
    if viewer is None or "you" not in out:
        return
    if waiting_step(state) == "pick" and step_seat(state) == viewer:
        out["you"]["dock_pile"] = list(state.dock_piles[viewer])


def pile_seen(state: KontorState, observer) -> Seen | None:
    """The picking seat has seen its whole pile."""
    return Seen(piles=(observer,)) if waiting_step(state) == "pick" and step_seat(state) == observer else None


def keep_seen_pile(original: KontorState, observer, rng, slot, state: KontorState) -> KontorState:
    """A picking observer has seen its pile: it stays as it is."""
    if waiting_step(original) == "pick" and step_seat(original) == observer:
        piles = list(state.dock_piles)
        piles[observer] = tuple(original.dock_piles[observer])
        return replace(state, dock_piles=tuple(piles))
    return state


def register(hooks: Hooks) -> None:
    hooks.draw_choices.append(pick_offered)
    hooks.legal_commands.append(legal_commands)
    hooks.on_commands((DrawCard, TakeFromPile), decide)  # before draw_step's DrawCard
    hooks.on_events((PilePickPaid,), evolve_event)
    hooks.add_view(view_keys, after="you")
    hooks.seen.append(pile_seen)
    hooks.redetermine.append(keep_seen_pile)
