"""The core's Kontor commands, and DrawCard, which extensions of two kinds share.

A form, a special rule, a scenario or an expansion defines its own commands next to it and
lists them (``COMMANDS``); the title's package gathers them all for the codec (registry.py:
``COMMAND_TYPES``)."""

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


# --- shared by extensions of two kinds: the special rules A (Libre choix, Premier choix:
# rules/draw_step.py, first_choice.py) and the free wheel (forms/free_wheel/turns.py), which
# never import each other ---
@dataclass(frozen=True)
class DrawCard:
    """The replacement draw when there is a choice: pile "dock" | "water" (Libre choix, and
    free wheel's « libre choix » rule), or "dock_pick": pay 2 florins to take any dock from
    within your pile (Premier choix)."""

    TYPE: ClassVar[str] = "DrawCard"
    pile: str


#: the core's own commands. Each extension defines and lists its own next to it
#: (``COMMANDS``); the title's package gathers them all for the codec (registry.py:
#: ``COMMAND_TYPES``)
COMMANDS: tuple[type, ...] = (ChooseCard, Pass, PlaceCard, MoveShip)
#: the commands several extensions of different kinds share (none of them owns it)
SHARED_COMMANDS: tuple[type, ...] = (DrawCard,)
