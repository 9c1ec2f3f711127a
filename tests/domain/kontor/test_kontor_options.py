"""The options contract: every identifier, player counts, conflicts, availability."""

from __future__ import annotations

import pytest

from domain.decider import OptionsError
from domain.kontor import GAME
from domain.kontor.core.data import (
    EXPANSION_SEATS,
    SCENARIO_SEATS,
    SPECIAL_RULE_SEATS,
    VARIANT_SEATS,
)
from domain.kontor.core.options import Options, parse_options, view_options


def _errors(raw, seats) -> dict:
    with pytest.raises(OptionsError) as err:
        parse_options(raw, seats)
    return err.value.errors


def test_basic_json_forms_still_work():
    full = {"variant": "basic", "scenario": None, "special_rules": [], "expansions": []}
    assert parse_options(full, 2) == parse_options({"variant": "basic"}, 2) == Options()
    assert view_options(Options()) == {
        "variant": "basic",
        "scenario": None,
        "special_rules": [],
        "expansions": [],
        "board_size": 6,
        "idle_round_limit": 20,
    }


def test_advanced_and_team_switches():
    """« Le plateau de jeu est de 7x7 cartes » ; « seuls les cinq plus grands secteurs » ;
    « Le plateau de jeu pour quatre joueurs est de 8x8 cases » ; « au moins deux docks »."""
    adv = parse_options({"variant": "advanced"}, 2)
    assert (adv.board_size, adv.ship, adv.final_selection, adv.final_count) == (
        7,
        True,
        "largest",
        5,
    )
    team = parse_options(
        {"variant": "team", "scenario": None, "special_rules": [], "expansions": []}, 4
    )
    assert team.board_size == 8 and team.teams == ((0, 1), (2, 3))
    assert team.tax_pairs == ((0, 2), (1, 3)) and team.final_min_docks == 2
    assert team.specials_dealt == 1


@pytest.mark.parametrize(
    ("raw", "seats", "field", "text"),
    [
        ({"variant": "basic"}, 3, "seat_count", "for 2 players, not 3"),
        ({"variant": "advanced"}, 4, "seat_count", "for 2 players"),
        ({"variant": "team"}, 2, "seat_count", "for 4 players"),
        ({"variant": "free_for_all"}, 2, "seat_count", "for 3 or 4 players"),
        ({"variant": "free_wheel"}, 3, "seat_count", "for 2 or 4 players, not 3"),
        ({"variant": "advanced", "scenario": "giant", "expansions": ["export_warehouse"],
          "special_rules": ["choice_of_goods"]}, 2, "expansions", "cannot be combined"),
        ({"variant": "team", "scenario": "giant"}, 4, "scenario", "giant is for 2 players, not 4"),
        ({"variant": "basic", "scenario": "isola_grande"}, 2, "scenario", "advanced rules"),
        ({"special_rules": ["justice"]}, 4, "special_rules", "justice is for 2 players"),
        ({"special_rules": ["blockade"]}, 2, "special_rules", "ship"),
        ({"special_rules": ["bribery_1", "bribery_2"]}, 2, "special_rules", "cannot be combined"),
        ({"special_rules": ["nope"]}, 2, "special_rules", "unknown"),
        ({"variant": "free_wheel", "expansions": ["event_cards"]}, 2, "expansions", "Roue libre"),
        ({"variant": "team", "expansions": ["event_cards"]}, 4, "expansions", "for 2 players"),
        ({"variant": 3}, 2, "variant", "must be a string"),
    ],
)
def test_impossible_or_unavailable_combinations_say_why(raw, seats, field, text):
    errors = _errors(raw, seats)
    assert field in errors, errors
    assert any(text in m for m in errors[field]), errors[field]


def test_schema_lists_every_identifier_and_availability():
    schema = GAME.options_schema()
    props = schema["properties"]
    assert props["variant"]["enum"] == list(VARIANT_SEATS)
    assert props["variant"]["x-available"] == [
        "basic",
        "advanced",
        "team",
        "free_wheel",
        "free_for_all",
    ]
    assert props["scenario"]["oneOf"][1]["enum"] == list(SCENARIO_SEATS)
    assert props["special_rules"]["items"]["enum"] == list(SPECIAL_RULE_SEATS)
    assert props["expansions"]["items"]["enum"] == list(EXPANSION_SEATS)
    assert len(SCENARIO_SEATS) == 15 and len(SPECIAL_RULE_SEATS) == 18
