"""Kontor: the computer player against a uniformly random legal player.

Run:  /work/venv/bin/python bench/ai_kontor.py [games] [level] [opponent] [variant]
      (opponent: "random" (default) or another policy level, e.g. "normal";
       variant: basic (default) | advanced | team | free_wheel | free_for_all | all, or
       a JSON object of options with "seats", e.g. '{"variant": "advanced",
       "scenario": "giant", "seats": 2}')
Prints the policy's win rate (a win shared by k sides counts 1/k) over games rotating
the policy over every side (every seat; in the team game both seats of one team, the
teams in turn), and the slowest policy move.  bench/ai_levels.py compares every level
of every title.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from domain.decider import Issued  # noqa: E402
from domain.kontor import GAME  # noqa: E402
from domain.rng import Rng  # noqa: E402

AT = "2026-01-01T00:00:00Z"
SEATS = {"basic": 2, "advanced": 2, "team": 4, "free_wheel": 2, "free_for_all": 3}


def options_of(variant: str) -> tuple[dict, int]:
    """A variant name, or a JSON object of options with a "seats" key, e.g.
    '{"variant": "advanced", "scenario": "giant", "seats": 2}'."""
    if variant.startswith("{"):
        raw = json.loads(variant)
        return raw, raw.pop("seats", 2)
    return {"variant": variant}, SEATS[variant]


def play(
    seed: int, ai_side: int, level: str, opponent: str = "random", variant: str = "basic"
) -> tuple[float, float]:
    raw, seats = options_of(variant)
    options = GAME.parse_options(raw, seats)
    ai_seats = set(options.teams[ai_side]) if options.teams else {ai_side}
    state = GAME.fold(GAME.start(options, seats, f"{seed:064x}"))
    chooser = Rng(f"{seed + 1_000_000:064x}")
    slowest = 0.0
    moves = 0
    while not GAME.is_finished(state):
        seat = chooser.choice(sorted(GAME.to_act(state)))
        if seat in ai_seats:
            t = time.perf_counter()
            command = GAME.policy(state, seat, chooser.fork(f"ai/{moves}"), level)
            slowest = max(slowest, time.perf_counter() - t)
        elif opponent != "random":
            command = GAME.policy(state, seat, chooser.fork(f"op/{moves}"), opponent)
        else:
            command = chooser.choice(GAME.legal_commands(state, seat))
        state = GAME.fold(GAME.decide(state, Issued(seat, AT, command)), state)
        moves += 1
    result = GAME.result(state)
    if not ai_seats & set(result.winners):
        return 0.0, slowest
    sides = {w if not options.teams else next(i for i, t in enumerate(options.teams) if w in t)
             for w in result.winners}
    return 1.0 / len(sides), slowest


def run(games: int, level: str, opponent: str, variant: str) -> None:
    total, slowest = 0.0, 0.0
    start = time.perf_counter()
    raw, seats = options_of(variant)
    options = GAME.parse_options(raw, seats)
    sides = len(options.teams) if options.teams else seats
    for g in range(games):
        score, slow = play(g, g % sides, level, opponent, variant)
        total += score
        slowest = max(slowest, slow)
    elapsed = time.perf_counter() - start
    print(
        f"kontor[{variant}] policy[{level}] vs {opponent}: {total / games:.1%} over {games} "
        f"games (rotating sides); slowest move {slowest * 1000:.1f} ms; {elapsed:.1f} s"
    )


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    level = sys.argv[2] if len(sys.argv) > 2 else "normal"
    opponent = sys.argv[3] if len(sys.argv) > 3 else "random"
    variant = sys.argv[4] if len(sys.argv) > 4 else "basic"
    for v in SEATS if variant == "all" else (variant,):
        run(games, level, opponent, v)


if __name__ == "__main__":
    main()
