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


# --- scenarios (domain/kontor/scenarios.py) ---


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


COMMAND_TYPES: tuple[type, ...] = (
    ChooseCard,
    Pass,
    PlaceCard,
    MoveShip,
    Bribe,
    SecondCanal,
    PlaceSunkenWarehouse,
)
