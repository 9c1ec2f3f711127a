"""Events of Speicherstadt: facts, past tense, codec types only."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from domain.speicherstadt.options import Options
from domain.speicherstadt.state import ScoreLine


@dataclass(frozen=True)
class GameStarted:
    TYPE: ClassVar[str] = "speicherstadt.GameStarted"
    SCHEMA_VERSION: ClassVar[int] = 1
    options: Options
    seat_count: int
    rules_version: str
    seed: str
    first_player: int
    removed: tuple[str, ...]


@dataclass(frozen=True)
class DeckBuilt:
    """The stack, top first: A on top, then B, C, D, the 4th fire at the bottom."""

    TYPE: ClassVar[str] = "speicherstadt.DeckBuilt"
    SCHEMA_VERSION: ClassVar[int] = 1
    deck: tuple[str, ...]
    rng_counter: int


@dataclass(frozen=True)
class RoundStarted:
    TYPE: ClassVar[str] = "speicherstadt.RoundStarted"
    SCHEMA_VERSION: ClassVar[int] = 1
    round: int
    first_player: int


@dataclass(frozen=True)
class CardRevealed:
    """Supply: a card taken from the stack onto the next water space (a ship gets 3 cubes)."""

    TYPE: ClassVar[str] = "speicherstadt.CardRevealed"
    SCHEMA_VERSION: ClassVar[int] = 1
    card: str
    column: int
    cubes: tuple[str, ...]
    rng_counter: int


@dataclass(frozen=True)
class FireResolved:
    """A fire: each seat's fireman sum and the points it gained or lost."""

    TYPE: ClassVar[str] = "speicherstadt.FireResolved"
    SCHEMA_VERSION: ClassVar[int] = 1
    card: str
    sums: tuple[int, ...]
    changes: tuple[int, ...]


@dataclass(frozen=True)
class SupplyCompleted:
    TYPE: ClassVar[str] = "speicherstadt.SupplyCompleted"
    SCHEMA_VERSION: ClassVar[int] = 1
    last_round: bool


@dataclass(frozen=True)
class WorkerPlaced:
    TYPE: ClassVar[str] = "speicherstadt.WorkerPlaced"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int
    column: int
    space: int


@dataclass(frozen=True)
class PurchaseStarted:
    TYPE: ClassVar[str] = "speicherstadt.PurchaseStarted"
    SCHEMA_VERSION: ClassVar[int] = 1


@dataclass(frozen=True)
class CardBought:
    """The card goes to ``seat`` for ``price`` coins; a ship's cubes are unloaded to it."""

    TYPE: ClassVar[str] = "speicherstadt.CardBought"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int
    column: int
    card: str
    price: int


@dataclass(frozen=True)
class CardRefused:
    TYPE: ClassVar[str] = "speicherstadt.CardRefused"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int
    column: int
    price: int


@dataclass(frozen=True)
class CardDiscarded:
    """Nobody bought it: to the discard pile (a ship's cubes to the reserve)."""

    TYPE: ClassVar[str] = "speicherstadt.CardDiscarded"
    SCHEMA_VERSION: ClassVar[int] = 1
    column: int
    card: str


@dataclass(frozen=True)
class ShippingStarted:
    TYPE: ClassVar[str] = "speicherstadt.ShippingStarted"
    SCHEMA_VERSION: ClassVar[int] = 1
    seats: tuple[int, ...]


@dataclass(frozen=True)
class CubeDelivered:
    TYPE: ClassVar[str] = "speicherstadt.CubeDelivered"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int
    good: str
    source: str
    contract: str


@dataclass(frozen=True)
class CubeSold:
    """Sold to the seat's trader of that good for ``coins``."""

    TYPE: ClassVar[str] = "speicherstadt.CubeSold"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int
    good: str
    source: str
    coins: int


@dataclass(frozen=True)
class MarketSold:
    TYPE: ClassVar[str] = "speicherstadt.MarketSold"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int
    goods: tuple[str, ...]
    sources: tuple[str, ...]
    coins: int


@dataclass(frozen=True)
class MarketConverted:
    """The cubes went to the reserve; ``take`` came from it to the seat's unloaded cubes."""

    TYPE: ClassVar[str] = "speicherstadt.MarketConverted"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int
    goods: tuple[str, ...]
    sources: tuple[str, ...]
    take: str


@dataclass(frozen=True)
class CubeMoved:
    """A cube moved between the seat's unloaded cubes ("loose"), warehouse and market."""

    TYPE: ClassVar[str] = "speicherstadt.CubeMoved"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int
    good: str
    source: str
    target: str


@dataclass(frozen=True)
class ShippingEnded:
    """The seat ended its shipping; its unloaded cubes left over went to the reserve."""

    TYPE: ClassVar[str] = "speicherstadt.ShippingEnded"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int
    lost: tuple[str, ...]


@dataclass(frozen=True)
class RoundEnded:
    """Income paid to each seat, and the metal coin passed to ``first_player``."""

    TYPE: ClassVar[str] = "speicherstadt.RoundEnded"
    SCHEMA_VERSION: ClassVar[int] = 1
    income: tuple[int, ...]
    first_player: int


@dataclass(frozen=True)
class GameEnded:
    TYPE: ClassVar[str] = "speicherstadt.GameEnded"
    SCHEMA_VERSION: ClassVar[int] = 1
    scores: tuple[ScoreLine, ...]
    winners: tuple[int, ...]


EVENT_TYPES = (GameStarted, DeckBuilt, RoundStarted, CardRevealed, FireResolved, SupplyCompleted,
               WorkerPlaced, PurchaseStarted, CardBought, CardRefused, CardDiscarded,
               ShippingStarted, CubeDelivered, CubeSold, MarketSold, MarketConverted, CubeMoved,
               ShippingEnded, RoundEnded, GameEnded)
