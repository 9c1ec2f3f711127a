"""Options of an Amsterdam game: player count, length, expansions and the rule readings.

Every option the rulebook (or AMSTERDAM.md's readings) offers is named here; unknown
options and values are refused at creation (OptionsError -> 422), never ignored. Expansion
4 is mode b only (A11): mode a cannot be played as written.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from domain.decider import OptionsError

MIN_SEATS = 1  # 1 seat: the solo game against TOM (L886-972)
MAX_SEATS = 4
TASK_MODES = ("none", "secret3", "secret5", "open1", "open2")

@dataclass(frozen=True)
class Options:
    rounds: int = 12                      # 12, or the short game of 10 (L277-279)
    skilled_workers: bool = False         # expansion 1: foreman and bailiff (L745-796)
    tasks: str = "none"                   # expansion 2 (L798-832)
    black_market_pawn: bool = False       # expansion 3 (L836-864)
    extra_market_tiles: bool = False      # expansion 4, mode b (L866-884, A11)
    dice_choice: str = "sequential"       # B2: sequential (public) or simultaneous (L430)
    docker_pickup: str = "one"            # B7: one docker per stop, or both at once
    tasks_activated: str = "active_at_end"  # B23: count active cards, or ever activated
    solo_amstel_face: int = 1             # D12: the lost die icon of L925 (TOM advances)
    solo_block_face: int = 6              # D12: the lost die icon of L936 (TOM takes a block)


#: The expansions by their names in the API (../shared/API.md, "Amsterdam options").
EXPANSIONS = ("skilled_workers", "tasks", "black_market", "market_tiles")
TASK_TILE_MODES = TASK_MODES[1:]

_SCHEMA_PROPERTIES: dict[str, dict] = {
    "rounds": {"type": "integer", "enum": [12, 10], "default": 12,
               "description": "12 rounds, or the short game: rounds 3-12 (L277-279)."},
    "expansions": {"type": "array", "uniqueItems": True, "default": [],
                   "items": {"type": "string", "enum": list(EXPANSIONS)},
                   "description": "Any of: skilled_workers (expansion 1, foreman and bailiff, "
                                  "L745-796), tasks (expansion 2, L798-832), black_market "
                                  "(expansion 3, the black-market pawn, L836-864), market_tiles "
                                  "(expansion 4, mode b: C tiles mixed into each half, L876-884)."},
    "tasks": {"type": "string", "enum": list(TASK_TILE_MODES), "default": "secret3",
              "description": "With the tasks expansion: 3 or 5 secret task tiles, or 1 or 2 open ones."},
    "dice_choice": {"type": "string", "enum": ["sequential", "simultaneous"],
                    "default": "sequential",
                    "description": "Phase II dice choice in Amstel order, public, or all at once face down (L430, B2)."},
    "docker_pickup": {"type": "string", "enum": ["one", "both"], "default": "one",
                      "description": "Option (B7): one docker per pontoon stop (L536), or both at once."},
    "tasks_activated": {"type": "string", "enum": ["active_at_end", "ever"],
                        "default": "active_at_end",
                        "description": "Option (B23): tasks 13 and 36 count the cards active at the end."},
    "solo_amstel_face": {"type": "integer", "enum": [1, 2, 3, 4, 5, 6], "default": 1,
                         "description": "Solo (D12): the die face that moves TOM on the Amstel;"
                                        " the printed icon is lost (L925)."},
    "solo_block_face": {"type": "integer", "enum": [1, 2, 3, 4, 5, 6], "default": 6,
                        "description": "Solo (D12): the die face that makes TOM take a block;"
                                       " the printed icon is lost (L936)."},
}


def _checked(raw: Mapping[str, Any], errors: dict[str, list[str]]) -> dict[str, Any]:
    """The options given, each checked against its schema."""
    values: dict[str, Any] = {}
    for key, value in raw.items():
        spec = _SCHEMA_PROPERTIES.get(key)
        if spec is None:
            errors[str(key)] = ["is not a known option"]
        elif spec["type"] == "array":
            if not isinstance(value, list) or any(not isinstance(v, str) or v not in EXPANSIONS for v in value):
                errors[key] = [f"must be a list of {', '.join(EXPANSIONS)}"]
            elif len(set(value)) != len(value):
                errors[key] = ["names an expansion twice"]
            else:
                values[key] = value
        elif spec["type"] == "integer" and (isinstance(value, bool) or value not in spec["enum"]):
            errors[key] = [f"must be one of {spec['enum']}"]
        elif spec["type"] == "string" and value not in spec["enum"]:
            errors[key] = [f"must be one of {spec['enum']}"]
        else:
            values[key] = value
    return values


def parse_options(raw: Mapping[str, Any], seat_count: int) -> Options:
    if not isinstance(raw, Mapping):
        raise OptionsError({"options": ["must be an object"]})
    errors: dict[str, list[str]] = {}
    values = _checked(raw, errors)
    expansions = set(values.pop("expansions", ()))
    if "tasks" in values and "tasks" not in expansions:
        errors["tasks"] = ["chooses how task tiles are played: add \"tasks\" to the expansions"]
    tasks = values.pop("tasks", "secret3") if "tasks" in expansions else "none"
    values.pop("tasks", None)
    if isinstance(seat_count, bool) or not isinstance(seat_count, int) or not (
        MIN_SEATS <= seat_count <= MAX_SEATS
    ):
        errors["seat_count"] = [f"Amsterdam is played by {MIN_SEATS} to {MAX_SEATS} players"]
    elif seat_count == 1 and expansions:
        errors["expansions"] = ["the solo game allows no expansion (L888)"]
    if values.get("solo_amstel_face", 1) == values.get("solo_block_face", 6):
        errors["solo_block_face"] = ["must differ from solo_amstel_face"]
    if errors:
        raise OptionsError(errors)
    return Options(
        skilled_workers="skilled_workers" in expansions,
        tasks=tasks,
        black_market_pawn="black_market" in expansions,
        extra_market_tiles="market_tiles" in expansions,
        **values,
    )


def options_schema() -> dict:
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Amsterdam options",
        "type": "object",
        "properties": _SCHEMA_PROPERTIES,
        "additionalProperties": False,
    }
