"""The finishing order a result gives (service/lobby/ratings.py ``standings``) and the numbers
OpenSkill gives for it, checked against the ``openskill`` package's own computation with
the teams and ranks written out by hand. No database."""

from __future__ import annotations

import pytest
from openskill.models import PlackettLuce

from service.lobby.ratings import (
    DEFAULT_MU,
    DEFAULT_SIGMA,
    Standing,
    displayed,
    provisional,
    rate,
    standings,
)

MODEL = PlackettLuce()


def result(scores, winners, **detail):
    return {"scores": scores, "winners": winners, "detail": detail}


def by_hand(teams: list[list[tuple[float, float]]], ranks: list[int]) -> list[list[tuple[float, float]]]:
    rated = MODEL.rate([[MODEL.rating(mu=m, sigma=s) for m, s in team] for team in teams], ranks=ranks)
    return [[(r.mu, r.sigma) for r in team] for team in rated]


NEW = (DEFAULT_MU, DEFAULT_SIGMA)


def test_the_package_defaults_are_the_ones_documented():
    assert DEFAULT_MU == 25.0 and DEFAULT_SIGMA == pytest.approx(25 / 3)
    assert displayed(DEFAULT_MU, DEFAULT_SIGMA) == 1000 and provisional(DEFAULT_SIGMA)
    assert displayed(30.0, 2.0) == round(1000 + 40 * 24) and not provisional(2.0)


def test_two_seats_winner_first():
    order = standings(result([12.0, 30.0], [1], money=[5, 3]), 2)
    assert order == [Standing((0,), 2), Standing((1,), 1)]
    assert rate([[NEW], [NEW]], [2, 1]) == by_hand([[NEW], [NEW]], [2, 1])


def test_four_seats_free_for_all_by_score_then_the_titles_tie_break():
    # Speicherstadt: coins break a tie on points (the winners list already says who won)
    order = standings(result([40.0, 52.0, 40.0, 33.0], [1], coins=[2, 9, 7, 1]), 4)
    assert [s.rank for s in order] == [3, 1, 2, 4]
    before = [[(25.0, 8.0)], [(27.0, 5.0)], [(22.0, 7.5)], [NEW]]
    assert rate(before, [3, 1, 2, 4]) == by_hand(before, [3, 1, 2, 4])


def test_ties_share_a_rank():
    # two winners (a tie the title could not break) and two seats equal on everything
    order = standings(result([50.0, 50.0, 20.0, 20.0], [0, 1], money=[4, 4, 3, 3]), 4)
    assert [s.rank for s in order] == [1, 1, 2, 2]
    four = [[NEW], [NEW], [NEW], [NEW]]
    assert rate(four, [1, 1, 2, 2]) == by_hand(four, [1, 1, 2, 2])
    after = rate(four, [1, 1, 2, 2])
    assert after[0] == after[1] and after[2] == after[3] and after[0][0][0] > after[2][0][0]


def test_teams_are_rated_as_teams():
    teams = [{"color": "red", "seats": [0, 2], "points": 31, "money": 7},
             {"color": "blue", "seats": [1, 3], "points": 44, "money": 2}]
    order = standings(result([31.0, 44.0, 31.0, 44.0], [1, 3], teams=teams), 4)
    assert order == [Standing((0, 2), 2), Standing((1, 3), 1)]
    before = [[(25.0, 8.0), (30.0, 4.0)], [NEW, (20.0, 6.0)]]
    assert rate(before, [2, 1]) == by_hand(before, [2, 1])


def test_a_seat_out_ranks_last_whatever_its_score():
    # seat 0 resigned (or timed out under forfeit, or was abandoned): a computer played it
    # to the end and it scored best, yet it ranks last
    order = standings(result([60.0, 41.0, 35.0], [1], out=[0], ranking=[1, 2, 0]), 3)
    assert [s.rank for s in order] == [3, 1, 2]
    # two seats out share the last place
    both = standings(result([60.0, 41.0, 35.0, 1.0], [3], out=[0, 1]), 4)
    assert [s.rank for s in both] == [3, 3, 2, 1]
    # two seats, one forfeits: the other wins
    forfeit = standings(result([0.0, 1.0], [1], out=[0], ended_by="forfeit"), 2)
    assert [s.rank for s in forfeit] == [2, 1]
    three = [[NEW], [NEW], [NEW]]
    assert rate(three, [3, 1, 2]) == by_hand(three, [3, 1, 2])


def test_a_team_with_a_seat_out_ranks_last():
    teams = [{"seats": [0, 2], "money": 7}, {"seats": [1, 3], "money": 2}]
    order = standings(result([50.0, 20.0, 50.0, 20.0], [1, 3], teams=teams, out=[0]), 4)
    assert [s.rank for s in order] == [2, 1]
