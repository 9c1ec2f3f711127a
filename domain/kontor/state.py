"""Kontor state: frozen, tuples only. Built by evolve, read by everything else."""

from __future__ import annotations

from dataclasses import dataclass

from domain.kontor.options import Options


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
    # --- expansions (export_warehouse.py, event_cards.py); defaults: without them ---
    #: per seat: warehouses in its export warehouse, (tea, wine, spice)
    exports: tuple[tuple[int, int, int], ...] = ()
    #: (dock card, good): one warehouse of that good of the dock is not in its sector (it
    #: went to export, or stayed there when another dock left: export_warehouse.py)
    export_missing: tuple[tuple[int, str], ...] = ()
    #: (dock card, good, new good): a warehouse swapped by « Inondation »
    swapped: tuple[tuple[int, str, str], ...] = ()
    event_deck: tuple[str, ...] = ()  # face down, secret order; index 0 is turned next
    events_turned: tuple[str, ...] = ()  # public, in the order they were turned
    events_due: int = 0  # scored sectors whose event card has been dealt with
    event_active: str | None = None  # the event waiting for players' choices
    event_waiting: tuple[int, ...] = ()  # seats still to act on it, in order
    event_step: tuple[str, ...] = ()  # per seat: "" | "choose" | "put_under" | "swap"
    event_sectors: tuple[tuple[tuple[int, int], ...], ...] = ()  # Inondation: sectors used
    forfeit: tuple[int, ...] = ()  # Conjuration: seats that pass their next turn
    bonus_points: tuple[int, ...] = ()  # Jours dorés: extra victory points per seat
    goods_changed: bool = False  # Blocus maritime: the value order is changed
    known_hand: tuple[frozenset[int], ...] = ()  # Lutte d'influence: cards shown
    pile_open: tuple[bool, ...] = ()  # Mariage: the owner has seen his whole dock pile

    def is_over(self) -> bool:
        return self.phase == "over"
