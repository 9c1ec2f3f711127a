"""The state of a Speicherstadt game: frozen, built by evolve from the events."""

from __future__ import annotations

from dataclasses import dataclass

from domain.speicherstadt.options import Options

# phases
SUPPLY = "supply"
DEMAND = "demand"
PURCHASE = "purchase"
SHIPPING = "shipping"
FINISHED = "finished"

# column status
OPEN = "open"
BOUGHT = "bought"
DISCARDED = "discarded"


@dataclass(frozen=True)
class Column:
    """A water space: a revealed card, the workers above it (lowest first), a ship's cargo."""

    card: str
    workers: tuple[int, ...] = ()
    cubes: tuple[str, ...] = ()
    status: str = OPEN
    buyer: int | None = None


@dataclass(frozen=True)
class SeatState:
    coins: int
    points: int = 0  # the score track during the game (fires)
    cards: tuple[str, ...] = ()
    market: tuple[str, ...] = ()  # at most one cube kept
    warehouse: tuple[str, ...] = ()  # at most four cubes (owner of the Warehouse card)
    loose: tuple[str, ...] = ()  # cubes unloaded from this round's ships
    contracts: tuple[tuple[str, tuple[str, ...]], ...] = ()  # (contract card, goods placed)
    bought: bool = False  # bought a card this round


@dataclass(frozen=True)
class ScoreLine:
    fire: int
    offices: int
    contracts: int
    chamber: int
    churches: int
    port: int
    warehouse: int
    traders: int
    total: int
    coins: int


@dataclass(frozen=True)
class State:
    seat_count: int
    seed: str
    rng_counter: int
    options: Options
    rules_version: str
    first_player: int
    seats: tuple[SeatState, ...]
    deck: tuple[str, ...] = ()  # top first; the order is hidden
    removed: tuple[str, ...] = ()
    discard: tuple[str, ...] = ()
    bag: tuple[int, ...] = ()  # counts per good (public: every drawn cube is shown)
    reserve: tuple[int, ...] = ()  # counts per good
    round: int = 0
    phase: str = DEMAND
    offer: tuple[Column, ...] = ()
    placed: int = 0  # workers placed this demand phase
    purchase_column: int = 0
    shipping: frozenset[int] = frozenset()
    last_round: bool = False
    scores: tuple[ScoreLine, ...] = ()
    winners: tuple[int, ...] = ()
