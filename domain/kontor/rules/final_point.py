"""Special rule B « Point final » (``final_point``, 2 players; switch ``final_point``;
kontor.fr.txt, « Règles spéciales »):

« Le dernier secteur terminé rapporte 2 points. »

Reading (docs/rules/kontor.md, Special rules B): the sectors scored by the last placement
that scored any (several at once: each) earn ``data.FINAL_POINT_BONUS`` more, one point
more than a guardian's, at the end. Its step "final_point_last_closed", once sectors are
scored, remembers the sectors a placement finished (LastSectorsClosed); its step "final_point_award" of the game's end awards them (FinalPointAwarded), after
Contrebande's reveal (smuggling.py, listed before this module) and before Vieilles
rancunes' decisions (old_grudges.py, listed after); the view shows them.
Tests: tests/domain/kontor/test_kontor_special_b.py (final point).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from domain.common.frozen import replace
from domain.kontor.core.data import FINAL_POINT_BONUS
from domain.kontor.core.hooks import Hooks
from domain.kontor.core.sides import seats_of
from domain.kontor.core.state import KontorState, change_part, part


@dataclass(frozen=True)
class LastSectorsClosed:
    """Point final: the sectors (indices into the scored sectors) finished by the latest
    placement that finished any."""

    TYPE: ClassVar[str] = "kontor.LastSectorsClosed"
    SCHEMA_VERSION: ClassVar[int] = 1
    sectors: tuple[int, ...]


@dataclass(frozen=True)
class FinalPointAwarded:
    """Point final: each of ``sectors`` (the last finished) is worth ``bonus`` more to its
    winner."""

    TYPE: ClassVar[str] = "kontor.FinalPointAwarded"
    SCHEMA_VERSION: ClassVar[int] = 1
    sectors: tuple[int, ...]
    bonus: int


EVENTS: tuple[type, ...] = (LastSectorsClosed, FinalPointAwarded)


@dataclass(frozen=True)
class FinalPointState:
    #: indices into ``scored`` of the latest finished sectors
    last_closed: tuple[int, ...] = ()
    awarded: bool = False  # their bonus was awarded


def after_scoring(log, first: int) -> None:
    """Remember the sectors scored by this call (the latest finished)."""
    st = log.state
    if st.options.final_point and len(st.scored) > first:
        log.emit(LastSectorsClosed(tuple(range(first, len(st.scored)))))


def award(log, reason: str) -> bool:
    """At the end: « rapporte 2 points ». The end does not wait (False)."""
    st = log.state
    if st.options.final_point and not part(st, FinalPointState).awarded:
        log.emit(FinalPointAwarded(part(st, FinalPointState).last_closed, FINAL_POINT_BONUS))
    return False


def evolve_own(state: KontorState, event) -> KontorState | None:
    t = type(event)
    if t is LastSectorsClosed:
        return change_part(state, FinalPointState, last_closed=event.sectors)
    if t is FinalPointAwarded:
        scored = list(state.scored)
        points = list(state.points)
        for i in event.sectors:
            s = scored[i]
            if s.winner is None:
                continue
            scored[i] = replace(s, points=s.points + event.bonus)
            for seat in seats_of(state.options, s.winner, state.seat_count):
                points[seat] += event.bonus
        state = replace(state, scored=tuple(scored), points=tuple(points))
        return change_part(state, FinalPointState, awarded=True)
    return None


def _xy(pos) -> dict:
    return {"x": pos[0], "y": pos[1]}


def view_keys(state: KontorState, out: dict, cells, viewer: int | None) -> None:
    """Public: the last finished sectors, and whether their bonus was awarded."""
    if state.options.final_point:
        own = part(state, FinalPointState)
        out["final_point"] = {
            "last_closed": [[_xy(p) for p in state.scored[i].cells] for i in own.last_closed],
            "awarded": own.awarded,
        }


def register(hooks: Hooks) -> None:
    hooks.add_step("final_point_last_closed", lambda log, first: after_scoring(log, first) or False, after="sectors_scored")
    hooks.add_step("final_point_award", lambda log, end: award(log, end.reason), before="final_selection")
    hooks.on_events((LastSectorsClosed, FinalPointAwarded), evolve_own)
    hooks.add_view(view_keys, after="you")
