"""Expansion 2, the task tiles (L798-832, L1907-2128)."""

from __future__ import annotations

from domain.amsterdam import GAME, data
from domain.amsterdam.state import ACTIONS
from domain.amsterdam.tasks import score_tasks
from domain.common.frozen import replace
from domain.rng import Rng
from tests.domain.amsterdam.helpers import at_phase, started, vector, with_seat


def test_three_secret_tiles_each_seen_only_by_their_owner():
    """L806: "Distribuez aléatoirement trois tuiles Tâche à chaque joueur ... gardez-les
    ensuite face cachée"."""
    state = started(3, {"expansions": ["tasks"], "tasks": "secret3"})
    assert [len(h) for h in state.tasks] == [3, 3, 3] and len(state.task_pile) == 33
    view = GAME.view(state, 1)
    assert view["you"]["tasks"] == list(state.tasks[1])
    assert view["seats"][0]["tasks"] == 3 and view["seats"][1]["tasks"] == list(state.tasks[1])
    other = GAME.redetermine(state, 1, Rng("ab" * 32))
    assert other.tasks[1] == state.tasks[1] and GAME.view(other, 1) == view
    events = GAME.start(state.options, 3, state.seed)
    dealt = next(e for e in events if e.TYPE == "amsterdam.TasksDealt")
    redacted = GAME.redact_event(dealt, 1)
    assert redacted["hands"][0] == 3 and redacted["hands"][1] == list(state.tasks[1])
    assert redacted["pile"] == 33


def test_five_secret_or_open_tiles():
    """L808-810: 5 tiles each; or 1 or 2 tiles face up "sans informations cachées"."""
    assert [len(h) for h in started(2, {"expansions": ["tasks"], "tasks": "secret5"}).tasks] == [5, 5]
    state = started(2, {"expansions": ["tasks"], "tasks": "open2"})
    assert GAME.view(state, None)["seats"][0]["tasks"] == list(state.tasks[0])


def test_a_full_beer_warehouse_scores_whoever_filled_it():
    """L828-830: "3 marchandises (bière) ont été livrées à l'entrepôt Bière. Ce n'est pas
    important de savoir QUI ... 2 joueurs ... 7 points, 3 joueurs 6 ... 4 joueurs 5"."""
    for seats, points in ((2, 7), (3, 6), (4, 5)):
        state = at_phase(ACTIONS, seats, {"expansions": ["tasks"], "tasks": "open1"})
        state = replace(state, tasks=((24,),) * seats)
        assert score_tasks(state, 0) == (0, 0)
        roofs = list(state.roofs)
        roofs[data.GOODS.index("beer")] = 3
        assert score_tasks(replace(state, roofs=tuple(roofs)), 0) == (points, 0)


def test_returns_pay_and_leave_the_surplus():
    """L2085-2128: task 33 returns up to 6 different resources (1/2/3/5/7/10); tasks 37-42
    return 1 or 2 dockers of a colour (2/3/4 or 7/8/9)."""
    state = replace(at_phase(ACTIONS, 2, {"expansions": ["tasks"], "tasks": "open2"}), tasks=((33, 37), (1, 2)))
    state = with_seat(state, 0, reserve=vector("black", "pink", "pink", "grey"), house=None,
                      dockers=("light_blue", "light_blue"))
    assert score_tasks(state, 0) == (3 + 7, 3 + 2)


def test_tasks_appear_in_the_final_breakdown():
    """B22: tasks are scored after the districts, before the surplus."""
    from domain.amsterdam.commands import EndTurn
    from tests.domain.amsterdam.helpers import play

    state = replace(at_phase(ACTIONS, 2, {"expansions": ["tasks"], "tasks": "open1"}), tasks=((30,), (30,)), round=12)
    state = replace(state, position=1)
    state = with_seat(state, 0, barge=data.START)
    state = with_seat(state, 1, barge="W1")
    state = play(state, EndTurn(None), state.order[1])
    assert [line.tasks for line in state.scores] == [4, 0]
