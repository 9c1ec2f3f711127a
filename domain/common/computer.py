"""Computer seats: the one entry point from a real state to a computer's command.

The real state holds what the seat may not know (other hands, the order of piles, the
seed).  ``computer_command`` first re-deals all of it from the seat's point of view
(``GAME.redetermine``) and hands the levels only that re-dealt state, so no policy and no
search can read hidden information, whatever it looks at.

Levels:
  easy    the title's policy at "easy": its normal play with mistakes
  normal  the title's policy at "normal"
  strong  the search (domain/common/search.py), with the normal policy in its rollouts
"""

from __future__ import annotations

from typing import Any

from domain.common.search import Budget, Tuning, search
from domain.decider import GameDefinition

LEVELS = ("easy", "normal", "strong")


def computer_command(
    game: GameDefinition, state: Any, seat: int, rng: Any, level: str, budget: Budget
) -> Any:
    """The command a computer at ``level`` sends for ``seat`` in the real ``state``."""
    seen = game.redetermine(state, seat, rng.fork("seen"))
    return choose(game, seen, seat, rng.fork("choice"), level, budget)


def choose(game: GameDefinition, seen: Any, seat: int, rng: Any, level: str, budget: Budget) -> Any:
    """A level's choice in ``seen``: a state already re-dealt from ``seat``'s view."""
    if level not in LEVELS:
        raise ValueError(f"unknown computer level {level!r}")
    if level == "strong":
        return search(game, seen, seat, rng, budget, Tuning(rollout_depth=game.rollout_depth))
    return game.policy(seen, seat, rng, level)
