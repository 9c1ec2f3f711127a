"""The free wheel games' own events (« Roue libre », « Roue libre individuelle »: turns.py,
alliances.py decide them, evolve.py applies them); schema version 1. Stored: a type, its
version and its fields never change. ``EVENTS`` lists them; the title's package gathers
them with the core's and the other extensions' (registry.py: ``EVENT_TYPES``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar


@dataclass(frozen=True)
class TurnStarted:
    """Sequential turns: ``seat`` starts its turn (« chacun joue à son tour »)."""

    TYPE: ClassVar[str] = "kontor.TurnStarted"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int
    turn: int
    idle_turns: int  # turns in a row without a placement


@dataclass(frozen=True)
class TurnSkipped:
    """The seat could not pay a tax: « il doit passer à son prochain tour »."""

    TYPE: ClassVar[str] = "kontor.TurnSkipped"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int


@dataclass(frozen=True)
class CardPlayed:
    """Sequential turns: the seat plays this card from its hand, face up."""

    TYPE: ClassVar[str] = "kontor.CardPlayed"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int
    card: int


@dataclass(frozen=True)
class TaxUnpaid:
    """The seat could not pay the florin tax: marked, it passes its next turn."""

    TYPE: ClassVar[str] = "kontor.TaxUnpaid"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int


@dataclass(frozen=True)
class StepStarted:
    """Inside a free-wheel turn, the seat must now choose: step drunk | draw."""

    TYPE: ClassVar[str] = "kontor.StepStarted"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int
    step: str


@dataclass(frozen=True)
class DrunkDockSet:
    """The tavern at its cell makes the workers of ``card`` drunk (a coin under it)."""

    TYPE: ClassVar[str] = "kontor.DrunkDockSet"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int
    tavern: int
    card: int
    x: int
    y: int


@dataclass(frozen=True)
class DockSobered:
    """The coin is taken away: reason removed | separated | tavern_removed."""

    TYPE: ClassVar[str] = "kontor.DockSobered"
    SCHEMA_VERSION: ClassVar[int] = 1
    tavern: int
    card: int
    reason: str


@dataclass(frozen=True)
class AllianceProposed:
    TYPE: ClassVar[str] = "kontor.AllianceProposed"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int
    partner: int
    x: int
    y: int


@dataclass(frozen=True)
class AllianceDeclared:
    TYPE: ClassVar[str] = "kontor.AllianceDeclared"
    SCHEMA_VERSION: ClassVar[int] = 1
    seats: tuple[int, ...]
    cells: tuple[tuple[int, int], ...]  # the sector when declared


@dataclass(frozen=True)
class AllianceDeclined:
    TYPE: ClassVar[str] = "kontor.AllianceDeclined"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int


@dataclass(frozen=True)
class AllianceEnded:
    """reason left | merged (a seat would be allied to two) | sector_gone"""

    TYPE: ClassVar[str] = "kontor.AllianceEnded"
    SCHEMA_VERSION: ClassVar[int] = 1
    seats: tuple[int, ...]
    cells: tuple[tuple[int, int], ...]
    reason: str


@dataclass(frozen=True)
class SectorCounted:
    """End of a free-wheel game: one sector of at least two docks is scored.

    ``parties``: the seats of each party (a seat, a team, or an alliance); warehouses
    per party (tea, wine, spice); winner: index into parties; shares: points per seat
    from this sector; lost: an indivisible point lost by tied allies."""

    TYPE: ClassVar[str] = "kontor.SectorCounted"
    SCHEMA_VERSION: ClassVar[int] = 1
    cells: tuple[tuple[int, int], ...]
    parties: tuple[tuple[int, ...], ...]
    warehouses: tuple[tuple[int, ...], ...]
    winner: int | None
    rule: str
    points: int
    shares: tuple[int, ...]
    lost: int = 0


EVENTS: tuple[type, ...] = (TurnStarted, TurnSkipped, CardPlayed, TaxUnpaid, StepStarted, DrunkDockSet, DockSobered, AllianceProposed, AllianceDeclared, AllianceDeclined, AllianceEnded, SectorCounted)
