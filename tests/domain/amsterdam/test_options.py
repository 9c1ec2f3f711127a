"""Options: every reading and expansion is named; what is not implemented is refused."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from domain.amsterdam import GAME
from domain.decider import OptionsError


def test_defaults():
    options = GAME.parse_options({}, 3)
    assert options.rounds == 12 and options.dice_choice == "sequential" and options.tasks == "none"


@pytest.mark.parametrize("raw", [{"rounds": 11}, {"rounds": True}, {"tasks": "all"},
                                 {"colour": "red"}, {"skilled_workers": True},
                                 {"expansions": ["tasks", "tasks"]}, {"expansions": "tasks"},
                                 {"expansions": ["market_tiles_a"]}])
def test_bad_values_are_refused(raw):
    with pytest.raises(OptionsError) as err:
        GAME.parse_options(raw, 2)
    assert set(err.value.errors) == set(raw)


@pytest.mark.parametrize("seats", [0, 5, True])
def test_seat_counts(seats):
    with pytest.raises(OptionsError) as err:
        GAME.parse_options({}, seats)
    assert "seat_count" in err.value.errors


def test_schema_lists_every_option():
    schema = GAME.options_schema()
    assert schema["additionalProperties"] is False
    assert {"rounds", "expansions", "tasks", "dice_choice", "docker_pickup",
            "tasks_activated"} <= set(schema["properties"])


def test_the_api_shape_of_the_expansions():
    """../shared/API.md, "Amsterdam options": expansions by name, the task mode beside them."""
    options = GAME.parse_options({"expansions": ["skilled_workers", "tasks", "black_market",
                                                 "market_tiles"], "tasks": "open2"}, 4)
    assert options.skilled_workers and options.black_market_pawn and options.extra_market_tiles
    assert options.tasks == "open2"
    assert GAME.parse_options({"expansions": ["tasks"]}, 2).tasks == "secret3"  # the default mode
    with pytest.raises(OptionsError) as err:
        GAME.parse_options({"tasks": "open1"}, 2)  # a task mode without the expansion
    assert set(err.value.errors) == {"tasks"}


def test_the_rules_page_lists_every_option_and_its_example_is_accepted():
    page = (Path(__file__).resolve().parents[3] / "docs" / "rules" / "amsterdam.md").read_text()
    table = page.split("### Options in the API", 1)[1]
    listed = set(re.findall(r"^\| `(\w+)` \|", table, flags=re.MULTILINE))
    assert listed == set(GAME.options_schema()["properties"])
    example = json.loads(re.search(r"Example: `(\{.*\})`", table).group(1))
    options = GAME.parse_options(example, 3)
    assert options.rounds == 10 and options.tasks == "open2" and options.black_market_pawn
