"""Setup, options and component data."""

from __future__ import annotations

import pytest

from domain.decider import OptionsError
from domain.kontor import GAME
from domain.kontor.core.data import (
    CARDS,
    EXPANSION_SEATS,
    SCENARIO_SEATS,
    SEAT_COLORS,
    SPECIAL_RULE_SEATS,
    VARIANT_SEATS,
    dock_deck,
    water_deck,
)
from domain.kontor.core.options import Options, parse_options

SEED = "cd" * 32


def _state():
    return GAME.fold(GAME.start(parse_options({}, 2), 2, SEED))


def test_specials_removed_and_cross_formed():
    """« Les six cartes spéciales (1, 2, 90, 91, 92 et 93) sont retirés du jeu » ;
    « Prenez l'ancre ... au milieu de la table » ; « tirer les huit premières cartes ...
    pour former une croix avec l'ancre au centre »."""
    state = _state()
    board = {(c.x, c.y): c.card for c in state.board}
    assert board[(0, 0)] == 0 and CARDS[0].kind == "anchor"
    assert set(board) == {
        (0, 0),
        (0, -2),
        (0, -1),
        (-2, 0),
        (-1, 0),
        (1, 0),
        (2, 0),
        (0, 1),
        (0, 2),
    }
    assert all(CARDS[c].kind == "water" for p, c in board.items() if p != (0, 0))
    in_game = set(board.values()) | set(state.water_pile)
    for s in range(2):
        in_game |= set(state.hands[s]) | set(state.dock_piles[s])
    assert not in_game & {1, 2, 90, 91, 92, 93}
    assert len(in_game) == 1 + 43 + 44


def test_hands_piles_and_money():
    """« chaque joueur prend deux canaux faces cachées en main » ; « prend ensuite trois
    cartes cachées en main. Le reste devient sa pioche personnelle qu'il retourne face
    visible » ; « Chacun prend quatre florins. Le reste de l'argent devient la trésorerie »."""
    state = _state()
    for s in range(2):
        hand = state.hands[s]
        assert sum(CARDS[c].kind == "water" for c in hand) == 2
        assert sum(CARDS[c].kind == "dock" and CARDS[c].owner == s for c in hand) == 3
        assert len(state.dock_piles[s]) == 22 - 3
    assert len(state.water_pile) == 43 - 8 - 4
    assert state.money == (4, 4) and state.treasury == 12
    view = GAME.view(state, None)
    assert view["water_pile"]["top"]["number"] == state.water_pile[0]
    assert view["players"][0]["dock_pile"]["top"]["number"] == state.dock_piles[0][0]
    assert view["players"][1]["color"] == "black" and view["players"][0]["color"] == "red"
    assert "you" not in view and view["players"][0]["hand_size"] == 5


def test_start_is_deterministic_and_seed_dependent():
    a = GAME.start(Options(), 2, SEED)
    assert a == GAME.start(Options(), 2, SEED)
    assert a != GAME.start(Options(), 2, "ef" * 32)


def test_component_facts():
    """RULES-NOTES « Kontor »: 44 docks, 22 per colour, identical decks; 2 cranes, 1 tavern,
    19 goods docks per colour; taverns 88/89; cranes 29-32; 43 canals + anchor; docks 3
    (three goods), 7, 9, 16 (spice), 36; no card with both florin and ship."""
    docks = [c for c in CARDS.values() if c.kind == "dock"]
    assert len(docks) == 44
    for s in range(2):
        mine = [CARDS[i] for i in dock_deck(s)]
        assert len(mine) == 22
        assert sum(c.crane for c in mine) == 2 and sum(c.tavern for c in mine) == 1
        goods = [c for c in mine if c.goods]
        assert len(goods) == 19 and all(1 <= len(c.goods) <= 3 for c in goods)
    sig = [
        sorted((c.goods, c.florin, c.ship, c.crane, c.tavern) for c in map(CARDS.get, dock_deck(s)))
        for s in range(2)
    ]
    assert sig[0] == sig[1]
    assert {CARDS[88].tavern, CARDS[89].tavern} == {True}
    assert {CARDS[88].owner, CARDS[89].owner} == {0, 1}
    assert all(CARDS[n].crane for n in (29, 30, 31, 32))
    assert not CARDS[29].ship and not CARDS[30].ship and CARDS[31].ship and CARDS[32].ship
    assert {CARDS[29].owner, CARDS[30].owner} == {0, 1} and {CARDS[31].owner, CARDS[32].owner} == {
        0,
        1,
    }
    assert CARDS[90].kind == "flood" and CARDS[93].kind == "flood"
    assert CARDS[91].kind == "bridge" and CARDS[92].kind == "bridge"
    assert (
        CARDS[90].owner == 0
        and CARDS[92].owner == 0
        and CARDS[91].owner == 1
        and CARDS[93].owner == 1
    )
    assert CARDS[1].kind == CARDS[2].kind == "customs" and {CARDS[1].owner, CARDS[2].owner} == {
        0,
        1,
    }
    assert len(water_deck()) == 43
    assert len(CARDS[3].goods) == 3 and "spice" in CARDS[16].goods
    assert all(CARDS[n].kind == "dock" for n in (3, 7, 9, 16, 36))
    assert sorted(c.number for c in CARDS.values() if c.number is not None) == list(range(1, 94))
    assert not any(c.florin and c.ship for c in CARDS.values())
    assert any(c.florin for c in docks) and any(c.ship for c in docks)
    water = [c for c in CARDS.values() if c.kind == "water"]
    assert any(c.florin for c in water) and any(c.ship for c in water)
    max_dock = max(c.number for c in docks if not c.tavern)
    assert sum(c.number > max_dock for c in water) > len(water) / 2
    assert SEAT_COLORS == ("red", "black")


def test_options_basic_accepted():
    raw = {"variant": "basic", "scenario": None, "special_rules": [], "expansions": []}
    assert parse_options(raw, 2) == Options()
    assert parse_options({}, 2).board_size == 6


@pytest.mark.parametrize(
    ("raw", "seats", "field"),
    [
        ({"variant": "basic", "scenario": "giant"}, 2, "scenario"),
        ({"variant": "team"}, 2, "seat_count"),
        ({"variant": "nope"}, 2, "variant"),
        ({"special_rules": ["justice"]}, 4, "special_rules"),
        ({"expansions": ["event_cards"]}, 4, "expansions"),
        ({"colour": "red"}, 2, "colour"),
        ({}, 3, "seat_count"),
        ({}, 4, "seat_count"),
    ],
)
def test_options_refused_name_the_field(raw, seats, field):
    with pytest.raises(OptionsError) as err:
        parse_options(raw, seats)
    assert field in err.value.errors


def _base(seats: int) -> dict:
    return {"variant": "advanced" if seats == 2 else "team"}


def test_every_identifier_of_the_contract_is_available():
    """Issue 3: every variant, scenario, special rule and expansion is implemented: none is
    refused as « not available yet » at a player count its rulebook heading allows."""
    tried = 0
    for table, key in ((VARIANT_SEATS, "variant"), (SCENARIO_SEATS, "scenario"),
                       (SPECIAL_RULE_SEATS, "special_rules"), (EXPANSION_SEATS, "expansions")):
        for ident, seat_counts in table.items():
            for seats in seat_counts:
                raw = {"variant": ident} if key == "variant" else _base(seats)
                if key == "scenario":
                    raw["scenario"] = ident
                elif key in ("special_rules", "expansions"):
                    raw[key] = [ident]
                try:
                    parse_options(raw, seats)
                    tried += 1
                except OptionsError as err:  # e.g. flood_choice needs flood cards in play
                    messages = [m for ms in err.errors.values() for m in ms]
                    assert not any("not available" in m for m in messages), (raw, messages)
    assert tried >= 40


def test_options_schema_is_json_schema():
    schema = GAME.options_schema()
    assert schema["type"] == "object" and "variant" in schema["properties"]
