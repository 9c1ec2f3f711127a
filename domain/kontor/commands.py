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

# --- special rules B ---
from domain.kontor.rule_b_commands import COMMANDS_B  # noqa: E402

COMMAND_TYPES += COMMANDS_B
# --- end special rules B ---
