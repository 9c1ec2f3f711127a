"""Every kind of tampering with a finished game's audit record is caught, with the right
message (issue 15), for every title: records come from games played through the real
service on PostgreSQL, receipts from its command responses."""

from __future__ import annotations

import base64
import copy
import random

import pytest
from nacl.signing import SigningKey

from domain.registry import titles
from service.audit.service import build_record
from tests.api.seating import accept_invitations
from tests.audit.play import forms, play_finished_game
from verifier.chain import CHAIN_V1, CHAIN_V2, covers_steps, genesis, link, record_of, step_of
from verifier.receipts import receipt_message
from verifier.verify import verify_record

TITLES = sorted(titles())


@pytest.fixture(scope="module", params=TITLES)
def finished(request, services):
    """(record, receipts) of one finished game of the title's first form."""
    raw, seats = next(forms(titles()[request.param]))
    game_id, receipts = play_finished_game(services, request.param, raw, seats, random.Random(request.param))
    return services.audit.record(game_id), receipts


def rechain(record: dict, key: str | None = None) -> dict:
    """Recompute every hash, as whoever edits a record with the chain key would (a v1
    chain has no key)."""
    record["chain_key"] = key = None if record["chain"] == CHAIN_V1 else key or record["chain_key"]
    prev = genesis(record["game_id"])
    for step in record["steps"]:
        for position, e in enumerate(step["events"]):
            covered = (step_of(step["seat"], step["sender"], step["at"], step["command"])
                       if position == 0 and covers_steps(record["chain"]) else None)
            e["hash"] = prev = link(prev, record_of(e["seq"], e["type"], e["schema_version"], e["seat"],
                                                    e["at"], e["data"]), key, covered)
        step["hash"] = prev
    return record


def failure_of(record: dict, receipts=()):
    report = verify_record(record, receipts)
    assert not report.ok, "the tampering went unnoticed"
    return report.failure


def middle_step(record: dict) -> int:
    return len(record["steps"]) // 2


def first_int_field(data: dict) -> str:
    return next(k for k, v in data.items() if isinstance(v, int) and not isinstance(v, bool))


def test_the_untouched_record_verifies(finished):
    record, receipts = finished
    report = verify_record(record, receipts)
    assert report.ok and report.summary().startswith(f"verified: {len(record['steps'])} steps")


def edit_an_event(record: dict) -> int:
    index = next(i for i in range(middle_step(record), len(record["steps"]))
                 if any(isinstance(v, int) and not isinstance(v, bool)
                        for v in record["steps"][i]["events"][0]["data"].values()))
    data = record["steps"][index]["events"][0]["data"]
    data[first_int_field(data)] += 1
    return index


def test_an_edited_event_breaks_the_chain(finished):
    record = copy.deepcopy(finished[0])
    index = edit_an_event(record)
    failure = failure_of(record)
    assert (failure.code, failure.step) == ("chain", index)
    assert "broken chain link" in failure.detail


def test_an_edited_event_with_a_recomputed_chain_is_not_what_the_rules_produce(finished):
    record = copy.deepcopy(finished[0])
    index = edit_an_event(record)
    failure = failure_of(rechain(record))
    assert (failure.code, failure.step) == ("events", index)
    assert "is not what the rules produce for this command and seed" in failure.detail


def test_a_swapped_draw_is_caught(finished):
    """Two drawn cards (the first list of distinct values in an event, e.g. a deal or a
    deck) change places, and the chain is recomputed."""
    record = copy.deepcopy(finished[0])
    index, data, name = next((i, e["data"], k) for i, step in enumerate(record["steps"])
                             for e in step["events"] for k, v in e["data"].items()
                             if isinstance(v, list) and len(v) >= 2 and v[0] != v[1])
    data[name][0], data[name][1] = data[name][1], data[name][0]
    failure = failure_of(rechain(record))
    assert (failure.code, failure.step) == ("events", index)


def test_a_changed_seed_does_not_match_its_commitment(finished):
    record = copy.deepcopy(finished[0])
    record["seed"] = "%064x" % (int(record["seed"], 16) ^ 1)
    failure = failure_of(record)
    assert failure.code == "seed" and "does not match its commitment" in failure.detail


def test_a_dropped_step_is_caught(finished):
    record = copy.deepcopy(finished[0])
    index = middle_step(record)
    del record["steps"][index]
    failure = failure_of(record)
    assert (failure.code, failure.step) == ("sequence", index)
    assert "missing" in failure.detail


def test_a_changed_command_is_refused_or_produces_other_events(finished):
    record = copy.deepcopy(finished[0])
    index = middle_step(record)
    steps = record["steps"]
    other = next(s["command"] for s in steps[index + 1:] + steps[1:index]
                 if s["command"] != steps[index]["command"])
    steps[index]["command"] = other
    assert failure_of(copy.deepcopy(record)).code == "chain"  # v3 covers the command
    failure = failure_of(rechain(record))  # rechained with the key: re-derivation catches it
    assert failure.step == index and failure.code in ("refused", "events")
    # refused, other events, or (another seed's game, another move) another number of them
    assert any(said in failure.detail for said in (
        "the rules refuse this command", "not what the rules produce", "events for this step, the record holds"))


def test_a_result_that_does_not_follow_is_caught(finished):
    record = copy.deepcopy(finished[0])
    record["result"]["winners"] = [w for w in range(record["seat_count"]) if w not in record["result"]["winners"]]
    failure = failure_of(record)
    assert failure.code == "result" and "does not follow from the events" in failure.detail


def test_a_forged_receipt_has_a_bad_signature(finished):
    record, receipts = finished
    forged = {**receipts[0], "hash": receipts[1]["hash"]}  # another version's hash, same signature
    failure = failure_of(record, [forged])
    assert failure.code == "signature" and "bad signature" in failure.detail
    # signed by someone else's key under the server's key id
    impostor = SigningKey.generate()
    signature = impostor.sign(receipt_message(record["game_id"], receipts[0]["version"], receipts[0]["hash"]))
    forged = {**receipts[0], "signature": base64.b64encode(signature.signature).decode()}
    assert failure_of(record, [forged]).code == "signature"


def test_a_history_rewritten_after_a_receipt_is_caught_by_the_receipt(finished):
    """The server rewrites the history under a new chain key: the record verifies on its
    own, but not against a receipt kept from before."""
    record, receipts = finished
    rewritten = rechain(copy.deepcopy(record), key="11" * 32)
    assert verify_record(rewritten).ok
    failure = failure_of(rewritten, [receipts[-1]])
    assert failure.code == "receipt" and "rewritten after the receipt was issued" in failure.detail


def test_an_unknown_rules_version_is_refused_clearly(finished):
    record = copy.deepcopy(finished[0])
    record["rules_version"] = record["title"] + "-from-the-future-9"
    failure = failure_of(record)
    assert failure.code == "rules_version" and "is not one this verifier decides" in failure.detail


def test_a_game_without_stored_commands_verifies_as_far_as_it_can(services, finished):
    """Games played before commands were stored: the chain, the seed, the setup and the
    result are still checked, and the report says what could not be."""
    record = finished[0]
    with services.store.read() as tx:
        game = tx.game(record["game_id"])
        events = tx.events(game.id)
        seed, key = tx.secrets(game.id)
        commands = tx.commands(game.id)
    # such games are on the v1 or v2 chain (v3 records every command: tests/audit/test_downgrade.py)
    old = rechain({**build_record(game, events, [], seed, key, []), "chain": CHAIN_V2})
    assert old["checkable"]["events"] is False and not any(s["recorded"] for s in old["steps"])
    report = verify_record(old)
    assert report.ok and report.summary().startswith("verified as far as possible")
    assert "have no stored command" in report.summary()
    # a game that was running when commands began to be stored: the later steps re-derive
    later = [c for c in commands if c.version >= commands[len(commands) // 2].version]
    partly = verify_record(rechain({**build_record(game, events, later, seed, key, []), "chain": CHAIN_V2}))
    assert partly.ok and partly.rederived_steps == len(later)
    # and tampering with the part that can be checked is still caught
    old["seed"] = "00" * 32
    assert failure_of(old).code == "seed"


def test_a_running_game_cannot_be_verified_yet(client, new_player):
    red, black = new_player("Red"), new_player("Black")
    game = accept_invitations(client, client.post("/v1/games", token=red["token"], json={
        "title": "kontor", "seats": [{"player_id": red["id"]}, {"player_id": black["id"]}]}).json, [black])
    assert game["status"] == "active"
    failure = failure_of(client.get(f"/v1/games/{game['id']}/export").json)
    assert failure.code == "incomplete"


@pytest.mark.parametrize("mangle", [
    lambda r: r.clear(),
    lambda r: r["steps"][2]["events"][0].pop("data"),
    lambda r: r["steps"].__setitem__(1, "not a step"),
    lambda r: r.__setitem__("seat_count", "two"),
])
def test_a_malformed_record_is_reported_not_raised(finished, mangle):
    record = copy.deepcopy(finished[0])
    mangle(record)
    assert failure_of(record).code == "format"


def test_a_game_on_the_v1_chain_verifies_and_is_checked_alike(finished):
    """Games created before keyed chains: the same checks, with unkeyed links."""
    record = copy.deepcopy(finished[0])
    record["chain"] = CHAIN_V1
    assert failure_of(record).code == "chain"  # v2 hashes are not v1 links
    report = verify_record(rechain(record))
    assert report.ok and report.summary().startswith(f"verified: {len(record['steps'])} steps")
    index = edit_an_event(record)
    assert (failure_of(record).code, failure_of(record).step) == ("chain", index)
