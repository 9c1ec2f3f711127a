"""Shared by « Libre choix » (« Vous pouvez choisir librement la pile dont vous tirez la
carte ») and « Premier choix » (« En payant 2 pièces de monnaie, on peut choisir un dock
dans la pile »): the replacement draw waits for the placer's DrawCard when it has two
choices or more. Not a rule itself: which piles are open is each rule's (hook point
``draw_choices``: free_choice.py, first_choice.py); this module opens the step, lists and
checks the DrawCard commands, draws from "dock" or "water", and shows the open piles."""

from __future__ import annotations

from domain.decider import RuleViolation
from domain.kontor.core import events as ev
from domain.kontor.core.commands import DrawCard
from domain.kontor.core.data import CARDS
from domain.kontor.core.hooks import Hooks, filtered, rules_for
from domain.kontor.core.state import KontorState
from domain.kontor.rules.pending_step import (
    StepClosed,
    StepOpened,
    step_card,
    step_seat,
    waiting_step,
)

#: the piles this module draws from itself (a rule's own pile draws its own way)
PILES: tuple[str, ...] = ("dock", "water")


def draw_choices(state: KontorState, seat: int, card: int) -> list[str]:
    """The replacement draws open to the seat after placing ``card`` (not a special one):
    the pile of the card's kind (if not empty), as the rules change it."""
    pile = "dock" if CARDS[card].is_dock else "water"
    has = state.dock_piles[seat] if pile == "dock" else state.water_pile
    return list(filtered(rules_for(state.options).draw_choices, [pile] if has else [], state, seat, card))


def draw(log, seat: int, pile: str) -> None:
    """The top card of the seat's dock pile or of the water pile."""
    st = log.state
    if pile == "dock":
        log.emit(ev.CardDrawn(seat, st.dock_piles[seat][0], "dock"))
    else:
        log.emit(ev.CardDrawn(seat, st.water_pile[0], "water"))


def turn_step(log, turn) -> bool:
    """A step of the placer's turn (core/decide.py:TURN_STEPS, before "draw"): True, the
    turn waits for DrawCard."""
    return turn.draw is not None and open_step(log, turn.seat, turn.card)


def open_step(log, seat: int, card: int) -> bool:
    """Two choices or more: the draw waits for DrawCard (True)."""
    if len(draw_choices(log.state, seat, card)) >= 2:
        log.emit(StepOpened(seat, "draw", card))
        return True
    return False


def legal_commands(state: KontorState, seat: int) -> list | None:
    if waiting_step(state) != "draw":
        return None
    return [DrawCard(p) for p in draw_choices(state, seat, step_card(state))]


def check(state: KontorState, seat: int, pile: str) -> None:
    """The draw step waits, and ``pile`` is open to the seat."""
    if waiting_step(state) != "draw":
        raise RuleViolation("kontor.no_draw_choice", "There is no draw to choose now.")
    if pile not in draw_choices(state, seat, step_card(state)):
        raise RuleViolation(
            "kontor.draw_pile",
            "This pile is not open: keep at least one dock and one canal in hand (« Vous "
            "devez cependant toujours avoir au moins un dock et un canal en main »), and "
            "a pick from the pile costs 2 florins.",
        )


def decide(log, seat: int, command) -> bool:
    """DrawCard from "dock" or "water" (``log`` is the decide context)."""
    if not isinstance(command, DrawCard):
        return False
    st = log.state
    card = step_card(st)
    check(st, seat, command.pile)
    log.emit(StepClosed(seat, "draw", command.pile))
    draw(log, seat, command.pile)
    log.income_and_advance(seat, card)
    log.after_command()
    return True


def view_keys(state: KontorState, out: dict, cells, viewer: int | None) -> None:
    """Public: the piles open to the placer."""
    if waiting_step(state) == "draw":
        out["step"]["piles"] = draw_choices(state, step_seat(state), step_card(state))


def register(hooks: Hooks) -> None:
    hooks.legal_commands.append(legal_commands)
    hooks.on_commands((DrawCard,), decide)
    hooks.add_step("draw_step", turn_step, before="draw")
    hooks.add_view(view_keys, after="you")
