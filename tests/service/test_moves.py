"""Moves in words (service/moves.py), on real seeded games of each title played at the
domain level: every legal command gets words a player reads (no JSON, no type names),
the moves of one list never read the same, and Kontor's placements say where the card
goes and what it touches, from the seat's own view."""

from __future__ import annotations

import random
import re

import pytest

from domain.common.envelope import encode_command
from domain.decider import Issued
from domain.registry import titles
from service.moves import describe, describe_all

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
