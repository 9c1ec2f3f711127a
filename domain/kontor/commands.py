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


# --- free wheel (free_wheel.py, alliances.py) ---


@dataclass(frozen=True)
class DrawCard:
    """Free wheel (« libre choix »): draw the top card of a pile: dock | water."""

    TYPE: ClassVar[str] = "DrawCard"
    pile: str


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
# --- end free wheel ---

COMMAND_TYPES: tuple[type, ...] = (ChooseCard, Pass, PlaceCard, MoveShip, *FREE_WHEEL_COMMAND_TYPES)
