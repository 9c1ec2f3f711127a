"""The search's cut-off estimate for Amsterdam: each seat's expected final score, fitted.

The normal policy's ``value`` adds heuristic worths (cargo at its delivery value, dockers
at the next space's, ...) that a greedy choice of one command can use, but a rollout cut
after a dozen decisions reads them as points already won: measured with full games
played out (bench/README.md), the search's departures from the normal policy then lost
more often than not.  Here each of ``value``'s terms, and the district majorities as they
stand (the final scoring's largest share at 3-4 seats, which ``value`` leaves out), is
weighted by how much of it became final score in normal games, per seat count and stage
of the game (fitted by bench/fit_amsterdam_evaluation.py, which prints this table)."""

from __future__ import annotations

from domain.amsterdam.policy import terms, value
from domain.amsterdam.scoring import district_scores
from domain.amsterdam.state import State
from domain.common.chance import win_chance

TERMS = ("points", "penalties", "arrow_risk", "florins", "reserve", "kept", "rose", "cargo", "waiting",
         "dockers", "active_cards", "laurels", "inactive_cards", "amstel", "arms", "city")
FEATURES = (*TERMS, "districts")
STAGE_ROUNDS = 3

#: (seats, stage) -> one weight per FEATURES entry (final points per unit)
WEIGHTS: dict[tuple[int, int], tuple[float, ...]] = {
    (2, 0): (0.115, 0.897, 0.204, 1.3, 0.808, 1.0, 0.468, -0.273, 0.279,
             0.347, 1.6, 1.0, -0.081, 0.618, 0.645, 0.287, 0.727),
    (2, 1): (0.406, 0.66, 0.419, 1.21, 0.861, 1.007, 1.833, -0.302, -0.232,
             -0.011, 1.046, 1.0, 0.838, 1.383, 0.356, 0.359, 1.166),
    (2, 2): (0.709, 0.609, 1.308, 1.618, 2.171, 0.941, 3.691, 0.065, 0.598,
             0.337, 1.164, 1.0, 0.824, 1.243, -0.159, 0.814, 1.371),
    (2, 3): (0.678, 0.61, 1.163, 0.773, 3.979, 0.833, 4.569, 0.063, 1.417,
             -0.215, 0.714, 1.0, 1.048, -0.264, -0.111, 0.855, 1.322),
    (3, 0): (0.756, 0.932, 0.105, 1.126, 0.82, 1.098, 0.965, -0.797, -0.175,
             0.365, 1.149, 1.0, 0.056, 1.16, 0.442, 0.056, 0.733),
    (3, 1): (0.879, 0.622, 0.321, 1.113, 0.529, 1.045, 2.301, -0.72, 0.114,
             0.484, 1.216, 1.005, 0.725, 2.181, 0.228, 0.051, 0.581),
    (3, 2): (0.907, 0.583, 1.01, 1.631, 2.055, 0.909, 3.537, 0.101, 0.946,
             0.373, 1.862, 0.85, 0.538, 1.783, -0.207, 0.211, 0.529),
    (3, 3): (0.768, 0.703, 0.81, 1.338, 4.205, 0.545, 4.232, 0.343, 1.358,
             -0.122, 0.609, 0.721, 0.595, 0.101, -0.619, 0.802, 0.817),
    (4, 0): (0.429, 1.002, 0.161, 1.235, 0.944, 1.183, 0.511, -1.002, 0.011,
             0.79, 1.466, 1.008, 0.535, 1.246, 0.466, -0.094, 0.807),
    (4, 1): (0.978, 0.973, 0.094, 1.404, 0.816, 0.939, 1.76, -0.427, 0.332,
             0.009, 1.48, 0.975, 0.559, 2.464, 0.623, -0.68, 0.694),
    (4, 2): (0.856, 0.754, 0.988, 1.314, 1.868, 0.771, 2.933, 0.182, 0.961,
             -0.008, 1.605, 0.935, 0.394, 1.951, 0.717, 0.014, 0.536),
    (4, 3): (0.788, 0.807, 0.916, 1.424, 3.693, 0.539, 3.738, 0.351, 1.068,
             -0.064, 0.543, 0.937, 0.592, 0.025, -0.002, 0.579, 0.782),
}
#: (seats, stage) -> residual spread of a seat's final score around the fit, in points
SPREADS: dict[tuple[int, int], float] = {
    (2, 0): 20.29, (2, 1): 19.47, (2, 2): 17.84, (2, 3): 13.18,
    (3, 0): 21.33, (3, 1): 19.52, (3, 2): 17.49, (3, 3): 13.66,
    (4, 0): 21.5, (4, 1): 20.24, (4, 2): 18.13, (4, 3): 13.92,
}
#: a lead of one spread reads as about 78% (a logistic of scale 0.8 spread)
LOGISTIC_PER_SPREAD = 0.8
#: the solo game (no table): the plain worth against a middling score, on this scale
SOLO_PAR, SOLO_SCALE = 40.0, 6.0


def stage_of(state: State) -> int:
    return min(3, max(0, (state.round - 1) // STAGE_ROUNDS))


def features(state: State, seat: int, districts: list[int] | None = None) -> tuple[float, ...]:
    parts = terms(state, seat)
    held = (districts if districts is not None else district_scores(state))[seat]
    return (*(parts[name] for name in TERMS), held)


def evaluate(state: State, seat: int) -> float:
    """``seat``'s chances in [0, 1]: its expected final score against the best other
    seat's, squashed by the fit's spread at this stage.  Alone (the solo game against
    TOM) its plain worth against a middling score."""
    seats = len(state.seats)
    fitted = (seats, stage_of(state))
    weights = WEIGHTS.get(fitted)
    if weights is None:
        lead, scale = value(state, seat) - SOLO_PAR, SOLO_SCALE
    else:
        districts = district_scores(state)
        worth = [sum(w * x for w, x in zip(weights, features(state, s, districts))) for s in range(seats)]
        lead = worth[seat] - max(w for s, w in enumerate(worth) if s != seat)
        scale = LOGISTIC_PER_SPREAD * SPREADS[fitted]
    return win_chance(lead, scale)
