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
from domain.kontor.core.commands import PlaceCard
from domain.kontor.policy import free_wheel
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


def kontor_richer(state, seat):
    """Free for all scores only at the end; with three sides money breaks the frequent
    ties on points, so a florin lead is a lead."""
    money = list(state.money)
    money[seat] += 8
    return replace(state, money=tuple(money))


def seat_ahead(field):
    def ahead(state, seat):
        seats = list(state.seats)
        seats[seat] = replace(seats[seat], **{field: getattr(seats[seat], field) + 8})
        return replace(state, seats=tuple(seats))
    return ahead


@pytest.mark.parametrize("title, raw, seats, ahead", [
    ("kontor", {"variant": "basic"}, 2, kontor_ahead),
    ("kontor", {"variant": "free_for_all"}, 3, kontor_richer),
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


@pytest.mark.parametrize("raw, seats", [({"variant": "free_wheel"}, 2), ({"variant": "free_for_all"}, 3)])
def test_kontor_free_wheel_forms_are_judged_as_their_final_count_scores(raw, seats):
    """« 11. Tous les secteurs sont comptabilisés, à condition de comporter au moins 2
    docks »: nothing is scored before the end, so the cut-off must read the board as the
    final count would (the free wheel policy's provisional lead), not as the basic game's
    closed sectors.  Every placement open to the seat is ranked the same way by both."""
    game, state = midgame("kontor", raw, seats, moves=40)
    rng, judged = Rng("42" * 32), 0
    for n in range(300):
        seat = sorted(game.to_act(state))[0]
        places = [c for c in game.legal_commands(state, seat) if isinstance(c, PlaceCard)]
        afters = [game.fold(game.decide(state, Issued(seat, AT, c)), state) for c in places]
        leads = [free_wheel.lead(after, seat) for after in afters]
        if len(set(leads)) > 1:  # a placement that matters (a dock, not a lone canal)
            judged += 1
            estimates = [game.evaluate(after, seat) for after in afters]
            for a in range(len(afters)):
                for b in range(len(afters)):
                    assert (leads[a] < leads[b]) == (estimates[a] < estimates[b])
        command = game.policy(state, seat, rng.fork(f"{n}"), "normal")
        state = game.fold(game.decide(state, Issued(seat, AT, command)), state)
        if game.is_finished(state) or judged >= 5:
            break
    assert judged >= 5
