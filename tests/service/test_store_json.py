"""The event store reads and writes json/jsonb values with orjson (service/games/store.py's
json_loads and json_dumps): the values must be exactly those the standard library reads,
types included, and PostgreSQL must keep the same values for what either writes."""

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


class _Name(str):
    """A subclass of str: orjson passes it to the standard library."""


WRITTEN = [
    {"type": "CardPlaced", "seat": 1, "x": -2, "y": 0, "card": {"id": 66, "goods": ["florin", None]}},
    {"scores": [1.5, -0.0, 1e308, 5e-324, 0.1, 1e16, 12345678.9]},
    {"name": "Zoë \u2028 \U0001f600 \\ \" \t \x7f"},
    {"seed": 123456789012345678901234567890},  # past 64 bits: orjson refuses, json writes it
    {1: "one", "2": "two"},  # a key that is not a string: json writes it as one
    {"name": _Name("Zoë")},
    (1, 2, [3, (4,)]),
    [],
    {},
    None,
    True,
    "text",
    -9223372036854775808,
]


@pytest.mark.parametrize("value", WRITTEN, ids=range(len(WRITTEN)))
def test_postgresql_keeps_the_values_the_standard_library_wrote(database_url, value):
    """Each value written through json_dumps (what every jsonb parameter now takes) and
    through json.dumps, read back from real jsonb: the same values."""
    with psycopg.connect(database_url) as conn:
        ours, theirs = conn.execute("SELECT %s::jsonb, %s::jsonb",
                                    (Jsonb(value), Jsonb(value, dumps=json.dumps))).fetchone()
    assert ours == theirs  # (jsonb's numbers: -0.0 reads back 0, 1e308 an int, for both)


def test_what_orjson_refuses_is_written_by_the_standard_library():
    assert json_dumps({"seed": 2**70}) == json.dumps({"seed": 2**70})
    assert json_dumps({1: 2}) == json.dumps({1: 2})
    assert json_dumps("\ud800") == json.dumps("\ud800")  # a lone surrogate: jsonb refuses its escape


def test_a_nan_is_written_as_null_where_jsonb_refused_the_standard_librarys_text(database_url):
    """The one difference json_dumps's docstring names."""
    with psycopg.connect(database_url) as conn:
        assert conn.execute("SELECT %s::jsonb", (Jsonb([float("nan"), float("inf")]),)).fetchone()[0] == [None, None]
        with pytest.raises(psycopg.errors.InvalidTextRepresentation):
            conn.execute("SELECT %s::jsonb", (Jsonb([float("nan")], dumps=json.dumps),))


def test_what_the_standard_library_refuses_stays_refused():
    import dataclasses
    from datetime import datetime

    @dataclasses.dataclass
    class Point:
        x: int

    for value in (datetime(2026, 1, 1), Point(1), {"at": datetime(2026, 1, 1)}, object()):
        with pytest.raises(TypeError):
            json_dumps(value)
