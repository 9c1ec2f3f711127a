"""Moves in words (service/games/moves.py), on real seeded games of each title played at the
domain level: every legal command gets words a player reads (no JSON, no type names),
the moves of one list never read the same, and Kontor's placements say where the card
goes and what it touches, from the seat's own view."""

from __future__ import annotations

import random
import re

import pytest

from domain.common.envelope import encode_command
from domain.decider import Issued, OptionsError
from domain.registry import titles
from service.games.moves import describe, describe_all

CAMEL = re.compile(r"\b[A-Z][a-z]+[A-Z]\w*")  # PlaceCard, ChooseOpeningCard ...


def _positions(title_id: str, seed: int, steps: int = 150):
    """(view of the seat to act, its legal commands) along one seeded game."""
    game = titles()[title_id]
    state = game.fold(game.start(game.parse_options({}, 2), 2, f"{seed:02x}" * 32))
    chooser = random.Random(seed)
    for _ in range(steps):
        if game.is_finished(state):
            return
        seat = game.to_act(state)[0]
        legal = game.legal_commands(state, seat)
        yield game.view(state, seat), [encode_command(c) for c in legal]
        issued = Issued(seat, "2026-01-01T00:00:00Z", chooser.choice(legal))
        state = game.fold(game.decide(state, issued), state)


@pytest.mark.parametrize("title_id", ["kontor", "amsterdam", "speicherstadt"])
def test_every_move_has_words_and_no_two_moves_read_the_same(title_id):
    lists = 0
    for seed in (1, 2):
        for view, commands in _positions(title_id, seed):
            words = describe_all(title_id, view, commands)
            assert len(words) == len(commands)
            assert len(set(words)) == len(words), words
            for said in words:
                assert said and "{" not in said and not CAMEL.search(said), said
            lists += 1
    assert lists > 20


def test_kontor_placements_say_where_and_next_to_what():
    placements = [(view, c) for seed in (1, 2, 3) for view, commands in _positions("kontor", seed)
                  for c in commands if c["type"] == "PlaceCard"]
    assert placements
    for view, command in placements:
        said = describe("kontor", view, command)
        assert said.startswith("place card ") and (" of the anchor" in said), said
    touching_docks = [describe("kontor", v, c) for v, c in placements if "dock" in describe("kontor", v, c).split("next to")[-1]]
    assert any("your dock" in s or "'s dock" in s for s in touching_docks), touching_docks[:3]
    # the square itself: 2 north and 1 west of the anchor is x=-1, y=-2
    view = placements[0][0]
    assert "on the square 2 north and 1 west of the anchor" in describe("kontor", view, {"type": "PlaceCard", "x": -1, "y": -2})


def test_an_unknown_command_is_said_generically():
    assert describe("kontor", {}, {"type": "PlaceSunkenWarehouse", "x": 1, "y": 2}).startswith("place the sunken")
    assert describe("nosuchtitle", None, {"type": "TakeBigRest", "hours": 3}) == "take big rest: hours 3"


# Amsterdam (solo and with every expansion) and Speicherstadt: every move in its own words
ALL_AMSTERDAM = {"expansions": ["skilled_workers", "tasks", "black_market", "market_tiles"], "tasks": "secret5"}
FORMS = [("amsterdam", {}, 1), ("amsterdam", {}, 2), ("amsterdam", ALL_AMSTERDAM, 3),
         ("amsterdam", {**ALL_AMSTERDAM, "dice_choice": "simultaneous", "tasks": "open2"}, 4),
         ("speicherstadt", {}, 2), ("speicherstadt", {}, 5)]


def _asked(title_id: str, options: dict, seats: int, seed: int, moves: int = 4000):
    """(the title, a state, a seat asked to act in it) along a seeded game, to its end or
    for ``moves`` moves."""
    game = titles()[title_id]
    state = game.fold(game.start(game.parse_options(options, seats), seats, f"{seed:02x}" * 32))
    chooser = random.Random(seed)
    for _ in range(moves):
        if game.is_finished(state):
            return
        for seat in game.to_act(state):
            yield game, state, seat
        seat = chooser.choice(list(game.to_act(state)))
        issued = Issued(seat, "2026-01-01T00:00:00Z", chooser.choice(game.legal_commands(state, seat)))
        state = game.fold(game.decide(state, issued), state)


def _played(title_id: str, options: dict, seats: int, seed: int):
    """(view, legal commands) of every seat asked to act, along a whole seeded game."""
    for game, state, seat in _asked(title_id, options, seats, seed):
        yield game.view(state, seat), [encode_command(c) for c in game.legal_commands(state, seat)]


def test_every_amsterdam_and_speicherstadt_move_is_said_in_its_own_words_not_generically():
    from service.games.moves import generic

    seen: dict[tuple[str, str], str] = {}
    for title_id, options, seats, in FORMS:
        for n, (view, commands) in enumerate(_played(title_id, options, seats, 40 + seats)):
            if n % 3:
                continue
            for command in commands:
                said = describe(title_id, view, command)
                assert said != generic(command), (title_id, command)
                assert "{" not in said and "_" not in said and not CAMEL.search(said), said
                assert not re.search(r"\b(None|True|False)\b", said), said
                seen.setdefault((title_id, command["type"]), said)
    amsterdam = {t for title_id, t in seen if title_id == "amsterdam"}
    speicherstadt = {t for title_id, t in seen if title_id == "speicherstadt"}
    # the moves of each title that whole games reach (Convert is card-driven and rare)
    assert {"ChooseOpeningCard", "ChooseOpeningResources", "TakeCard", "ChooseDice", "ActivateCard",
            "UseCard", "TakeBlock", "LoadGood", "MoveBarge", "AdvanceAmstel", "BuyPrestige", "EndTurn",
            "PlaceFigure", "DiscardForTom", "ChooseResource"} <= amsterdam, sorted(amsterdam)
    assert {"PlaceWorker", "BuyCard", "RefuseCard", "DeliverCube", "MarketSell", "MarketConvert",
            "KeepCube", "EndShipping"} <= speicherstadt, sorted(speicherstadt)


def test_amsterdam_and_speicherstadt_words_name_the_cards_places_and_payments():
    view = {"you": {"seat": 0}, "dice": [4, 1, 3, 2, 6, 5], "market_tile": "A1",
            "city": [{"block": "pink2", "good": "tulip", "owner": None}],
            "seats": [{"seat": 0, "barge": {"node": "tulip"}}]}
    assert describe("amsterdam", view, {"type": "TakeCard", "card": "041", "discard": None}) == \
        "take craftsman 041 (brewer, costs brown + orange)"
    assert describe("amsterdam", view, {"type": "ChooseDice", "dice": ["black", "brown"], "slots": [4, 1]}) == \
        "take the black die (showing 4) and the brown die (showing 1): their resources go on sections 4 and 1" \
        " of your compass rose"
    assert describe("amsterdam", view, {"type": "TakeBlock", "block": "pink2", "payment": ["pink", "pink"],
                                        "by_florins": False, "sale": "florins"}) == \
        "buy block pink 2 of the Plantage (costs 2, holds tulip), paying 2 pink, and sell its tulip on the" \
        " black market for florins"
    assert describe("amsterdam", view, {"type": "MoveBarge", "to": "P:light_blue", "pay": "grey"}) == \
        "move your barge to the light blue docker pontoon, paying 1 grey resource"
    assert describe("amsterdam", view, {"type": "DeliverGood", "good": "tulip"}) == \
        "deliver tulip from your barge at the tulip warehouse"
    assert describe("amsterdam", view, {"type": "BuyPrestige"}) == \
        "buy market tile A1 for 1 florin (1 prestige point, 2 Amstel spaces)"
    offer = {"you": {"seat": 1}, "offer": [{"column": 0, "card": "A-contract-1", "workers": [0, 1]}],
             "current_offer": {"column": 0, "card": "A-contract-1", "seat": 1, "price": 2},
             "seats": [{"seat": 1, "cards": ["A-coffee-trader"],
                        "contracts": [{"card": "A-contract-1", "missing": ["saffron", "carpet"]}]}]}
    assert describe("speicherstadt", offer, {"type": "PlaceWorker", "column": 0}) == \
        "place a worker in column 1 above Contract (saffron + carpet, 5 points) (2 workers there already)"
    assert describe("speicherstadt", offer, {"type": "BuyCard"}) == \
        "buy Contract (saffron + carpet, 5 points) for 2 coins"
    assert describe("speicherstadt", offer, {"type": "DeliverCube", "good": "carpet", "contract": "A-contract-1"}) \
        == "deliver a carpet cube to your Contract (saffron + carpet, 5 points) (then still missing: saffron)"
    assert describe("speicherstadt", offer, {"type": "SellCube", "good": "coffee"}) == \
        "sell a coffee cube to your Coffee Roaster for 1 coin"


def test_kontor_expansion_and_form_moves_are_said_in_words_not_generically():
    from service.games.moves import generic

    view = {"you": {"color": "red"}, "board": {"cells": [
        {"x": 0, "y": 0, "card": {"kind": "anchor"}},
        {"x": 1, "y": 0, "card": {"kind": "dock", "owner": "red", "number": 25, "tavern": True}},
        {"x": 0, "y": 1, "card": {"kind": "dock", "owner": "black", "number": 14}}]}}
    commands = [{"type": "ChooseGood", "good": "tea"},
                {"type": "SetDrunkDock", "tavern_x": 1, "tavern_y": 0, "x": 0, "y": 1},
                {"type": "ProposeAlliance", "x": 0, "y": 1, "seat": 1}, {"type": "AcceptAlliance"},
                {"type": "DeclineAlliance"}, {"type": "ExportWarehouse", "x": 1, "y": 1, "good": "wine"},
                {"type": "SwapWarehouse", "x": 1, "y": 0, "good": "tea", "new_good": "wine"}, {"type": "SkipEvent"},
                {"type": "SecondCanal", "card": None, "x": None, "y": None},
                {"type": "SecondCanal", "card": 61, "x": 2, "y": 0},
                {"type": "ChooseFaceDown", "card": 25, "draw": "dock"}, {"type": "EndBribe"},
                {"type": "DecideTavernSector", "x": 1, "y": 0, "counted": False}]
    for command in commands:
        said = describe("kontor", view, command)
        assert said != generic(command) and "_" not in said and not CAMEL.search(said), said
    assert describe("kontor", view, commands[1]) == \
        "let the tavern of your dock 25 1 east of the anchor make black's dock 14 1 south of the anchor drunk"


def test_kontor_first_choice_says_the_price_the_game_set():
    """« Premier choix »: taking any dock of one's pile costs the game's pile_pick_cost (its
    view's options), not a price written in the words."""
    pick = {"type": "DrawCard", "pile": "dock_pick"}
    assert describe("kontor", {"options": {"pile_pick_cost": 3}}, pick) == "pay 3 florins to take any dock from your pile"
    assert describe("kontor", {"options": {"pile_pick_cost": 1}}, pick) == "pay 1 florin to take any dock from your pile"
    first_choice = titles()["kontor"].parse_options({"special_rules": ["first_choice"]}, 2)
    game = titles()["kontor"]
    view = game.view(game.fold(game.start(first_choice, 2, "ab" * 32)), 0)
    assert describe("kontor", view, pick) == f"pay {view['options']['pile_pick_cost']} florins to take any dock from your pile"


@pytest.mark.parametrize("title_id", ["kontor", "amsterdam", "speicherstadt"])
def test_describing_a_whole_list_at_once_says_what_each_move_said_alone(title_id):
    """describe_all reads the board and the cards shown once per view (moves.py ``_Read``),
    which must change no word: each move reads as describe says it on the plain view
    (plus its fields where two would read the same)."""
    compared = 0
    for seed in (3, 4):
        for view, commands in _positions(title_id, seed, steps=120):
            alone = [describe(title_id, view, c) for c in commands]
            together = describe_all(title_id, view, commands)
            for said, listed in zip(alone, together, strict=True):
                assert listed == said or listed.startswith(f"{said} ("), (said, listed)
            compared += len(commands)
    assert compared > 200


def _kontor_forms():
    """(options, seats) for every Kontor form, scenario, special rule and expansion: each
    variant at each seat count the options schema gives it, then each scenario, rule and
    expansion alone on the first game that takes it (the advanced game at 2, the team game
    at 4, or with the rule that brings what it acts on)."""
    game = titles()["kontor"]
    schema = game.options_schema()["properties"]
    for variant, counts in schema["variant"]["x-seats"].items():
        yield from (({"variant": variant}, seats) for seats in counts)
    for key in ("scenario", "special_rules", "expansions"):
        for name in schema[key]["x-seats"]:
            named = name if key == "scenario" else [name]
            tried = [({"variant": "advanced", key: named}, 2), ({"variant": "team", key: named}, 4),
                     ({"variant": "advanced", key: named, "special_rules": [name, "bridge_and_flood"]}, 2)]
            playable = [(options, seats) for options, seats in tried if _parses(game, options, seats)]
            assert playable, f"no form found for {key} {name}"
            yield playable[0]


def _parses(game, options: dict, seats: int) -> bool:
    try:
        game.parse_options(options, seats)
    except OptionsError:
        return False
    return True


def test_kontor_words_read_the_same_on_the_words_view_as_on_the_whole_view():
    """GET legal-commands says the moves in words from Kontor's ``words_view`` (the board's
    cards, the piles, the seat's hand; not the sectors and points the whole view works
    out): every move of every seat asked to act, in every form, scenario, special rule and
    expansion, reads exactly as on the whole view."""
    forms = compared = 0
    for options, seats in _kontor_forms():
        forms += 1
        for game, state, seat in _asked("kontor", options, seats, forms, moves=90):
            commands = [encode_command(c) for c in game.legal_commands(state, seat)]
            whole = describe_all("kontor", game.view(state, seat), commands)
            assert describe_all("kontor", game.words_view(state, seat), commands) == whole, options
            compared += len(commands)
    assert forms >= 42 and compared > 5000, (forms, compared)
