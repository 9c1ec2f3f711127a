"""Offline verification speed: steps (commands) re-derived per second, for long games.

Builds finished games' audit records in memory (random legal commands, the service's own
record builder, keyed chain), then times `verifier.verify.verify_record` over them: the
chain, the seed, every event re-derived by decide, the result.

    python bench/verify.py [--games 5] [--rounds 3]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from anywhere

from tests.golden.record_audit import record  # noqa: E402
from verifier.verify import verify_record  # noqa: E402

#: the longest forms: (title, options, seats)
LONG_GAMES = [
    ("kontor", {"variant": "free_for_all"}, 4),
    ("kontor", {"variant": "team"}, 4),
    ("speicherstadt", {}, 5),
]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=5, help="games per form")
    parser.add_argument("--rounds", type=int, default=3, help="timed passes over the records")
    args = parser.parse_args()
    for title_id, options, seats in LONG_GAMES:
        records = [record(title_id, options, seats, 100 + n) for n in range(args.games)]
        steps = sum(len(r["steps"]) for r in records)
        events = sum(len(s["events"]) for r in records for s in r["steps"])
        best = cpu = float("inf")
        for _ in range(args.rounds):
            started, started_cpu = time.perf_counter(), time.process_time()
            for r in records:
                report = verify_record(r)
                assert report.ok, report.summary()
            best = min(best, time.perf_counter() - started)
            cpu = min(cpu, time.process_time() - started_cpu)
        print(f"{title_id} {options or ''} {seats} seats: {args.games} games, {steps // args.games} steps"
              f" and {events // args.games} events a game; {steps / best:,.0f} steps/s"
              f" ({steps / cpu:,.0f} per CPU second), {events / best:,.0f} events/s,"
              f" {best / args.games * 1000:.0f} ms a game (best of {args.rounds})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
