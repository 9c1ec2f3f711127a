"""The computer player in the variants: Misère's money, Embargo's supply, the free wheel
policy's money, and redetermination reading only what the seat knows (win rates:
bench/ai_kontor.py, bench/ai_levels.py)."""

from __future__ import annotations

import pytest

from domain.common.frozen import replace
from domain.kontor import GAME
from domain.kontor.core.board import occupancy, supremacy_lead
from domain.kontor.core.commands import Pass
from domain.kontor.core.data import CARDS
from domain.kontor.policy import free_wheel
from domain.kontor.policy.basic import _supplied, evaluate_board, placement_value
from domain.kontor.scenarios.embargo import supply
from domain.rng import Rng
from tests.conformance.harness import play_random_game, seed_for
from tests.domain.kontor.helpers import RED, SEED, cards, dock


def _start(raw: dict, seats: int = 2):
    return GAME.fold(GAME.start(GAME.parse_options(raw, seats), seats, SEED))


POVERTY = {"variant": "advanced", "special_rules": ["poverty"]}


@pytest.mark.parametrize(("money", "treasury"), [(0, 1), (1, 1), (1, 3)])
def test_poverty_policy_keeps_a_florin(money, treasury):
    """Misère: « Si un joueur n'a plus d'argent, et qu'il n'y en a pas dans la trésorerie,
    la partie se termine prématurément et l'adversaire gagne »; a pass takes a florin and
    spares the round's taxes, so the broke or nearly broke seat passes."""
    state = _start(POVERTY)
    assert state.phase == "choose"
    state = replace(state, money=(money, 6 - money - treasury), treasury=treasury)
    assert GAME.policy(state, RED, Rng("01" * 32), "normal") == Pass()


def test_poverty_policy_plays_with_florins_to_spare():
    state = replace(_start(POVERTY), money=(3, 2), treasury=1)
    assert GAME.policy(state, RED, Rng("01" * 32), "normal") != Pass()


def test_embargo_policy_counts_only_the_supplied_warehouses():
    """Embargo: « Si un joueur pose un dock pour lequel il n'a plus d'entrepôt correspondant
    dans ses réserves, il ne peut donc pas placer d'entrepôt »: the policy values such a
    dock without the warehouse it cannot place."""
    state = _start({"variant": "advanced", "scenario": "embargo"})
    tea, tea_wine = dock(RED, "tea"), dock(RED, "tea", "wine")
    spent_teas, count = [], 0
    for card in cards("dock", RED, None, None):
        if card not in (tea, tea_wine) and "tea" in CARDS[card].goods and count < 4:
            spent_teas.append(card)
            count += CARDS[card].goods.count("tea")
    spent = replace(state, warehouses=state.warehouses | frozenset(spent_teas))
    assert supply(spent, RED)["tea"] <= 0
    supplied = dict(_supplied(spent, RED, tea_wine).goods_override)[tea_wine]
    assert supplied == tuple(g for g in ("wine",) if supply(spent, RED)[g] > 0)
    # supply left: the printed goods
    assert dict(_supplied(state, RED, tea_wine).goods_override)[tea_wine] == ("tea", "wine")
    cells = occupancy(spent)
    for pos in [(1, 1), (-1, 1)]:
        bare = dict(cells)
        bare[pos] = tea
        without = evaluate_board(_supplied(spent, RED, tea), RED, bare, spent.warehouses | {tea})
        assert placement_value(spent, RED, tea, pos) == without


def test_supremacy_lead_counts_warehouses_ahead():
    # red 3 tea against 1: two ahead; black's single wine is one ahead of nothing
    assert supremacy_lead(((3, 0, 0), (1, 1, 0)), 0) == 1
    assert supremacy_lead(((3, 0, 0), (1, 1, 0)), 1) == -1
    assert supremacy_lead(((2, 0, 0), (2, 0, 0)), 0) == 0
    assert supremacy_lead(((1, 0, 0), (0, 0, 0), (0, 2, 0)), 2) == 1


@pytest.mark.parametrize(
    ("variant", "seats", "worth"),
    [("free_wheel", 2, 0.0), ("free_wheel", 4, 0.0), ("free_for_all", 3, free_wheel.MONEY)],
)
def test_free_wheel_policy_values_money_only_with_three_sides_or_more(variant, seats, worth):
    """Two sides rarely tie on points, so money, which only breaks ties, is worth nothing
    to the free wheel policy there; with three sides or more it breaks many ties."""
    assert free_wheel.money_worth(_start({"variant": variant}, seats)) == worth


@pytest.mark.parametrize(("variant", "seats"), [("basic", 2), ("free_wheel", 2), ("team", 4)])
def test_redetermine_depends_only_on_what_the_observer_sees(variant, seats):
    """A deal of the unseen cards is a function of the observer's knowledge and the
    rng: two states the observer cannot tell apart deal alike (what the strong level
    relies on to never read hidden cards)."""
    options = GAME.parse_options({"variant": variant}, seats)
    played = play_random_game(GAME, options, seats, seed_for(12), Rng(seed_for(12)))
    live = [s for s in played.states if not GAME.is_finished(s)]
    for state in live[:: max(1, len(live) // 5)]:
        for observer in range(seats):
            a = GAME.redetermine(state, observer, Rng("a1" * 32))
            b = GAME.redetermine(state, observer, Rng("b2" * 32))
            assert GAME.redetermine(a, observer, Rng("d4" * 32)) == GAME.redetermine(
                b, observer, Rng("d4" * 32)
            )


@pytest.mark.parametrize(("variant", "seats"), [("basic", 2), ("free_wheel", 2), ("team", 4)])
def test_redetermine_keeps_the_cards_all_saw_go_into_a_hand(variant, seats):
    """A card drawn from a face-up top (CardDrawn is public) is known to sit in its
    drawer's hand: a deal keeps it there, except while that seat's secret choice is
    pending (the choice may be that card)."""
    options = GAME.parse_options({"variant": variant}, seats)
    played = play_random_game(GAME, options, seats, seed_for(13), Rng(seed_for(13)))
    kept = 0
    for state in played.states[:-1]:
        for seat, card in state.seen_in_hand:
            assert card in state.hands[seat]
            if state.chosen and state.chosen[seat] is not None:
                continue
            observer = (seat + 1) % seats
            other = GAME.redetermine(state, observer, Rng("e5" * 32))
            assert card in other.hands[seat]
            kept += 1
    assert kept > 0
