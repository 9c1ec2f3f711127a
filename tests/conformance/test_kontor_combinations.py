"""Kontor's scenarios, special rules and expansions combined, as the rulebook allows
(« Certaines règles spéciales peuvent être combinées avec les scénarios »; the expansions
« peu[ven]t être combinée[s] avec d'autres variantes »): random valid combinations played to
the end with the conformance checks. Each part is tested alone in its own file."""

from __future__ import annotations

import pytest

from domain.decider import OptionsError
from domain.kontor import GAME
from domain.kontor.core.data import EXPANSION_SEATS, SCENARIO_SEATS, SPECIAL_RULE_SEATS
from domain.rng import Rng
from tests.conformance.harness import check_game, sampled, seed_for

pytestmark = pytest.mark.slow(seconds=15)  # started first: tests/conftest.py


def combinations(seats: int, count: int, salt: int) -> list[dict]:
    """``count`` distinct valid option sets for ``seats`` seats, drawn at random."""
    rng = Rng(seed_for(salt))
    scenarios = [None, *sorted(s for s, n in SCENARIO_SEATS.items() if seats in n)]
    rules = sorted(r for r, n in SPECIAL_RULE_SEATS.items() if seats in n)
    expansions = sorted(e for e, n in EXPANSION_SEATS.items() if seats in n)
    found: dict[str, dict] = {}
    for _ in range(2000):
        if len(found) == count:
            break
        raw = {
            "variant": "advanced" if seats == 2 else "team",
            "scenario": rng.choice(scenarios),
            "special_rules": sorted({rng.choice(rules) for _ in range(rng.below(3) + 1)}),
            "expansions": sorted({rng.choice(expansions)} if expansions and rng.below(2) else []),
        }
        try:
            GAME.parse_options(raw, seats)
        except OptionsError:
            continue  # an impossible combination: refused at creation, with its reason
        found[repr(raw)] = raw
    return list(found.values())


CASES = [(2, raw) for raw in combinations(2, 24, 1)] + [(4, raw) for raw in combinations(4, 8, 2)]


@pytest.mark.parametrize(("seats", "raw"), CASES, ids=[repr(r) for _, r in CASES])
def test_combined_games(seats, raw):
    options = GAME.parse_options(raw, seats)
    for n in range(2):
        check_game(GAME, options, seats, seed_for(9000 + n), 9100 + n, leak_samples=4,
                   every_version=sampled(n))


def test_combined_games_with_the_computer():
    seats, raw = CASES[0]
    check_game(GAME, GAME.parse_options(raw, seats), seats, seed_for(9300), 9301,
               leak_samples=2, policy_seats={0: "normal", 1: "easy"})
