"""Replaying finished games from their events: events folded per second.

Plays random games in the domain (no I/O), stores their events as JSON the way the event
store does, then times (a) decode + evolve from JSON, the auditor's full replay, with the
JSON read as the event store reads it (service/games/store.py's json_loads) and again with the
standard library's json.loads, (b) evolve alone over decoded events, and (c) each part on
its own in microseconds per event (the store's JSON read, decode_event, evolve), the best
of the timed passes: the least disturbed by other processes on a shared machine.

    python bench/replay.py [--games 50] [--title all|kontor|speicherstadt|amsterdam] [--seats N]

Rates are per CPU second of this process (time.process_time): "per core", and on a
shared machine not diluted by the other processes' share of the cores (the wall rate is
printed beside it with the load average).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from anywhere

from domain.common.envelope import decode_event, encode_event  # noqa: E402
from domain.registry import titles  # noqa: E402
from domain.rng import Rng  # noqa: E402
from service.games.store import json_loads  # noqa: E402 - how the event store reads a jsonb value
from tests.conformance.harness import play_random_game, seed_for  # noqa: E402

DEFAULT_OPTIONS = {"kontor": {"variant": "basic"}, "speicherstadt": {}, "amsterdam": {}}


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--title", default="all", choices=["all", *sorted(titles())])
    parser.add_argument("--seats", type=int, default=None)
    parser.add_argument("--rounds", type=int, default=5, help="timed passes over all games")
    args = parser.parse_args()
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"reference loop (the machine's pace now, same run): {reference():,.0f} iterations per CPU second")
    for title_id in sorted(titles()) if args.title == "all" else [args.title]:
        replay(title_id, args.games, args.seats, args.rounds)
    print(f"reference loop again: {reference():,.0f} iterations per CPU second")
    return 0


def reference(n: int = 300_000) -> float:
    """A fixed pure-Python loop (dicts, tuples, attribute-free arithmetic): a shared
    machine's contention slows CPU seconds too, and this shows by how much."""
    start = time.process_time()
    total = 0
    for i in range(n):
        d = {"a": i, "b": (i, i + 1)}
        total += d["a"] + d["b"][1]
    return n / (time.process_time() - start)


def replay(title_id: str, games: int, seats: int | None, rounds: int) -> None:
    game = titles()[title_id]
    seats = seats or max(2, game.min_players)
    options = game.parse_options(DEFAULT_OPTIONS[title_id], seats)
    streams = []
    for n in range(games):
        played = play_random_game(game, options, seats, seed_for(n), Rng(seed_for(10_000 + n)))
        # bytes, as PostgreSQL hands a jsonb value to the store
        streams.append([json.dumps(encode_event(e)).encode() for e in played.events])
    total = sum(len(s) for s in streams)

    def replay_all(loads) -> tuple[float, float]:
        cpu, wall = time.process_time(), time.perf_counter()
        for _ in range(rounds):
            for stream in streams:
                state = None
                for line in stream:
                    type_name, version, data = loads(line)
                    state = game.evolve(state, decode_event(game, type_name, version, data))
        return time.process_time() - cpu, time.perf_counter() - wall

    cpu, wall = replay_all(json_loads)  # the store's reader (service/games/store.py)
    full = total * rounds / cpu
    stdlib = total * rounds / replay_all(json.loads)[0]

    decoded = [[decode_event(game, *json.loads(line)) for line in s] for s in streams]
    start = time.process_time()
    for _ in range(rounds):
        for events in decoded:
            game.fold(events)
    fold_only = total * rounds / (time.process_time() - start)

    print(f"{title_id}, {seats} seats: {games} finished games, {total} events ({total / games:.0f} per game)")
    print(f"  replay from JSON (decode + evolve): {full:,.0f} events per CPU second "
          f"(wall: {total * rounds / wall:,.0f}/s) = a whole game in {1000 * total / games / full:.2f} ms of CPU")
    print(f"  the same with the standard library's json.loads: {stdlib:,.0f} events per CPU second")
    print(f"  evolve alone: {fold_only:,.0f} events per CPU second")

    # each part alone, the best of the passes (us per event)
    loaded = [[json_loads(line) for line in s] for s in streams]
    parts = {"json": [], "decode": [], "evolve": []}
    for _ in range(rounds):
        start = time.process_time()
        for stream in streams:
            for line in stream:
                json_loads(line)
        parts["json"].append(time.process_time() - start)
        start = time.process_time()
        for stream in loaded:
            for type_name, version, data in stream:
                decode_event(game, type_name, version, data)
        parts["decode"].append(time.process_time() - start)
        start = time.process_time()
        for events in decoded:
            game.fold(events)
        parts["evolve"].append(time.process_time() - start)
    us = {name: 1e6 * min(times) / total for name, times in parts.items()}
    print(f"  parts, us per event (best of {rounds} passes): json {us['json']:.2f} + decode {us['decode']:.2f}"
          f" + evolve {us['evolve']:.2f} = {sum(us.values()):.2f} ({1e6 / sum(us.values()):,.0f} events per CPU second)")


if __name__ == "__main__":
    raise SystemExit(main())
