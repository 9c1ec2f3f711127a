"""Conformance of Amsterdam: random legal games to the end for 2 to 4 seats, in the full
and the short game. The shared harness checks every offered command is accepted, turn
enforcement, deterministic replay, JSON round trip of events and commands, no view change
when the piles, the market stack and the seed are re-dealt, and the end with a result.

Expansions and the solo game are refused at creation until implemented (test_options.py),
so the matrix here is seats x rounds.
"""

from __future__ import annotations

import pytest

from domain.amsterdam import GAME
from tests.conformance.harness import check_game, seed_for

SEEDS = 12


@pytest.mark.parametrize("rounds", [12, 10])
@pytest.mark.parametrize("seats", [2, 3, 4])
def test_random_games(seats, rounds):
    options = GAME.parse_options({"rounds": rounds}, seats)
    for n in range(SEEDS):
        played = check_game(GAME, options, seats, seed_for(30_000 + 100 * seats + rounds + n), n,
                            leak_samples=4)
        assert GAME.is_finished(played.final)
        assert played.final.round == 12


@pytest.mark.parametrize("seats", [2, 4])
def test_games_with_policy_seats(seats):
    options = GAME.parse_options({}, seats)
    policy_seats = {0: "normal", 1: "easy"}
    played = check_game(GAME, options, seats, seed_for(31_000 + seats), 7,
                        leak_samples=2, policy_seats=policy_seats)
    assert GAME.is_finished(played.final)
