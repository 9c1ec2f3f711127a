"""The compiled decoders (domain/common/codec.py's ``_compiled``, what replay and from_data
run) mean exactly what the generic ones mean: the same value, down to each part's type and
the order of an instance's fields, or the same CodecError, for the golden streams' events
and for payloads mutated field by field, of every event, command and options type."""

from __future__ import annotations

import dataclasses
import enum
import json
import types
import typing
from collections import OrderedDict
from typing import Any

import pytest

from domain.common.codec import CodecError, _compiled, _decoder, field_types
from domain.common.envelope import _registry
from domain.decider import schema_version
from domain.registry import titles
from tests.golden.record import HERE

GOLDEN = sorted(HERE.glob("*.json"))

#: values put in place of a field or an item: every JSON kind, and the near misses
#: (a bool where an int goes, an int where a float or a bool goes, a float equal to an int)
REPLACEMENTS: list[Any] = [None, True, False, 0, 1, -1, 2**70, 1.0, 1.5, "", "x", "standard",
                           [], [None], [1], [True], ["x"], [[1, 2]], [1, "x"], {}, {"x": 1}]


def outcome(decode, data) -> tuple:
    try:
        value = decode(data)
    except CodecError as err:
        return ("error", err.errors)
    except Exception as err:  # noqa: BLE001 - compared, not swallowed: both must raise alike
        return ("raised", type(err), str(err))
    return ("value", exact(value))


def exact(value: Any) -> Any:
    """``value`` with every part's type beside it (1 and 1.0 and True differ) and an
    instance's fields in their stored order."""
    if dataclasses.is_dataclass(value):
        return (type(value), tuple((k, exact(v)) for k, v in vars(value).items()))
    if isinstance(value, tuple):
        return (tuple, tuple(exact(v) for v in value))
    if isinstance(value, frozenset):
        return (frozenset, frozenset(exact(v) for v in value))
    return (type(value), value)


def assert_same(tp: Any, data: Any) -> tuple:
    compiled, generic = outcome(_compiled(tp), data), outcome(_decoder(tp), data)
    assert compiled == generic, (tp, data)
    return compiled


def mutations(data: Any):
    """``data`` changed in one place at a time: each field removed, replaced or mutated in
    turn, an unknown field added, each list's first item replaced or mutated, the list
    emptied; the whole replaced by other kinds of value."""
    yield from (None, [], "x", 1, [data])
    if isinstance(data, dict):
        yield OrderedDict(data)  # a Mapping that is not a dict
        yield {**data, "unknown": 1}
        for key, value in data.items():
            yield {k: v for k, v in data.items() if k != key}
            for changed in [*REPLACEMENTS, *mutations(value)]:
                yield {**data, key: changed}
    elif isinstance(data, list) and data:
        for changed in [*REPLACEMENTS, *mutations(data[0])]:
            yield [changed, *data[1:]]
        yield data + data[-1:]
        yield data[:-1]


def sample(tp: Any) -> Any:
    """Valid JSON data for ``tp``, built from its type alone: a value for every type the
    codec supports, so types no golden stream holds are checked too."""
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if dataclasses.is_dataclass(tp):
        return {name: sample(t) for name, t in field_types(tp).items()}
    if origin in (typing.Union, types.UnionType):
        return sample(next(a for a in args if a is not type(None)))
    if origin is typing.Literal:
        return args[0]
    if origin is tuple:
        return [sample(args[0]), sample(args[0])] if args[-1] is Ellipsis else [sample(a) for a in args]
    if origin is frozenset:
        return [sample(args[0])]
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return next(iter(tp)).value
    return {bool: True, int: 2, float: 1.5, str: "a", type(None): None}.get(tp, None)


def every_type() -> list[type]:
    found = []
    for game in titles().values():
        found += [*game.event_types, *game.command_types, game.options_type]
    return found


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_every_golden_event_decodes_alike(path):
    golden = json.loads(path.read_text(encoding="utf-8"))
    game = titles()[golden["title"]]
    registry = _registry(game.event_types)
    decoded = 0
    for type_name, version, data in golden["events"]:
        cls = registry[type_name]
        while version < schema_version(cls):
            data = game.upcasters[(type_name, version)](data)
            version += 1
        kind, *_ = assert_same(cls, data)
        assert kind == "value"
        decoded += 1
    assert decoded == len(golden["events"]) > 100


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_mutated_golden_payloads_decode_alike(path):
    """One payload of each event type in the stream (its longest), mutated."""
    golden = json.loads(path.read_text(encoding="utf-8"))
    game = titles()[golden["title"]]
    registry = _registry(game.event_types)
    longest: dict[str, Any] = {}
    for type_name, version, data in golden["events"]:
        if version == schema_version(registry[type_name]):
            if len(json.dumps(data)) > len(json.dumps(longest.get(type_name, ""))):
                longest[type_name] = data
    kinds = set()
    for type_name, data in longest.items():
        for mutated in mutations(data):
            kinds.add(assert_same(registry[type_name], mutated)[0])
    assert kinds == {"value", "error"}  # both answers were compared


@pytest.mark.parametrize("cls", every_type(), ids=lambda c: f"{c.__module__}.{c.__qualname__}")
def test_every_event_command_and_options_type_decodes_alike(cls):
    data = sample(cls)
    assert assert_same(cls, data)[0] == "value"
    for mutated in mutations(data):
        assert_same(cls, mutated)


# the kinds no title uses today (module level: the codec reads the type hints by name)
class Colour(enum.Enum):
    RED = "red"
    ONE = 1


@dataclasses.dataclass(frozen=True)
class Inner:
    n: int
    ratio: float = 0.5


@dataclasses.dataclass(frozen=True)
class Outer:
    colour: Colour
    either: int | str
    maybe: float | None
    lit: typing.Literal[1, 2]
    flag: typing.Literal[True, "yes"]
    pair: tuple[Inner, tuple[int, float]]
    inners: frozenset[Inner]
    anything: Any
    nested: tuple[tuple[Inner | None, ...], ...]
    default: str = "d"


def test_the_codecs_own_types_decode_alike():
    """The kinds no title uses today (floats, enums, unions of several types, literals of
    ints and bools, fixed tuples of nested values, frozensets of dataclasses...)."""
    data = {"colour": "red", "either": "x", "maybe": 1, "lit": 2, "flag": True,
            "pair": [{"n": 1, "ratio": 2}, [3, 4]], "inners": [{"n": 1, "ratio": 1.5}],
            "anything": {"a": [1]}, "nested": [[None, {"n": 2, "ratio": 0.0}]], "default": "e"}
    assert assert_same(Outer, data)[0] == "value"
    for mutated in mutations(data):
        assert_same(Outer, mutated)
    for tp in (float, int | None, tuple[float, ...], frozenset[str], typing.Literal["a", "b"], Colour):
        for value in [*REPLACEMENTS, ["a", "b"], [1.5, 2], ["a", "a"]]:
            assert_same(tp, value)
