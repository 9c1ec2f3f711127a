"""The logistic every title's evaluate ends with (domain/common/chance.py)."""

from __future__ import annotations

import math

from domain.common.chance import win_chance


def test_no_lead_is_even_and_a_lead_of_one_scale_is_about_three_to_one():
    assert win_chance(0.0, 9.0) == 0.5
    assert win_chance(9.0, 9.0) == 1 / (1 + math.exp(-1)) == 1 - win_chance(-9.0, 9.0)


def test_any_lead_stays_a_chance_without_overflow():
    assert win_chance(1e9, 0.5) == 1.0
    assert 0.0 <= win_chance(-1e9, 0.5) < 1e-300
