"""Options of a Speicherstadt game.

The rulebook has no optional rule: the only differences are by player count (the Autumn
cards removed, the number of cards revealed), which follow from the seat count.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from domain.decider import OptionsError

MIN_SEATS = 2
MAX_SEATS = 5


@dataclass(frozen=True)
class Options:
    variant: Literal["standard"] = "standard"


def parse_options(raw: Mapping[str, Any], seat_count: int) -> Options:
    errors: dict[str, list[str]] = {}
    if not isinstance(raw, Mapping):
        raise OptionsError({"options": ["must be an object"]})
    for key in raw:
        if key != "variant":
            errors[str(key)] = ["is not a known option"]
    variant = raw.get("variant", "standard")
    if variant != "standard":
        errors["variant"] = ["must be 'standard'"]
    if isinstance(seat_count, bool) or not isinstance(seat_count, int) or not (
        MIN_SEATS <= seat_count <= MAX_SEATS
    ):
        errors["seat_count"] = [f"Speicherstadt is played by {MIN_SEATS} to {MAX_SEATS} players"]
    if errors:
        raise OptionsError(errors)
    return Options()


def options_schema() -> dict:
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Speicherstadt options",
        "type": "object",
        "properties": {
            "variant": {"type": "string", "enum": ["standard"], "default": "standard",
                        "description": "The rulebook has a single game; 2 to 5 players."},
        },
        "additionalProperties": False,
    }
