"""Kontor scenarios through the title-agnostic harness: random legal games to the end for
every scenario at every allowed player count (determinism, JSON round trip, no leak under
redetermine, turn enforcement, the game ends), with each scenario's invariants, and games
with the computer policy."""

from __future__ import annotations

import pytest

from domain.kontor import GAME
from domain.kontor.core.board import neighbours, occupancy, sectors
from domain.kontor.core.data import CARDS, SCENARIO_SEATS
from domain.kontor.core.state import part
from domain.kontor.scenarios.baksheesh import BaksheeshState
from domain.kontor.scenarios.data import ISLAND_CELLS
from domain.kontor.scenarios.embargo import supply
from domain.kontor.scenarios.tic_tac_toe import tic_tac_toe_case
from tests.conformance.harness import check_game, sampled, seed_for
from tests.conformance.kontor_cards import card_places
from tests.conformance.kontor_properties import check_rule_properties

pytestmark = pytest.mark.slow(seconds=80)  # started first: tests/conftest.py

CASES = [(sc, n) for sc, seats in SCENARIO_SEATS.items() for n in seats]
GAMES = 20
END_REASONS = {
    "board_full",
    "stalled",
    "idle",
    "three_in_a_line",
    "first_sector",
    "supplies_empty",
}


def options_for(scenario: str, seats: int):
    variant = "advanced" if seats == 2 else "team"
    return GAME.parse_options({"variant": variant, "scenario": scenario}, seats)


def _deck_size(state) -> int:
    removed = set(state.options.removed_cards)
    docks = 0
    for c in CARDS.values():
        if c.kind != "dock":
            continue
        if c.crane and ("cranes" in removed or ("cranes_without_ship" in removed and not c.ship)):
            continue
        if c.tavern and "taverns" in removed:
            continue
        docks += 1
    return docks + 44 + (6 if state.options.specials_dealt else 0)


def check_invariants(state) -> None:
    """Money and cards conserved; each scenario's own limits hold."""
    opts = state.options
    assert sum(state.money) + state.treasury == 20 and state.treasury >= 0
    assert min(state.money) >= 0
    places = card_places(state, state.specials_aside, part(state, BaksheeshState).water_aside)
    assert len(places) == _deck_size(state)
    cells = occupancy(state)
    w, h = opts.board_dims
    xs = [p[0] for p in cells]
    ys = [p[1] for p in cells]
    assert max(xs) - min(xs) + 1 <= w and max(ys) - min(ys) + 1 <= h
    if opts.island_points:
        assert not any(CARDS[cells[p]].is_water for p in ISLAND_CELLS if p in cells)
    if opts.docks_touch_water:
        for p, card in cells.items():
            if CARDS[card].is_dock:
                assert any(n in cells and CARDS[cells[n]].is_water for n in neighbours(p))
    if opts.tic_tac_toe:
        per_case: dict = {}
        for sector in sectors(cells):
            case = tic_tac_toe_case(next(iter(sector)))
            assert case is not None and all(tic_tac_toe_case(p) == case for p in sector)
            per_case[case] = per_case.get(case, 0) + 1
        # a ship removal may split a case's docks for a while; canals never do
        assert all(n <= 2 for n in per_case.values())
    if opts.warehouse_supply:
        for side in range(2):
            assert min(supply(state, side).values()) >= 0
    if opts.water_aside:
        assert len(part(state, BaksheeshState).water_aside) == opts.water_aside


@pytest.mark.parametrize(("scenario", "seats"), CASES, ids=[f"{s}-{n}" for s, n in CASES])
def test_random_scenario_games(scenario, seats):
    options = options_for(scenario, seats)
    for n in range(GAMES):
        played = check_game(GAME, options, seats, seed_for(n), n, leak_samples=2, every_version=sampled(n))
        check_rule_properties(played)
        final = played.final
        assert final.end_reason in END_REASONS
        result = GAME.result(final)
        assert result is not None and tuple(result.scores) == tuple(map(float, final.points))
        if options.teams:
            assert result.scores[0] == result.scores[1] and result.scores[2] == result.scores[3]
        for state in played.states[::7] + [final]:
            check_invariants(state)
        if options.end_at_first_sector and final.end_reason == "first_sector":
            assert len(final.scored) >= 1
        if final.end_reason == "three_in_a_line":
            assert len(final.winners) >= 1


@pytest.mark.parametrize(("scenario", "seats"), CASES, ids=[f"{s}-{n}" for s, n in CASES])
def test_policy_scenario_games(scenario, seats):
    options = options_for(scenario, seats)
    policy_seats = {0: "normal", 1: "strong"} if seats == 2 else {0: "normal", 2: "easy"}
    played = check_game(
        GAME, options, seats, seed_for(3000), 3000, leak_samples=2, policy_seats=policy_seats
    )
    check_rule_properties(played)
    assert played.final.end_reason in END_REASONS
