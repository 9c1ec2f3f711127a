"""Kontor conformance: random basic, advanced (2 seats) and team (4 seats) games through
the title-agnostic harness (determinism, JSON round trip, no leak, turn enforcement)."""

from __future__ import annotations

import pytest

from domain.kontor import GAME
from domain.rng import Rng
from tests.conformance.harness import check_game, play_random_game, sampled, seed_for
from tests.conformance.kontor_cards import card_places
from tests.conformance.kontor_properties import check_rule_properties

pytestmark = pytest.mark.slow(seconds=90)  # started first: tests/conftest.py

OPTIONS = GAME.parse_options({"variant": "basic"}, 2)
RANDOM_GAMES = 300
BATCH = 50


def _check_invariants(state) -> None:
    """Money and cards are conserved: 20 florins; each of the 88 basic cards in one place."""
    assert sum(state.money) + state.treasury == 20 and state.treasury >= 0
    assert min(state.money) >= 0
    places = [c.card for c in state.board] + list(state.water_pile)
    for s in range(state.seat_count):
        places += list(state.hands[s]) + list(state.dock_piles[s])
        if state.chosen[s] is not None:
            places.append(state.chosen[s])
        placed_or_back = {c.card for c in state.board} | set(state.hands[s])
        if state.revealed[s] is not None and state.revealed[s] not in placed_or_back:
            places.append(state.revealed[s])
    assert sorted(places) == sorted(set(places)) and len(places) == 88
    assert len(state.board) <= 36


@pytest.mark.parametrize("batch", range(RANDOM_GAMES // BATCH))
def test_random_basic_games(batch):
    for n in range(batch * BATCH, (batch + 1) * BATCH):
        played = check_game(GAME, OPTIONS, 2, seed_for(n), n, leak_samples=12, every_version=sampled(n))
        check_rule_properties(played)
        assert played.final.end_reason in ("board_full", "stalled", "idle")
        for state in played.states[::5] + [played.final]:
            _check_invariants(state)


ADVANCED = GAME.parse_options({"variant": "advanced"}, 2)
TEAM = GAME.parse_options({"variant": "team"}, 4)
VARIANT_GAMES = 100
VARIANT_BATCH = 25


def _check_variant_invariants(state) -> None:
    """20 florins conserved; every card in exactly one place (board cells, covered ones
    included, hands, piles, choices, revealed cards in flight, specials set aside)."""
    assert sum(state.money) + state.treasury == 20 and state.treasury >= 0
    assert min(state.money) >= 0
    places = card_places(state, state.specials_aside)
    assert len(places) == 88 + (6 if state.options.specials_dealt else 0)
    size = state.options.board_size
    assert len({(c.x, c.y) for c in state.board}) <= size * size


@pytest.mark.parametrize("batch", range(VARIANT_GAMES // VARIANT_BATCH))
@pytest.mark.parametrize(("options", "seats"), [(ADVANCED, 2), (TEAM, 4)], ids=["advanced", "team"])
def test_random_variant_games(options, seats, batch):
    for n in range(batch * VARIANT_BATCH, (batch + 1) * VARIANT_BATCH):
        played = check_game(GAME, options, seats, seed_for(n), n, leak_samples=4, every_version=sampled(n))
        check_rule_properties(played)
        final = played.final
        assert final.end_reason in ("board_full", "stalled", "idle")
        result = GAME.result(final)
        counted = [e for e in played.events if type(e).__name__ == "FinalSectorsCounted"]
        assert len(counted) == 1 and tuple(result.scores) == tuple(map(float, counted[0].points))
        if options.teams:
            # partners share their team's score and win together
            assert result.scores[0] == result.scores[1] and result.scores[2] == result.scores[3]
            assert set(result.winners) in ({0, 1}, {2, 3}, {0, 1, 2, 3})
        for state in played.states[::5] + [final]:
            _check_variant_invariants(state)


@pytest.mark.parametrize(
    ("options", "seats", "n", "policy_seats"),
    [
        (ADVANCED, 2, 2000, {0: "normal"}),
        (ADVANCED, 2, 2001, {0: "strong", 1: "easy"}),
        (TEAM, 4, 2002, {0: "normal", 2: "normal"}),
        (TEAM, 4, 2003, {1: "strong", 3: "easy"}),
    ],
)
def test_policy_variant_games(options, seats, n, policy_seats):
    check_game(GAME, options, seats, seed_for(n), n, leak_samples=4, policy_seats=policy_seats)


@pytest.mark.parametrize(
    ("n", "policy_seats"),
    [
        (1000, {0: "normal"}),
        (1001, {1: "normal"}),
        (1002, {0: "easy", 1: "strong"}),
        (1003, {0: "normal", 1: "normal"}),
    ],
)
def test_policy_games(n, policy_seats):
    check_game(GAME, OPTIONS, 2, seed_for(n), n, leak_samples=4, policy_seats=policy_seats)


def test_views_never_show_other_hands():
    played = play_random_game(GAME, OPTIONS, 2, seed_for(3), Rng(seed_for(3)))
    for state in played.states[:-1]:
        for viewer in (None, 0, 1):
            v = GAME.view(state, viewer)
            assert "hidden" not in v
            if viewer is not None:
                assert sorted(c["id"] for c in v["you"]["hand"]) == sorted(state.hands[viewer])
            assert all(set(p) >= {"color", "points", "money", "hand_size"} for p in v["players"])
    final = GAME.view(played.final, 1)
    assert final["hidden"]["hands"][0] == list(played.final.hands[0])
