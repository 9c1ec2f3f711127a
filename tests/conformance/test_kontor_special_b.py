"""Kontor special rules B (old_grudges, blockade, bribery_1, bribery_2, final_point,
smuggling, protection): random legal games to the end through the title-agnostic harness
(determinism, JSON round trip, no leak under redetermine, turn enforcement, the game ends)
for every allowed player count, and games with the computer policy."""

from __future__ import annotations

import pytest

from domain.kontor import GAME
from domain.kontor.core.state import part
from domain.kontor.rules.smuggling import SmugglingState
from tests.conformance.harness import check_game, sampled, seed_for
from tests.conformance.kontor_properties import check_rule_properties

pytestmark = pytest.mark.slow(seconds=60)  # started first: tests/conftest.py

SEEDS = 20
ENDS = ("board_full", "stalled", "idle", "blockade")

#: (rule, variant, seats): every rule over every allowed player count (2: the basic game
#: when the rule needs no ship, and the advanced game; 4: the team game)
FORMS = [
    ("old_grudges", "basic", 2),
    ("old_grudges", "advanced", 2),
    ("old_grudges", "team", 4),
    ("blockade", "advanced", 2),
    ("blockade", "team", 4),
    ("bribery_1", "basic", 2),
    ("bribery_1", "team", 4),
    ("bribery_2", "advanced", 2),
    ("bribery_2", "team", 4),
    ("final_point", "basic", 2),
    ("final_point", "advanced", 2),
    ("smuggling", "basic", 2),
    ("smuggling", "advanced", 2),
    ("protection", "advanced", 2),
    ("protection", "team", 4),
]
ALL_TWO = ["old_grudges", "blockade", "bribery_2", "final_point", "smuggling", "protection"]
ALL_FOUR = ["old_grudges", "blockade", "bribery_1", "protection"]


def _options(variant, rules, seats):
    return GAME.parse_options({"variant": variant, "special_rules": rules}, seats)


def _invariants(state) -> None:
    assert sum(state.money) + state.treasury == 20 and state.treasury >= 0
    assert min(state.money) >= 0
    size = state.options.board_size
    assert len({(c.x, c.y) for c in state.board}) <= size * size
    if state.phase == "over":
        # every face-down card has been turned over
        assert not part(state, SmugglingState).smuggled
        assert all(c.card < 100 for c in state.board)


@pytest.mark.parametrize(("rule", "variant", "seats"), FORMS, ids=[f"{r}-{v}" for r, v, _ in FORMS])
def test_random_games(rule, variant, seats):
    options = _options(variant, [rule], seats)
    for n in range(SEEDS):
        played = check_game(GAME, options, seats, seed_for(n), n, leak_samples=3, every_version=sampled(n))
        check_rule_properties(played)
        assert played.final.end_reason in ENDS
        for state in played.states[::10] + [played.final]:
            _invariants(state)


@pytest.mark.parametrize(
    ("variant", "rules", "seats"),
    [("advanced", ALL_TWO, 2), ("team", ALL_FOUR, 4)],
    ids=["all-two", "all-four"],
)
def test_random_games_with_every_rule(variant, rules, seats):
    options = _options(variant, rules, seats)
    for n in range(100, 100 + SEEDS):
        played = check_game(GAME, options, seats, seed_for(n), n, leak_samples=3, every_version=sampled(n))
        check_rule_properties(played)
        assert played.final.end_reason in ENDS
        _invariants(played.final)


@pytest.mark.parametrize(
    ("variant", "rules", "seats", "n", "policy_seats"),
    [
        (
            "basic",
            ["bribery_1", "old_grudges", "final_point", "smuggling"],
            2,
            3000,
            {0: "normal", 1: "normal"},
        ),
        ("advanced", ALL_TWO, 2, 3001, {0: "strong", 1: "easy"}),
        ("advanced", ["smuggling", "blockade"], 2, 3002, {1: "normal"}),
        ("team", ALL_FOUR, 4, 3003, {0: "normal", 1: "normal", 2: "normal", 3: "normal"}),
        ("team", ["bribery_2", "protection"], 4, 3004, {1: "strong", 3: "easy"}),
    ],
)
def test_policy_games(variant, rules, seats, n, policy_seats):
    options = _options(variant, rules, seats)
    played = check_game(
        GAME, options, seats, seed_for(n), n, leak_samples=3, policy_seats=policy_seats
    )
    check_rule_properties(played)
    assert played.final.end_reason in ENDS
