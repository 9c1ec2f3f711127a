"""Expansion 2, the task tiles (L798-832, L1907-2128): dealt at setup, scored at the end
after the districts and before the surplus (B22). End-of-game returns are taken
automatically, the larger task first, when they pay (each returned item costs at most half
a surplus point, every return pays at least 1)."""

from __future__ import annotations

from domain.amsterdam import cards, data
from domain.amsterdam.board import blocks_of
from domain.amsterdam.payments import colours_of
from domain.amsterdam.state import State


def points_for(task: data.Task, seat_count: int) -> int:
    seats = data.TASK_POINT_SEATS
    return task.points[seats.index(min(max(seat_count, seats[0]), seats[-1]))]


def _condition(state: State, seat: int, task: data.Task) -> bool:
    me = state.seats[seat]
    kind, param = task.kind, task.param
    if kind == "docker_pair_in_building":
        return sum(1 for c, _ in state.docker_building if c == param) == task.count
    if kind == "four_blocks_in":
        return (sum(1 for b in blocks_of(state, seat) if data.BLOCKS[b].district == param)
                >= task.count)
    if kind == "three_of_each_kind":
        return all(cards.count_active(me, k) >= task.count
                   for k in (data.BUILDING, data.CRAFTSMAN, data.PLAN))
    if kind == "reached_the_mouth":
        return me.mouth_slot is not None
    if kind == "active_timing":
        return sum(1 for c in me.active if data.CARDS[c].timing == param) >= task.count
    if kind == "black_market_goods":
        return len(state.black_market) >= param
    if kind == "different_goods_on_barge":
        return len(set(me.cargo)) >= param
    if kind == "warehouse_full":
        return state.roofs[data.GOODS.index(param)] == len(data.ROOFS[param])
    if kind == "depots_full":
        return all(d is not None for d in state.depots)
    if kind == "barge_at_start":
        return me.barge == data.START
    if kind == "dockers_in_building":
        return len(state.docker_building) >= param
    if kind == "blocks":
        return len(blocks_of(state, seat)) >= param
    if kind == "cards_activated":
        count = (me.activated_count if state.options.tasks_activated == "ever"
                 else len(me.active))                                     # B23
        return count >= param
    return False


def score_tasks(state: State, seat: int) -> tuple[int, int]:
    """(points, items returned) for the seat's tasks."""
    me = state.seats[seat]
    dockers = list(me.dockers)
    goods = list(me.provisional + me.cargo)
    resources = list(colours_of(me.reserve)) + ([me.house] if me.house else [])
    points = returned = 0
    mine = sorted((data.TASKS[t] for t in state.tasks[seat]),
                  key=lambda t: -max(t.points))
    for task in mine:
        kind = task.kind
        if kind == "return_dockers_of":
            n = min(task.count, dockers.count(task.param))
            if n:
                for _ in range(n):
                    dockers.remove(task.param)
                table = task.points if n == 1 else data.TWO_DOCKERS_RETURNED
                points += points_for(data.Task(0, "", None, table), state.seat_count)
                returned += n
        elif kind == "return_two_dockers_a_good":
            if len(dockers) >= task.count and goods:
                del dockers[:task.count]
                goods.pop()
                points += points_for(task, state.seat_count)
                returned += task.count + 1
        elif kind == "return_docker_good_resource":
            if dockers and goods and resources:
                dockers.pop()
                goods.pop()
                resources.pop()
                points += points_for(task, state.seat_count)
                returned += 3
        elif kind == "return_different_resources":
            different = sorted(set(resources))[:task.count]
            if different:
                for colour in different:
                    resources.remove(colour)
                points += task.points[len(different) - 1]
                returned += len(different)
        elif _condition(state, seat, task):
            points += points_for(task, state.seat_count)
    return points, returned
