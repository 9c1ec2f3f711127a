"""Frozen dataclasses <-> JSON data, driven by type hints.

Used for events (storage, export, replay), commands (bots, tests) and options.  Supported
field types: None, bool, int, float, str, Enum (by value), Literal, X | None, tuple[X, ...],
tuple[X, Y, ...], frozenset[X] (encoded sorted), nested dataclasses.  Anything else is a
programming error, caught by the codec round-trip tests of every title.

Decoding has two forms with one meaning. The generic decoders (``_decoder``) are closures
that follow the type, check everything and name the failing field. The compiled ones
(``decoder_of``, used by from_data and by replay for every event) are functions generated
once per type from its fields (``_compiled``): the checks of the data as encoded (exact
types, every field present) written out inline, so a valid event costs a few direct
checks; on anything else they hand the same data to the generic decoder, which decides:
the same value, or the same CodecError. tests/domain/test_codec_compiled.py compares both
over the golden streams' events and mutated payloads.
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


_SCALARS = frozenset({type(None), bool, int, float, str})


def to_data(value: Any) -> Any:
    """Encode a value (dataclass, tuple, frozenset, enum, primitive) as JSON data."""
    cls = type(value)
    if cls in _SCALARS:
        return value
    return _encoder(cls)(value)


@cache
def _encoder(cls: type) -> Any:
    """How to encode instances of ``cls``, worked out once per class: views encode
    thousands of small values, and the checks below cost more than the encoding."""
    if issubclass(cls, (bool, int, float, str)):  # also an enum that is an int or a str
        return lambda value: value
    if issubclass(cls, enum.Enum):
        return lambda value: value.value
    if hasattr(cls, "__dataclass_fields__"):
        names = tuple(f.name for f in dataclasses.fields(cls))
        return lambda value: {name: to_data(getattr(value, name)) for name in names}
    if issubclass(cls, (tuple, list)):
        return lambda value: [to_data(v) for v in value]
    if issubclass(cls, (frozenset, set)):
        return lambda value: sorted((to_data(v) for v in value), key=_sort_key)
    if issubclass(cls, Mapping):
        return lambda value: {str(k): to_data(v) for k, v in value.items()}

    def refuse(value: Any) -> Any:
        raise TypeError(f"cannot encode {cls.__name__}")
    return refuse


def _sort_key(v: Any) -> tuple[str, str]:
    return (type(v).__name__, repr(v))


def from_data(tp: Any, data: Any, path: str = "") -> Any:
    """Decode JSON data as type ``tp``; raises CodecError naming the offending field."""
    try:
        return _compiled(tp)(data)
    except CodecError as err:
        raise CodecError({(_join(path, k) or "value"): v for k, v in err.errors.items()}) from None


def decoder_of(tp: Any) -> Any:
    """``tp``'s decoder, data -> value: faster than from_data for values decoded in bulk;
    its CodecError names fields relative to the value ("" for the value itself)."""
    return _compiled(tp)


# Decoders take the data alone and, on error, name fields relative to the value they
# decode ("" for the value itself); the caller prefixes its own place (_join). Paths are
# built only for errors: replaying a game decodes every event, and formatting a path for
# every field and item cost more than decoding it.
Decoder = Any  # Callable[[Any], Any]


def _join(path: str, rel: str) -> str:
    if not rel:
        return path
    if rel[0] == "[":
        return path + rel
    return f"{path}.{rel}" if path else rel


def _fail(message: str) -> CodecError:
    return CodecError({"": [message]})


def _within(path: str, err: CodecError) -> CodecError:
    return CodecError({_join(path, k): v for k, v in err.errors.items()})


@cache
def _decoder(tp: Any) -> Decoder:
    """A decoding function for ``tp``, built once per type: replay decodes many events."""
    origin = typing.get_origin(tp)
    if tp is Any:
        return lambda data: data
    if tp is type(None) or tp is None:
        def none(data):
            if data is not None:
                raise _fail("must be null")
        return none
    if origin in (typing.Union, types.UnionType):
        return _union_decoder(typing.get_args(tp))
    if origin is typing.Literal:
        allowed = typing.get_args(tp)
        message = "must be one of " + ", ".join(repr(a) for a in allowed)

        def literal(data):
            if data not in allowed or isinstance(data, bool) != any(isinstance(a, bool) for a in allowed if a == data):
                raise _fail(message)
            return data
        return literal
    if tp is bool:
        def boolean(data):
            if data is True or data is False:
                return data
            raise _fail("must be a boolean")
        return boolean
    if tp is int:
        def integer(data):
            if type(data) is int or (isinstance(data, int) and not isinstance(data, bool)):
                return data
            raise _fail("must be an integer")
        return integer
    if tp is float:
        def number(data):
            if isinstance(data, bool) or not isinstance(data, (int, float)):
                raise _fail("must be a number")
            return float(data)
        return number
    if tp is str:
        def string(data):
            if type(data) is str or isinstance(data, str):
                return data
            raise _fail("must be a string")
        return string
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        message = "must be one of " + ", ".join(repr(m.value) for m in tp)

        def enumeration(data):
            try:
                return tp(data)
            except (ValueError, TypeError):
                raise _fail(message) from None
        return enumeration
    if origin is tuple:
        return _tuple_decoder(typing.get_args(tp))
    if origin is frozenset:
        (arg,) = typing.get_args(tp)
        item = _decoder(arg)

        def fset(data):
            if not isinstance(data, list):
                raise _fail("must be a list")
            return frozenset(_items(item, data))
        return fset
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        return _dataclass_decoder(tp)
    raise TypeError(f"the codec does not support {tp!r}")


def _items(item: Decoder, data: list) -> list:
    """Each element decoded; an error names the first element that fails."""
    try:
        return [item(v) for v in data]
    except CodecError:
        pass
    for i, v in enumerate(data):
        try:
            item(v)
        except CodecError as err:
            raise _within(f"[{i}]", err) from None
    raise AssertionError("unreachable: an element failed once")


def _union_decoder(args: tuple) -> Decoder:
    nullable = type(None) in args
    options = [_decoder(a) for a in args if a is not type(None)]

    def union(data):
        if data is None and nullable:
            return None
        last: CodecError | None = None
        for option in options:
            try:
                return option(data)
            except CodecError as err:
                last = err
        raise last or _fail("has the wrong type")
    return union


def _tuple_decoder(args: tuple) -> Decoder:
    if len(args) == 2 and args[1] is Ellipsis:
        item = _decoder(args[0])

        def homogeneous(data):
            if not isinstance(data, list):
                raise _fail("must be a list")
            return tuple(_items(item, data))
        return homogeneous
    items = [_decoder(a) for a in args]

    def fixed(data):
        if not isinstance(data, list):
            raise _fail("must be a list")
        if len(items) != len(data):
            raise _fail(f"must have {len(items)} items")
        try:
            return tuple([d(v) for d, v in zip(items, data)])
        except CodecError:
            pass
        for i, (d, v) in enumerate(zip(items, data)):
            try:
                d(v)
            except CodecError as err:
                raise _within(f"[{i}]", err) from None
        raise AssertionError("unreachable: an item failed once")
    return fixed


def _dataclass_decoder(cls: type) -> Decoder:
    hints = _hints(cls)
    fields = []
    for f in dataclasses.fields(cls):
        optional = f.default is not dataclasses.MISSING or f.default_factory is not dataclasses.MISSING
        fields.append((f.name, optional, _decoder(hints[f.name])))
    known = frozenset(hints)
    # Built as domain/common/frozen.py's replace builds: no __init__ when it would only
    # store the fields (no __post_init__, no slots, every field an init field, all given)
    init = getattr(cls.__init__, "__code__", None)
    direct = (not hasattr(cls, "__post_init__") and "__slots__" not in cls.__dict__
              and all(f.init for f in dataclasses.fields(cls))
              and init is not None and init.co_filename == "<string>")  # dataclasses' own __init__
    count = len(fields)

    def decode(data):
        if type(data) is not dict and not isinstance(data, Mapping):
            raise _fail("must be an object")
        errors: dict[str, list[str]] = {}
        values: dict[str, Any] = {}
        for name, optional, decoder in fields:
            if name not in data:
                if not optional:
                    errors[name] = ["is required"]
                continue
            try:
                values[name] = decoder(data[name])
            except CodecError as err:
                errors.update(_within(name, err).errors)
        if len(data) > len(values) + len(errors):
            for name in sorted(set(data) - known):
                errors[name] = ["is not a known field"]
        if errors:
            raise CodecError(errors)
        if direct and len(values) == count:
            made = object.__new__(cls)
            made.__dict__.update(values)
            return made
        return cls(**values)
    return decode


# The compiled decoders. Each is generated as Python source for one type and returns what
# the generic decoder of that type returns for the same data, or calls it: a check that
# fails, or a case not written out (an enum, a union of several types, a dict subclass, a
# missing field left to its default), ends in ``return _generic(data)``, and a CodecError
# from a nested compiled decoder in the same call. So only data already known valid takes
# the short path, and errors are always the generic decoder's.


@cache
def _compiled(tp: Any) -> Decoder:
    """``tp``'s compiled decoder (see above), generated at its first use."""
    return _Compiler(tp).build()


class _Compiler:
    def __init__(self, tp: Any):
        self.tp = tp
        self.names: dict[str, Any] = {"_generic": _decoder(tp), "CodecError": CodecError}
        self.count = 0

    def name(self, value: Any) -> str:
        """A name for ``value`` in the generated function's globals."""
        name = f"_k{len(self.names)}"
        self.names[name] = value
        return name

    def temp(self) -> str:
        self.count += 1
        return f"v{self.count}"

    def build(self) -> Decoder:
        tp = self.tp
        if isinstance(tp, type) and dataclasses.is_dataclass(tp):
            body = self.dataclass_body(tp)
        else:
            body = ["v = data", *self.check(tp, "v"), "return v"]
        source = "def decode(data):\n    try:\n" + "".join(f"        {line}\n" for line in _merged(body))
        # outside the try, so that the generic decoder's error is raised as it raises it
        source += "    except (KeyError, CodecError):\n        pass\n    return _generic(data)\n"
        exec(compile(source, f"<codec decoder of {_type_name(tp)}>", "exec"), self.names)  # noqa: S102
        decode = self.names["decode"]
        decode.source = source  # for a reader wondering what runs
        return decode

    def dataclass_body(self, cls: type) -> list[str]:
        hints = _hints(cls)
        fields = dataclasses.fields(cls)
        lines = [f"if type(data) is not dict or len(data) != {len(fields)}: return _generic(data)"]
        # every field present (a missing one is a KeyError, an unknown one a wrong length)
        variables = []
        for f in fields:
            variable = self.temp()
            variables.append(variable)
            lines.append(f"{variable} = data[{f.name!r}]")
        for f, variable in zip(fields, variables):
            lines += self.check(hints[f.name], variable)
        init = getattr(cls.__init__, "__code__", None)
        direct = (not hasattr(cls, "__post_init__") and "__slots__" not in cls.__dict__
                  and all(f.init for f in fields)
                  and init is not None and init.co_filename == "<string>")  # as _dataclass_decoder
        if not direct:
            given = ", ".join(f"{f.name}={v}" for f, v in zip(fields, variables))
            return [*lines, f"return {self.name(cls)}({given})"]
        # as _dataclass_decoder builds it: the fields given to the instance's own dictionary
        # at once (stored one by one, they leave a dictionary slower to read attributes from),
        # here the dictionary itself, set as object.__setattr__(made, "__dict__", ...) sets
        # it (its descriptor, found once): 300 instructions less per event than updating
        # the dictionary the new instance has
        made = self.temp()
        values = "{" + ", ".join(f"{f.name!r}: {v}" for f, v in zip(fields, variables)) + "}"
        setter = _dict_setter(cls)
        store = (f"{made}.__dict__.update({values})" if setter is None
                 else f"{self.name(setter)}({made}, {values})")
        return [*lines, f"{made} = {self.name(object.__new__)}({self.name(cls)})", store, f"return {made}"]

    def failing(self, tp: Any, x: str) -> str | None:
        """A condition true when ``x`` is not already ``tp``'s decoded value (nothing to
        convert): "" when anything is, None when that takes more than a condition."""
        if tp is Any:
            return ""
        if tp is type(None) or tp is None:
            return f"{x} is not None"
        if tp is bool:
            return f"({x} is not True and {x} is not False)"
        if tp is int or tp is str:
            return f"type({x}) is not {tp.__name__}"
        origin = typing.get_origin(tp)
        if origin is typing.Literal:
            allowed = typing.get_args(tp)
            for kind in (str, int):
                if all(type(a) is kind for a in allowed):
                    return f"(type({x}) is not {kind.__name__} or {x} not in {self.name(frozenset(allowed))})"
            return None
        if origin in (typing.Union, types.UnionType):
            args = typing.get_args(tp)
            others = [a for a in args if a is not type(None)]
            if len(others) == 1 and len(args) == 2:
                inner = self.failing(others[0], x)
                if inner == "":
                    return ""
                if inner is not None:
                    return f"({x} is not None and {inner})"
        return None

    def check(self, tp: Any, x: str) -> list[str]:
        """Lines that leave in ``x`` the decoded value of the data it holds, or return the
        generic decoder's answer for the whole data."""
        condition = self.failing(tp, x)
        if condition == "":
            return []
        if condition is not None:
            return [f"if {condition}: return _generic(data)"]
        origin = typing.get_origin(tp)
        args = typing.get_args(tp)
        if tp is float:
            return [f"if type({x}) is not float:",
                    f"    if type({x}) is not int: return _generic(data)",
                    f"    {x} = float({x})"]
        if origin in (typing.Union, types.UnionType) and len(args) == 2 and type(None) in args:
            (other,) = [a for a in args if a is not type(None)]
            inner = self.check(other, x)
            return [f"if {x} is not None:", *(f"    {line}" for line in inner)]
        if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
            return self.items(args[0], x, "tuple")
        if origin is frozenset:
            return self.items(args[0], x, "frozenset")
        if origin is tuple and args and Ellipsis not in args:
            parts = [self.temp() for _ in args]
            lines = [f"if type({x}) is not list or len({x}) != {len(args)}: return _generic(data)",
                     f"{', '.join(parts)}, = {x}"]
            for arg, part in zip(args, parts):
                lines += self.check(arg, part)
            return [*lines, f"{x} = ({', '.join(parts)},)"]
        if isinstance(tp, type) and dataclasses.is_dataclass(tp):
            return [f"{x} = {self.name(_compiled(tp))}({x})"]
        # an enum, a union of several types...: the generic decoder, which raises CodecError
        return [f"{x} = {self.name(_decoder(tp))}({x})"]

    def items(self, item: Any, x: str, kind: str) -> list[str]:
        lines = [f"if type({x}) is not list: return _generic(data)"]
        condition = self.failing(item, "i")
        if condition == "":
            return [*lines, f"{x} = {kind}({x})"]
        if condition is not None:
            i = self.temp()
            condition = self.failing(item, i)
            return [*lines, f"for {i} in {x}:", f"    if {condition}: return _generic(data)", f"{x} = {kind}({x})"]
        i = self.temp()
        if isinstance(item, type) and dataclasses.is_dataclass(item):
            return [*lines, f"{x} = {kind}([{self.name(_compiled(item))}({i}) for {i} in {x}])"]
        # a nested tuple, a float...: its checks written out in the loop, no call per item
        out = self.temp()
        inner = self.check(item, i)
        return [*lines, f"{out} = []", f"for {i} in {x}:", *(f"    {line}" for line in inner),
                f"    {out}.append({i})", f"{x} = {kind}({out})"]


def _dict_setter(cls: type) -> Any:
    """What sets an instance's ``__dict__`` (the descriptor object.__setattr__ finds: the
    first in the class's MRO), None if it is not the usual one."""
    for base in cls.__mro__:
        descriptor = vars(base).get("__dict__")
        if descriptor is not None:
            return descriptor.__set__ if isinstance(descriptor, types.GetSetDescriptorType) else None
    return None


_FAIL = ": return _generic(data)"


def _merged(lines: list[str]) -> list[str]:
    """Consecutive checks in one block as one condition (``a or b``): fewer jumps."""
    out: list[str] = []
    for line in lines:
        code = line.lstrip()
        indent = line[:len(line) - len(code)]
        if (out and code.startswith("if ") and code.endswith(_FAIL)
                and out[-1].startswith(indent + "if ") and out[-1].endswith(_FAIL)):
            out[-1] = f"{out[-1][:-len(_FAIL)]} or {code[3:]}"
        else:
            out.append(line)
    return out


def _type_name(tp: Any) -> str:
    return tp.__qualname__ if isinstance(tp, type) else repr(tp)


def field_types(cls: type) -> dict[str, Any]:
    """The resolved type hints of a dataclass's fields, in declaration order."""
    hints = _hints(cls)
    return {f.name: hints[f.name] for f in dataclasses.fields(cls)}
