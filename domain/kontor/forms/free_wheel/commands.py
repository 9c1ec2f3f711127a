"""The free wheel games' own commands (« Roue libre », « Roue libre individuelle »: decided
by turns.py and alliances.py). Their replacement draw, DrawCard, is shared with the special
rules A: the core's (core/commands.py). ``COMMANDS`` lists them; the title's package
gathers them with the core's and the other extensions' (registry.py: ``COMMAND_TYPES``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar


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


COMMANDS: tuple[type, ...] = (SetDrunkDock, ProposeAlliance, AcceptAlliance, DeclineAlliance, LeaveAlliance)
