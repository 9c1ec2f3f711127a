"""Each title's ``evaluate`` (the search's cut-off estimate) reads a lead as a lead.

The search stops its rollouts after ``rollout_depth`` decisions and backs up
``evaluate(state, seat)``: an estimate blind to the score would let a strong seat throw a
won game away.  Checked on real positions: the same state with the seat's score raised
reads better for it, and no better (worse for some) for the others.
"""

from __future__ import annotations

import pytest

from domain.common.frozen import replace
from domain.decider import Issued
from domain.registry import titles
from domain.rng import Rng

AT = "2026-01-01T00:00:00Z"


def midgame(title: str, raw: dict, seats: int, moves: int = 30):
    game = titles()[title]
    state = game.fold(game.start(game.parse_options(raw, seats), seats, "3c" * 32))
    rng = Rng("41" * 32)
    for n in range(moves):
        seat = sorted(game.to_act(state))[0]
        command = game.policy(state, seat, rng.fork(f"{n}"), "normal")
        state = game.fold(game.decide(state, Issued(seat, AT, command)), state)
    assert not game.is_finished(state)
    return game, state


def kontor_ahead(state, seat):
    points = list(state.points)
    points[seat] += 2
    return replace(state, points=tuple(points))


def seat_ahead(field):
    def ahead(state, seat):
        seats = list(state.seats)
        seats[seat] = replace(seats[seat], **{field: getattr(seats[seat], field) + 8})
        return replace(state, seats=tuple(seats))
    return ahead


@pytest.mark.parametrize("title, raw, seats, ahead", [
    ("kontor", {"variant": "basic"}, 2, kontor_ahead),
    ("kontor", {"variant": "free_for_all"}, 3, kontor_ahead),
    ("speicherstadt", {}, 3, seat_ahead("points")),
    ("amsterdam", {}, 2, seat_ahead("points")),
])
def test_a_lead_reads_better_for_the_seat_and_worse_for_the_others(title, raw, seats, ahead):
    game, state = midgame(title, raw, seats)
    assert game.evaluate is not None and game.rollout_depth
    for seat in range(seats):
        before = game.evaluate(state, seat)
        assert 0.0 <= before <= 1.0
        better = ahead(state, seat)
        assert game.evaluate(better, seat) > before
        others = [(game.evaluate(better, o), game.evaluate(state, o)) for o in range(seats) if o != seat]
        assert all(after <= now for after, now in others) and any(after < now for after, now in others)
