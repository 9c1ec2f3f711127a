"""Scenario « Bakchich » (``baksheesh``, 2 players; switches ``water_aside``, ``bribes``).

« Disposition initiale normale. Plateau : 6x6 cases. Chaque joueur ne reçoit que 3
florins. Avant de commencer, mettez de côté 10 canaux sans les regarder. On joue sans le
bateau. Seuls les cinq plus grands secteurs marquent des points.

Avant de choisir la carte, au début du tour, chaque joueur peut "racheter" un dock de son
choix, contenant au moins une marchandise et appartenant à son adversaire, par la
corruption. Un dock contenant une marchandise coûte une pièce de monnaie, avec deux
marchandises 2 florins et avec trois 3 florins. Placez le dessous de table dans la
trésorerie de la ville et la carte retirée est remise sous la pile de son propriétaire.

Les secteurs terminés restent intouchables. »

Board, money, no ship and the five largest sectors are switches (scenarios/data.py). Here:
the canals set aside at the start (unseen: redetermine re-deals them), and the bribe
(command ``Bribe``, event ``DockBribed``): once a round, before choosing, and what those
events record (evolve).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from domain.common.frozen import replace
from domain.decider import RuleViolation
from domain.kontor.core import events as ev
from domain.kontor.core.board import Pos, occupancy
from domain.kontor.core.changes import add_at, dock_to_pile_bottom, set_at
from domain.kontor.core.data import CARDS
from domain.kontor.core.hooks import Hooks
from domain.kontor.core.options import Options
from domain.kontor.core.placement import scored_cells
from domain.kontor.core.sides import seats_of, side_of
from domain.kontor.core.state import KontorState, change_part, part


@dataclass(frozen=True)
class DockBribed:
    """Bakchich: ``seat`` bought back the opponent's dock at (x, y) for ``cost`` florins
    (to the treasury); it goes under ``to_seat``'s pile, its warehouses to the reserve."""

    TYPE: ClassVar[str] = "kontor.DockBribed"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int
    card: int
    x: int
    y: int
    cost: int
    to_seat: int


EVENTS: tuple[type, ...] = (DockBribed,)


@dataclass(frozen=True)
class Bribe:
    """Bakchich: before choosing, buy back the opponent's goods dock at (x, y) (not in a
    finished sector) for as many florins as it shows goods; it goes under its owner's
    pile."""

    TYPE: ClassVar[str] = "Bribe"
    x: int
    y: int


COMMANDS: tuple[type, ...] = (Bribe,)


@dataclass(frozen=True)
class BaksheeshState:
    water_aside: tuple[int, ...] = ()  # canals set aside unseen, hidden like the pile
    bribed: tuple[bool, ...] = ()  # per seat: has it bribed this round


def _own(state: KontorState) -> BaksheeshState:
    return part(state, BaksheeshState)



def water_aside(options: Options, rng, cross, water: list[int]) -> dict:
    """« Avant de commencer, mettez de côté 10 canaux sans les regarder »: the top canals
    of the pile after the deal (``water`` changes in place)."""
    if not options.water_aside:
        return {}
    aside = tuple(water[: options.water_aside])
    del water[: options.water_aside]
    return {"water_aside": aside}


def bribe_cost(card: int) -> int:
    """« Un dock contenant une marchandise coûte une pièce de monnaie, avec deux
    marchandises 2 florins et avec trois 3 florins »."""
    return len(CARDS[card].goods)


def bribable(state: KontorState, seat: int) -> list[Pos]:
    """The opponent's goods docks outside finished sectors that the seat can pay for,
    before it chooses its card, once a round."""
    if not state.options.bribes or state.phase != "choose" or _own(state).bribed[seat]:
        return []
    if state.chosen[seat] is not None or state.passed[seat]:
        return []
    closed = scored_cells(state)
    side = side_of(state.options, seat)
    out = []
    for pos, card in occupancy(state).items():
        c = CARDS[card]
        if c.kind != "dock" or not c.goods or c.owner == side or pos in closed:
            continue
        if bribe_cost(card) <= state.money[seat]:
            out.append(pos)
    return sorted(out, key=lambda p: (p[1], p[0]))


def bribe_commands(state: KontorState, seat: int) -> list:
    return [Bribe(x, y) for x, y in bribable(state, seat)]


def decide_bribe(log, seat: int, command) -> bool:
    """« la carte retirée est remise sous la pile de son propriétaire »; the price goes to
    the treasury."""
    if not isinstance(command, Bribe):
        return False
    st = log.state
    if (command.x, command.y) not in bribable(st, seat):
        raise RuleViolation(
            "kontor.not_bribable",
            "Bakchich: before choosing, once a round, buy back an opponent's dock with "
            "goods, outside finished sectors, paying 1 florin per good (« Les secteurs "
            "terminés restent intouchables »).",
        )
    card = occupancy(st)[(command.x, command.y)]
    owner = seats_of(st.options, CARDS[card].owner, st.seat_count)[0]
    log.emit(DockBribed(seat, card, command.x, command.y, bribe_cost(card), owner))
    return True


# --- evolve: what the events record ------------------------------------------------------


def started(event: ev.GameStarted, state: KontorState) -> KontorState:
    """The canals set aside; nobody has bribed yet."""
    opts = event.options
    if not (opts.water_aside or opts.bribes):
        return state
    return change_part(
        state, BaksheeshState, water_aside=event.water_aside, bribed=(False,) * event.seat_count
    )


def new_round(old: KontorState, event, new: KontorState) -> KontorState:
    """« au début du tour »: each round, a new bribe."""
    if type(event) is not ev.RoundStarted or not _own(new).bribed:
        return new
    return change_part(new, BaksheeshState, bribed=(False,) * new.seat_count)


def evolve_bribe(state: KontorState, event) -> KontorState | None:
    """« Placez le dessous de table dans la trésorerie de la ville et la carte retirée est
    remise sous la pile de son propriétaire »."""
    if type(event) is not DockBribed:
        return None
    state = dock_to_pile_bottom(state, event.card, event.x, event.y, event.to_seat)
    state = replace(
        state,
        money=add_at(state.money, event.seat, -event.cost),
        treasury=state.treasury + event.cost,
    )
    return change_part(state, BaksheeshState, bribed=set_at(_own(state).bribed, event.seat, True))


# --- the view -------------------------------------------------------------------------------


def redact(event, viewer, data: dict) -> dict:
    """GameStarted: how many canals lie aside, never which (every game's GameStarted has
    the field; empty but in Bakchich)."""
    if type(event) is ev.GameStarted:
        data["water_aside"] = {"size": len(event.water_aside)}
    return data


def hidden_aside(state: KontorState, observer):
    """« sans les regarder »: nobody knows the canals aside; redetermine re-deals them."""
    if not _own(state).water_aside:
        return None

    def put_back(out: KontorState, dealt: tuple[int, ...]) -> KontorState:
        return change_part(out, BaksheeshState, water_aside=dealt)

    return _own(state).water_aside, put_back


def view_hidden(state: KontorState, hidden: dict) -> None:
    """At the end: the canals that were aside."""
    if _own(state).water_aside:
        hidden["water_aside"] = list(_own(state).water_aside)


def view_keys(state: KontorState, out: dict) -> None:
    """Public: how many canals lie aside, who bribed this round."""
    opts = state.options
    info: dict = {}
    if opts.water_aside:
        info["water_aside"] = len(_own(state).water_aside)
    if opts.bribes:
        info["bribed"] = list(_own(state).bribed)
    if info:
        out.setdefault("scenario", {}).update(info)


def register(hooks: Hooks) -> None:
    hooks.start_fields.append(water_aside)
    hooks.add_commands("bribes", lambda state, seat, _: bribe_commands(state, seat), after="pass")
    hooks.on_commands((Bribe,), decide_bribe)
    hooks.add_view(lambda state, out, cells, viewer: view_keys(state, out), after="final_scoring")
    aside_or_bribes = lambda options: options.water_aside or options.bribes  # noqa: E731
    hooks.after_event((ev.GameStarted,), lambda old, event, new: started(event, new), when=aside_or_bribes)
    hooks.after_event((ev.RoundStarted,), new_round, when=aside_or_bribes)  # bribed: only then
    hooks.on_events((DockBribed,), evolve_bribe)
    hooks.redact.append(redact)
    hooks.view_hidden.append(view_hidden)
    hooks.hidden_stock.append(hidden_aside)
