"""Verify an audit record offline: re-derive every event from the seed and the commands.

Checks, in order (docs/audit.md, "What the verifier checks"); the first that fails is
reported with its step:

1. the record is a finished game's complete record, of a title and rules version this
   code decides;
2. the seed matches its commitment (SHA-256 of its 32 bytes);
3. step by step: the step follows the previous one (no missing step or event), every
   event's chain link holds, and the events are exactly those the rules produce: the
   title's ``start`` for the setup, its ``decide`` for each recorded command (a command
   the rules refuse is reported as such), the title wrapped in the same table the server
   plays it in (domain/common/table.py), so the table's opening, timeouts, reminders,
   resignations, aborts and vacations are re-derived from their recorded commands too;
4. the recorded result follows from the final state;
5. every receipt given: signed by a listed key valid at that time, over the record's own
   chain hash at that version.

Steps whose command was not stored (games played before commands were recorded) are
checked against the chain and folded, but cannot be re-derived: the report says how many.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from domain.common.codec import CodecError
from domain.common.envelope import decode_command, decode_event, encode_event
from domain.common.table import (
    TABLE_COMMAND_NAMES,
    OpenTable,
    TableGame,
    TimeControlSet,
    VacationStarted,
    seat_table,
    table_command_from_json,
    table_command_json,
)
from domain.decider import Issued, OptionsError, RuleViolation
from domain.registry import titles
from verifier.chain import (
    CHAIN_V1,
    CHAIN_V2,
    CHAIN_V3,
    canonical_json,
    covers_steps,
    genesis,
    link,
    record_of,
    step_of,
)
from verifier.record import FORMAT, RNG, result_json


@dataclass(frozen=True)
class Failure:
    #: stable name of what failed: format, rules_version, incomplete, seed, chain, sequence,
    #: inconsistent, events, refused, result, receipt, signature
    code: str
    detail: str
    step: int | None = None


@dataclass
class Report:
    steps: int = 0
    rederived_steps: int = 0
    #: events of steps whose command was not stored: checked by the chain only
    unrederived_events: int = 0
    receipts: int = 0
    failure: Failure | None = None

    @property
    def ok(self) -> bool:
        return self.failure is None

    def summary(self) -> str:
        if self.failure is not None:
            where = f"step {self.failure.step}: " if self.failure.step is not None else ""
            return f"FAILED at {where}{self.failure.code}: {self.failure.detail}"
        receipts = f"; {self.receipts} receipt(s) match" if self.receipts else ""
        if self.unrederived_events:
            return (
                f"verified as far as possible: {self.steps} steps, {self.rederived_steps} re-derived;"
                f" {self.unrederived_events} events have no stored command (played before commands"
                f" were recorded) and were checked against the chain only{receipts}"
            )
        return f"verified: {self.steps} steps, every event re-derived{receipts}"


class _Stop(Exception):
    def __init__(self, failure: Failure):
        self.failure = failure


def verify_record(record: Mapping[str, Any], receipts: Sequence[Mapping[str, Any]] = (),
                  keys: Sequence[Mapping[str, Any]] | None = None) -> Report:
    """Verify ``record``; receipts are checked against ``keys`` (the server's published
    keys, fetched from GET /v1/keys by the auditor), or the record's own ``keys``."""
    report = Report()
    try:
        game, options, seat_count = _header(record)
        _check_seed(record)
        state = _replay(game, options, seat_count, record, report)
        _check_result(game, state, record, len(record["steps"]) - 1)
        for receipt in receipts:
            _check_receipt(record, receipt, keys if keys is not None else record.get("keys", []))
            report.receipts += 1
    except _Stop as stop:
        report.failure = stop.failure
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as err:
        # a record of the wrong shape: say so, never a traceback
        report.failure = Failure("format", f"the record is malformed ({type(err).__name__}: {err})",
                                 report.steps)
    return report


def _fail(code: str, detail: str, step: int | None = None):
    raise _Stop(Failure(code, detail, step))


def _header(record: Mapping[str, Any]) -> tuple[TableGame, Any, int]:
    if not isinstance(record, Mapping) or record.get("format") != FORMAT:
        _fail("format", f"this is not an audit record in the {FORMAT} format")
    for name in ("game_id", "title", "rules_version", "options", "seat_count", "steps", "chain", "rng"):
        if name not in record:
            _fail("format", f"the record has no {name!r}")
    if record.get("status") == "aborted":
        _fail("incomplete", "the game was aborted: it has no result, and its seed is never revealed,"
              " so there is nothing to verify")
    if not record.get("complete") or record.get("status") != "finished":
        _fail("incomplete", "the game is not over: its record is redacted until the end and cannot"
              " be verified yet")
    if record["rng"] != RNG:
        _fail("format", f"unknown random generator {record['rng']!r} (this verifier knows {RNG})")
    title = titles().get(record["title"])
    if title is None:
        _fail("format", f"unknown title {record['title']!r}")
    game = seat_table(title)  # the table the server serves every title in
    if not game.decides_version(record["rules_version"]):
        known = ", ".join(game.released_versions or (game.rules_version,))
        _fail("rules_version", f"rules version {record['rules_version']!r} is not one this verifier"
              f" decides ({known}): use the release of Entrepot that played it")
    try:
        options = game.parse_options(record["options"], record["seat_count"])
    except OptionsError as err:
        _fail("format", f"the options do not describe a game of {game.name}: {err}")
    expected = game.rules_version_for(options)
    if not game.plays_version(options, record["rules_version"]):
        _fail("rules_version", f"these options are played under {expected!r}, the record says"
              f" {record['rules_version']!r}")
    return game, options, record["seat_count"]


def _check_seed(record: Mapping[str, Any]) -> None:
    seed = record.get("seed")
    try:
        seed_bytes = bytes.fromhex(seed)
    except (TypeError, ValueError):
        _fail("seed", "the record holds no seed (64 hex digits)")
    if len(seed_bytes) != 32:
        _fail("seed", "a seed is 32 bytes (64 hex digits)")
    if hashlib.sha256(seed_bytes).hexdigest() != record.get("seed_commitment"):
        _fail("seed", "the seed does not match its commitment: SHA-256 of its 32 bytes is"
              f" {hashlib.sha256(seed_bytes).hexdigest()}, the commitment {record.get('seed_commitment')}")


class _Chain:
    """Walks the record's events in order, checking each link."""

    def __init__(self, record: Mapping[str, Any]):
        self.game_id = record["game_id"]
        self.covers_steps = covers_steps(record["chain"])
        if record["chain"] in (CHAIN_V2, CHAIN_V3):
            self.key = record.get("chain_key")
            if not isinstance(self.key, str) or len(self.key) != 64:
                _fail("chain", "a keyed chain (v2, v3) needs its chain_key (64 hex digits)")
        elif record["chain"] == CHAIN_V1:
            self.key = None
        else:
            _fail("format", f"unknown chain {record['chain']!r}")
        self.prev = genesis(self.game_id)
        self.seq = 0

    def check(self, event: Mapping[str, Any], step: int, covered: Mapping[str, Any] | None = None) -> None:
        """``covered``: the step, for its first event on a chain that covers steps (v3)."""
        if event.get("seq") != self.seq + 1:
            _fail("sequence", f"event {event.get('seq')} follows event {self.seq}: an event or a step"
                  " is missing", step)
        record = record_of(event["seq"], event["type"], event["schema_version"], event["seat"],
                           event["at"], event["data"])
        try:
            digest = link(self.prev, record, self.key,
                          step_of(covered.get("seat"), covered.get("sender"), covered.get("at"), covered.get("command"))
                          if covered is not None and self.covers_steps else None)
        except ValueError:
            _fail("chain", "the chain key is not hex", step)
        if event.get("prev_hash", self.prev) != self.prev or event.get("hash") != digest:
            _fail("chain", f"broken chain link at event {event['seq']}: its hash should be {digest},"
                  f" the record says {event.get('hash')}", step)
        self.prev, self.seq = digest, event["seq"]


def _replay(game: TableGame, options: Any, seat_count: int, record: Mapping[str, Any],
            report: Report) -> Any:
    chain = _Chain(record)
    state = None
    steps = record["steps"]
    if not isinstance(steps, list) or not steps:
        _fail("format", "the record has no steps")
    for index, step in enumerate(steps):
        events = step.get("events") or []
        if step.get("version") != chain.seq:
            _fail("sequence", f"the step starts after version {step.get('version')}, the record is at"
                  f" {chain.seq}: a step is missing", index)
        if not events:
            _fail("format", "a step with no events", index)
        _check_recorded(step, index, report, chain.covers_steps)
        for position, event in enumerate(events):
            chain.check(event, index, step if position == 0 else None)
        if step.get("hash") not in (None, chain.prev):
            _fail("chain", f"the step's hash {step.get('hash')} is not its last event's {chain.prev}", index)
        recorded = _decoded(game, events, index)
        if step.get("recorded", True) and (step["version"] == 0 or step.get("command") is not None):
            expected = _decided(game, options, seat_count, record, state, step, recorded, index)
            _compare(expected, recorded, events, step.get("seat"), index)
            report.rederived_steps += 1
        elif step["version"] == 0:  # an unrecorded setup: the start still re-derives
            expected = _setup(game, options, seat_count, record, step, recorded, index)
            _compare(expected, recorded[: len(expected)], events[: len(expected)], None, index)
            report.unrederived_events += len(events) - len(expected)
        else:
            report.unrederived_events += len(events)
        state = game.fold(recorded, state)
        report.steps += 1
    return state


def _check_recorded(step: Mapping[str, Any], index: int, report: Report, every_step_recorded: bool) -> None:
    """A step either has its command (re-derived) or is one of the unrecorded steps that
    begin an old game's history (played before commands were stored); anything else is a
    record edited to escape re-derivation (issue 26: a flipped final step, its command
    nulled, verified "as far as possible")."""
    recorded = step.get("recorded", True)
    if not isinstance(recorded, bool):
        _fail("format", "a step's recorded is true or false", index)
    if step["version"] == 0:
        return  # the setup always re-derives (from the start, and its opening when present)
    if recorded and step.get("command") is None:
        _fail("inconsistent", "the step says its command was recorded, but holds none: a complete"
              " record has the command of every recorded step", index)
    if not recorded and every_step_recorded:
        _fail("inconsistent", "on this chain (entrepot-chain-v3) every command is recorded: a step"
              " without one was cut from the record", index)
    if not recorded and report.rederived_steps > 0:
        _fail("inconsistent", "a step without a recorded command after steps with one: commands are"
              " recorded from a game's first move on, or, for a game begun before they were, from"
              " some move to its end, never with a gap", index)


def _decoded(game: TableGame, events: Iterable[Mapping[str, Any]], step: int) -> list:
    try:
        return [decode_event(game, e["type"], e["schema_version"], e["data"]) for e in events]
    except (ValueError, KeyError, TypeError) as err:
        _fail("format", f"an event cannot be read: {err}", step)


def _decided(game: TableGame, options: Any, seat_count: int, record: Mapping[str, Any],
             state: Any, step: Mapping[str, Any], recorded: Sequence[Any], index: int) -> list:
    if step["version"] == 0:
        return _setup(game, options, seat_count, record, step, recorded, index)
    return _decide(game, state, step, step["command"], index)


def _setup(game: TableGame, options: Any, seat_count: int, record: Mapping[str, Any],
           step: Mapping[str, Any], recorded: Sequence[Any], index: int) -> list:
    """The title's start, then the table's opening: its recorded command or, in records
    written before the opening was recorded, rebuilt from the setup's TimeControlSet and
    VacationStarted events (which only copy it; the clocks it starts are re-derived)."""
    if game.start_version is not None:  # the setup of the version the game was played under
        events = game.start_version(options, seat_count, record["seed"], record["rules_version"])
    else:
        events = game.start(options, seat_count, record["seed"])
    opening = step.get("command") or _opening_of(recorded)
    if opening is None:  # a game from before the table: its setup is the start alone
        return events
    return events + _decide(game, game.fold(events), step, opening, index)


def _opening_of(recorded: Sequence[Any]) -> dict | None:
    control = next((e for e in recorded if isinstance(e, TimeControlSet)), None)
    away = tuple((e.seat, e.vacation, e.until) for e in recorded if isinstance(e, VacationStarted))
    if control is None and not away:
        return None
    if control is None:
        return table_command_json(OpenTable(None, (), away))
    settings = {"per_move": control.per_move, "per_move_seconds": control.per_move_seconds,
                "on_timeout": control.on_timeout, "reminders": list(control.reminders),
                "level": control.level, "max_stand_ins": control.max_stand_ins,
                "bank_seconds": control.bank_seconds, "increment_seconds": control.increment_seconds,
                "max_bank_seconds": control.max_bank_seconds}
    return table_command_json(OpenTable(settings, control.clocked_seats, away))


def _decide(game: TableGame, state: Any, step: Mapping[str, Any], data: Any, index: int) -> list:
    """The events of one recorded command: a table command (as the record keeps it) or a
    command of the title."""
    try:
        if isinstance(data, Mapping) and data.get("type") in TABLE_COMMAND_NAMES:
            command = table_command_from_json(game.inner, data)
        else:
            command = decode_command(game, data)
    except CodecError as err:
        _fail("refused", f"the command is not a command of {game.name}: {err}", index)
    try:
        return game.decide(state, Issued(step.get("seat"), step.get("at"), command))
    except RuleViolation as err:
        _fail("refused", f"the rules refuse this command ({err.code}): {err.message}", index)


def _compare(expected: Sequence[Any], recorded: Sequence[Any], events: Sequence[Mapping[str, Any]],
             seat: int | None, step: int) -> None:
    """The recorded events (upcast to today's shapes) are exactly the expected ones."""
    if len(expected) != len(events):
        _fail("events", f"the rules produce {len(expected)} events for this step, the record holds"
              f" {len(events)}", step)
    for want, have, got in zip(expected, recorded, events):
        type_, version, data = encode_event(want)
        want_json = canonical_json([type_, version, getattr(want, "seat", seat), data])
        have_type, have_version, have_data = encode_event(have)  # upcast to today's shape
        got_json = canonical_json([have_type, have_version, got["seat"], have_data])
        if want_json != got_json:
            _fail("events", f"event {got['seq']} ({got['type']}) is not what the rules produce for"
                  f" this command and seed: expected {_short(type_, data)}", step)


def _short(type_: str, data: Any) -> str:
    text = canonical_json(data)
    return f"{type_} {text[:300]}{'...' if len(text) > 300 else ''}"


def _check_result(game: TableGame, state: Any, record: Mapping[str, Any], last_step: int) -> None:
    if not game.is_finished(state):
        _fail("result", "the record says the game is over, but its events do not end it", last_step)
    follows = result_json(game.result(state))
    recorded = record.get("result")
    if isinstance(recorded, Mapping) and isinstance(follows, dict) and "reason" not in recorded:
        follows = _older_result(follows, recorded)
    if canonical_json(follows) != canonical_json(record.get("result")):
        _fail("result", f"the recorded result {canonical_json(record.get('result'))} does not follow"
              f" from the events, which give {canonical_json(follows)}", last_step)


def _older_result(follows: dict, recorded: Mapping[str, Any]) -> dict:
    """A result in the form records had before results said why the game ended: no
    ``reason`` or ``out``, and a game won by default ``ended_by`` "forfeit" whether the
    last seat resigned or timed out."""
    older = {k: v for k, v in follows.items() if k not in ("reason", "out")}
    detail = dict(older.get("detail") or {})
    was = (recorded.get("detail") or {}).get("ended_by") if isinstance(recorded.get("detail"), Mapping) else None
    if detail.get("ended_by") in ("resigned", "timeout") and was == "forfeit":
        detail["ended_by"] = "forfeit"
        older["detail"] = detail
    return older


def _check_receipt(record: Mapping[str, Any], receipt: Mapping[str, Any],
                   keys: Sequence[Mapping[str, Any]]) -> None:
    from verifier.receipts import signature_holds  # PyNaCl only when receipts are checked

    try:
        game_id, version, hash_hex, key_id = (receipt["game_id"], receipt["version"], receipt["hash"],
                                              receipt["key_id"])
    except (KeyError, TypeError):
        _fail("receipt", "a receipt holds game_id, version, hash, key_id and signature")
    if game_id != record["game_id"]:
        _fail("receipt", f"the receipt is for game {game_id}, the record for {record['game_id']}")
    key = next((k for k in keys if k.get("key_id") == key_id), None)
    if key is None:
        _fail("signature", f"the receipt for version {version} is signed by key {key_id}, which is not"
              " among the server's published keys")
    if not signature_holds(dict(receipt), key.get("public_key", "")):
        _fail("signature", f"bad signature on the receipt for version {version}: the server did not"
              " sign it")
    event = next((e for s in record["steps"] for e in s["events"] if e["seq"] == version), None)
    if event is None:
        _fail("receipt", f"the receipt is for version {version}, the record has no such event: the"
              " history was cut after the receipt was issued")
    if event.get("hash") != hash_hex:
        _fail("receipt", f"the receipt for version {version} holds hash {hash_hex}, the record's chain"
              f" has {event.get('hash')}: the history was rewritten after the receipt was issued")
    valid_from, valid_until = key.get("valid_from"), key.get("valid_until")
    if (valid_from and event["at"] < _utc(valid_from)) or (valid_until and event["at"] >= _utc(valid_until)):
        _fail("signature", f"key {key_id} was not valid at {event['at']}, when version {version} was"
              " appended")


def _utc(stamp: str) -> str:
    """An RFC 3339 time in the chain's form (UTC, microseconds, Z), comparable as text."""
    from datetime import UTC, datetime

    from verifier.chain import format_time

    return format_time(datetime.fromisoformat(stamp.replace("Z", "+00:00")).astimezone(UTC))
