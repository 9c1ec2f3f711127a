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
    # --- scenarios (domain/kontor/scenarios.py) ---
    #: canals set aside unseen (Bakchich), hidden like the pile
    water_aside: tuple[int, ...] = ()
    #: per seat: has it bribed this round (Bakchich)
    bribed: tuple[bool, ...] = ()
    #: Euphrate: (x, y, good) of the warehouses still sunk in canals
    sunken: tuple[tuple[int, int, str], ...] = ()
    #: Euphrate: (seat, good) raised and waiting for the seat to choose a centre
    sunken_pending: tuple[tuple[int, str], ...] = ()
    #: Grande marée: the seat that may now place a second canal
    second_canal: int | None = None
    #: dock card -> the goods of its warehouses when they differ from the printed goods
    #: (Embargo: a short supply; Euphrate: a raised warehouse added to a centre)
    goods_override: tuple[tuple[int, tuple[str, ...]], ...] = ()

    def goods_map(self) -> dict[int, tuple[str, ...]]:
        return dict(self.goods_override)

    def is_over(self) -> bool:
        return self.phase == "over"
