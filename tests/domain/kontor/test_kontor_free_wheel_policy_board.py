"""The free wheel policy rates a placement by recounting only the sectors the card
touches (policy/free_wheel.py ``_Board``): every such rating must equal a full recount of
the board after the placement, in both free wheel forms and every seat count."""

from __future__ import annotations

import pytest

from domain.decider import Issued
from domain.kontor import GAME
from domain.kontor.core.commands import ChooseCard
from domain.kontor.core.placement import placement_cells
from domain.kontor.policy import free_wheel
from domain.rng import Rng


@pytest.mark.parametrize("variant, seats", [("free_wheel", 2), ("free_wheel", 4), ("free_for_all", 3)])
def test_a_placements_rating_equals_a_full_recount(variant, seats):
    state = GAME.fold(GAME.start(GAME.parse_options({"variant": variant}, seats), seats, "2a" * 32))
    rated = merged = 0
    n = 0
    while not GAME.is_finished(state):
        seat = min(GAME.to_act(state))
        if n % 2 == 0:
            base = free_wheel._base(state)
            board = free_wheel._Board(state, base)
            for command in GAME.legal_commands(state, seat):
                if not isinstance(command, ChooseCard):
                    continue
                for pos in placement_cells(state, base[0], command.card, seat):
                    after = free_wheel._placed(state, seat, command.card, pos, base)
                    full = free_wheel._Board(state, after)
                    assert board.placed_value(seat, command.card, pos) == pytest.approx(full.value(seat), abs=1e-12)
                    rated += 1
                    merged += len(full.parts) < len(board.parts)
        command = GAME.policy(state, seat, Rng(f"{n:064x}"), "normal")
        state = GAME.fold(GAME.decide(state, Issued(seat, "2026-01-01T00:00:00Z", command)), state)
        n += 1
    assert rated > 200 and merged > 0  # the placements joined sectors, not only grew one
