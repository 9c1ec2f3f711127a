"""The event store reads json/jsonb values with orjson (service/games/store.py's json_loads):
the values must be exactly those the standard library reads, types included."""

from __future__ import annotations

import json
import random

import psycopg
import pytest
from psycopg.types.json import Jsonb

from service.games.store import json_dumps, json_loads

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


# writing: jsonb parameters are dumped with orjson (json_dumps); PostgreSQL must hold the
# same jsonb value as it held from the standard library's text, and refuse what it refused

DUMPED = [
    {"a": 1, "b": [1.5, -0.0, 1e308, 5e-324, 0.1, 1e16, 123456789.125]},
    {"seed": 123456789012345678901234567890},  # past 64 bits: orjson refuses, json writes it
    {"n": 9223372036854775807, "m": -9223372036854775808},
    {1: "int key", "s": "é😀 \u2028 \" \\ \n"},  # a key that is not a string: json's way
    {"nested": [[[{"x": None, "t": True, "f": False}]]]},
    ("a", "tuple"),
    "nullable, not null",
    [],
    None,
]


@pytest.fixture
def conn(database_url):
    with psycopg.connect(database_url, autocommit=True) as conn:
        yield conn


@pytest.mark.parametrize("value", DUMPED, ids=range(len(DUMPED)))
def test_written_as_the_same_jsonb_value_as_the_standard_library_writes(conn, value):
    same = conn.execute("SELECT %s::jsonb = %s::jsonb, %s::jsonb::text",
                        (Jsonb(value, dumps=json_dumps), Jsonb(value, dumps=json.dumps),
                         Jsonb(value, dumps=json_dumps))).fetchone()
    assert same[0], same[1]


@pytest.mark.parametrize("value", [{"x": float("nan")}, [float("inf")], {"s": "\ud800"}, {"d": {1, 2}}])
def test_what_the_standard_library_could_not_store_is_still_refused(conn, value):
    """orjson writes NaN as null: json_dumps leaves it to json.dumps, and PostgreSQL refuses
    the NaN; a lone surrogate and a set are refused as before."""
    with pytest.raises((psycopg.DataError, TypeError, ValueError, UnicodeEncodeError)) as ours:
        conn.execute("SELECT %s::jsonb", (Jsonb(value, dumps=json_dumps),))
    with pytest.raises((psycopg.DataError, TypeError, ValueError, UnicodeEncodeError)) as theirs:
        conn.execute("SELECT %s::jsonb", (Jsonb(value, dumps=json.dumps),))
    assert type(ours.value) is type(theirs.value)


def test_random_numbers_are_written_as_the_standard_library_writes_them(conn):
    rng = random.Random(32)
    values = [rng.choice([rng.uniform(-1e6, 1e6), rng.uniform(-1, 1) * 10 ** rng.randint(-300, 300),
                          rng.randint(-2**63, 2**63 - 1)]) for _ in range(2000)]
    equal = conn.execute("SELECT %s::jsonb = %s::jsonb", (Jsonb(values, dumps=json_dumps),
                                                          Jsonb(values, dumps=json.dumps))).fetchone()[0]
    assert equal
