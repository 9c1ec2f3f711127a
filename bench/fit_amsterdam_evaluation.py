"""Fit the weights of Amsterdam's search evaluation (domain/amsterdam/evaluation.py).

Plays seeded games with every seat at the normal policy, records at every fifth decision
each seat's heuristic terms (domain.amsterdam.policy.terms) and its district majorities as
they stand, and fits, per seat count and stage of the game (rounds 1-3, 4-6, 7-9, 10-12),
the seat's final score on them by least squares drawn towards the plain sum (``ridge``).  Prints the table
evaluation.WEIGHTS and the residual spread per stage, and how well the fit and the plain
sum of the terms (what the normal policy maximizes) predict who wins, on games held out.

Run:  PYTHONPATH=. python bench/fit_amsterdam_evaluation.py [--games 150]
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from domain.amsterdam import GAME  # noqa: E402
from domain.amsterdam.evaluation import FEATURES, features, stage_of  # noqa: E402
from domain.common.computer import computer_command  # noqa: E402
from domain.common.search import Budget  # noqa: E402
from domain.decider import Issued  # noqa: E402
from domain.rng import Rng  # noqa: E402

AT = "2026-01-01T00:00:00Z"


def play(seats: int, game_no: int):
    """[(stage, seat, features)] along one normal game, and its final scores."""
    state = GAME.fold(GAME.start(GAME.parse_options({}, seats), seats, f"{7919 * game_no + 23:064x}"))
    chooser = Rng(f"{game_no + 3_000_000:064x}")
    samples, moves = [], 0
    while not GAME.is_finished(state):
        if moves % 5 == 0:
            samples += [(stage_of(state), s, features(state, s)) for s in range(seats)]
        seat = chooser.choice(sorted(GAME.to_act(state)))
        command = computer_command(GAME, state, seat, chooser.fork(f"ai/{moves}"), "normal", Budget(1))
        state = GAME.fold(GAME.decide(state, Issued(seat, AT, command)), state)
        moves += 1
    return samples, GAME.result(state)


def ridge(rows: list[list[float]], targets: list[float], shrink: float) -> list[float]:
    """Weights w minimizing |X w - y|^2 + shrink * samples * |w - 1|^2: drawn towards 1,
    i.e. towards ``value``'s own sum (and districts at face value), so a term the games
    say little about keeps its hand-set worth instead of a noisy one the search would
    exploit.  The intercept (last) is free."""
    n = len(rows[0])
    penalty = shrink * len(rows)
    a = [[sum(r[i] * r[j] for r in rows) + (penalty if i == j and i < n - 1 else 0.0) for j in range(n)]
         for i in range(n)]
    b = [sum(r[i] * t for r, t in zip(rows, targets)) + (penalty if i < n - 1 else 0.0) for i in range(n)]
    for col in range(n):  # Gauss-Jordan with partial pivoting
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        a[col], a[pivot], b[col], b[pivot] = a[pivot], a[col], b[pivot], b[col]
        for r in range(n):
            if r != col and a[col][col]:
                f = a[r][col] / a[col][col]
                a[r] = [x - f * y for x, y in zip(a[r], a[col])]
                b[r] -= f * b[col]
    return [b[i] / a[i][i] if a[i][i] else 0.0 for i in range(n)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--shrink", type=float, default=1.0, help="pull towards weight 1, per sample")
    args = parser.parse_args()
    table, spreads = {}, {}
    for seats in (2, 3, 4):
        fit, held = [], []
        for g in range(args.games):
            samples, result = play(seats, g)
            (held if g % 5 == 4 else fit).append((samples, result))
        for stage in range(4):
            rows = [[*f, 1.0] for samples, _ in fit for st, _, f in samples if st == stage]
            ys = [result.scores[s] for samples, result in fit for st, s, _ in samples if st == stage]
            w = ridge(rows, ys, args.shrink)
            residual = [sum(x * y for x, y in zip(r, w)) - t for r, t in zip(rows, ys)]
            spread = math.sqrt(sum(e * e for e in residual) / max(1, len(residual) - len(w)))
            table[(seats, stage)] = tuple(round(x, 3) for x in w[:-1])
            spreads[(seats, stage)] = round(spread, 2)
            # held out: how often the seat rated best (fit / plain sum) is the winner
            hits_fit = hits_sum = total = 0
            for samples, result in held:
                by_time: dict[int, list] = {}
                for i, (st, s, f) in enumerate(samples):
                    if st == stage:
                        by_time.setdefault(i // seats, []).append((s, f))
                for group in by_time.values():
                    best_fit = max(group, key=lambda sf: sum(x * y for x, y in zip(sf[1], w)))[0]
                    best_sum = max(group, key=lambda sf: sum(sf[1][:-1]))[0]
                    hits_fit += best_fit in result.winners
                    hits_sum += best_sum in result.winners
                    total += 1
            print(f"seats {seats} stage {stage}: {len(rows)} samples, residual sd {spread:.2f}; "
                  f"held-out winner picked: fit {hits_fit / max(1, total):.1%}, plain sum "
                  f"{hits_sum / max(1, total):.1%} ({total} positions)", flush=True)
    print("FEATURES =", FEATURES)
    print("WEIGHTS: dict[tuple[int, int], tuple[float, ...]] = {")
    for key, w in table.items():
        half = (len(w) + 1) // 2
        print(f"    {key}: ({', '.join(map(str, w[:half]))},")
        print(f"             {', '.join(map(str, w[half:]))}),")
    print("}")
    print("SPREADS: dict[tuple[int, int], float] = {")
    keys = list(spreads)
    for i in range(0, len(keys), 4):
        print("    " + " ".join(f"{k}: {spreads[k]}," for k in keys[i:i + 4]))
    print("}")


if __name__ == "__main__":
    main()
