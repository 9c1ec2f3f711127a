"""Every Kontor scenario, special rule and expansion: a random finished game's record (the
service's own record builder over the domain's events) verifies, every event re-derived."""

from __future__ import annotations

import pytest

from domain.decider import OptionsError
from domain.registry import titles
from tests.golden.record_audit import record
from verifier.verify import verify_record

KONTOR = titles()["kontor"]
PROPERTIES = KONTOR.options_schema()["properties"]
SCENARIOS = PROPERTIES["scenario"]["oneOf"][1]["enum"]
SPECIAL_RULES = PROPERTIES["special_rules"]["items"]["enum"]
EXPANSIONS = PROPERTIES["expansions"]["items"]["enum"]
CHOICES = ([{"scenario": s} for s in SCENARIOS] + [{"special_rules": [r]} for r in SPECIAL_RULES]
           + [{"expansions": [e]} for e in EXPANSIONS])


def playable(choice: dict) -> dict:
    for variant in ("advanced", "basic", "team"):
        raw = {"variant": variant, **choice}
        try:
            KONTOR.parse_options(raw, 4 if variant == "team" else 2)
        except OptionsError:
            continue
        return raw
    raise AssertionError(f"no variant plays {choice}")


@pytest.mark.parametrize("choice", CHOICES, ids=[next(iter(c.values())) if isinstance(next(iter(c.values())), str)
                                                 else next(iter(c.values()))[0] for c in CHOICES])
def test_a_game_with_this_option_verifies(choice):
    raw = playable(choice)
    made = record("kontor", raw, 4 if raw["variant"] == "team" else 2, 7000 + CHOICES.index(choice))
    report = verify_record(made)
    assert report.summary() == f"verified: {len(made['steps'])} steps, every event re-derived"
