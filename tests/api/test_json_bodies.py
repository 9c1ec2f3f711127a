"""Responses' JSON (api/io.py ``json_bytes``): orjson's compact UTF-8, and for what orjson
refuses, the standard library's text, so that nothing a route could answer before now
fails to be written."""

from __future__ import annotations

import json

import pytest

from api.io import json_bytes


@pytest.mark.parametrize("body", [
    {"version": 3, "commands": [{"type": "place", "x": -1, "y": 2}], "words": "Köln, 12 florins"},
    {"rating": 1510.25, "sigma": 1e-7, "big": 10**30, "none": None, "flags": [True, False]},
    {"text": "a lone surrogate \ud800 escaped"},
    {1: "an integer key, written as a string", "nested": {2: [3]}},
])
def test_a_body_reads_back_as_the_value_it_was(body):
    written = json_bytes(body)
    assert json.loads(written) == json.loads(json.dumps(body))


def test_text_is_utf_8_and_compact():
    assert json_bytes({"name": "Élise", "seats": [0, 1]}) == '{"name":"Élise","seats":[0,1]}'.encode()


def test_what_the_standard_library_refuses_is_still_refused():
    with pytest.raises(TypeError):
        json_bytes({"when": object()})
