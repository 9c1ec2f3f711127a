"""Kontor state: frozen, tuples only. Built by evolve, read by everything else."""

from __future__ import annotations

from dataclasses import dataclass, fields
from functools import cache
from typing import TypeVar

from domain.common.frozen import replace
from domain.kontor.core.options import Options

#: an extension's own frozen sub-state (a dataclass whose fields all have defaults)
P = TypeVar("P")

#: ``chosen`` of a seat that passes in secret (special rule « Marins ivres morts »: CardChosen
#: with ``passing``); never a card id
PASS_CHOICE = -1


@dataclass(frozen=True)
class Cell:
    """A card on the table. The anchor is at (0, 0); x grows right, y grows down."""

    x: int
    y: int
    card: int


@dataclass(frozen=True)
class ScoredSector:
    """A closed sector, already scored: its cells, the winner and where its guardian is."""

    cells: tuple[tuple[int, int], ...]
    winner: int | None
    rule: str  # highest | most | value | tie | empty
    guardian: tuple[int, int] | None
    points: int = 1  # what the winner scores for it (1 + 1 per customs house)


@dataclass(frozen=True)
class KontorState:
    seat_count: int
    seed: str
    rng_counter: int
    options: Options
    rules_version: str
    board: tuple[Cell, ...]  # placement order; the cross first
    hands: tuple[tuple[int, ...], ...]
    dock_piles: tuple[tuple[int, ...], ...]  # index 0 is the visible top card
    water_pile: tuple[int, ...]  # index 0 is the visible top card
    money: tuple[int, ...]
    treasury: int
    points: tuple[int, ...]
    warehouses: frozenset[int]  # dock cards that hold their warehouses
    scored: tuple[ScoredSector, ...] = ()
    round: int = 1
    phase: str = "choose"  # choose | place | over
    chosen: tuple[int | None, ...] = ()  # secret until the reveal
    passed: tuple[bool, ...] = ()
    revealed: tuple[int | None, ...] = ()  # cards shown this round (None: passed)
    tax: tuple[str, ...] = ()  # per seat: "" | paid | unpaid | cancelled | waived
    order: tuple[int, ...] = ()  # seats still to place this round, first first
    returned: tuple[tuple[int, int, str], ...] = ()  # this round: (seat, card, reason)
    placed_this_round: bool = False
    idle_rounds: int = 0
    end_reason: str | None = None
    winners: tuple[int, ...] = ()
    # --- advanced and team games (defaults: the basic game) ---
    ship: tuple[int, int] | None = None  # where the patrol ship is (None: no ship)
    ship_moved: bool = False  # the current placer has moved the ship this turn
    #: bounds (min_x, max_x, min_y, max_y) of every cell that ever held a card: once the
    #: port is N wide it stays so, even if the ship removes an edge dock
    span: tuple[int, int, int, int] | None = None
    specials_aside: tuple[int, ...] = ()  # special cards removed unseen at the start
    #: per seat: how many cards at the bottom of its dock pile are publicly known (docks
    #: the ship sent back), kept in place by redetermine
    pile_known: tuple[int, ...] = ()
    #: at the end of a "largest sectors" game: indices into ``scored`` that counted, and
    #: those eliminated by an unbreakable tie
    counted: tuple[int, ...] = ()
    eliminated: tuple[int, ...] = ()
    # the free wheel's steps inside a turn are phases too: "turn" (before playing: tavern
    # coins, alliances), "alliance" (a proposal awaits its answer), "place", "drunk"
    # (choose the dock a new tavern makes drunk), "draw" (choose the pile)
    #: dock card -> the goods of its warehouses when they differ from the printed goods
    #: (Embargo: a short supply; Euphrate: a raised warehouse added to a centre). The
    #: core's: its view shows each warehouse's goods from it, its scoring counts them and
    #: a dock leaving the board drops its entry (changes.py); extensions record through
    #: changes.goods_recorded
    goods_override: tuple[tuple[int, tuple[str, ...]], ...] = ()
    #: (seat, card): cards every seat saw go into that seat's hand, drawn from a face-up
    #: top or revealed and returned (what redetermine keeps while they are still held)
    seen_in_hand: frozenset[tuple[int, int]] = frozenset()
    #: the extensions' own frozen sub-states, at most one per class, each created by its
    #: extension when it first records something (``part``, ``with_part``): what only a
    #: variant, a special rule, a scenario or an expansion reads lives there, and the core
    #: never names it
    ext: tuple = ()

    def goods_map(self) -> dict[int, tuple[str, ...]]:
        return dict(self.goods_override)

    def is_over(self) -> bool:
        return self.phase == "over"


def without_cell(board: tuple[Cell, ...], x: int, y: int) -> tuple[Cell, ...]:
    """The board with the top card at (x, y) taken away (a covered card shows again)."""
    for i in range(len(board) - 1, -1, -1):
        if (board[i].x, board[i].y) == (x, y):
            return board[:i] + board[i + 1 :]
    return board


#: class -> its empty instance: what ``part`` answers while the extension holds nothing
_EMPTY: dict[type, object] = {}


def part(state: KontorState, cls: type[P]) -> P:
    """The sub-state of class ``cls`` the state holds (its empty instance if none)."""
    for sub in state.ext:
        if type(sub) is cls:
            return sub
    empty = _EMPTY.get(cls)
    if empty is None:
        empty = _EMPTY[cls] = cls()
    return empty


def with_part(state: KontorState, sub) -> KontorState:
    """The state holding ``sub`` in place of its class's sub-state."""
    cls, ext = type(sub), state.ext
    for i, old in enumerate(ext):
        if type(old) is cls:
            return replace(state, ext=ext[:i] + (sub,) + ext[i + 1 :])
    return replace(state, ext=ext + (sub,))


def change_part(state: KontorState, cls: type, **changes) -> KontorState:
    """The state with these fields of its ``cls`` sub-state changed."""
    return with_part(state, replace(part(state, cls), **changes))


def replace_in(state: KontorState, cls: type, **changes) -> KontorState:
    """The state with these fields changed, each in the core's fields or in the ``cls``
    sub-state's, by its name (an extension's evolve that changes both at once)."""
    own = {name: changes.pop(name) for name in _field_names(cls) & changes.keys()}
    if changes:
        state = replace(state, **changes)
    return change_part(state, cls, **own) if own else state


@cache
def _field_names(cls: type) -> frozenset[str]:
    return frozenset(f.name for f in fields(cls))
