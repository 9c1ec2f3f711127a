"""openapi.yaml documents every command of every title exactly, and the spec itself is valid."""

from __future__ import annotations

import dataclasses
import typing

import yaml
from openapi_spec_validator import validate

from domain.common.codec import field_types
from domain.registry import titles
from tests.conftest import ROOT

JSON_TYPES = {int: "integer", str: "string", bool: "boolean", float: "number"}


def spec() -> dict:
    return yaml.safe_load((ROOT / "openapi.yaml").read_text(encoding="utf-8"))


def test_the_document_is_valid_openapi_3_1():
    validate(spec())


def test_every_command_of_every_title_is_documented_with_its_fields():
    schemas = spec()["components"]["schemas"]
    command_refs = {ref["$ref"].rsplit("/", 1)[1] for ref in schemas["Command"]["oneOf"]}
    for game in titles().values():
        prefix = game.name.replace(" ", "")
        assert f"{prefix}Command" in command_refs, f"{game.id}'s commands are not in Command"
        documented = {r["$ref"].rsplit("/", 1)[1] for r in schemas[f"{prefix}Command"]["oneOf"]}
        assert documented == {f"{prefix}{cls.TYPE}" for cls in game.command_types}
        for cls in game.command_types:
            schema = schemas[f"{prefix}{cls.TYPE}"]
            fields = field_types(cls)
            assert schema["properties"]["type"] == {"const": cls.TYPE}
            assert set(schema["properties"]) == {"type", *fields}, cls.TYPE
            required = {f.name for f in dataclasses.fields(cls)
                        if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING}
            assert set(schema["required"]) == {"type", *required}, cls.TYPE
            assert schema["additionalProperties"] is False
            for name, tp in fields.items():
                args = typing.get_args(tp)
                if type(None) in args:  # X | None
                    expected = [JSON_TYPES[next(a for a in args if a is not type(None))], "null"]
                elif typing.get_origin(tp) is tuple:  # a list of values (payments, dice)
                    expected = "array"
                else:
                    expected = JSON_TYPES[tp]
                assert schema["properties"][name]["type"] == expected, (cls.TYPE, name)


def test_every_title_has_a_documented_view():
    schemas = spec()["components"]["schemas"]
    views = {ref["$ref"].rsplit("/", 1)[1] for ref in schemas["View"]["anyOf"]}
    for game in titles().values():
        assert f"{game.name.replace(' ', '')}View" in views
