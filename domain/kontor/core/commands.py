"""Kontor commands."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar


@dataclass(frozen=True)
class ChooseCard:
    """Lay one hand card face down for this round (phase 1)."""

    TYPE: ClassVar[str] = "ChooseCard"
    card: int


@dataclass(frozen=True)
class Pass:
    """Give up this round before choosing: +1 florin from the treasury, no tax."""

    TYPE: ClassVar[str] = "Pass"


@dataclass(frozen=True)
class PlaceCard:
    """Place the revealed card at (x, y); the anchor is (0, 0), y grows downwards."""

    TYPE: ClassVar[str] = "PlaceCard"
    x: int
    y: int


@dataclass(frozen=True)
class MoveShip:
    """Before placing a card that shows a ship: move the ship to another water card and
    optionally remove one adjacent ship dock (not in a closed sector) at (remove_x,
    remove_y), sent under ``to_seat``'s dock pile (a seat of the dock's colour; may be
    omitted when only one seat has that colour)."""

    TYPE: ClassVar[str] = "MoveShip"
    x: int
    y: int
    remove_x: int | None = None
    remove_y: int | None = None
    to_seat: int | None = None


COMMAND_TYPES: tuple[type, ...] = (ChooseCard, Pass, PlaceCard, MoveShip)


# --- shared by special rules A (Libre choix, Premier choix) and free wheel ----------------
@dataclass(frozen=True)
class DrawCard:
    """The replacement draw when there is a choice: pile "dock" | "water" (Libre choix, and
    free wheel's « libre choix » rule), or "dock_pick": pay 2 florins to take any dock from
    within your pile (Premier choix)."""

    TYPE: ClassVar[str] = "DrawCard"
    pile: str


# --- special rules A (special_rules.py) ---------------------------------------------------
@dataclass(frozen=True)
class ChooseStartingDock:
    """Justice: before the start, take one dock of your deck into your hand (three in all)."""

    TYPE: ClassVar[str] = "ChooseStartingDock"
    card: int


@dataclass(frozen=True)
class BuySpecialCard:
    """Achat de cartes spéciales: before the round, say (secretly) whether you buy a special
    card from the face-down pile for 2 florins."""

    TYPE: ClassVar[str] = "BuySpecialCard"
    buy: bool


@dataclass(frozen=True)
class ChooseGood:
    """Choix de la marchandise: the one good of the dock just placed that gets a warehouse."""

    TYPE: ClassVar[str] = "ChooseGood"
    good: str


@dataclass(frozen=True)
class TakeFromPile:
    """Premier choix, after paying: the dock taken from within your pile (order kept)."""

    TYPE: ClassVar[str] = "TakeFromPile"
    card: int


@dataclass(frozen=True)
class PlaceWater:
    """Choix d'inondation: instead of placing the revealed flood, place a canal of your hand
    at (x, y) (two in all; then the flood is discarded and two water cards drawn)."""

    TYPE: ClassVar[str] = "PlaceWater"
    card: int
    x: int
    y: int


COMMAND_TYPES = COMMAND_TYPES + (
    ChooseStartingDock,
    BuySpecialCard,
    ChooseGood,
    DrawCard,
    TakeFromPile,
    PlaceWater,
)
# --- end special rules A ------------------------------------------------------------------


# --- free wheel (free_wheel.py, alliances.py) ---------------------------------------------
@dataclass(frozen=True)
class SetDrunkDock:
    """Free wheel: the tavern at (tavern_x, tavern_y) makes the dock at (x, y) drunk; after
    placing the tavern, or at the start of its owner's turn before playing a card."""

    TYPE: ClassVar[str] = "SetDrunkDock"
    tavern_x: int
    tavern_y: int
    x: int
    y: int


@dataclass(frozen=True)
class ProposeAlliance:
    """Free for all: on one's turn before playing, propose to ``seat`` an alliance in the
    sector of the dock at (x, y). The partner answers with AcceptAlliance or
    DeclineAlliance before the turn goes on."""

    TYPE: ClassVar[str] = "ProposeAlliance"
    x: int
    y: int
    seat: int


@dataclass(frozen=True)
class AcceptAlliance:
    TYPE: ClassVar[str] = "AcceptAlliance"


@dataclass(frozen=True)
class DeclineAlliance:
    TYPE: ClassVar[str] = "DeclineAlliance"


@dataclass(frozen=True)
class LeaveAlliance:
    """Free for all: on one's turn before playing, leave one's alliance in the sector of
    the dock at (x, y)."""

    TYPE: ClassVar[str] = "LeaveAlliance"
    x: int
    y: int


FREE_WHEEL_COMMAND_TYPES: tuple[type, ...] = (
    DrawCard,
    SetDrunkDock,
    ProposeAlliance,
    AcceptAlliance,
    DeclineAlliance,
    LeaveAlliance,
)
COMMAND_TYPES += tuple(c for c in FREE_WHEEL_COMMAND_TYPES if c not in COMMAND_TYPES)
# --- end free wheel ---

# --- special rules B ---
from domain.kontor.core.commands_b import COMMANDS_B  # noqa: E402

COMMAND_TYPES += COMMANDS_B
# --- end special rules B ---


# --- expansions (expansions.py) ----------------------------------------------------------


@dataclass(frozen=True)
class ExportWarehouse:
    """Export warehouse expansion: place the revealed goods dock at (x, y) and put the
    warehouse of ``good`` (one of its goods) into your export warehouse; the others go to
    the sector as usual."""

    TYPE: ClassVar[str] = "ExportWarehouse"
    x: int
    y: int
    good: str


@dataclass(frozen=True)
class ChooseFromPile:
    """Event « Mariage »: take ``card`` from your dock pile (the others keep their order)."""

    TYPE: ClassVar[str] = "ChooseFromPile"
    card: int


@dataclass(frozen=True)
class PutUnder:
    """Event « Mariage »: then put ``card``, a dock from your hand, under your pile."""

    TYPE: ClassVar[str] = "PutUnder"
    card: int


@dataclass(frozen=True)
class SwapWarehouse:
    """Event « Inondation »: exchange your warehouse of ``good`` on the dock at (x, y)
    for one of ``new_good`` from the reserve."""

    TYPE: ClassVar[str] = "SwapWarehouse"
    x: int
    y: int
    good: str
    new_good: str


@dataclass(frozen=True)
class SkipEvent:
    """Decline an event's optional action (« Chacun peut ... »)."""

    TYPE: ClassVar[str] = "SkipEvent"


EXPANSION_COMMAND_TYPES: tuple[type, ...] = (
    ExportWarehouse,
    ChooseFromPile,
    PutUnder,
    SwapWarehouse,
    SkipEvent,
)
COMMAND_TYPES += EXPANSION_COMMAND_TYPES


# --- scenarios (domain/kontor/scenarios/: baksheesh.py, euphrates.py, spring_tide.py) ---


@dataclass(frozen=True)
class Bribe:
    """Bakchich: before choosing, buy back the opponent's goods dock at (x, y) (not in a
    finished sector) for as many florins as it shows goods; it goes under its owner's
    pile."""

    TYPE: ClassVar[str] = "Bribe"
    x: int
    y: int


@dataclass(frozen=True)
class SecondCanal:
    """Grande marée: right after placing a canal, place a canal of the hand at (x, y) for
    1 florin to the treasury (no income); ``card`` None declines."""

    TYPE: ClassVar[str] = "SecondCanal"
    card: int | None = None
    x: int | None = None
    y: int | None = None


@dataclass(frozen=True)
class PlaceSunkenWarehouse:
    """Euphrate: put the raised warehouse on the distribution centre at (x, y) (one of the
    seat's, in an unfinished sector)."""

    TYPE: ClassVar[str] = "PlaceSunkenWarehouse"
    x: int
    y: int


COMMAND_TYPES += (Bribe, SecondCanal, PlaceSunkenWarehouse)
# --- end scenarios ---
