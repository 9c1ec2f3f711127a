"""A lead as a winning chance: the logistic curve every title's ``evaluate`` ends with."""

from __future__ import annotations

import math


def win_chance(lead: float, scale: float) -> float:
    """``lead`` (in the title's own units) as a chance in [0, 1]: no lead is even, a lead of
    ``scale`` about 3:1 (73 %).  Clamped, so that no lead overflows ``math.exp``."""
    x = max(-700.0, min(700.0, lead / scale))
    return 1.0 / (1.0 + math.exp(-x))
