"""Where the strong level departs from the normal policy, is its move better?

Plays one seeded game with every seat at the normal policy; at every third decision of
seat 0 with a choice, asks the strong level (an iteration budget) and the normal level for
their move on the same re-dealt state.  Where they differ, both moves are played out to
the end of the game by every seat's normal policy, ``--rounds`` times, each time in the
same re-dealt world with the same random stream for both (paired), and the script prints
each move's win share and the strong move's mean gain with its standard error.  A search
whose departures lose on average is misled by its cut-off estimate (bench/README.md,
Amsterdam).

Run:  PYTHONPATH=. python bench/search_departures.py --title amsterdam --seats 4 --game 0
      PYTHONPATH=. python bench/search_departures.py --title kontor --options '{"variant": "free_wheel"}'
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from domain.common.computer import choose  # noqa: E402
from domain.common.search import SIMULATED_AT, Budget, Tuning, reward, search, sides  # noqa: E402
from domain.decider import Issued  # noqa: E402
from domain.registry import titles  # noqa: E402
from domain.rng import Rng  # noqa: E402


def play_out(game, state, seat: int, command, stream: Rng) -> float:
    state = game.fold(game.decide(state, Issued(seat, SIMULATED_AT, command)), state)
    n = 0
    while not game.is_finished(state):
        actor = min(game.to_act(state))
        choice = game.policy(state, actor, stream.fork(f"p{n}"), "normal")
        state = game.fold(game.decide(state, Issued(actor, SIMULATED_AT, choice)), state)
        n += 1
    return reward(game.result(state), seat, sides(game, state))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--title", default="amsterdam")
    parser.add_argument("--options", default="{}", help='the form, as JSON: \'{"variant": "free_wheel"}\'')
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--game", type=int, default=0)
    parser.add_argument("--iterations", type=int, default=60)
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--departures", type=int, default=6)
    parser.add_argument("--depth", type=int, default=None,
                        help="rollout decisions before the cut-off (default: the title's rollout_depth)")
    args = parser.parse_args()
    game = titles()[args.title]
    seed = 7919 * args.game + 17
    state = game.fold(game.start(game.parse_options(json.loads(args.options), args.seats), args.seats, f"{seed:064x}"))
    chooser = Rng(f"{seed + 1_000_000:064x}")
    budget, moves, found, gains, asked = Budget(args.iterations), 0, 0, [], 0
    while not game.is_finished(state) and found < args.departures:
        seat = chooser.choice(sorted(game.to_act(state)))
        rng = chooser.fork(f"ai/{moves}")
        seen = game.redetermine(state, seat, rng.fork("seen"))
        normal = choose(game, seen, seat, rng.fork("choice"), "normal", budget)
        if seat == 0 and moves % 3 == 0 and len(game.legal_commands(state, seat)) > 1:
            asked += 1
            depth = game.rollout_depth if args.depth is None else args.depth
            strong = search(game, seen, seat, rng.fork("choice"), budget, Tuning(rollout_depth=depth))
            if strong != normal:
                found += 1
                started, diffs, shares = time.perf_counter(), [], [0.0, 0.0]
                for r in range(args.rounds):
                    world = game.redetermine(seen, seat, Rng(f"{r + 99:064x}"))
                    a = play_out(game, world, seat, normal, Rng(f"{r + 7:064x}"))
                    b = play_out(game, world, seat, strong, Rng(f"{r + 7:064x}"))
                    diffs.append(b - a)
                    shares[0] += a / args.rounds
                    shares[1] += b / args.rounds
                mean = sum(diffs) / len(diffs)
                error = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (len(diffs) - 1) / len(diffs))
                gains.append(mean)
                print(f"decision {moves}: {type(normal).__name__} -> {type(strong).__name__}: normal's move "
                      f"{shares[0]:.2f}, strong's {shares[1]:.2f}, gain {mean:+.3f} (se {error:.3f}) "
                      f"({time.perf_counter() - started:.0f} s)", flush=True)
        state = game.fold(game.decide(state, Issued(seat, "2026-01-01T00:00:00Z", normal)), state)
        moves += 1
    if gains:
        print(f"{len(gains)} departures in {asked} decisions asked, mean gain {sum(gains) / len(gains):+.3f}, "
              f"per decision asked {sum(gains) / asked:+.4f}")
    else:
        print(f"no departure from the normal move in {moves} decisions")


if __name__ == "__main__":
    main()
