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
COMMAND_TYPES = COMMAND_TYPES + EXPANSION_COMMAND_TYPES
