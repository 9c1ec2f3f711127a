"""Commands of the special rules B (rules/bribery.py, smuggling.py, old_grudges.py), listed
by the core with its own."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar


@dataclass(frozen=True)
class ChooseFaceDown:
    """Contrebande: lay ``card`` (a canal or a goods dock) face down this round, to be
    placed face down; ``draw`` names the pile ("dock" | "water") of the replacement draw,
    so the draw does not betray the card."""

    TYPE: ClassVar[str] = "ChooseFaceDown"
    card: int
    draw: str = "dock"


@dataclass(frozen=True)
class PlaceBribeWarehouse:
    """Corruption: after placing the tavern, add one warehouse on the own single-good dock
    at (x, y)."""

    TYPE: ClassVar[str] = "PlaceBribeWarehouse"
    x: int
    y: int


@dataclass(frozen=True)
class EndBribe:
    """Corruption: add no (more) bribe warehouse."""

    TYPE: ClassVar[str] = "EndBribe"


@dataclass(frozen=True)
class DecideTavernSector:
    """Vieilles rancunes: at the end, the owner of the tavern at (x, y) says whether its
    scored sector counts."""

    TYPE: ClassVar[str] = "DecideTavernSector"
    x: int
    y: int
    counted: bool


COMMANDS_B: tuple[type, ...] = (ChooseFaceDown, PlaceBribeWarehouse, EndBribe, DecideTavernSector)
