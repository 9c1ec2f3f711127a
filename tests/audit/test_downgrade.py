"""Issue 26, items 2 and 3: the verifier cannot be downgraded, and a step's sender and time
are covered by the chain.

The attack (item 2): edit the last step, null its command (or mark it not recorded),
re-chain with the record's own chain key, recompute the result: the old verifier said
"verified as far as possible" and exited 0. Item 3: a step's sender and time could change
and the record still verified, with every receipt matching. Records come from games played
through the real service on PostgreSQL (a computer makes the last move of one, so no
receipt covers it); old records (the v2 golden records) still verify under their chain."""

from __future__ import annotations

import copy
import json
import random

import pytest

from service.runtime.entry import main as entrepot
from tests.audit.play import play_finished_game
from tests.audit.test_tampering import failure_of, rechain
from tests.conftest import ROOT
from verifier.chain import CHAIN_V2, CHAIN_V3
from verifier.verify import verify_record

GOLDEN = sorted((ROOT / "tests" / "golden" / "audit").glob("*.json"))


@pytest.fixture(scope="module")
def against_computer(services):
    """(record, receipts) of a finished Kontor game of a person against the computer."""
    game_id, receipts = play_finished_game(services, "kontor", {"variant": "basic"}, 2, random.Random(26),
                                           computer_seats=(1,))
    record = services.audit.record(game_id)
    assert record["chain"] == CHAIN_V3 and verify_record(record, receipts).ok
    return record, receipts


def last_step(record: dict) -> dict:
    return record["steps"][-1]


@pytest.mark.parametrize("downgrade", [
    lambda step: step.update(command=None),
    lambda step: step.update(command=None, recorded=False),
    lambda step: step.update(recorded=False),
], ids=["command-nulled", "not-recorded", "recorded-false"])
def test_a_step_escaping_re_derivation_is_refused(against_computer, downgrade, tmp_path, capsys):
    record = copy.deepcopy(against_computer[0])
    downgrade(last_step(record))
    forged = rechain(record)  # the attacker holds the chain key (published at the end)
    failure = failure_of(forged, against_computer[1])
    assert (failure.code, failure.step) == ("inconsistent", len(record["steps"]) - 1)
    path = tmp_path / "forged.json"
    path.write_text(json.dumps(forged))
    assert entrepot(["verify", str(path)]) == 1
    assert "inconsistent" in capsys.readouterr().out


def test_a_whole_record_marked_unrecorded_is_refused_on_the_chain_that_records_commands(against_computer):
    record = copy.deepcopy(against_computer[0])
    for step in record["steps"][1:]:
        step.update(command=None, recorded=False)
    failure = failure_of(rechain(record))
    assert (failure.code, failure.step) == ("inconsistent", 1)
    assert "entrepot-chain-v3" in failure.detail


@pytest.mark.parametrize("path", GOLDEN[:3], ids=lambda p: p.stem)
def test_an_old_record_is_refused_a_gap_but_still_verifies_as_it_was(path):
    record = json.loads(path.read_text(encoding="utf-8"))
    assert record["chain"] == CHAIN_V2 and verify_record(record).ok  # old records verify under their chain
    # an old game begun before commands were recorded: a prefix without them verifies
    prefix = copy.deepcopy(record)
    for step in prefix["steps"][:4]:
        step.update(command=None, recorded=False, seat=None, sender=None, at=None)
    report = verify_record(prefix)
    assert report.ok and report.summary().startswith("verified as far as possible"), report.summary()
    # the downgrade of its last step is refused (a v2 chain does not cover the command)
    forged = copy.deepcopy(record)
    last_step(forged).update(command=None, recorded=False)
    assert (failure_of(forged).code, failure_of(forged).step) == ("inconsistent", len(forged["steps"]) - 1)


@pytest.mark.parametrize("field, value", [
    ("sender", {"kind": "player", "player_id": "00000000-0000-0000-0000-000000000000"}),
    ("at", "2030-01-01T00:00:00.000000Z"),
], ids=["sender", "at"])
def test_a_changed_sender_or_time_breaks_the_chain_and_every_later_receipt(against_computer, field, value):
    record, receipts = against_computer
    tampered = copy.deepcopy(record)
    index = next(i for i, s in enumerate(tampered["steps"]) if i and s["sender"]["kind"] == "player")
    tampered["steps"][index][field] = value
    failure = failure_of(tampered)
    assert (failure.code, failure.step) == ("chain", index)
    # re-chained with the key: it hangs together, but no receipt issued after that step matches
    rechained = rechain(copy.deepcopy(tampered))
    later = [r for r in receipts if r["version"] > tampered["steps"][index]["version"]]
    assert later
    failure = failure_of(rechained, [later[0]])
    assert failure.code == "receipt" and "rewritten after the receipt was issued" in failure.detail
