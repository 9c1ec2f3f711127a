"""The final scoring (L663-739): penalties, laurel cards, city, districts, surplus; the
Amstel decides ties (L739), so the winner is always unique."""

from __future__ import annotations

from domain.amsterdam import cards, data
from domain.amsterdam import events as ev
from domain.amsterdam.board import (
    amstel_order,
    blocks_of,
    district_points,
    largest_group,
    seat_order,
)
from domain.amsterdam.state import ScoreLine, State
from domain.amsterdam.tasks import score_tasks


def surplus_items(state: State, seat_index: int) -> int:
    """L733-735, B21: goods, dockers on the barge, florins, reserve and house cubes."""
    seat = state.seats[seat_index]
    return (len(seat.provisional) + len(seat.cargo) + len(seat.dockers) + max(0, seat.florins)
            + sum(seat.reserve) + (seat.house is not None))


def district_scores(state: State) -> list[int]:
    """Per seat (and TOM last in the solo game, with the 2-player table, L971)."""
    table = data.MAJORITY_POINTS[state.seat_count]
    players = state.seat_count + (state.tom is not None)
    out = [0] * players
    for district in state.districts_scored:
        counts = [sum(1 for b in blocks_of(state, s) if data.BLOCKS[b].district == district)
                  for s in range(players)]
        for s, pts in enumerate(district_points(counts, table)):
            out[s] += pts
    return out


def final_scoring(tx) -> None:
    state = tx.state
    during = [s.points for s in state.seats]
    for seat in seat_order(state):                                 # L667: inactive cards
        me = tx.seat(seat)
        final = {e.name: (card, e.params) for card, e in cards.effects(me, "end")}
        if "no_inactive_penalty" not in final:                     # 008
            for _ in me.inactive:
                tx.emit(ev.PenaltyTaken(seat, "inactive_card"))
        if "amstel_advance" in final:                              # 009 (B37): a final move
            card, params = final["amstel_advance"]
            tx.advance(seat, params[0], card)
    state = tx.state
    moved = [s.points - d for s, d in zip(state.seats, during)]
    districts = district_scores(state)
    order = amstel_order(state)
    lines = []
    for seat in range(state.seat_count):
        me = state.seats[seat]
        penalties = -data.penalty_points(me.penalties)
        laurel = cards.end_points(state, seat) + moved[seat]
        city = data.CITY_POINTS_PER_ARM * largest_group(blocks_of(state, seat))
        tasks, returned = score_tasks(state, seat) if state.tasks else (0, 0)
        surplus = (surplus_items(state, seat) - returned) // data.SURPLUS_ITEMS_PER_POINT
        total = during[seat] + penalties + laurel + city + districts[seat] + tasks + surplus
        lines.append(ScoreLine(penalties, laurel, city, districts[seat], tasks, surplus,
                               during[seat], total, order.index(seat)))
    if state.tom is not None:
        tom_line = _tom_line(state, districts[data.TOM], order.index(data.TOM))
        winners = (0,) if lines[0].total > tom_line.total else ()       # L956: strictly more
        tx.emit(ev.GameEnded(tuple(lines), winners, tom_line))
        return
    best = min(range(state.seat_count), key=lambda s: (-lines[s].total, lines[s].amstel_rank))
    tx.emit(ev.GameEnded(tuple(lines), (best,)))


def _tom_line(state: State, districts: int, rank: int) -> ScoreLine:
    """L950-954: TOM skips penalties and laurel cards; city, districts, 1 per 2 florins."""
    tom = state.tom
    city = data.CITY_POINTS_PER_ARM * largest_group(blocks_of(state, data.TOM))
    surplus = tom.florins // data.SURPLUS_ITEMS_PER_POINT
    return ScoreLine(0, 0, city, districts, 0, surplus, tom.points,
                     tom.points + city + districts + surplus, rank)
