"""Record a golden game stream: `python -m tests.golden.record` (only for a NEW stream).

Golden files are never edited: a change of an event's shape ships an upcaster, and the
old streams must still replay to the same result.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

from domain.common.envelope import decode_event, encode_event
from domain.registry import titles
from domain.rng import Rng
from tests.conformance.harness import play_random_game, seed_for

HERE = Path(__file__).resolve().parent

STREAMS = {
    "kontor-basic-computer": ("kontor", {"variant": "basic"}, 2, 11, {0: "normal", 1: "easy"}),
    "kontor-basic-random": ("kontor", {"variant": "basic"}, 2, 12, {}),
    "speicherstadt-3": ("speicherstadt", {}, 3, 21, {0: "normal"}),
    "speicherstadt-5": ("speicherstadt", {}, 5, 22, {}),
    "amsterdam-3-expansions": ("amsterdam", {"expansions": ["skilled_workers", "tasks", "black_market",
                                                            "market_tiles"], "tasks": "secret3"},
                               3, 31, {0: "normal"}),
    "amsterdam-solo": ("amsterdam", {}, 1, 32, {0: "normal"}),
    # amsterdam-2 (issue 25): TOM's triple takes the docker on the named pontoon, TOM does
    # not climb a stack without moving; amsterdam-solo (amsterdam-1) still replays
    "amsterdam-solo-2": ("amsterdam", {}, 1, 34, {0: "normal"}),
}


def golden_events(path: Path) -> list:
    """A golden stream's events, decoded as the event store decodes them."""
    golden = json.loads(path.read_text(encoding="utf-8"))
    game = titles()[golden["title"]]
    return [decode_event(game, type_name, version, data) for type_name, version, data in golden["events"]]


def view_digest(game, state) -> str:
    return hashlib.sha256(json.dumps(game.view(state, None), sort_keys=True).encode()).hexdigest()


def record(name: str) -> dict:
    title_id, raw_options, seats, n, policy_seats = STREAMS[name]
    game = titles()[title_id]
    options = game.parse_options(raw_options, seats)
    played = play_random_game(game, options, seats, seed_for(n), Rng(seed_for(1000 + n)),
                              policy_seats=policy_seats)
    result = game.result(played.final)
    return {
        "title": title_id,
        "rules_version": game.rules_version,
        "options": raw_options,
        "seat_count": seats,
        "seed": seed_for(n),
        "events": [list(encode_event(e)) for e in played.events],
        "result": {"scores": list(result.scores), "winners": list(result.winners)},
        "final_view_sha256": view_digest(game, played.final),
    }


if __name__ == "__main__":
    for name in sys.argv[1:] or STREAMS:
        path = HERE / f"{name}.json"
        if path.exists():
            print(f"{path.name} exists: golden streams are never re-recorded")
            continue
        path.write_text(json.dumps(record(name), separators=(",", ":")) + "\n", encoding="utf-8")
        print(f"wrote {path.name}")
