"""Conformance of Amsterdam: random legal games to the end for 1 (solo) to 4 seats x {no
expansion, each implemented expansion, all of them} x {12, 10 rounds}. The shared harness
checks every offered command is accepted, turn enforcement, deterministic replay, JSON
round trip of events and commands, no view change when what a seat cannot see (piles,
market stack, other seats' secret tasks, the seed) is re-dealt, and the end with a result.

Options still refused at creation (test_options.py) are not in the matrix.
"""

from __future__ import annotations

import pytest

from domain.amsterdam import GAME
from tests.conformance.harness import check_game, sampled, seed_for

pytestmark = pytest.mark.slow(seconds=60)  # started first: tests/conftest.py

EXPANSIONS = {
    "none": {},
    "skilled_workers": {"expansions": ["skilled_workers"]},
    "tasks_secret3": {"expansions": ["tasks"], "tasks": "secret3"},
    "tasks_open2": {"expansions": ["tasks"], "tasks": "open2"},
    "black_market_pawn": {"expansions": ["black_market"]},
    "extra_market_tiles": {"expansions": ["market_tiles"]},
    "readings": {"dice_choice": "simultaneous", "docker_pickup": "both",
                 "expansions": ["tasks"], "tasks": "secret3", "tasks_activated": "ever"},
    "all": {"expansions": ["skilled_workers", "tasks", "black_market", "market_tiles"],
            "tasks": "secret5"},
}
SEEDS = 5  # 8 option sets x 3 seat counts x 2 lengths x 5 seeds + 20 solo + 3: 263 games


@pytest.mark.parametrize("rounds", [12, 10])
@pytest.mark.parametrize("seats", [2, 3, 4])
@pytest.mark.parametrize("expansions", sorted(EXPANSIONS))
def test_random_games(expansions, seats, rounds):
    options = GAME.parse_options({**EXPANSIONS[expansions], "rounds": rounds}, seats)
    for n in range(SEEDS):
        seed = seed_for(30_000 + 1000 * sorted(EXPANSIONS).index(expansions) + 100 * seats + rounds + n)
        played = check_game(GAME, options, seats, seed, n, leak_samples=3, every_version=sampled(n))
        assert GAME.is_finished(played.final) and played.final.round == 12


@pytest.mark.parametrize("rounds", [12, 10])
def test_solo_games_against_tom(rounds):
    """L886-972: one seat; no expansion is allowed in the solo game."""
    options = GAME.parse_options({"rounds": rounds}, 1)
    for n in range(2 * SEEDS):
        played = check_game(GAME, options, 1, seed_for(32_000 + rounds + n), n, leak_samples=3,
                            every_version=sampled(n))
        assert GAME.is_finished(played.final) and played.final.tom_score is not None


@pytest.mark.parametrize("seats", [1, 2, 4])
def test_games_with_policy_seats(seats):
    options = GAME.parse_options(EXPANSIONS["all"] if seats > 1 else {}, seats)
    played = check_game(GAME, options, seats, seed_for(31_000 + seats), 7,
                        leak_samples=2, policy_seats={0: "normal", 1: "easy"} if seats > 1 else {0: "normal"})
    assert GAME.is_finished(played.final)
