"""Speicherstadt: the computer policy against random players, win rate printed.

    PYTHONPATH=. python bench/ai_speicherstadt.py [games] [seats] [level]

The policy sits at a rotating seat among ``seats - 1`` random players; a win shared by k
seats (most points, then most coins) counts 1/k.  bench/ai_levels.py compares every
level of every title.
"""

from __future__ import annotations

import sys
import time

from domain.decider import Issued
from domain.rng import Rng
from domain.speicherstadt import GAME

AT = "2026-01-01T00:00:00Z"


def play(seed: int, seats: int, ai_seat: int, level: str) -> tuple[float, list[float]]:
    seed_hex = f"{seed:064x}"
    chooser = Rng(f"{seed + 7_000_000:064x}")
    state = GAME.fold(GAME.start(GAME.parse_options({}, seats), seats, seed_hex))
    n = 0
    while not GAME.is_finished(state):
        seat = chooser.choice(sorted(GAME.to_act(state)))
        if seat == ai_seat:
            command = GAME.policy(state, seat, chooser.fork(f"ai/{n}"), level)
        else:
            command = chooser.choice(GAME.legal_commands(state, seat))
        state = GAME.fold(GAME.decide(state, Issued(seat, AT, command)), state)
        n += 1
    result = GAME.result(state)
    share = 1.0 / len(result.winners) if ai_seat in result.winners else 0.0
    return share, list(result.scores)


def main(argv: list[str]) -> float:
    games = int(argv[1]) if len(argv) > 1 else 300
    seats = int(argv[2]) if len(argv) > 2 else 3
    level = argv[3] if len(argv) > 3 else "normal"
    t0 = time.perf_counter()
    wins = 0.0
    ai_points = other_points = 0.0
    for g in range(games):
        ai = g % seats
        won, scores = play(g, seats, ai, level)
        wins += won
        ai_points += scores[ai]
        other_points += (sum(scores) - scores[ai]) / (seats - 1)
    rate = wins / games
    print(f"speicherstadt {seats} seats, policy level {level!r} vs random: "
          f"won {wins:g}/{games} = {rate:.1%}; mean points {ai_points / games:.1f} vs "
          f"{other_points / games:.1f}; {time.perf_counter() - t0:.1f}s")
    return rate


if __name__ == "__main__":
    main(sys.argv)
