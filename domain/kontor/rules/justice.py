"""Special rule A « Justice » (``justice``, 2 players; switches ``starting_dock_choice`` and
``docks_set_aside``; kontor.fr.txt, « Règles spéciales »):

« Chaque joueur choisit ses trois premiers docks, avant de commencer la partie. On bat
ensuite les cartes restantes. Les canaux restent tirés au hasard. De plus, quatre docks
sont retirés cachés de chaque pile avant de commencer à jouer. »

Hook points: the deal gives no dock in hand, the whole shuffled deck is the pile (the
rest keeps its shuffled order: « On bat ensuite les cartes restantes »), and the game opens
in phase ``starting_docks`` (deal, started); each seat picks its docks in secret (to_act,
legal_commands, command: ChooseStartingDock); then four docks of each pile go aside unseen
(DockPilesFormed) and the set-up is over (``context.setup_done()``: e.g. the buying of
special cards). The view, the redaction and redetermine keep the deck, the choices and the
docks set aside secret. Tests: tests/domain/kontor/test_kontor_special_a.py (justice).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from domain.common.frozen import replace
from domain.decider import RuleViolation
from domain.kontor.core import events as ev
from domain.kontor.core.changes import set_at, without_one
from domain.kontor.core.hooks import Hooks
from domain.kontor.core.state import KontorState, change_part, part
from domain.kontor.core.view import seen_piles


@dataclass(frozen=True)
class StartingDockChosen:
    """Justice: a seat took a dock of its deck into its hand (``card`` None for others)."""

    TYPE: ClassVar[str] = "kontor.StartingDockChosen"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int
    card: int | None


@dataclass(frozen=True)
class DockPilesFormed:
    """Justice: the chosen docks go to the hands, the rest of each deck (shuffled at the
    start) is the pile, and its first cards are set aside unseen (``aside``)."""

    TYPE: ClassVar[str] = "kontor.DockPilesFormed"
    SCHEMA_VERSION: ClassVar[int] = 1
    aside: tuple[tuple[int, ...], ...]


EVENTS: tuple[type, ...] = (StartingDockChosen, DockPilesFormed)


@dataclass(frozen=True)
class ChooseStartingDock:
    """Justice: before the start, take one dock of your deck into your hand (three in all)."""

    TYPE: ClassVar[str] = "ChooseStartingDock"
    card: int


COMMANDS: tuple[type, ...] = (ChooseStartingDock,)


@dataclass(frozen=True)
class JusticeState:
    #: per seat: the docks chosen so far (before the start)
    starting_choice: tuple[tuple[int, ...], ...] = ()
    #: per seat: the docks set aside unseen
    docks_aside: tuple[tuple[int, ...], ...] = ()


def _own(state: KontorState) -> JusticeState:
    return part(state, JusticeState)


# ---------------------------------------------------------------------------------------
# set-up


def deal(options, seat_count: int, rng, dock_hands: list, piles: list, specials: list):
    """No dock in hand yet: the whole shuffled deck is the pile the seat picks from."""
    if not options.starting_dock_choice:
        return {}, []
    for seat in range(seat_count):
        piles[seat] = tuple(dock_hands[seat]) + tuple(piles[seat])
        dock_hands[seat] = ()
    return {"phase": "starting_docks"}, []


def started(event, state: KontorState) -> KontorState:
    """Justice's own part of the starting state (the core sets GameStarted's first phase,
    « starting_docks »)."""
    if event.phase != "starting_docks":
        return state
    return change_part(state, JusticeState, starting_choice=((),) * state.seat_count)


# ---------------------------------------------------------------------------------------
# the choice of the starting docks


def to_act(state: KontorState) -> tuple[int, ...] | None:
    if state.phase != "starting_docks":
        return None
    k = state.options.starting_dock_choice
    return tuple(s for s in range(state.seat_count) if len(_own(state).starting_choice[s]) < k)


def legal_commands(state: KontorState, seat: int) -> list | None:
    if state.phase != "starting_docks":
        return None
    return [ChooseStartingDock(c) for c in sorted(set(state.dock_piles[seat]))]


def decide(log, seat: int, command) -> bool:
    """ChooseStartingDock (``log`` is the decide context)."""
    if not isinstance(command, ChooseStartingDock):
        return False
    st = log.state
    if st.phase != "starting_docks":
        raise RuleViolation("kontor.not_starting", "Starting docks are chosen before the game.")
    if command.card not in st.dock_piles[seat]:
        raise RuleViolation(
            "kontor.card_not_in_deck",
            "Choose one of the docks of your own deck (« Chaque joueur choisit ses trois "
            "premiers docks »).",
        )
    log.emit(StartingDockChosen(seat, command.card))
    st = log.state
    k = st.options.starting_dock_choice
    if all(len(c) >= k for c in _own(st).starting_choice):
        # « De plus, quatre docks sont retirés cachés de chaque pile »
        m = st.options.docks_set_aside
        log.emit(DockPilesFormed(tuple(tuple(p[:m]) for p in st.dock_piles)))
        log.setup_done()
    log.after_command()
    return True


def evolve_event(state: KontorState, event) -> KontorState | None:
    t = type(event)
    n = state.seat_count
    if t is StartingDockChosen:
        seat = event.seat
        choice = _own(state).starting_choice
        state = replace(
            state,
            dock_piles=set_at(state.dock_piles, seat, without_one(state.dock_piles[seat], event.card)),
        )
        return change_part(
            state, JusticeState, starting_choice=set_at(choice, seat, choice[seat] + (event.card,))
        )
    if t is DockPilesFormed:
        hands = tuple(state.hands[s] + _own(state).starting_choice[s] for s in range(n))
        piles = tuple(
            tuple(c for c in state.dock_piles[s] if c not in event.aside[s]) for s in range(n)
        )
        state = replace(state, hands=hands, dock_piles=piles, phase="choose")
        return change_part(state, JusticeState, docks_aside=event.aside, starting_choice=())
    return None


# ---------------------------------------------------------------------------------------
# view, redaction, redetermination


def view_keys(state: KontorState, out: dict, cells, viewer: int | None) -> None:
    """Public: how many docks each seat chose, how many lie aside; the seat's own deck."""
    if state.phase == "starting_docks":
        for p in out["players"]:
            p["dock_pile"]["top"] = None  # the deck is not a pile yet
            p["starting_docks"] = len(_own(state).starting_choice[p["seat"]])
    if state.options.docks_set_aside:
        out["docks_aside"] = [len(a) for a in _own(state).docks_aside] or [0] * state.seat_count
    if viewer is None or "you" not in out:
        return
    if state.phase == "starting_docks":
        out["you"]["deck"] = sorted(state.dock_piles[viewer])
        out["you"]["starting_docks"] = list(_own(state).starting_choice[viewer])


def view_hidden(state: KontorState, hidden: dict) -> None:
    if _own(state).docks_aside:
        hidden["docks_aside"] = [list(a) for a in _own(state).docks_aside]


def redact(event, viewer: int | None, data: dict) -> dict:
    t = type(event)
    if t is ev.GameStarted and event.phase == "starting_docks":
        for p in data["dock_piles"]:
            p["top"] = None
    elif t is StartingDockChosen and event.seat != viewer:
        data["card"] = None
    elif t is DockPilesFormed:
        data["aside"] = [{"size": len(a)} for a in event.aside]
    return data


def redetermine(original: KontorState, observer, rng, slot, state: KontorState) -> KontorState:
    """Re-deal the decks while choosing (another seat's choices included), then the docks
    set aside and the piles below what the observer saw."""
    n = state.seat_count
    piles = [list(p) for p in state.dock_piles]
    choice = [list(c) for c in _own(state).starting_choice]
    aside = [list(a) for a in _own(state).docks_aside]
    pools: dict[tuple, list[int]] = {}
    slots: list = []  # (container, index)

    def put(container: list, i: int) -> None:
        pools.setdefault(slot(container[i]), []).append(container[i])
        slots.append((container, i))

    if state.phase == "starting_docks":
        for s in range(n):
            for i in range(len(piles[s])):
                put(piles[s], i)
            if s != observer:
                for i in range(len(choice[s])):
                    put(choice[s], i)
    elif aside:
        known = state.pile_known or (0,) * n
        seen = seen_piles(original, observer)  # e.g. Premier choix
        for s in range(n):
            cut = max(1, len(piles[s]) - known[s])
            if s == observer and s in seen:
                cut = 1
            for i in range(1, cut):
                put(piles[s], i)
            for i in range(len(aside[s])):
                put(aside[s], i)
    if not slots:
        return state
    for key in sorted(pools, key=repr):
        pools[key] = list(rng.shuffle(pools[key]))
    for container, i in slots:
        container[i] = pools[slot(container[i])].pop()
    state = replace(state, dock_piles=tuple(tuple(p) for p in piles))
    return change_part(
        state,
        JusticeState,
        starting_choice=tuple(tuple(c) for c in choice),
        docks_aside=tuple(tuple(a) for a in aside),
    )


def register(hooks: Hooks) -> None:
    hooks.to_act.append(to_act)
    hooks.legal_commands.append(legal_commands)
    hooks.on_commands((ChooseStartingDock,), decide)
    hooks.deal.append(deal)
    hooks.after_event((ev.GameStarted,), lambda old, event, new: started(event, new))
    hooks.on_events((StartingDockChosen, DockPilesFormed), evolve_event)
    hooks.add_view(view_keys, after="you")
    hooks.view_hidden.append(view_hidden)
    hooks.redact.append(redact)
    hooks.redetermine.append(redetermine)
