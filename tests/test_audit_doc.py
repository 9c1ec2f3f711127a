"""docs/audit.md's worked example holds: every value it quotes is what the record, the
chain, the commitment and the receipt definitions give, and its commands print what it says."""

from __future__ import annotations

import base64
import hashlib
import json
import re

from service.runtime.entry import main as entrepot
from tests.conftest import ROOT
from verifier.chain import canonical_json, genesis, link, record_of
from verifier.receipts import key_id, receipt_message

DOC = (ROOT / "docs" / "audit.md").read_text(encoding="utf-8")
RECORD_PATH = ROOT / "tests" / "golden" / "audit" / "kontor-basic-1.json"
RECORD = json.loads(RECORD_PATH.read_text(encoding="utf-8"))
EXAMPLE = DOC[DOC.index("## Worked example"):]


def json_blocks() -> list[dict]:
    return [json.loads(block) for block in re.findall(r"```json\n(.*?)\n```", EXAMPLE, re.S)]


def test_the_quoted_values_are_what_the_definitions_give():
    seed_commitment = hashlib.sha256(bytes.fromhex(RECORD["seed"])).hexdigest()
    first, second = RECORD["steps"][0]["events"][0], RECORD["steps"][1]["events"][0]
    record = record_of(second["seq"], second["type"], second["schema_version"], second["seat"],
                       second["at"], second["data"])
    quoted = [RECORD["game_id"], RECORD["seed"], RECORD["chain_key"], seed_commitment,
              genesis(RECORD["game_id"]), first["hash"], canonical_json(record),
              link(first["hash"], record, RECORD["chain_key"]), str(len(RECORD["steps"]))]
    assert all(value in EXAMPLE for value in quoted), [v for v in quoted if v not in EXAMPLE]
    assert seed_commitment == RECORD["seed_commitment"] and link(first["hash"], record, RECORD["chain_key"]) == second["hash"]
    assert RECORD["steps"][1]["command"] == {"type": "ChooseCard", "card": 36}
    message = receipt_message(RECORD["game_id"], 2, second["hash"]).decode()
    assert message in EXAMPLE.replace("\n    ", "\n")


def test_the_example_receipt_verifies_with_the_example_key(tmp_path, capsys):
    key, receipt = json_blocks()
    assert key["key_id"] == key_id(base64.b64decode(key["public_key"]))
    (tmp_path / "key.json").write_text(json.dumps(key))
    (tmp_path / "receipt.json").write_text(json.dumps(receipt))
    assert entrepot(["verify", str(RECORD_PATH), "--receipt", str(tmp_path / "receipt.json"),
                     "--keys", str(tmp_path / "key.json")]) == 0
    printed = capsys.readouterr().out.strip()
    assert printed == "verified: 62 steps, every event re-derived; 1 receipt(s) match" and f"`{printed}`" in DOC
    assert entrepot(["verify", str(RECORD_PATH)]) == 0
    printed = capsys.readouterr().out.strip()
    assert f"`{printed}`" in DOC
