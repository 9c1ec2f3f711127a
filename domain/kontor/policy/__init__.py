"""The computer player: ``policy(state, seat, rng, level)`` -> a legal command.

Each policy reads only what the seat may know (its view: the board, public piles and
money, its own hand) or a redetermined state. basic.py plays the basic and advanced game
(with the scenarios', special rules B' and expansions' choices), special_rules.py the
phases and steps of the special rules A, free_wheel.py the free wheel forms."""

from __future__ import annotations

import math

from domain.kontor.core.board import occupancy
from domain.kontor.core.decide import legal_commands
from domain.kontor.core.state import KontorState
from domain.kontor.policy import basic, free_wheel, special_rules


def policy(state: KontorState, seat: int, rng, level: str = "normal"):
    legal = legal_commands(state, seat)
    if not legal:
        raise ValueError("the seat may not act now")
    if state.options.sequential_turns:
        return free_wheel.policy(state, seat, rng, level, legal)
    if level == "easy" and rng.below(3) == 0:
        return rng.choice(legal)
    special = special_rules.choose(state, seat, rng, level, legal)
    if special is not None:
        return special
    return basic.choose(state, seat, rng, level, legal)


#: a board evaluation worth one closed sector's lead (policy.WIN) reads as about 3:1
EVALUATION_SCALE = 9.0


def evaluate(state, seat: int) -> float:
    """The search's cut-off estimate of ``seat``'s chances: the policy's board
    evaluation (sectors held, leads, threats) squashed into [0, 1]."""
    value = basic.evaluate_board(state, seat, occupancy(state), state.warehouses)
    return 1.0 / (1.0 + math.exp(-value / EVALUATION_SCALE))
