"""Record a golden audit record: `python -m tests.golden.record_audit` (only for a NEW one).

One finished game per released rules version, played with the domain alone and written
by the service's own record builder (service/audit/service.py) from the rows the store would hold.
Golden records are never edited: `tests/golden/test_golden_audit.py` verifies every one
with the offline verifier in CI, so a change that makes a released version decide
differently fails there (keep the old decide reachable, or release a new version).
"""

from __future__ import annotations

import json
import sys
from datetime import UTC, datetime

from domain.common.envelope import encode_command, encode_event
from domain.decider import Issued
from domain.registry import titles
from domain.rng import Rng, seed_commitment
from service.audit.service import build_record
from service.games.store import Game, Seat, StoredCommand, StoredEvent
from tests.conformance.harness import seed_for
from tests.golden.record import HERE
from verifier.chain import CHAIN_V2, genesis, link, record_of
from verifier.record import result_json

AUDIT = HERE / "audit"
AT = "2026-01-01T12:00:00.000000Z"
#: name -> (title, raw options, seats, number for the seed and chain key)
RECORDS = {
    "kontor-basic-1": ("kontor", {"variant": "basic"}, 2, 31),
    "kontor-advanced-1": ("kontor", {"variant": "advanced"}, 2, 32),
    "kontor-team-1": ("kontor", {"variant": "team"}, 4, 33),
    "kontor-free-wheel-1": ("kontor", {"variant": "free_wheel"}, 2, 34),
    "kontor-free-for-all-1": ("kontor", {"variant": "free_for_all"}, 3, 35),
    # the second versions (core/versions.py): Libre choix judges a card by what it is; free
    # for all's removed dock goes to whoever placed it
    "kontor-basic-2": ("kontor", {"variant": "basic", "special_rules": ["free_choice", "bridge_and_flood"]}, 2, 38),
    "kontor-advanced-2": ("kontor", {"variant": "advanced", "special_rules": ["free_choice"]}, 2, 39),
    "kontor-team-2": ("kontor", {"variant": "team", "special_rules": ["free_choice"]}, 4, 40),
    "kontor-free-for-all-2": ("kontor", {"variant": "free_for_all"}, 3, 41),
    # issue 25: the free wheel games judge a draw by the card it brings
    "kontor-free-wheel-2": ("kontor", {"variant": "free_wheel"}, 2, 44),
    "kontor-free-for-all-3": ("kontor", {"variant": "free_for_all"}, 3, 44),
    "speicherstadt-1": ("speicherstadt", {}, 3, 36),
    "amsterdam-1": ("amsterdam", {"expansions": ["skilled_workers", "tasks", "black_market", "market_tiles"],
                                  "tasks": "secret3"}, 3, 37),
    # issue 25: TOM's triple and stack (solo), CB 21 to another space
    "amsterdam-2": ("amsterdam", {}, 1, 45),
}

#: records written by an earlier release's code (its record() with these arguments), kept
#: to show that games it played still verify under today's code; never re-recorded:
#: amsterdam-1-solo was written by the amsterdam-1 code (before issue 25), whose TOM
#: takes the docker of a triple's colour wherever it stands and climbs on a tile without
#: a move
EARLIER_RELEASES = {
    "amsterdam-1-solo": ("amsterdam", {}, 1, 46),
}


def record(title_id: str, raw_options: dict, seat_count: int, n: int, game_id: str | None = None) -> dict:
    """A finished game of random legal commands, as its audit record."""
    game = titles()[title_id]
    options = game.parse_options(raw_options, seat_count)
    seed, chain_key, chooser = seed_for(n), seed_for(5000 + n), Rng(seed_for(9000 + n))
    game_id = game_id or f"00000000-0000-4000-8000-{n:012d}"
    steps = [(None, None, game.start(options, seat_count, seed))]
    state = game.fold(steps[0][2])
    while not game.is_finished(state):
        seat = chooser.choice(sorted(game.to_act(state)))
        command = chooser.choice(game.legal_commands(state, seat))
        events = game.decide(state, Issued(seat, AT, command))
        state = game.fold(events, state)
        steps.append((seat, command, events))
    stored, commands, prev = [], [], genesis(game_id)
    for seat, command, events in steps:
        first = len(stored)
        for event in events:
            type_, version, data = encode_event(event)
            row = record_of(len(stored) + 1, type_, version, getattr(event, "seat", seat), AT, data)
            prev = link(prev, row, chain_key)
            stored.append(StoredEvent(row["seq"], type_, version, row["seat"], AT, data, "", prev))
        sender = {"kind": "server"} if command is None else {"kind": "player", "player_id": f"player-{seat}"}
        commands.append(StoredCommand(first, len(stored), seat, sender, AT,
                                      encode_command(command) if command is not None else None))
    when = datetime(2026, 1, 1, 12, tzinfo=UTC)
    row = Game(id=game_id, title=title_id, rules_version=game.rules_version_for(options),
               options=raw_options, status="finished", seat_count=seat_count, version=len(stored),
               to_act=(), deadline=None, result=result_json(game.result(state)),
               seed_commitment=seed_commitment(seed), seed_source="server", created_by=None,
               created_at=when, updated_at=when, chain=CHAIN_V2,
               seats=tuple(Seat(index=i, player_id=f"player-{i}", name=f"Player {i}", ai=None)
                           for i in range(seat_count)))
    return build_record(row, stored, commands, seed, chain_key, [])


if __name__ == "__main__":
    AUDIT.mkdir(exist_ok=True)
    for name in sys.argv[1:] or RECORDS:
        path = AUDIT / f"{name}.json"
        if path.exists():
            print(f"{path.name} exists: golden records are never re-recorded")
            continue
        made = record(*RECORDS[name])
        assert made["rules_version"] == name, (made["rules_version"], name)
        path.write_text(json.dumps(made, separators=(",", ":")) + "\n", encoding="utf-8")
        print(f"wrote {path.name} ({len(made['steps'])} steps)")
