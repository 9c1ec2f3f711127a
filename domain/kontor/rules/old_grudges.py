"""Special rule B « Vieilles rancunes » (``old_grudges``, 2 and 4 players; switch
``old_grudges``; kontor.fr.txt, « Règles spéciales »):

« Un joueur ou une équipe qui possède une taverne peut décider si le secteur où elle se
trouve est comptabilisé ou non. Si les deux tavernes sont dans un même secteur, il est
obligatoirement comptabilisé. »

Before the end (its step "tavern_sectors_asked" of GAME_END, after Contrebande's reveal and Point final's
bonus: smuggling.py and final_point.py are listed before this module) the game asks the
owner of each scored sector holding one tavern (TavernSectorsAsked, phase ``grudges``);
that seat alone acts (to_act, legal_commands: DecideTavernSector; no other command
meanwhile: command_guard); a sector not counted loses its points
(TavernSectorDecided) and takes no slot in the final selection
(final_selection); the view shows the decisions.
Tests: tests/domain/kontor/test_kontor_special_b.py (old grudges).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from domain.common.frozen import replace
from domain.decider import RuleViolation
from domain.kontor.core.board import Pos, occupancy
from domain.kontor.core.changes import set_at
from domain.kontor.core.data import CARDS
from domain.kontor.core.hooks import Hooks
from domain.kontor.core.scoring import choose_largest
from domain.kontor.core.sides import seats_of
from domain.kontor.core.state import KontorState, change_part, part


@dataclass(frozen=True)
class TavernSectorsAsked:
    """Vieilles rancunes, at the end: the scored sectors (indices) holding a single tavern
    wait for its owner's decision; ``reason`` is the end reason."""

    TYPE: ClassVar[str] = "kontor.TavernSectorsAsked"
    SCHEMA_VERSION: ClassVar[int] = 1
    reason: str
    sectors: tuple[int, ...]


@dataclass(frozen=True)
class TavernSectorDecided:
    TYPE: ClassVar[str] = "kontor.TavernSectorDecided"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int
    sector: int
    x: int
    y: int
    counted: bool


EVENTS: tuple[type, ...] = (TavernSectorsAsked, TavernSectorDecided)


@dataclass(frozen=True)
class DecideTavernSector:
    """Vieilles rancunes: at the end, the owner of the tavern at (x, y) says whether its
    scored sector counts."""

    TYPE: ClassVar[str] = "DecideTavernSector"
    x: int
    y: int
    counted: bool


COMMANDS: tuple[type, ...] = (DecideTavernSector,)


@dataclass(frozen=True)
class GrudgesState:
    #: scored sectors waiting for their tavern's decision, first first
    grudge_pending: tuple[int, ...] = ()
    #: the decisions made: (index into ``scored``, counted)
    grudges: tuple[tuple[int, bool], ...] = ()
    #: the end reason while the end waits for the decisions
    ending: str | None = None


def _own(state: KontorState) -> GrudgesState:
    return part(state, GrudgesState)


def grudge_tavern(state: KontorState, index: int) -> tuple[int, Pos]:
    """The tavern of the scored sector ``index``."""
    cells = occupancy(state)
    sector = state.scored[index].cells
    taverns = [tuple(p) for p in sector if CARDS[cells[tuple(p)]].tavern]
    return index, taverns[0]


def grudge_sectors(state: KontorState) -> tuple[int, ...]:
    """Scored sectors holding exactly one tavern (« Si les deux tavernes sont dans un même
    secteur, il est obligatoirement comptabilisé »)."""
    cells = occupancy(state)
    out = []
    for i, s in enumerate(state.scored):
        taverns = [p for p in s.cells if CARDS[cells[tuple(p)]].tavern]
        if len(taverns) == 1:
            out.append(i)
    return tuple(out)


def grudge_decider(state: KontorState) -> int:
    """The owner of the tavern: its colour's first seat (our convention in the team game:
    « Un joueur ou une équipe qui possède une taverne »)."""
    _, tavern = grudge_tavern(state, _own(state).grudge_pending[0])
    owner = CARDS[occupancy(state)[tavern]].owner
    return seats_of(state.options, owner, state.seat_count)[0]


def to_act(state: KontorState) -> tuple[int, ...] | None:
    if state.phase == "grudges":
        return (grudge_decider(state),) if _own(state).grudge_pending else ()
    return None


def legal_commands(state: KontorState, seat: int) -> list | None:
    if state.phase != "grudges":
        return None
    if not _own(state).grudge_pending:
        return []
    _, (x, y) = grudge_tavern(state, _own(state).grudge_pending[0])
    return [DecideTavernSector(x, y, True), DecideTavernSector(x, y, False)]


def refuse_while_deciding(state: KontorState, command) -> None:
    """While a tavern decision waits, only its command is accepted."""
    if state.phase == "grudges" and not isinstance(command, DecideTavernSector):
        raise RuleViolation(
            "kontor.tavern_decision_pending",
            "The game is ending: the tavern's owner decides whether its sector counts.",
        )


def decide(log, seat: int, command) -> bool:
    """DecideTavernSector (``log`` is the decide context)."""
    if not isinstance(command, DecideTavernSector):
        return False
    st = log.state
    if st.phase != "grudges" or not _own(st).grudge_pending:
        raise RuleViolation("kontor.no_tavern_decision", "No tavern decision is pending.")
    index = _own(st).grudge_pending[0]
    _, tavern = grudge_tavern(st, index)
    if (command.x, command.y) != tavern:
        raise RuleViolation(
            "kontor.tavern_decision_cell",
            f"The decision pending is the sector of the tavern at {tavern}.",
        )
    log.emit(TavernSectorDecided(seat, index, tavern[0], tavern[1], command.counted))
    if not _own(log.state).grudge_pending:
        log.end_game(_own(log.state).ending)
    log.after_command()
    return True


def ask(log, reason: str) -> bool:
    """Before the end: ask for each sector with one tavern; True while a decision waits."""
    st = log.state
    if st.phase == "grudges":
        return bool(_own(st).grudge_pending)
    if st.options.old_grudges and _own(st).ending is None:
        pending = grudge_sectors(st)
        if pending:
            log.emit(TavernSectorsAsked(reason, pending))
            return True
    return False



def evolve_own(state: KontorState, event) -> KontorState | None:
    t = type(event)
    if t is TavernSectorsAsked:
        state = replace(state, phase="grudges")
        return change_part(state, GrudgesState, ending=event.reason, grudge_pending=event.sectors)
    if t is TavernSectorDecided:
        points = state.points
        s = state.scored[event.sector]
        if not event.counted and s.winner is not None:
            for seat in seats_of(state.options, s.winner, state.seat_count):
                points = set_at(points, seat, points[seat] - s.points)
        own = _own(state)
        return change_part(
            replace(state, points=points),
            GrudgesState,
            grudges=own.grudges + ((event.sector, event.counted),),
            grudge_pending=tuple(i for i in own.grudge_pending if i != event.sector),
        )
    return None


def final_selection(state: KontorState, sizes, distances):
    """A sector its tavern's owner did not count takes no slot among the largest."""
    opts = state.options
    dropped = {i for i, counted in _own(state).grudges if not counted}
    if not dropped or opts.final_selection == "all":
        return None
    eligible = tuple(0 if i in dropped else n for i, n in enumerate(sizes))
    return choose_largest(eligible, distances, opts.final_count, max(1, opts.final_min_docks))


def _xy(pos) -> dict:
    return {"x": pos[0], "y": pos[1]}


def view_keys(state: KontorState, out: dict, cells, viewer: int | None) -> None:
    """Public: the decision pending, how many wait, the decisions made."""
    pending = None
    if state.phase == "grudges" and _own(state).grudge_pending:
        i = _own(state).grudge_pending[0]
        pending = {
            "sector": [_xy(p) for p in state.scored[i].cells],
            "tavern": _xy(grudge_tavern(state, i)[1]),
            "seat": grudge_decider(state),
        }
    out["old_grudges"] = {
        "pending": pending,
        "waiting": len(_own(state).grudge_pending),
        "decided": [
            {"sector": [_xy(p) for p in state.scored[i].cells], "counted": counted}
            for i, counted in _own(state).grudges
        ],
    }


def register(hooks: Hooks) -> None:
    hooks.to_act.append(to_act)
    hooks.legal_commands.append(legal_commands)
    hooks.command_guard.append(refuse_while_deciding)
    hooks.guard(hooks.refuse_while_waiting)
    hooks.on_commands((DecideTavernSector,), decide)
    hooks.add_step("tavern_sectors_asked", lambda log, end: ask(log, end.reason), before="final_selection")
    hooks.on_events((TavernSectorsAsked, TavernSectorDecided), evolve_own)
    hooks.final_selection.append(final_selection)
    hooks.add_view(view_keys, after="you")
