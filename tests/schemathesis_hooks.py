"""Schemathesis hooks for tests/e2e/test_schemathesis.py (loaded by SCHEMATHESIS_HOOKS).

- A game's stream stays open up to `timeout` seconds (3600 allowed): the fuzzer may ask for
  any, but waits at most a second for an answer to end.
- In the stateful phase each request gets an Idempotency-Key of its own, as a client's
  distinct requests do: generated keys repeat ("0", "a"...) across different bodies, which
  is answered 422 `idempotency_key_reused`, and no scenario would get past creating a game.
- In the stateful phase a new game is one the rules accept (the caller and an open seat;
  ENTREPOT_FUZZ_PLAYER_ID names the caller): a body that fits the schema rarely fits a
  title's rules (seat counts, options), and the phase is there to follow the links from a
  created game to the routes that read and play it. Bodies are fuzzed in the fuzzing phase."""

from __future__ import annotations

import os
import uuid
from collections.abc import MutableMapping

import schemathesis

LONGEST_STREAM = 1.0


@schemathesis.hook
def before_call(context, case, kwargs):
    if _phase(case) == "stateful":
        for headers in (case.headers, kwargs.get("headers")):
            if isinstance(headers, MutableMapping) and "Idempotency-Key" in headers:
                headers["Idempotency-Key"] = uuid.uuid4().hex
        if case.method.upper() == "POST" and case.operation.path == "/v1/games":
            case.body = {"title": "kontor", "seats": [
                {"player_id": os.environ["ENTREPOT_FUZZ_PLAYER_ID"]}, {"open": True}]}
    if case.operation.path.endswith("/stream"):
        _bound_stream(case, kwargs)


def _phase(case) -> str | None:
    phase = getattr(getattr(case, "meta", None), "phase", None)
    name = getattr(phase, "name", None)
    return getattr(name, "value", name)  # an enum in some versions


def _bound_stream(case, kwargs) -> None:
    for query in (case.query, kwargs.get("params")):
        if not isinstance(query, MutableMapping):
            continue
        try:
            too_long = float(query.get("timeout", 300)) > LONGEST_STREAM
        except (TypeError, ValueError):
            continue  # not a number: the server refuses it at once
        if too_long:
            query["timeout"] = LONGEST_STREAM
