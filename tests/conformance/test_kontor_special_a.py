"""Kontor special rules A: random legal games to the end through the harness
(determinism, JSON round trip, no leak under redetermine, turn enforcement, the end) for
each identifier over every allowed player count, and games with the computer policy."""

from __future__ import annotations

import pytest

from domain.kontor import GAME
from domain.kontor.core.state import part
from domain.kontor.rules.buy_special_cards import SpecialsState
from domain.kontor.rules.flood_choice import FloodState
from domain.kontor.rules.justice import JusticeState
from tests.conformance.harness import check_game, sampled, seed_for
from tests.conformance.kontor_cards import card_places
from tests.conformance.kontor_properties import check_rule_properties

pytestmark = pytest.mark.slow(seconds=60)  # started first: tests/conftest.py

GAMES = 20
TWO = ("justice", "buy_special_cards", "bridge_and_flood", "great_flood")
TWO_AND_FOUR = (
    "poverty",
    "drunken_sailors",
    "free_choice",
    "choice_of_goods",
    "first_choice",
    "final_sprint",
)
#: flood_choice needs flood cards: with each source of them
CASES = (
    [((rule,), 2) for rule in TWO + TWO_AND_FOUR]
    + [((rule,), 4) for rule in TWO_AND_FOUR]
    + [
        (("flood_choice", "bridge_and_flood"), 2),
        (("flood_choice", "great_flood"), 2),
        (("flood_choice", "buy_special_cards"), 2),
        (("flood_choice",), 4),
        (("free_choice", "bridge_and_flood"), 2),
        (("justice", "free_choice", "first_choice", "choice_of_goods", "drunken_sailors"), 2),
        (("poverty", "final_sprint", "buy_special_cards", "flood_choice"), 2),
    ]
)


def _options(rules, seats, n):
    variant = "team" if seats == 4 else ("advanced" if n % 2 else "basic")
    return GAME.parse_options({"variant": variant, "special_rules": list(rules)}, seats)


def _check_invariants(state) -> None:
    """Money is conserved (Misère removes some); every card is in exactly one place."""
    opts = state.options
    assert sum(state.money) + state.treasury == opts.treasury_total and state.treasury >= 0
    assert min(state.money) >= 0
    places = card_places(
        state,
        state.specials_aside,
        part(state, SpecialsState).specials_pile,
        part(state, FloodState).discarded,
        *part(state, JusticeState).docks_aside,
        *part(state, JusticeState).starting_choice,
    )
    specials = 6 if (opts.specials_dealt or opts.special_price) else 0
    specials += sum(len(h) for h in opts.hand_specials)
    assert len(places) == 88 + specials


@pytest.mark.parametrize(("rules", "seats"), CASES, ids=lambda v: str(v))
def test_random_special_rule_games(rules, seats):
    ends = set()
    for n in range(GAMES):
        options = _options(rules, seats, n)
        played = check_game(GAME, options, seats, seed_for(n), 3000 + n, leak_samples=3,
                            every_version=sampled(n))
        check_rule_properties(played)
        final = played.final
        ends.add(final.end_reason)
        assert final.end_reason in ("board_full", "stalled", "idle", "poverty", "final_sprint")
        for state in played.states[::7] + [final]:
            _check_invariants(state)
    if "final_sprint" in rules and seats == 4:
        assert "final_sprint" in ends


@pytest.mark.parametrize(
    ("rules", "seats", "n", "policy_seats"),
    [
        (("justice", "choice_of_goods"), 2, 4000, {0: "normal"}),
        (("buy_special_cards", "flood_choice", "first_choice"), 2, 4001, {0: "strong", 1: "easy"}),
        (("bridge_and_flood", "free_choice", "drunken_sailors"), 2, 4002, {1: "normal"}),
        (("great_flood", "poverty", "final_sprint"), 2, 4003, {0: "normal", 1: "normal"}),
        (("flood_choice", "choice_of_goods", "first_choice"), 4, 4004, {0: "normal", 2: "normal"}),
        (("poverty", "final_sprint", "free_choice"), 4, 4005, {1: "strong", 3: "easy"}),
    ],
)
def test_policy_special_rule_games(rules, seats, n, policy_seats):
    options = _options(rules, seats, n)
    check_game(GAME, options, seats, seed_for(n), n, leak_samples=3, policy_seats=policy_seats)
