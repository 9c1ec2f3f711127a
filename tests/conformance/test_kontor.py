"""Kontor conformance: random basic games through the title-agnostic harness."""

from __future__ import annotations

import time

import pytest

from domain.kontor import GAME
from domain.rng import Rng
from tests.conformance.harness import check_game, play_random_game, seed_for

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
        played = check_game(GAME, OPTIONS, 2, seed_for(n), n, leak_samples=12)
        assert played.final.end_reason in ("board_full", "stalled", "idle")
        for state in played.states[::5] + [played.final]:
            _check_invariants(state)


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


def test_replay_is_fast():
    played = play_random_game(GAME, OPTIONS, 2, seed_for(7), Rng(seed_for(7)))
    start = time.perf_counter()
    for _ in range(20):
        GAME.fold(played.events)
    per_replay = (time.perf_counter() - start) / 20
    assert per_replay < 0.02, f"a replay of {len(played.events)} events took {per_replay:.4f} s"


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
