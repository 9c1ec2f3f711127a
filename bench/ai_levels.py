"""Computer levels against each other, per title, form and seat count.

Run:  /work/venv/bin/python bench/ai_levels.py [--games N] [--pairs easy-random,normal-easy,strong-normal]
          [--forms kontor:basic,speicherstadt:3,...] [--seconds S | --iterations N]

For each form and pair "A-B", N games: the measured side plays A, every other seat B.
The measured side rotates over every seat (game g measures seat g mod seats; in a team
game the side is that seat's team, so every seat of the team plays A).  A win shared by k
sides counts 1/k.  Printed: the measured side's score rate with its Wilson 95% interval,
the fair share (1 / sides), and A's time per move (median, p95, max).  Moves go through
domain.common.computer.computer_command, the service's own entry point (re-dealt state
first), "random" is a uniform legal command.

A time budget (--seconds, the server's default 1.0) makes runs non-reproducible and
depends on the machine's load; --iterations gives a fixed, reproducible budget; both
together cap a move at whichever comes first (reproducible while no move reaches the
clock).
"""

from __future__ import annotations

import argparse
import math
import signal
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from domain.common.computer import computer_command  # noqa: E402
from domain.common.search import Budget  # noqa: E402
from domain.decider import Issued  # noqa: E402
from domain.registry import titles  # noqa: E402
from domain.rng import Rng  # noqa: E402

AT = "2026-01-01T00:00:00Z"
#: "title:form" -> (title, raw options, seats)
FORMS = {
    "kontor:basic": ("kontor", {"variant": "basic"}, 2),
    "kontor:advanced": ("kontor", {"variant": "advanced"}, 2),
    "kontor:free_wheel": ("kontor", {"variant": "free_wheel"}, 2),
    "kontor:team": ("kontor", {"variant": "team"}, 4),
    "kontor:free_wheel:4": ("kontor", {"variant": "free_wheel"}, 4),
    "kontor:free_for_all": ("kontor", {"variant": "free_for_all"}, 3),
    "kontor:free_for_all:4": ("kontor", {"variant": "free_for_all"}, 4),
    **{f"speicherstadt:{n}": ("speicherstadt", {}, n) for n in range(2, 6)},
    **{f"amsterdam:{n}": ("amsterdam", {}, n) for n in range(2, 5)},
}
PAIRS = ("easy-random", "normal-easy", "strong-normal")


def wilson(score: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = score / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def sides_of(game, options, seats: int) -> list[str]:
    return [game.team_of(options, s) or f"seat{s}" for s in range(seats)]


def play(game, options, seats: int, measured: int, a: str, b: str, seed: int, budget: Budget):
    """One game: the measured side's share of the win, and A's move times."""
    side = sides_of(game, options, seats)
    level = [a if side[s] == side[measured] else b for s in range(seats)]
    state = game.fold(game.start(options, seats, f"{seed:064x}"))
    chooser = Rng(f"{seed + 1_000_000:064x}")
    times, moves = [], 0
    while not game.is_finished(state):
        seat = chooser.choice(sorted(game.to_act(state)))
        if level[seat] == "random":
            command = chooser.choice(game.legal_commands(state, seat))
        else:
            started = time.perf_counter()
            command = computer_command(game, state, seat, chooser.fork(f"ai/{moves}"), level[seat], budget)
            if level[seat] == a:
                times.append(time.perf_counter() - started)
        state = game.fold(game.decide(state, Issued(seat, AT, command)), state)
        moves += 1
    winners = {side[w] for w in game.result(state).winners}
    return (1.0 / len(winners) if side[measured] in winners else 0.0), times


def run(form: str, pair: str, games: int, budget: Budget, progress: bool = False, first: int = 0) -> None:
    title, raw, seats = FORMS[form]
    game = titles()[title]
    options = game.parse_options(raw, seats)
    a, b = pair.split("-")
    score, times, played = 0.0, [], 0
    started = time.perf_counter()
    try:
        for g in range(first, first + games):
            won, t = play(game, options, seats, g % seats, a, b, 7919 * g + 17, budget)
            score += won
            times += t
            played += 1
            if progress:
                print(f"  {form} {pair}: {score:g} of {played} games", file=sys.stderr, flush=True)
    except KeyboardInterrupt:  # timeout -s INT: print what was measured, then stop
        _print(form, seats, a, b, played, score, times, game, options, started)
        raise
    _print(form, seats, a, b, played, score, times, game, options, started)


def _print(form, seats, a, b, games, score, times, game, options, started) -> None:
    if not games:
        print(f"{form:22} {seats} {a:>6} vs {b:<6} no game finished", flush=True)
        return
    low, high = wilson(score, games)
    fair = 1 / len(set(sides_of(game, options, seats)))
    times.sort()
    timing = (
        f"{statistics.median(times) * 1000:7.1f} {times[int(0.95 * (len(times) - 1))] * 1000:7.1f} "
        f"{times[-1] * 1000:7.1f}" if times else "      -       -       -"
    )
    print(
        f"{form:22} {seats} {a:>6} vs {b:<6} {games:4} {score / games:6.1%} "
        f"[{low:5.1%}, {high:5.1%}] fair {fair:5.1%} x{score / games / fair:4.2f}  ms/move {timing}"
        f"  ({time.perf_counter() - started:.0f} s)",
        flush=True,
    )


def main() -> None:
    # a background job started by a shell ignores SIGINT: restore it, so that
    # `timeout -s INT` still stops a run and prints what was measured
    signal.signal(signal.SIGINT, signal.default_int_handler)
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--pairs", default=",".join(PAIRS))
    parser.add_argument("--forms", default=",".join(FORMS))
    parser.add_argument("--seconds", type=float, default=None, help="strong: time per move (with --iterations: a cap)")
    parser.add_argument("--iterations", type=int, default=None, help="strong: iterations per move")
    parser.add_argument("--first", type=int, default=0, help="the first game's number (to extend an earlier run)")
    parser.add_argument("--progress", action="store_true", help="the running score after every game, on stderr")
    args = parser.parse_args()
    if args.iterations is not None and args.seconds is not None:
        # the server's way with a smaller cap: reproducible unless a move reaches the clock
        budget = Budget(iterations=args.iterations, seconds=args.seconds, clock=time.monotonic)
    elif args.iterations is not None:
        budget = Budget(iterations=args.iterations)
    else:
        budget = Budget(iterations=20_000, seconds=args.seconds or 1.0, clock=time.monotonic)
    print(f"budget: {budget.iterations} iterations" + (f", {budget.seconds} s" if budget.clock else ""))
    print("form                   n      A vs B     games  score [Wilson 95%]      fair  xfair  "
          "ms/move median p95 max")
    try:
        for form in args.forms.split(","):
            for pair in args.pairs.split(","):
                run(form, pair, args.games, budget, args.progress, args.first)
    except KeyboardInterrupt:
        print("interrupted: the last line covers the games finished")


if __name__ == "__main__":
    main()
