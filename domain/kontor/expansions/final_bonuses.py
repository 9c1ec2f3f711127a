"""The end of a game with an expansion, shared by both: « A la fin de la partie, on compare
combien chacun possède d'entrepôts sur l'entrepôt d'exportation. Cette comparaison se fait
par type de marchandise. Chaque joueur reçoit respectivement un point de victoire pour
chaque majorité dans un type de marchandise. En cas d'égalité, aucun point n'est attribué
pour la marchandise concernée. » (export_warehouse.py) and « Jours dorés : Le joueur le
plus riche actuellement reçoit un point de victoire supplémentaire. » (event_cards.py):
both are added to the final points in one event, ``FinalBonusesCounted``.

Its step "final_bonuses" of the game's end (core/decide.py GAME_END, after the final
selection) adds them; its own event ``FinalBonusesCounted``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from domain.common.frozen import replace
from domain.kontor.core.data import EVENT_SETTINGS, GOODS
from domain.kontor.core.hooks import Hooks
from domain.kontor.core.scoring import bonus_points
from domain.kontor.core.state import KontorState
from domain.kontor.expansions.warehouse_goods import moved


@dataclass(frozen=True)
class FinalBonusesCounted:
    """At the end: export majorities (per good, the seat with more, or None) and the event
    bonus points; ``points`` are the final points with them."""

    TYPE: ClassVar[str] = "kontor.FinalBonusesCounted"
    SCHEMA_VERSION: ClassVar[int] = 1
    export_majorities: tuple[int | None, ...]  # per good (tea, wine, spice)
    bonus_points: tuple[int, ...]  # per seat, from « Jours dorés »
    points: tuple[int, ...]


EVENTS: tuple[type, ...] = (FinalBonusesCounted,)


def exports_of(state: KontorState) -> tuple[tuple[int, int, int], ...]:
    """Each seat's export warehouse: how many of each good (tea, wine, spice)."""
    return moved(state).exports or tuple((0, 0, 0) for _ in range(state.seat_count))


def export_majorities(state: KontorState) -> tuple[int | None, ...]:
    """Per good, the seat with more export warehouses of it; a tie gives nobody."""
    if not state.options.export_warehouse:
        return (None,) * len(GOODS)
    ex = exports_of(state)
    out: list[int | None] = []
    for i in range(len(GOODS)):
        counts = [row[i] for row in ex]
        best = max(counts)
        leaders = [s for s, n in enumerate(counts) if n == best]
        out.append(leaders[0] if best > 0 and len(leaders) == 1 else None)
    return tuple(out)


def majority_points(state: KontorState) -> tuple[int, ...]:
    points = [0] * state.seat_count
    for seat in export_majorities(state):
        if seat is not None:
            points[seat] += EVENT_SETTINGS["export_majority_points"]
    return tuple(points)


def final_points(log, points: tuple[int, ...]) -> tuple[int, ...]:
    """Export majorities and « Jours dorés » bonus points, added at the end."""
    st = log.state
    opts = st.options
    if not (opts.export_warehouse or opts.event_cards):
        return points
    bonus = bonus_points(st) or (0,) * st.seat_count
    majority = majority_points(st)
    total = tuple(p + b + m for p, b, m in zip(points, bonus, majority))
    log.emit(FinalBonusesCounted(export_majorities(st), bonus, total))
    return total


def _add_bonuses(log, end) -> bool:
    end.points = final_points(log, end.points)
    return False


def evolve_final(state: KontorState, event) -> KontorState | None:
    if type(event) is FinalBonusesCounted:
        return replace(state, points=event.points)
    return None


def register(hooks: Hooks) -> None:
    hooks.add_step("final_bonuses", _add_bonuses, after="final_selection")
    hooks.on_events((FinalBonusesCounted,), evolve_final)
