"""Kontor options: named switches, so the advanced game, scenarios, special rules and
expansions can be added as values of these fields later."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from domain.decider import OptionsError
from domain.kontor.data import HOUSE_RULES, SETUP

VARIANTS_AVAILABLE: tuple[str, ...] = ("basic",)
VARIANTS_PLANNED: tuple[str, ...] = ("advanced", "team")
RAW_FIELDS: tuple[str, ...] = ("variant", "scenario", "special_rules", "expansions")


@dataclass(frozen=True)
class Options:
    variant: str = "basic"
    scenario: str | None = None
    special_rules: tuple[str, ...] = ()
    expansions: tuple[str, ...] = ()
    #: the side of the finished square port ("un plateau de 6x6 cartes")
    board_size: int = SETUP["board_size"]
    #: house rule: the game ends after this many complete rounds without a placement
    idle_round_limit: int = HOUSE_RULES["idle_round_limit"]


def parse_options(raw: Mapping[str, Any] | None, seat_count: int) -> Options:
    raw = dict(raw or {})
    errors: dict[str, list[str]] = {}
    for name in sorted(set(raw) - set(RAW_FIELDS)):
        errors[name] = ["is not a known option"]
    variant = raw.get("variant", "basic")
    if not isinstance(variant, str):
        errors["variant"] = ["must be a string"]
    elif variant in VARIANTS_PLANNED:
        errors["variant"] = [f"the {variant} game is not available yet; only 'basic' is"]
    elif variant not in VARIANTS_AVAILABLE:
        errors["variant"] = [f"unknown variant {variant!r}; only 'basic' is available"]
    scenario = raw.get("scenario")
    if scenario is not None:
        errors["scenario"] = ["scenarios are not available yet; use null"]
    for name in ("special_rules", "expansions"):
        value = raw.get(name, [])
        if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
            errors[name] = ["must be a list of strings"]
        elif value:
            errors[name] = [f"{name.replace('_', ' ')} are not available yet; use []"]
    if seat_count != 2:
        errors["seat_count"] = [
            f"the basic game is for 2 players, not {seat_count} "
            "(the 4-player team game is not available yet)"
        ]
    if errors:
        raise OptionsError(errors)
    return Options(variant=variant)


def options_schema() -> dict:
    return {
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "variant": {
                "type": "string",
                "enum": list(VARIANTS_AVAILABLE),
                "default": "basic",
                "description": "basic (2 players). advanced and team are not available yet.",
            },
            "scenario": {"type": "null", "default": None},
            "special_rules": {"type": "array", "items": {"type": "string"}, "maxItems": 0},
            "expansions": {"type": "array", "items": {"type": "string"}, "maxItems": 0},
        },
    }
