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


COMMAND_TYPES: tuple[type, ...] = (ChooseCard, Pass, PlaceCard)
