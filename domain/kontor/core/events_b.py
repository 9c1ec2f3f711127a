"""Events of the special rules B (rules/bribery.py, smuggling.py, final_point.py,
old_grudges.py); schema version 1. Stored events are the game's vocabulary: the core lists
them with its own (events.py), the rule gives them meaning."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar


@dataclass(frozen=True)
class BribeOffered:
    """Corruption: the tavern was placed at (x, y); its placer may add ``count``
    warehouses."""

    TYPE: ClassVar[str] = "kontor.BribeOffered"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int
    x: int
    y: int
    count: int


@dataclass(frozen=True)
class BribeWarehouseAdded:
    TYPE: ClassVar[str] = "kontor.BribeWarehouseAdded"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int
    card: int
    x: int
    y: int
    good: str


@dataclass(frozen=True)
class BribeEnded:
    TYPE: ClassVar[str] = "kontor.BribeEnded"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int


@dataclass(frozen=True)
class FaceDownRevealed:
    """Contrebande, at the end: the face-down card at (x, y) is turned over."""

    TYPE: ClassVar[str] = "kontor.FaceDownRevealed"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int
    x: int
    y: int
    card: int


@dataclass(frozen=True)
class LastSectorsClosed:
    """Point final: the sectors (indices into the scored sectors) finished by the latest
    placement that finished any."""

    TYPE: ClassVar[str] = "kontor.LastSectorsClosed"
    SCHEMA_VERSION: ClassVar[int] = 1
    sectors: tuple[int, ...]


@dataclass(frozen=True)
class FinalPointAwarded:
    """Point final: each of ``sectors`` (the last finished) is worth ``bonus`` more to its
    winner."""

    TYPE: ClassVar[str] = "kontor.FinalPointAwarded"
    SCHEMA_VERSION: ClassVar[int] = 1
    sectors: tuple[int, ...]
    bonus: int


@dataclass(frozen=True)
class TavernSectorsAsked:
    """Vieilles rancunes, at the end: the scored sectors (indices) holding a single tavern
    wait for its owner's decision; ``reason`` is the end reason."""

    TYPE: ClassVar[str] = "kontor.TavernSectorsAsked"
    SCHEMA_VERSION: ClassVar[int] = 1
    reason: str
    sectors: tuple[int, ...]


@dataclass(frozen=True)
class TavernSectorDecided:
    TYPE: ClassVar[str] = "kontor.TavernSectorDecided"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int
    sector: int
    x: int
    y: int
    counted: bool


EVENTS_B: tuple[type, ...] = (
    BribeOffered,
    BribeWarehouseAdded,
    BribeEnded,
    FaceDownRevealed,
    LastSectorsClosed,
    FinalPointAwarded,
    TavernSectorsAsked,
    TavernSectorDecided,
)
