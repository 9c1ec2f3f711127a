"""Replaying finished games from their events: events folded per second.

Plays random games in the domain (no I/O), stores their events as JSON the way the event
store does, then times (a) decode + evolve from JSON, the auditor's full replay, and
(b) evolve alone over decoded events.

    python bench/replay.py [--games 50] [--title kontor|speicherstadt] [--seats N]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from anywhere

from domain.common.envelope import decode_event, encode_event  # noqa: E402
from domain.registry import titles  # noqa: E402
from domain.rng import Rng  # noqa: E402
from tests.conformance.harness import play_random_game, seed_for  # noqa: E402

DEFAULT_OPTIONS = {"kontor": {"variant": "basic"}, "speicherstadt": {}}


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--title", default="kontor", choices=sorted(titles()))
    parser.add_argument("--seats", type=int, default=None)
    parser.add_argument("--rounds", type=int, default=5, help="timed passes over all games")
    args = parser.parse_args()
    game = titles()[args.title]
    seats = args.seats or game.min_players
    options = game.parse_options(DEFAULT_OPTIONS[args.title], seats)
    streams = []
    for n in range(args.games):
        played = play_random_game(game, options, seats, seed_for(n), Rng(seed_for(10_000 + n)))
        streams.append([json.dumps(encode_event(e)) for e in played.events])
    total = sum(len(s) for s in streams)

    start = time.perf_counter()
    for _ in range(args.rounds):
        for stream in streams:
            state = None
            for line in stream:
                type_name, version, data = json.loads(line)
                state = game.evolve(state, decode_event(game, type_name, version, data))
    full = total * args.rounds / (time.perf_counter() - start)

    decoded = [[decode_event(game, *json.loads(line)) for line in s] for s in streams]
    start = time.perf_counter()
    for _ in range(args.rounds):
        for events in decoded:
            game.fold(events)
    fold_only = total * args.rounds / (time.perf_counter() - start)

    print(f"{args.title}, {seats} seats: {args.games} finished games, {total} events "
          f"({total / args.games:.0f} per game)")
    print(f"replay from JSON (decode + evolve): {full:,.0f} events/s "
          f"= a whole game in {1000 * total / args.games / full:.2f} ms")
    print(f"evolve alone: {fold_only:,.0f} events/s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
