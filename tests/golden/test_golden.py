"""Golden game streams, recorded once and never edited, still replay to the same end.

If this fails after a change, the change broke stored games: add an upcaster (or a new
rules_version) instead of editing the stream.
"""

from __future__ import annotations

import json

import pytest

from domain.common.envelope import decode_event
from domain.registry import titles
from tests.golden.record import HERE, view_digest

STREAM_FILES = sorted(HERE.glob("*.json"))


def test_there_are_golden_streams_for_every_title():
    recorded = {json.loads(p.read_text())["title"] for p in STREAM_FILES}
    assert recorded == set(titles())


@pytest.mark.parametrize("path", STREAM_FILES, ids=[p.stem for p in STREAM_FILES])
def test_a_golden_stream_replays_to_its_recorded_end(path):
    golden = json.loads(path.read_text(encoding="utf-8"))
    game = titles()[golden["title"]]
    state = None
    for type_name, version, data in golden["events"]:
        state = game.evolve(state, decode_event(game, type_name, version, data))
    assert game.is_finished(state)
    result = game.result(state)
    assert list(result.scores) == golden["result"]["scores"]
    assert list(result.winners) == golden["result"]["winners"]
    assert view_digest(game, state) == golden["final_view_sha256"]
