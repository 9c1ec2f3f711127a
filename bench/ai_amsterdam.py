"""Amsterdam: computer levels against random players and against each other, 2 seats.

    PYTHONPATH=. python bench/ai_amsterdam.py [games] [level_a] [level_b] [options-json]

level_a and level_b are "random", "easy", "normal" or "strong" (strong plays as normal
until the generic search lands). Seats alternate between games. Prints level_a's win
rate with a 95% Wilson interval, mean scores, and the time per computer move (mean and
worst).
"""

from __future__ import annotations

import json
import math
import sys
import time

from domain.amsterdam import GAME
from domain.decider import Issued
from domain.rng import Rng

AT = "2026-01-01T00:00:00Z"


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return max(0.0, centre - half), min(1.0, centre + half)


def play(seed: int, levels: dict[int, str], options: dict, times: list[float]) -> list[float]:
    state = GAME.fold(GAME.start(GAME.parse_options(options, 2), 2, f"{seed:064x}"))
    chooser = Rng(f"{seed + 9_000_000:064x}")
    n = 0
    while not GAME.is_finished(state):
        seat = GAME.to_act(state)[0]
        if levels[seat] == "random":
            command = chooser.choice(GAME.legal_commands(state, seat))
        else:
            t0 = time.perf_counter()
            command = GAME.policy(state, seat, chooser.fork(f"ai/{n}"), levels[seat])
            times.append(time.perf_counter() - t0)
        state = GAME.fold(GAME.decide(state, Issued(seat, AT, command)), state)
        n += 1
    return list(GAME.result(state).scores), GAME.result(state).winners


def main(argv: list[str]) -> float:
    games = int(argv[1]) if len(argv) > 1 else 40
    level_a = argv[2] if len(argv) > 2 else "normal"
    level_b = argv[3] if len(argv) > 3 else "random"
    options = json.loads(argv[4]) if len(argv) > 4 else {}
    times: list[float] = []
    wins = 0
    points_a = points_b = 0.0
    t0 = time.perf_counter()
    for g in range(games):
        a = g % 2
        scores, winners = play(1000 + g, {a: level_a, 1 - a: level_b}, options, times)
        wins += winners == (a,)
        points_a += scores[a]
        points_b += scores[1 - a]
    low, high = wilson(wins, games)
    rate = wins / games
    per_move = (f"{sum(times) / len(times) * 1000:.0f} ms mean, {max(times):.2f} s worst over "
                f"{len(times)} moves") if times else "no computer move"
    print(f"amsterdam 2 seats {options or ''}: {level_a} vs {level_b}: won {wins}/{games} = "
          f"{rate:.1%} (95% Wilson {low:.1%}-{high:.1%}); mean points {points_a / games:.1f} vs "
          f"{points_b / games:.1f}; {per_move}; {time.perf_counter() - t0:.0f}s")
    return rate


if __name__ == "__main__":
    main(sys.argv)
