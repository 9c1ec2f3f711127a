"""The core's Kontor events: past tense, explicit kontor.* names, schema version 1.

Only the core's own (the basic and advanced games'): a form, a special rule, a scenario or
an expansion defines its own events next to it and lists them (``EVENTS``); the title's
package gathers them all for the codec (registry.py: ``EVENT_TYPES``). Two core events keep
fields extensions fill (GameStarted's and CardChosen's, marked below): a stored event's
fields never change."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from domain.kontor.core.options import Options
from domain.kontor.core.state import Cell


@dataclass(frozen=True)
class GameStarted:
    TYPE: ClassVar[str] = "kontor.GameStarted"
    SCHEMA_VERSION: ClassVar[int] = 1
    options: Options
    seat_count: int
    seed: str
    rules_version: str
    rng_counter: int
    cross: tuple[Cell, ...]
    hands: tuple[tuple[int, ...], ...]
    dock_piles: tuple[tuple[int, ...], ...]
    water_pile: tuple[int, ...]
    money: tuple[int, ...]
    treasury: int
    #: the patrol ship's cell (« le bateau commence sur l'ancre »); None without ship
    ship: tuple[int, int] | None = None
    #: special cards removed unseen (« Le reste est enlevé du jeu et gardé caché »)
    specials_aside: tuple[int, ...] = ()
    # --- special rules A ---
    #: the first phase: "choose", or "starting_docks" (Justice)
    phase: str = "choose"
    #: Achat de cartes spéciales: the face-down pile of special cards
    specials_pile: tuple[int, ...] = ()
    #: free for all: the single dock pile (« une pile unique »), top first
    common_docks: tuple[int, ...] = ()
    # --- scenarios ---
    #: canals set aside unseen (Bakchich: « mettez de côté 10 canaux sans les regarder »)
    water_aside: tuple[int, ...] = ()
    #: Euphrate: (x, y, good) warehouses sunk on canals of the cross
    sunken: tuple[tuple[int, int, str], ...] = ()


@dataclass(frozen=True)
class CardChosen:
    """A seat laid a card face down. ``card`` is None in every other seat's copy."""

    TYPE: ClassVar[str] = "kontor.CardChosen"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int
    card: int | None
    #: Marins ivres morts: the seat secretly laid its "I pass" card (False for others)
    passing: bool = False
    # --- special rules B (Contrebande): chosen face down, and the replacement pile;
    # dropped from every other seat's copy ---
    face_down: bool = False
    draw: str | None = None


@dataclass(frozen=True)
class Passed:
    TYPE: ClassVar[str] = "kontor.Passed"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int
    florins: int  # received from the treasury (0 when it is empty)


@dataclass(frozen=True)
class CardsRevealed:
    TYPE: ClassVar[str] = "kontor.CardsRevealed"
    SCHEMA_VERSION: ClassVar[int] = 1
    cards: tuple[int | None, ...]  # per seat; None for a seat that passed


@dataclass(frozen=True)
class TaxPaid:
    TYPE: ClassVar[str] = "kontor.TaxPaid"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int
    amount: int


@dataclass(frozen=True)
class TaxCancelled:
    """The florin card that taxed this seat was taken back: no tax to pay."""

    TYPE: ClassVar[str] = "kontor.TaxCancelled"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int


@dataclass(frozen=True)
class TaxWaived:
    """Both seats owed tax and neither could pay: both exempt, each gets florins."""

    TYPE: ClassVar[str] = "kontor.TaxWaived"
    SCHEMA_VERSION: ClassVar[int] = 1
    seats: tuple[int, ...]
    florins: tuple[int, ...]  # received by each of ``seats``


@dataclass(frozen=True)
class CardReturned:
    """A revealed card goes back to its owner's hand: reason tax_unpaid | no_legal_cell."""

    TYPE: ClassVar[str] = "kontor.CardReturned"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int
    card: int
    reason: str


@dataclass(frozen=True)
class TurnOrderSet:
    TYPE: ClassVar[str] = "kontor.TurnOrderSet"
    SCHEMA_VERSION: ClassVar[int] = 1
    order: tuple[int, ...]  # seats that place this round, highest card first


@dataclass(frozen=True)
class CardPlaced:
    TYPE: ClassVar[str] = "kontor.CardPlaced"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int
    card: int
    x: int
    y: int
    #: the card now covered (flood on a dock or bridge, bridge on a canal or flood)
    covers: int | None = None


@dataclass(frozen=True)
class ShipMoved:
    """The placer moved the patrol ship to another water card before placing."""

    TYPE: ClassVar[str] = "kontor.ShipMoved"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int
    x: int
    y: int


@dataclass(frozen=True)
class DockRemoved:
    """The ship removed a dock next to it: under ``to_seat``'s dock pile; its warehouses
    go back to the reserve."""

    TYPE: ClassVar[str] = "kontor.DockRemoved"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int
    card: int
    x: int
    y: int
    to_seat: int


@dataclass(frozen=True)
class FinalSectorsCounted:
    """End of a "largest sectors" game: which scored sectors count (indices in scoring
    order), which an unbreakable tie eliminated, and the points per seat."""

    TYPE: ClassVar[str] = "kontor.FinalSectorsCounted"
    SCHEMA_VERSION: ClassVar[int] = 1
    counted: tuple[int, ...]
    eliminated: tuple[int, ...]
    sizes: tuple[int, ...]  # per scored sector: its number of docks
    distances: tuple[int | None, ...]  # per scored sector: steps to the anchor
    points: tuple[int, ...]


@dataclass(frozen=True)
class WarehousesAdded:
    TYPE: ClassVar[str] = "kontor.WarehousesAdded"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int
    card: int
    goods: tuple[str, ...]


@dataclass(frozen=True)
class SectorScored:
    TYPE: ClassVar[str] = "kontor.SectorScored"
    SCHEMA_VERSION: ClassVar[int] = 1
    cells: tuple[tuple[int, int], ...]
    warehouses: tuple[tuple[int, ...], ...]  # per seat: tea, wine, spice counts
    winner: int | None
    rule: str  # highest | most | value | tie | empty
    guardian: tuple[int, int] | None
    points: int
    warehouses_returned: tuple[int, ...]  # dock cards whose warehouses go back


@dataclass(frozen=True)
class CardDrawn:
    """The drawn card was the face-up top of its pile, so it is public."""

    TYPE: ClassVar[str] = "kontor.CardDrawn"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int
    card: int
    pile: str  # dock | water


@dataclass(frozen=True)
class IncomePaid:
    TYPE: ClassVar[str] = "kontor.IncomePaid"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int
    amount: int


@dataclass(frozen=True)
class RoundStarted:
    TYPE: ClassVar[str] = "kontor.RoundStarted"
    SCHEMA_VERSION: ClassVar[int] = 1
    round: int
    idle_rounds: int  # complete rounds in a row without a placement


@dataclass(frozen=True)
class GameEnded:
    TYPE: ClassVar[str] = "kontor.GameEnded"
    SCHEMA_VERSION: ClassVar[int] = 1
    reason: str  # board_full | stalled | idle
    points: tuple[int, ...]
    money: tuple[int, ...]
    winners: tuple[int, ...]


#: the core's own events. Each extension (a form, a special rule, a scenario, an
#: expansion) defines and lists its own next to it (``EVENTS``); the title's package gathers
#: them all for the codec (registry.py: ``EVENT_TYPES``).
EVENTS: tuple[type, ...] = (
    GameStarted,
    CardChosen,
    Passed,
    CardsRevealed,
    TaxPaid,
    TaxCancelled,
    TaxWaived,
    CardReturned,
    TurnOrderSet,
    CardPlaced,
    WarehousesAdded,
    SectorScored,
    CardDrawn,
    IncomePaid,
    RoundStarted,
    GameEnded,
    ShipMoved,
    DockRemoved,
    FinalSectorsCounted,
)
