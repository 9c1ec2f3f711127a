"""Games whose stream holds the table's events (timeouts, reminders, resignations, an
abort) verify offline: the verifier wraps the title in the same table as the server and
re-derives those events from their recorded commands. Real PostgreSQL through the one
write path; time is moved by hand (the service's Clock port is a FixedClock)."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from service.clock import FixedClock
from service.games.service import SeatRequest
from service.job_queue import RecordingJobQueue
from service.runtime.container import build
from service.runtime.entry import main as entrepot
from tests.audit.test_tampering import failure_of, rechain
from verifier.chain import CHAIN_V2
from verifier.verify import verify_record

START = datetime(2031, 3, 2, 8, 0, tzinfo=UTC)


@pytest.fixture(scope="module")
def clock():
    return FixedClock(START)


@pytest.fixture(scope="module")
def svc(settings, clock):
    services = build(replace(settings, timer_grace_seconds=0.0), clock=clock, jobs=RecordingJobQueue())
    yield services
    services.close()


def new_game(svc, title, n, time_control=None, options=None):
    people = [svc.players.create(f"T{i}", None).player for i in range(n)]
    snapshot = svc.games.create(people[0], title, options or ({"variant": "basic"} if title == "kontor" else {}),
                                [SeatRequest(player_id=p.id) for p in people], time_control=time_control)
    for index, person in enumerate(people[1:], start=1):
        svc.games.accept(person, snapshot.game.id, index)
    return snapshot.game.id, people


def row(svc, game_id):
    with svc.store.read() as tx:
        return tx.game(game_id)


def play_one(svc, game_id, people, rng):
    game = row(svc, game_id)
    seat = rng.choice(sorted(game.to_act))
    legal = svc.games.legal_commands(game_id, people[seat], seat)
    svc.games.execute(people[seat], game_id, seat, rng.choice(legal.commands), legal.version)


def time_out(svc, clock, game_id, per_move: timedelta) -> None:
    """Run the table's timers at 90% of the move's time (its reminders) and at the deadline
    (the timeout)."""
    clock.at += per_move * 0.9
    assert svc.clocks.run_timer(game_id, row(svc, game_id).version) == "Remind"
    while svc.clocks.run_timer(game_id, row(svc, game_id).version) == "Remind":  # a second seat's
        pass
    clock.at += per_move * 0.1
    assert svc.clocks.run_timer(game_id, row(svc, game_id).version) == "TimeOut"


def steps_of(record, event_type):
    return [i for i, s in enumerate(record["steps"]) if any(e["type"] == event_type for e in s["events"])]


@pytest.fixture(scope="module")
def computer_timeout(svc, clock):
    """A Kontor game on a one-hour clock where the computer moved once for a late seat
    (after a reminder), played to its end."""
    game_id, people = new_game(svc, "kontor", 2, {"per_move": "PT1H", "on_timeout": "computer"})
    rng = random.Random(3)
    play_one(svc, game_id, people, rng)
    time_out(svc, clock, game_id, timedelta(hours=1))
    [late] = row(svc, game_id).to_act  # its move is owed: the computers' queue's job makes it
    assert svc.games.play_computer(game_id, row(svc, game_id).version, late) == "played"
    for _ in range(3000):
        if row(svc, game_id).status == "finished":
            return svc.audit.record(game_id)
        play_one(svc, game_id, people, rng)
    raise AssertionError("the game did not end")


@pytest.fixture(scope="module")
def forfeit(svc, clock):
    game_id, people = new_game(svc, "speicherstadt", 2, {"per_move": "PT2H", "on_timeout": "forfeit"})
    play_one(svc, game_id, people, random.Random(4))
    time_out(svc, clock, game_id, timedelta(hours=2))
    assert row(svc, game_id).status == "finished"
    return svc.audit.record(game_id)


@pytest.fixture(scope="module")
def resigned(svc):
    """Three seats without a clock: two resign, the last one in wins."""
    game_id, people = new_game(svc, "speicherstadt", 3)
    svc.clocks.resign(people[2], game_id, None)
    svc.clocks.resign(people[1], game_id, None)
    assert row(svc, game_id).status == "finished"
    return svc.audit.record(game_id)


def assert_verifies(record):
    report = verify_record(record)
    assert report.ok, report.summary()
    assert report.summary() == f"verified: {len(record['steps'])} steps, every event re-derived"
    assert report.rederived_steps == len(record["steps"])


def test_a_game_where_the_computer_moved_for_a_late_seat_verifies(computer_timeout):
    record = computer_timeout
    assert_verifies(record)
    types = [e["type"] for s in record["steps"] for e in s["events"]]
    assert {"TimeControlSet", "ClockStarted", "ReminderSent", "TimedOut"} <= set(types)
    index = steps_of(record, "TimedOut")[0]
    timeout, move = record["steps"][index], record["steps"][index + 1]
    assert timeout["sender"] == {"kind": "clock"} and timeout["command"]["type"] == "TimeOut"
    assert [e["type"] for e in timeout["events"]] == ["TimedOut"] and "move" not in timeout["command"]
    # the computer's move for the late seat, next: re-decided by the verifier
    assert move["sender"]["kind"] == "computer" and move["command"]["type"] == "StandIn"
    assert move["command"]["seat"] == timeout["events"][0]["data"]["seat"]
    assert record["steps"][0]["command"]["type"] == "OpenTable"


def test_a_game_lost_on_time_verifies(forfeit):
    assert_verifies(forfeit)
    last = forfeit["steps"][-1]
    assert [e["type"] for e in last["events"]] == ["TimedOut", "SeatOut", "WonByDefault"]
    assert last["sender"] == {"kind": "clock"}
    assert forfeit["result"]["detail"]["ended_by"] == "timeout" and forfeit["result"]["reason"] == "timeout"


def test_a_resigned_game_verifies(resigned):
    assert_verifies(resigned)
    assert [s["command"]["type"] for s in resigned["steps"][1:]] == ["Resign", "Resign"]
    assert resigned["result"]["winners"] == [0]


def test_entrepot_verify_checks_a_game_lost_on_time(forfeit, tmp_path, capsys):
    path = tmp_path / "record.json"
    path.write_text(json.dumps(forfeit))
    assert entrepot(["verify", str(path)]) == 0
    assert capsys.readouterr().out.strip() == f"verified: {len(forfeit['steps'])} steps, every event re-derived"


def test_a_record_from_before_the_opening_was_recorded_still_verifies(computer_timeout):
    """Records written before the setup kept the table's opening as its command: the
    opening is rebuilt from the setup's TimeControlSet, and the clocks are re-derived."""
    old = json.loads(json.dumps(computer_timeout))
    old["steps"][0]["command"] = None
    old["chain"] = CHAIN_V2  # such records are older than the chain that covers commands
    assert_verifies(rechain(old))


def test_an_aborted_game_is_not_verifiable_and_says_why(svc, tmp_path, capsys):
    game_id, people = new_game(svc, "kontor", 2, {"per_move": "P1D", "on_timeout": "forfeit"})
    svc.clocks.abort(people[1], game_id, None)
    record = svc.audit.record(game_id)
    assert record["status"] == "aborted"
    failure = failure_of(record)
    assert failure.code == "incomplete" and "aborted" in failure.detail
    path = tmp_path / "aborted.json"
    path.write_text(json.dumps(record))
    assert entrepot(["verify", str(path)]) == 1
    assert capsys.readouterr().out.strip() == (
        "FAILED at incomplete: the game was aborted: it has no result, and its seed is never"
        " revealed, so there is nothing to verify")


@pytest.mark.parametrize("change", [
    lambda data: data.update(on_timeout="forfeit"),
    lambda data: data.update(deadline="2031-03-02T07:00:00.000000Z"),
], ids=["action", "deadline"])
def test_a_forged_timeout_is_caught(computer_timeout, change):
    record = json.loads(json.dumps(computer_timeout))
    index = steps_of(record, "TimedOut")[0]
    event = next(e for e in record["steps"][index]["events"] if e["type"] == "TimedOut")
    change(event["data"])
    failure = failure_of(rechain(record))  # even by someone holding the chain key
    assert (failure.code, failure.step) == ("events", index)
    assert failure.detail.startswith(f"event {event['seq']} (TimedOut) is not what the rules produce")


def test_a_forged_resignation_is_caught(resigned):
    record = json.loads(json.dumps(resigned))
    index = steps_of(record, "Resigned")[0]
    event = record["steps"][index]["events"][0]
    event["data"]["seat"] = 0  # someone else resigned
    failure = failure_of(rechain(record))
    assert (failure.code, failure.step) == ("events", index)
    assert failure.detail.startswith(f"event {event['seq']} (Resigned) is not what the rules produce")


def test_a_timeout_the_deadline_did_not_allow_is_refused(forfeit):
    """The timer's command moved earlier than its deadline: the table refuses it."""
    record = json.loads(json.dumps(forfeit))
    last = record["steps"][-1]
    last["at"] = record["steps"][-2]["at"]
    failure = failure_of(rechain(record))  # with the chain key: the chain covers the time (v3)
    assert (failure.code, failure.step) == ("refused", len(record["steps"]) - 1)
    assert "clock.not_due" in failure.detail


def test_a_game_the_computer_finished_for_a_resigned_seat_verifies(svc):
    """A seat resigns; the computer stands in for it (``StandIn``) to the end."""
    game_id, people = new_game(svc, "speicherstadt", 3)
    svc.clocks.resign(people[2], game_id, None)
    rng = random.Random(6)
    for _ in range(3000):
        game = row(svc, game_id)
        if game.status == "finished":
            break
        seat = rng.choice(sorted(game.to_act))
        if seat == 2:
            assert svc.games.play_computer(game_id, game.version, seat) == "played"
        else:
            legal = svc.games.legal_commands(game_id, people[seat], seat)
            svc.games.execute(people[seat], game_id, seat, rng.choice(legal.commands), legal.version)
    record = svc.audit.record(game_id)
    assert record["status"] == "finished"
    assert_verifies(record)
    stand_ins = [s for s in record["steps"] if s["command"] and s["command"]["type"] == "StandIn"]
    assert stand_ins and all(s["sender"]["kind"] == "computer" and s["seat"] == 2 for s in stand_ins)


def test_a_record_from_before_results_said_why_still_verifies_and_a_changed_reason_does_not(forfeit):
    """Records written before ``result.reason`` and ``result.out`` (and before ``ended_by``
    told a timeout from a resignation) still verify; a new record whose reason is changed
    does not."""
    old = json.loads(json.dumps(forfeit))
    del old["result"]["reason"], old["result"]["out"]
    old["result"]["detail"]["ended_by"] = "forfeit"
    assert_verifies(old)
    forged = json.loads(json.dumps(forfeit))
    forged["result"]["reason"] = "resigned"
    assert failure_of(forged).code == "result"
