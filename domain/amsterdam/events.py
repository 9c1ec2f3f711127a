"""Events of Amsterdam: facts, past tense, codec types only. ``source`` names the rule or
card that caused a gain, so a client can explain every point and florin."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from domain.amsterdam.options import Options
from domain.amsterdam.state import ScoreLine


@dataclass(frozen=True)
class GameStarted:
    TYPE: ClassVar[str] = "amsterdam.GameStarted"
    SCHEMA_VERSION: ClassVar[int] = 1
    options: Options
    seat_count: int
    rules_version: str
    seed: str


@dataclass(frozen=True)
class BoardDealt:
    """Setup steps 1-9: goods, dockers, districts, piles, market stack, Amstel order."""

    TYPE: ClassVar[str] = "amsterdam.BoardDealt"
    SCHEMA_VERSION: ClassVar[int] = 1
    block_goods: tuple[str, ...]
    pontoons: tuple[tuple[str, ...], ...]
    districts_scored: tuple[str, ...]
    districts_hidden: tuple[str, ...]
    craftsmen: tuple[str, ...]
    buildings: tuple[str, ...]
    plans: tuple[str, ...]
    market_stack: tuple[str, ...]
    market_removed: tuple[str, ...]
    amstel_order: tuple[int, ...]  # top of the stack first (solo: TOM is 1)
    first_round: int
    rng_counter: int


@dataclass(frozen=True)
class TomDiscarded:
    TYPE: ClassVar[str] = "amsterdam.TomDiscarded"
    SCHEMA_VERSION: ClassVar[int] = 1
    card: str


@dataclass(frozen=True)
class TomDiscardTied:
    """TOM's Phase-I discard is tied (L903): the human names the card."""

    TYPE: ClassVar[str] = "amsterdam.TomDiscardTied"
    SCHEMA_VERSION: ClassVar[int] = 1
    cards: tuple[str, ...]


@dataclass(frozen=True)
class TomAdvanced:
    TYPE: ClassVar[str] = "amsterdam.TomAdvanced"
    SCHEMA_VERSION: ClassVar[int] = 1
    space: int
    stamp: int
    mouth_slot: int | None
    bridges: int


@dataclass(frozen=True)
class TomScored:
    TYPE: ClassVar[str] = "amsterdam.TomScored"
    SCHEMA_VERSION: ClassVar[int] = 1
    points: int
    source: str


@dataclass(frozen=True)
class TomFlorins:
    TYPE: ClassVar[str] = "amsterdam.TomFlorins"
    SCHEMA_VERSION: ClassVar[int] = 1
    amount: int
    source: str


@dataclass(frozen=True)
class TomDockerDelivered:
    """A triple (L927-932): the docker of that face's pontoon, if one is left there."""

    TYPE: ClassVar[str] = "amsterdam.TomDockerDelivered"
    SCHEMA_VERSION: ClassVar[int] = 1
    face: int
    colour: str | None
    space: int


@dataclass(frozen=True)
class TomBlockTaken:
    """L936-938: ``place`` is "black_market", a warehouse (its good), a depot, or None."""

    TYPE: ClassVar[str] = "amsterdam.TomBlockTaken"
    SCHEMA_VERSION: ClassVar[int] = 1
    block: str
    good: str
    place: str | None


@dataclass(frozen=True)
class TasksDealt:
    """Expansion 2 (L810-814): task tiles dealt to each seat; the rest stay in the box."""

    TYPE: ClassVar[str] = "amsterdam.TasksDealt"
    SCHEMA_VERSION: ClassVar[int] = 1
    hands: tuple[tuple[int, ...], ...]
    pile: tuple[int, ...]
    secret: bool
    rng_counter: int


@dataclass(frozen=True)
class PlacementsStarted:
    """Expansions 1 and 3: who places which figure, in order (L760-762, L848)."""

    TYPE: ClassVar[str] = "amsterdam.PlacementsStarted"
    SCHEMA_VERSION: ClassVar[int] = 1
    figures: tuple[str, ...]
    seats: tuple[int, ...]


@dataclass(frozen=True)
class FigureMoved:
    """A figure placed or moved; ``space`` None: it left the game (everything full)."""

    TYPE: ClassVar[str] = "amsterdam.FigureMoved"
    SCHEMA_VERSION: ClassVar[int] = 1
    figure: str
    space: str | None


@dataclass(frozen=True)
class CardsRevealed:
    """Cards taken from the top of the piles (face up, public)."""

    TYPE: ClassVar[str] = "amsterdam.CardsRevealed"
    SCHEMA_VERSION: ClassVar[int] = 1
    cards: tuple[str, ...]


@dataclass(frozen=True)
class PhaseStarted:
    TYPE: ClassVar[str] = "amsterdam.PhaseStarted"
    SCHEMA_VERSION: ClassVar[int] = 1
    phase: str
    round: int
    order: tuple[int, ...]


@dataclass(frozen=True)
class SeatAdvanced:
    """The next seat in the phase's order is to act."""

    TYPE: ClassVar[str] = "amsterdam.SeatAdvanced"
    SCHEMA_VERSION: ClassVar[int] = 1
    position: int


@dataclass(frozen=True)
class CardTaken:
    TYPE: ClassVar[str] = "amsterdam.CardTaken"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int
    card: str
    discarded: str | None


@dataclass(frozen=True)
class CardDeclined:
    TYPE: ClassVar[str] = "amsterdam.CardDeclined"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int


@dataclass(frozen=True)
class OfferDiscarded:
    TYPE: ClassVar[str] = "amsterdam.OfferDiscarded"
    SCHEMA_VERSION: ClassVar[int] = 1
    cards: tuple[str, ...]


@dataclass(frozen=True)
class PenaltyTaken:
    TYPE: ClassVar[str] = "amsterdam.PenaltyTaken"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int
    reason: str


@dataclass(frozen=True)
class DiceRolled:
    """L424, L645: the six faces in colour order, after the late-round change."""

    TYPE: ClassVar[str] = "amsterdam.DiceRolled"
    SCHEMA_VERSION: ClassVar[int] = 1
    rolled: tuple[int, ...]
    faces: tuple[int, ...]
    rng_counter: int


@dataclass(frozen=True)
class RoseFilled:
    """Resources placed on wind-rose slots: (colour, count, slot) each."""

    TYPE: ClassVar[str] = "amsterdam.RoseFilled"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int
    placements: tuple[tuple[str, int, int], ...]
    dice: tuple[int, ...]


@dataclass(frozen=True)
class DiceChosen:
    """Simultaneous dice choice (L430, B2): chosen face down, revealed by RoseFilled once
    every seat has chosen; the dice are hidden from the other seats until then."""

    TYPE: ClassVar[str] = "amsterdam.DiceChosen"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int
    dice: tuple[str, str]
    slots: tuple[int, int]


@dataclass(frozen=True)
class RoseTurned:
    """L436-438: slot k -> k - 1; the arrow's cubes and the house cube form the reserve."""

    TYPE: ClassVar[str] = "amsterdam.RoseTurned"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int


@dataclass(frozen=True)
class ResourcesGained:
    TYPE: ClassVar[str] = "amsterdam.ResourcesGained"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int
    colours: tuple[str, ...]
    source: str


@dataclass(frozen=True)
class ResourcesSpent:
    TYPE: ClassVar[str] = "amsterdam.ResourcesSpent"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int
    colours: tuple[str, ...]
    reason: str


@dataclass(frozen=True)
class ChoicesOwed:
    """The seat must name ``count`` resources of its choice (ChooseResource)."""

    TYPE: ClassVar[str] = "amsterdam.ChoicesOwed"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int
    count: int
    source: str


@dataclass(frozen=True)
class ResourceChosen:
    TYPE: ClassVar[str] = "amsterdam.ResourceChosen"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int
    colour: str


@dataclass(frozen=True)
class FlorinsChanged:
    TYPE: ClassVar[str] = "amsterdam.FlorinsChanged"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int
    amount: int
    source: str


@dataclass(frozen=True)
class PointsScored:
    TYPE: ClassVar[str] = "amsterdam.PointsScored"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int
    points: int
    source: str


@dataclass(frozen=True)
class OnceSpent:
    """A once-per-turn or once-per-round trigger fired (014, 016, 071, 072)."""

    TYPE: ClassVar[str] = "amsterdam.OnceSpent"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int
    card: str


@dataclass(frozen=True)
class CardActivated:
    TYPE: ClassVar[str] = "amsterdam.CardActivated"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int
    card: str
    free: bool = False


@dataclass(frozen=True)
class CardUsed:
    TYPE: ClassVar[str] = "amsterdam.CardUsed"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int
    card: str
    plan_district: str | None


@dataclass(frozen=True)
class CardDiscarded:
    TYPE: ClassVar[str] = "amsterdam.CardDiscarded"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int
    card: str


@dataclass(frozen=True)
class BlockTaken:
    TYPE: ClassVar[str] = "amsterdam.BlockTaken"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int
    block: str
    good: str
    sold: bool
    counted: bool = True  # False for CB 22's free block, beside the turn's limit (B13)


@dataclass(frozen=True)
class GoodLoaded:
    TYPE: ClassVar[str] = "amsterdam.GoodLoaded"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int
    good: str


@dataclass(frozen=True)
class BargeMoved:
    TYPE: ClassVar[str] = "amsterdam.BargeMoved"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int
    to: str
    credit: int  # paid steps left after this move


@dataclass(frozen=True)
class BargeCreditGained:
    TYPE: ClassVar[str] = "amsterdam.BargeCreditGained"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int
    steps: int


@dataclass(frozen=True)
class DockerPickedUp:
    TYPE: ClassVar[str] = "amsterdam.DockerPickedUp"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int
    colour: str
    pontoon: str


@dataclass(frozen=True)
class DockerDelivered:
    TYPE: ClassVar[str] = "amsterdam.DockerDelivered"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int
    colour: str
    space: int


@dataclass(frozen=True)
class GoodDelivered:
    TYPE: ClassVar[str] = "amsterdam.GoodDelivered"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int
    good: str
    place: str  # the good's warehouse, or a depot id
    foreman: bool = False  # the foreman stood there (L778)


@dataclass(frozen=True)
class AmstelAdvanced:
    TYPE: ClassVar[str] = "amsterdam.AmstelAdvanced"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int
    space: int
    stamp: int
    mouth_slot: int | None
    bridges: int
    action: bool  # the once-per-turn action (not a card or tile move, B5)


@dataclass(frozen=True)
class AmstelMoveEnded:
    """Another action followed: the turn's Amstel move cannot be extended any more (L589)."""

    TYPE: ClassVar[str] = "amsterdam.AmstelMoveEnded"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int


@dataclass(frozen=True)
class CardExchanged:
    """CA 18 (L2220): an inactive card to the discard for a discarded card or a pile's top."""

    TYPE: ClassVar[str] = "amsterdam.CardExchanged"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int
    given: str
    taken: str


@dataclass(frozen=True)
class FreeActivationsGained:
    TYPE: ClassVar[str] = "amsterdam.FreeActivationsGained"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int
    count: int


@dataclass(frozen=True)
class PrestigeBought:
    TYPE: ClassVar[str] = "amsterdam.PrestigeBought"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int
    tile: str


@dataclass(frozen=True)
class TurnEnded:
    TYPE: ClassVar[str] = "amsterdam.TurnEnded"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int
    kept: str | None


@dataclass(frozen=True)
class RoundEnded:
    """Phase IV (L622-631): markers reset, the next market tile revealed."""

    TYPE: ClassVar[str] = "amsterdam.RoundEnded"
    SCHEMA_VERSION: ClassVar[int] = 1
    round: int
    next_tile: str | None


@dataclass(frozen=True)
class GameEnded:
    TYPE: ClassVar[str] = "amsterdam.GameEnded"
    SCHEMA_VERSION: ClassVar[int] = 1
    scores: tuple[ScoreLine, ...]
    winners: tuple[int, ...]
    tom: ScoreLine | None = None  # the solo opponent's final score


EVENT_TYPES = (GameStarted, BoardDealt, TomDiscarded, TomDiscardTied, TomAdvanced, TomScored,
               TomFlorins, TomDockerDelivered, TomBlockTaken, TasksDealt, PlacementsStarted, FigureMoved, CardsRevealed, PhaseStarted, SeatAdvanced, CardTaken,
               CardDeclined, OfferDiscarded, PenaltyTaken, DiceRolled, DiceChosen, RoseFilled, RoseTurned,
               ResourcesGained, ResourcesSpent, ChoicesOwed, ResourceChosen, FlorinsChanged,
               PointsScored, OnceSpent, CardActivated, CardUsed, CardDiscarded, BlockTaken,
               GoodLoaded, BargeMoved, BargeCreditGained, DockerPickedUp, DockerDelivered,
               GoodDelivered, AmstelAdvanced, AmstelMoveEnded, CardExchanged, FreeActivationsGained, PrestigeBought, TurnEnded, RoundEnded, GameEnded)
