"""Events are forever: explicit names, schema versions, upcasters; the codec is strict."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import ClassVar, Literal

import pytest

from domain.common.codec import CodecError, from_data, to_data
from domain.common.envelope import decode_command, decode_event, encode_command, encode_event
from domain.kontor import GAME as KONTOR


@dataclass(frozen=True)
class Moved:
    TYPE: ClassVar[str] = "test.Moved"
    SCHEMA_VERSION: ClassVar[int] = 3
    seat: int
    cells: tuple[tuple[int, int], ...]
    note: str | None = None


GAME = replace(
    KONTOR,
    event_types=(Moved,),
    upcasters={
        # v1 had x and y; v2 made them a list of cells; v3 added an optional note
        ("test.Moved", 1): lambda d: {"seat": d["seat"], "cells": [[d["x"], d["y"]]]},
        ("test.Moved", 2): lambda d: {**d, "note": None},
    },
)


def test_old_shapes_are_upcast_step_by_step():
    assert decode_event(GAME, "test.Moved", 1, {"seat": 1, "x": 2, "y": 3}) == Moved(1, ((2, 3),), None)
    assert decode_event(GAME, "test.Moved", 2, {"seat": 0, "cells": []}) == Moved(0, (), None)


def test_the_current_shape_round_trips():
    event = Moved(1, ((0, 1), (2, 3)), "hi")
    type_name, version, data = encode_event(event)
    assert (type_name, version) == ("test.Moved", 3)
    assert decode_event(GAME, type_name, version, data) == event


def test_unknown_types_and_future_versions_are_refused():
    with pytest.raises(ValueError):
        decode_event(GAME, "test.Teleported", 1, {})
    with pytest.raises(ValueError):
        decode_event(GAME, "test.Moved", 4, {"seat": 0, "cells": []})


def test_commands_have_a_json_form_and_strict_decoding():
    command = decode_command(KONTOR, {"type": "PlaceCard", "x": 1, "y": -2})
    assert encode_command(command) == {"type": "PlaceCard", "x": 1, "y": -2}
    for bad, field in [
        ({"type": "PlaceCard", "x": 1}, "command.y"),
        ({"type": "PlaceCard", "x": True, "y": 0}, "command.x"),
        ({"type": "PlaceCard", "x": 1, "y": 0, "z": 0}, "command.z"),
        ({"type": "Fly"}, "command.type"),
        ("PlaceCard", "command"),
    ]:
        with pytest.raises(CodecError) as err:
            decode_command(KONTOR, bad)
        assert field in err.value.errors


def test_codec_types():
    @dataclass(frozen=True)
    class Sample:
        kind: Literal["a", "b"]
        flags: frozenset[int]
        pair: tuple[int, str]
        ratio: float

    value = Sample("a", frozenset({3, 1}), (1, "x"), 0.5)
    assert to_data(value) == {"kind": "a", "flags": [1, 3], "pair": [1, "x"], "ratio": 0.5}
    assert from_data(Sample, to_data(value)) == value
    with pytest.raises(CodecError):
        from_data(Sample, {**to_data(value), "kind": "c"})
    with pytest.raises(CodecError):
        from_data(Sample, {**to_data(value), "pair": [1]})
