"""Schemathesis hooks for tests/e2e/test_schemathesis.py (loaded by SCHEMATHESIS_HOOKS).

A game's stream stays open up to `timeout` seconds (3600 allowed): the fuzzer may ask for
any, but waits at most a second for an answer to end."""

from __future__ import annotations

import schemathesis

LONGEST_STREAM = 1.0


@schemathesis.hook
def before_call(context, case, kwargs):
    if not case.operation.path.endswith("/stream"):
        return
    for query in (case.query, kwargs.get("params")):
        if not isinstance(query, dict):
            continue
        try:
            too_long = float(query.get("timeout", 300)) > LONGEST_STREAM
        except (TypeError, ValueError):
            continue  # not a number: the server refuses it at once
        if too_long:
            query["timeout"] = LONGEST_STREAM
