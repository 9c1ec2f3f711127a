"""Amsterdam's search evaluation (domain/amsterdam/evaluation.py): a fitted expected final
score per seat, and the fit that produced its table (bench/fit_amsterdam_evaluation.py)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from domain.amsterdam import GAME
from domain.amsterdam.evaluation import (
    FEATURES,
    SPREADS,
    TERMS,
    WEIGHTS,
    evaluate,
    features,
    stage_of,
)
from domain.amsterdam.policy import terms, value
from domain.amsterdam.scoring import district_scores
from domain.common.frozen import replace
from domain.decider import Issued
from domain.rng import Rng

FIT = Path(__file__).resolve().parents[3] / "bench" / "fit_amsterdam_evaluation.py"


def _fit_module():
    spec = importlib.util.spec_from_file_location("fit_amsterdam_evaluation", FIT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _positions(seats: int, every: int = 40) -> list:
    """Every ``every``-th state of a normal game, to its end (excluded)."""
    state = GAME.fold(GAME.start(GAME.parse_options({}, seats), seats, "5d" * 32))
    rng, out, n = Rng("17" * 32), [], 0
    while not GAME.is_finished(state):
        if n % every == every // 2:
            out.append(state)
        seat = sorted(GAME.to_act(state))[0]
        command = GAME.policy(state, seat, rng.fork(f"{n}"), "normal")
        state = GAME.fold(GAME.decide(state, Issued(seat, "2026-01-01T00:00:00Z", command)), state)
        n += 1
    return out


def test_the_table_covers_every_seat_count_and_stage():
    for seats in (2, 3, 4):
        for stage in range(4):
            assert len(WEIGHTS[(seats, stage)]) == len(FEATURES)
            assert SPREADS[(seats, stage)] > 0
            # the score already won counts: no stage reads a point in hand as a loss
            assert WEIGHTS[(seats, stage)][FEATURES.index("points")] > 0


def test_the_features_are_value_s_terms_and_the_district_majorities():
    state = _positions(4)[5]
    assert state.round > 1
    for seat in range(4):
        parts = terms(state, seat)
        assert tuple(parts) == TERMS
        assert sum(parts.values()) == value(state, seat)  # the normal policy's own worth, unchanged
        assert features(state, seat) == (*parts.values(), district_scores(state)[seat])


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_points_ahead_read_better_for_the_seat_at_every_stage(seats):
    stages = set()
    for state in _positions(seats):
        stages.add(stage_of(state))
        for seat in range(seats):
            ahead = list(state.seats)
            ahead[seat] = replace(ahead[seat], points=ahead[seat].points + 10)
            better = replace(state, seats=tuple(ahead))
            assert evaluate(better, seat) > evaluate(state, seat), (seats, stage_of(state), seat)
            assert 0.0 < evaluate(state, seat) < 1.0
    assert stages == {0, 1, 2, 3}


def test_the_solo_game_keeps_the_plain_worth():
    state = _positions(1)[1]
    assert (1, stage_of(state)) not in WEIGHTS
    assert 0.0 < evaluate(state, 0) < 1.0


def test_the_fit_recovers_known_weights_and_draws_unseen_terms_towards_one():
    """Least squares on exact data returns the weights that made it; a feature that never
    varies keeps weight 1 (the plain sum's), whatever the shrink."""
    fit = _fit_module()
    rng = Rng("99" * 32)
    rows, targets = [], []
    for _ in range(400):
        x = [rng.below(1000) / 100 for _ in range(3)]
        rows.append([*x, 0.0, 1.0])  # the fourth feature is always 0; the last is the intercept
        targets.append(2.0 * x[0] - 1.0 * x[1] + 0.5 * x[2] + 7.0)
    weights = fit.ridge(rows, targets, shrink=0.0)
    assert weights[:3] == pytest.approx([2.0, -1.0, 0.5], abs=1e-6)
    assert weights[4] == pytest.approx(7.0, abs=1e-6)
    shrunk = fit.ridge(rows, targets, shrink=1.0)
    assert shrunk[3] == pytest.approx(1.0)
    assert all(abs(w - 1.0) < abs(exact - 1.0) for w, exact in zip(shrunk[:3], [2.0, -1.0, 0.5]))
