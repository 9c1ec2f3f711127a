"""Special rule « Sprint final » (``final_sprint``, 2 and 4 players; switch ``sprint_end``).

« Si un joueur ne peut plus tirer que des cartes d'eau, la partie finit immédiatement. Les
cases encore libres sont remplies avec des cartes d'eau. Si la carte spéciale "douane" a
été jouée lors du dernier tour, elle n'est pas prise en compte. »

Readings (docs/rules/kontor.md, R-A11): the game ends at the end of the round in which a
dock pile ran out (so a customs house « jouée lors du dernier tour » exists); free cells
fill wave after wave while the water pile lasts; every sector not yet scored is then
scored, the free cells counting as water.
"""

from __future__ import annotations

from dataclasses import dataclass

from domain.kontor.core import events as ev
from domain.kontor.core.board import (
    neighbours,
    occupancy,
    possible,
    sectors,
    supremacy,
    warehouse_counts,
)
from domain.kontor.core.data import CARDS
from domain.kontor.core.hooks import Hooks
from domain.kontor.core.placement import box_of
from domain.kontor.core.scoring import distribution_centre, goods_of, sector_points
from domain.kontor.core.sides import side_count
from domain.kontor.core.state import KontorState, change_part, part
from domain.kontor.rules.water_fill import WaterFilled, WaterPlacedForFlood, fill_with_water, record


@dataclass(frozen=True)
class FinalSprintState:
    #: cards placed in the current round (their customs houses do not count at the end)
    round_cards: tuple[int, ...] = ()


def _placed(old: KontorState, event, new: KontorState) -> KontorState:
    """A card placed (a canal for the flood too): one more card of the round."""
    cards = part(new, FinalSprintState).round_cards + (event.card,)
    return change_part(new, FinalSprintState, round_cards=cards)


def _round_started(old: KontorState, event, new: KontorState) -> KontorState:
    if not part(new, FinalSprintState).round_cards:
        return new
    return change_part(new, FinalSprintState, round_cards=())


def end_of_round(log) -> bool:
    """At the end of the round in which a player's dock pile ran out: the sprint, then the
    end (True: the round's end is taken over)."""
    st = log.state
    if st.options.sprint_end and any(not p for p in st.dock_piles):
        _final_sprint(log)
        return True
    return False


def _free_cells(state: KontorState, cells) -> list:
    size = state.options.board_size
    box = box_of(state, cells)
    out = set()
    for pos in cells:
        for n in neighbours(pos):
            if n not in cells and possible(n, box, size):
                out.add(n)
    return sorted(out, key=lambda p: (p[1], p[0]))


def _final_sprint(log) -> None:
    """« Les cases encore libres sont remplies avec des cartes d'eau »: wave after wave
    while the water pile lasts; then every sector not yet scored, a customs house of the
    last round not counted."""
    while log.state.water_pile:
        free = _free_cells(log.state, occupancy(log.state))
        if not free:
            break
        before = len(log.state.board)
        fill_with_water(log, free, "final_sprint")
        if len(log.state.board) == before:
            break
    st = log.state
    cells = occupancy(st)
    done = {frozenset(s.cells) for s in st.scored}
    sides = side_count(st.options, st.seat_count)
    late_customs = {c for c in part(st, FinalSprintState).round_cards if CARDS[c].kind == "customs"}
    for sector in sectors(cells):
        if sector in done:
            continue
        st = log.state
        counts = warehouse_counts(cells, sector, st.warehouses, sides, goods_of(st))
        winner, rule = supremacy(counts)
        guardian = distribution_centre(st, sector, winner) if winner is not None else None
        points = 0
        if winner is not None:
            points = sector_points(cells, sector) - sum(
                1 for p in sector if cells[p] in late_customs
            )
        log.emit(
            ev.SectorScored(
                cells=tuple(sorted(sector, key=lambda p: (p[1], p[0]))),
                warehouses=counts,
                winner=winner,
                rule=rule,
                guardian=guardian,
                points=points,
                warehouses_returned=tuple(
                    sorted(cells[p] for p in sector if cells[p] in st.warehouses)
                ),
            )
        )
    log.end_game("final_sprint")


def end_step(log, turn) -> bool:
    """A step of the round's end (core/decide.py:ROUND_END, before "game_end")."""
    return end_of_round(log)


def register(hooks: Hooks) -> None:
    hooks.add_step("final_sprint", end_step, before="game_end")
    hooks.on_events((WaterFilled,), record)  # shared with great_flood
    sprint = lambda options: options.sprint_end  # noqa: E731
    hooks.after_event((ev.CardPlaced, WaterPlacedForFlood), _placed, when=sprint)
    hooks.after_event((ev.RoundStarted,), _round_started, when=sprint)
