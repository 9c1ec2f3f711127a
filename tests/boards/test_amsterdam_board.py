"""Amsterdam boards drawn from real views: mid-game (with dockers delivered, tasks, the
figures) and finished, for every viewer, as an SVG picture and in the terminal client."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
from rich.console import Console

from boards import render
from clients.terminal import amsterdam as terminal_drawing
from domain.amsterdam import GAME
from domain.common.frozen import replace
from domain.rng import Rng
from tests.conformance.harness import play_random_game, seed_for


@pytest.mark.parametrize("seats, options", [(1, {}), (3, {
    "expansions": ["skilled_workers", "tasks", "black_market"], "tasks": "secret3"})])
def test_every_position_of_a_game_draws(seats, options):
    played = play_random_game(GAME, GAME.parse_options(options, seats), seats, seed_for(5), Rng(seed_for(6)))
    middle = played.states[len(played.states) // 2]
    with_docker = replace(middle, docker_building=(("pink", 0),), black_market=("coffee",))
    states = played.states[:: max(1, len(played.states) // 5)] + [with_docker, played.final]
    for state in states:
        for viewer in [None, *range(seats)]:
            view = GAME.view(state, viewer)
            ET.fromstring(render("amsterdam", view, GAME.component_data()))
            Console(file=open("/dev/null", "w")).print(terminal_drawing(view))
    svg = render("amsterdam", GAME.view(with_docker, None), GAME.component_data())
    assert "docker building: pink (seat 0)" in svg and "coffee" in svg
