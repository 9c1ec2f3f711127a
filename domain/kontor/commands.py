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
class DrawCard:
    """The replacement draw when there is a choice: pile "dock" | "water" (Libre choix), or
    "dock_pick": pay 2 florins to take any dock from within your pile (Premier choix)."""

    TYPE: ClassVar[str] = "DrawCard"
    pile: str


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
# --- special rules B ---
from domain.kontor.rule_b_commands import COMMANDS_B  # noqa: E402

COMMAND_TYPES += COMMANDS_B
# --- end special rules B ---
