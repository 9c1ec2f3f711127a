"""Special rule A « Libre choix » (``free_choice``, 2 and 4 players; switch ``free_draw``;
kontor.fr.txt, « Règles spéciales »):

« Vous pouvez choisir librement la pile dont vous tirez la carte. Vous devez cependant
toujours avoir au moins un dock et un canal en main. »

Which piles are open is ``core/free_draw.py:free_draw_piles`` (a card judged by what it
is: « Le pont est considéré comme un dock »; games of the first versions count printed
kinds: ``core/versions.py``). Hook points: draw_choices (the open piles, instead of the
card's kind); with two, the draw waits for DrawCard (the shared step, rules/draw_step.py);
with one, draw_step draws it at once. Tests: tests/domain/kontor/test_kontor_special_a.py
(free choice).
"""

from __future__ import annotations

from domain.kontor.core.free_draw import free_draw_piles
from domain.kontor.core.hooks import Hooks
from domain.kontor.core.state import KontorState
from domain.kontor.core.versions import FREE_DRAW_BY_PRINTED_KIND
from domain.kontor.rules.draw_step import draw, draw_choices


def open_piles(state: KontorState, seat: int, card: int, piles: list[str]) -> list[str]:
    """« choisir librement la pile », keeping a dock and a canal in hand."""
    if not state.options.free_draw:
        return piles
    have = {"dock": bool(state.dock_piles[seat]), "water": bool(state.water_pile)}
    return free_draw_piles(
        state.hands[seat],
        [p for p in have if have[p]],
        by_printed_kind=state.rules_version in FREE_DRAW_BY_PRINTED_KIND,
    )


def turn_step(log, turn) -> bool:
    """A step of the placer's turn (core/decide.py:TURN_STEPS, before "draw")."""
    return turn.draw is not None and draw_the_one(log, turn.seat, turn.card)


def draw_the_one(log, seat: int, card: int) -> bool:
    """A single open pile (no step: rules/draw_step.py opens one for two): drawn at once."""
    if not log.state.options.free_draw:
        return False
    choices = draw_choices(log.state, seat, card)
    if len(choices) != 1:
        return False
    draw(log, seat, choices[0])
    log.income_and_advance(seat, card)
    return True


def register(hooks: Hooks) -> None:
    hooks.draw_choices.append(open_piles)
    hooks.add_step("free_choice", turn_step, before="draw_step")
