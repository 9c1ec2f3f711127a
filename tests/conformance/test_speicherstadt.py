"""Conformance of Speicherstadt: random legal games to the end for 2 to 5 seats.

Each game is checked by the shared harness: every offered command accepted, turn
enforcement, deterministic replay, JSON round trip of events and commands, no leak of
the stack order under redetermine, the game ends with a result.
"""

from __future__ import annotations

import pytest

from domain.speicherstadt import GAME
from tests.conformance.harness import check_game, sampled, seed_for

pytestmark = pytest.mark.slow(seconds=20)  # started first: tests/conftest.py

SEEDS_PER_COUNT = 60


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
@pytest.mark.parametrize("variant", GAME.variants)
def test_random_games(seats, variant):
    options = GAME.parse_options({"variant": variant}, seats)
    for n in range(SEEDS_PER_COUNT):
        played = check_game(GAME, options, seats, seed_for(10_000 * seats + n), n, every_version=sampled(n))
        assert GAME.is_finished(played.final)


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_games_with_policy_seats(seats):
    options = GAME.parse_options({}, seats)
    levels = ["normal", "strong", "easy", "normal", "strong"]
    for n in range(3):
        policy_seats = {s: levels[(s + n) % len(levels)] for s in range(seats) if (s + n) % 2 == 0}
        played = check_game(GAME, options, seats, seed_for(900 + 10 * seats + n), 50 + n,
                            policy_seats=policy_seats)
        assert GAME.is_finished(played.final)
