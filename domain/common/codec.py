"""Frozen dataclasses <-> JSON data, driven by type hints.

Used for events (storage, export, replay), commands (bots, tests) and options.  Supported
field types: None, bool, int, float, str, Enum (by value), Literal, X | None, tuple[X, ...],
tuple[X, Y, ...], frozenset[X] (encoded sorted), nested dataclasses.  Anything else is a
programming error, caught by the codec round-trip tests of every title.
"""

from __future__ import annotations

import dataclasses
import enum
import types
import typing
from collections.abc import Mapping
from functools import cache
from typing import Any


class CodecError(ValueError):
    """Data that does not fit the declared shape. ``errors`` maps field path -> messages."""

    def __init__(self, errors: dict[str, list[str]]):
        super().__init__("; ".join(f"{k}: {' '.join(v)}" for k, v in errors.items()))
        self.errors = errors


@cache
def _hints(cls: type) -> dict[str, Any]:
    names = {f.name for f in dataclasses.fields(cls)}
    return {k: v for k, v in typing.get_type_hints(cls).items() if k in names}


def to_data(value: Any) -> Any:
    """Encode a value (dataclass, tuple, frozenset, enum, primitive) as JSON data."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, enum.Enum):
        return value.value
    if dataclasses.is_dataclass(value):
        return {f.name: to_data(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, (tuple, list)):
        return [to_data(v) for v in value]
    if isinstance(value, (frozenset, set)):
        return sorted((to_data(v) for v in value), key=_sort_key)
    if isinstance(value, Mapping):
        return {str(k): to_data(v) for k, v in value.items()}
    raise TypeError(f"cannot encode {type(value).__name__}")


def _sort_key(v: Any) -> tuple[str, str]:
    return (type(v).__name__, repr(v))


def from_data(tp: Any, data: Any, path: str = "") -> Any:
    """Decode JSON data as type ``tp``; raises CodecError naming the offending field."""
    origin = typing.get_origin(tp)
    where = path or "value"
    if tp is Any:
        return data
    if tp is type(None) or tp is None:
        if data is not None:
            raise CodecError({where: ["must be null"]})
        return None
    if origin in (typing.Union, types.UnionType):
        args = typing.get_args(tp)
        if data is None and type(None) in args:
            return None
        last: CodecError | None = None
        for arg in args:
            if arg is type(None):
                continue
            try:
                return from_data(arg, data, path)
            except CodecError as err:
                last = err
        raise last or CodecError({where: ["has the wrong type"]})
    if origin is typing.Literal:
        if data not in typing.get_args(tp):
            allowed = ", ".join(repr(a) for a in typing.get_args(tp))
            raise CodecError({where: [f"must be one of {allowed}"]})
        return data
    if tp is bool:
        if not isinstance(data, bool):
            raise CodecError({where: ["must be a boolean"]})
        return data
    if tp is int:
        if isinstance(data, bool) or not isinstance(data, int):
            raise CodecError({where: ["must be an integer"]})
        return data
    if tp is float:
        if isinstance(data, bool) or not isinstance(data, (int, float)):
            raise CodecError({where: ["must be a number"]})
        return float(data)
    if tp is str:
        if not isinstance(data, str):
            raise CodecError({where: ["must be a string"]})
        return data
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        try:
            return tp(data)
        except ValueError:
            allowed = ", ".join(repr(m.value) for m in tp)
            raise CodecError({where: [f"must be one of {allowed}"]}) from None
    if origin is tuple:
        if not isinstance(data, list):
            raise CodecError({where: ["must be a list"]})
        args = typing.get_args(tp)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(from_data(args[0], v, f"{path}[{i}]") for i, v in enumerate(data))
        if len(args) != len(data):
            raise CodecError({where: [f"must have {len(args)} items"]})
        return tuple(from_data(a, v, f"{path}[{i}]") for i, (a, v) in enumerate(zip(args, data)))
    if origin is frozenset:
        if not isinstance(data, list):
            raise CodecError({where: ["must be a list"]})
        (arg,) = typing.get_args(tp)
        return frozenset(from_data(arg, v, f"{path}[{i}]") for i, v in enumerate(data))
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        return _dataclass_from(tp, data, path)
    raise TypeError(f"the codec does not support {tp!r}")


def _dataclass_from(cls: type, data: Any, path: str) -> Any:
    if not isinstance(data, Mapping):
        raise CodecError({path or "value": ["must be an object"]})
    hints = _hints(cls)
    errors: dict[str, list[str]] = {}
    values: dict[str, Any] = {}
    for f in dataclasses.fields(cls):
        sub = f"{path}.{f.name}" if path else f.name
        if f.name not in data:
            if f.default is not dataclasses.MISSING or f.default_factory is not dataclasses.MISSING:
                continue
            errors[sub] = ["is required"]
            continue
        try:
            values[f.name] = from_data(hints[f.name], data[f.name], sub)
        except CodecError as err:
            errors.update(err.errors)
    unknown = set(data) - set(hints)
    for name in sorted(unknown):
        errors[f"{path}.{name}" if path else name] = ["is not a known field"]
    if errors:
        raise CodecError(errors)
    return cls(**values)


def field_types(cls: type) -> dict[str, Any]:
    """The resolved type hints of a dataclass's fields, in declaration order."""
    hints = _hints(cls)
    return {f.name: hints[f.name] for f in dataclasses.fields(cls)}
