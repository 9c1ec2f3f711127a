"""Commands of Speicherstadt: atomic, flat (``{"type": ..., fields of int/str}``).

Goods are named "coffee", "tea", "saffron", "rubber", "carpet".  A cube a command uses is
taken from the seat's unloaded ship cubes first, then its market, then its warehouse
(identical cubes: the order only decides what is left where; RetrieveCube moves a cube
out of storage when a seat wants another arrangement).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar


@dataclass(frozen=True)
class PlaceWorker:
    """Demand: place a worker on the lowest free space above the card of ``column`` (0 = left)."""

    TYPE: ClassVar[str] = "PlaceWorker"
    column: int


@dataclass(frozen=True)
class BuyCard:
    """Purchase: buy the card on offer for as many coins as workers still above it."""

    TYPE: ClassVar[str] = "BuyCard"


@dataclass(frozen=True)
class RefuseCard:
    """Purchase: refuse the card on offer and take the lowest worker back."""

    TYPE: ClassVar[str] = "RefuseCard"


@dataclass(frozen=True)
class DeliverCube:
    """Shipping: place one cube of ``good`` on the owned contract card ``contract``."""

    TYPE: ClassVar[str] = "DeliverCube"
    good: str
    contract: str


@dataclass(frozen=True)
class SellCube:
    """Shipping: sell one cube of ``good`` to the owned trader of that good for 1 coin."""

    TYPE: ClassVar[str] = "SellCube"
    good: str


@dataclass(frozen=True)
class MarketSell:
    """Shipping: the market takes two cubes (``first``, ``second``) for 1 coin."""

    TYPE: ClassVar[str] = "MarketSell"
    first: str
    second: str


@dataclass(frozen=True)
class MarketConvert:
    """Shipping: the market takes three cubes and gives one cube ``take`` from the reserve."""

    TYPE: ClassVar[str] = "MarketConvert"
    first: str
    second: str
    third: str
    take: str


@dataclass(frozen=True)
class StoreCube:
    """Shipping: put an unloaded cube of ``good`` in the seat's warehouse (at most 4)."""

    TYPE: ClassVar[str] = "StoreCube"
    good: str


@dataclass(frozen=True)
class KeepCube:
    """Shipping: keep an unloaded cube of ``good`` on the seat's market (at most 1)."""

    TYPE: ClassVar[str] = "KeepCube"
    good: str


@dataclass(frozen=True)
class RetrieveCube:
    """Shipping: take a cube of ``good`` out of ``place`` ("warehouse" or "market") to unload it."""

    TYPE: ClassVar[str] = "RetrieveCube"
    good: str
    place: str


@dataclass(frozen=True)
class EndShipping:
    """Shipping: done; unloaded cubes left over go to the reserve (not the bag)."""

    TYPE: ClassVar[str] = "EndShipping"


COMMAND_TYPES = (PlaceWorker, BuyCard, RefuseCard, DeliverCube, SellCube, MarketSell,
                 MarketConvert, StoreCube, KeepCube, RetrieveCube, EndShipping)
