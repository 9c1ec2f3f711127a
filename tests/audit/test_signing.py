"""The receipts' signing key: configured, or generated into a private file; never in the
database (only public keys are)."""

from __future__ import annotations

import base64
import random
import stat

import pytest
from nacl.signing import SigningKey

from service.audit.signing import KeyRing, Signer, load_signing_key
from tests.audit.play import play_finished_game
from verifier.receipts import signature_holds
from verifier.verify import verify_record


def test_a_key_file_is_created_private_and_reused(tmp_path):
    path = tmp_path / "signing-key"
    first = load_signing_key(None, str(path))
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert bytes(load_signing_key(None, str(path))) == bytes(first)


def test_a_configured_key_signs_receipts_that_verify():
    seed = SigningKey.generate()
    signer = Signer(load_signing_key(base64.b64encode(bytes(seed)).decode(), None))
    receipt = signer.receipt("g", 7, "ab" * 32)
    assert signature_holds(receipt, signer.public_key)
    assert not signature_holds({**receipt, "version": 8}, signer.public_key)


def test_a_malformed_key_is_refused_clearly():
    with pytest.raises(RuntimeError, match="32 bytes in standard base64"):
        load_signing_key("not-a-key", None)


def test_no_private_key_reaches_the_database(services):
    with services.store.read() as tx:
        columns = {r[0] for r in tx.conn.execute(
            "SELECT column_name FROM information_schema.columns WHERE table_name = 'signing_keys'")}
        keys = tx.signing_keys()
    assert columns == {"key_id", "algorithm", "public_key", "valid_from", "valid_until"}
    assert services.keys.signer.public_key in {k["public_key"] for k in keys}


def test_a_retired_key_is_listed_with_its_end_and_signs_nothing_after_it(services, client):
    old = Signer(SigningKey.generate())
    ring = KeyRing(services.store, old)
    ring.register()
    assert ring.retire(old.key_id) and not ring.retire(old.key_id)
    listed = {k["key_id"]: k for k in client.get("/v1/keys").json["keys"]}
    assert listed[old.key_id]["valid_until"] is not None
    assert listed[services.keys.signer.key_id]["valid_until"] is None


def test_a_receipt_from_outside_its_keys_validity_is_refused(services):
    game_id, receipts = play_finished_game(services, "kontor", {}, 2, random.Random(9))
    record = services.audit.record(game_id)
    keys = [{**k, "valid_until": record["steps"][1]["events"][0]["at"]} for k in record["keys"]]
    report = verify_record(record, [receipts[-1]], keys)
    assert report.failure.code == "signature" and "was not valid at" in report.failure.detail
    assert verify_record(record, [receipts[-1]]).ok
