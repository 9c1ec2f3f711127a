"""The event store reads json/jsonb values with orjson (service/games/store.py's json_loads):
the values must be exactly those the standard library reads, types included."""

from __future__ import annotations

import json
import random

import pytest

from service.games.store import json_loads

EDGES = [
    b'{"a": 1, "b": [1.5, -0.0, 1e308, 5e-324, 0.1]}',
    b"12345678901234567890123",  # past 64 bits: an exact int, never a float
    b"9223372036854775807",
    b"-9223372036854775808",
    b"18446744073709551616",
    b'{"seed": 123456789012345678901234567890, "n": 1}',
    b'{"x": NaN, "y": Infinity}',  # not JSON, but json.loads reads it
    b'{"a": 1, "a": 2}',
    b'"\\u00e9\\ud83d\\ude00"',
    b'{"s": "\\ud800"}',  # a lone surrogate
    b"[" * 100 + b"]" * 100,  # nested
    b"[]",
    b"null",
]


@pytest.mark.parametrize("text", EDGES, ids=range(len(EDGES)))
def test_the_same_values_and_types_as_the_standard_library(text):
    ours, theirs = json_loads(text), json.loads(text)
    assert json.dumps(ours) == json.dumps(theirs)
    assert _types(ours) == _types(theirs)


def test_numbers_read_as_the_standard_library_reads_them():
    rng = random.Random(24)
    for _ in range(20_000):
        pick = rng.random()
        if pick < 0.3:
            text = repr(rng.uniform(-1e6, 1e6))
        elif pick < 0.6:
            text = f"{rng.uniform(-1, 1) * 10 ** rng.randint(-300, 300):.{rng.randint(0, 18)}e}"
        else:
            text = str(rng.randint(-10**25, 10**25))
        ours, theirs = json_loads(text.encode()), json.loads(text)
        assert (ours, type(ours)) == (theirs, type(theirs)), text


def test_invalid_json_is_refused_as_before():
    with pytest.raises(json.JSONDecodeError):
        json_loads(b'{"a": }')


def _types(value):
    if isinstance(value, dict):
        return {k: _types(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_types(v) for v in value]
    return type(value).__name__

