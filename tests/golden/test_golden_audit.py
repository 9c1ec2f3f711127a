"""Golden audit records, one per released rules version, recorded once and never edited,
still verify: every event re-derived by today's code under the version it was played with.

If this fails after a change, the change altered what a released version decides: keep the
released decide reachable (and list the version in the title's released_versions), or
release a new rules version and record a new golden record for it.
"""

from __future__ import annotations

import json

import pytest

from domain.registry import titles
from tests.golden.record_audit import AUDIT
from verifier.verify import verify_record

RECORD_FILES = sorted(AUDIT.glob("*.json"))


def test_every_released_rules_version_has_a_golden_record():
    recorded = {json.loads(p.read_text())["rules_version"] for p in RECORD_FILES}
    released = {v for game in titles().values() for v in (game.released_versions or (game.rules_version,))}
    assert recorded == released, (
        f"released without a golden record: {sorted(released - recorded)} (add it to RECORDS in"
        " tests/golden/record_audit.py and run python -m tests.golden.record_audit);"
        f" golden records of no released version: {sorted(recorded - released)}")


@pytest.mark.parametrize("path", RECORD_FILES, ids=[p.stem for p in RECORD_FILES])
def test_a_golden_record_still_verifies(path):
    record = json.loads(path.read_text(encoding="utf-8"))
    report = verify_record(record)
    assert report.summary() == f"verified: {len(record['steps'])} steps, every event re-derived"
