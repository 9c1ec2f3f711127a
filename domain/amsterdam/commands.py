"""Commands of Amsterdam: what a seat asks for. Payments are colour multisets (tuples)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar


@dataclass(frozen=True)
class ChooseOpeningCard:
    """Setup step 15 (L315): take one of the revealed craftsmen and buildings."""

    TYPE: ClassVar[str] = "ChooseOpeningCard"
    card: str


@dataclass(frozen=True)
class ChooseOpeningResources:
    """Setup step 16 (L320): 1 resource on slot 1, 2 of one colour on slot 2."""

    TYPE: ClassVar[str] = "ChooseOpeningResources"
    single: str
    pair: str


@dataclass(frozen=True)
class PlaceFigure:
    """Setup (L760-762, L848): place the foreman, the bailiff or the black-market pawn."""

    TYPE: ClassVar[str] = "PlaceFigure"
    figure: str
    space: str


@dataclass(frozen=True)
class TakeCard:
    """Phase I (L392-398): take a revealed card; with 5 inactive cards, discard one."""

    TYPE: ClassVar[str] = "TakeCard"
    card: str
    discard: str | None = None


@dataclass(frozen=True)
class DiscardForTom:
    """Solo, Phase I (L903): name the card TOM discards when two of a kind tie."""

    TYPE: ClassVar[str] = "DiscardForTom"
    card: str


@dataclass(frozen=True)
class DeclineCard:
    """Phase I with card 049: take no card."""

    TYPE: ClassVar[str] = "DeclineCard"


@dataclass(frozen=True)
class ChooseDice:
    """Phase II (L426-434): two different dice (colours); slots differ only with 053."""

    TYPE: ClassVar[str] = "ChooseDice"
    dice: tuple[str, str]
    slots: tuple[int, int]


@dataclass(frozen=True)
class ActivateCard:
    """Phase III (L460-466): pay the card's cost (or 3 florins with 038, ``by_florins``)."""

    TYPE: ClassVar[str] = "ActivateCard"
    card: str
    payment: tuple[str, ...] = ()
    by_florins: bool = False
    free: bool = False  # CA 20, CB 24: a free activation bought at the market


@dataclass(frozen=True)
class UseCard:
    """Phase III: use an active "III" card once this round (plans: per 029)."""

    TYPE: ClassVar[str] = "UseCard"
    card: str
    payment: tuple[str, ...] = ()
    target: str | None = None  # 047: the plan to discard


@dataclass(frozen=True)
class Convert:
    """A permanent exchange (032, 036, 039), as often as wished in your turn."""

    TYPE: ClassVar[str] = "Convert"
    card: str
    payment: tuple[str, ...] = ()


@dataclass(frozen=True)
class TakeBlock:
    """L494-498, L578-580: pay the block (or 2 florins with 027), optionally sell its good."""

    TYPE: ClassVar[str] = "TakeBlock"
    block: str
    payment: tuple[str, ...] = ()
    by_florins: bool = False
    sale: str | None = None  # None (keep the good), "florins", "resource" or "both"
    bailiff_to: str | None = None  # L790: where the bailiff goes when his block is bought
    pawn_to: str | None = None     # L858: where the pawn goes after a sale on its space


@dataclass(frozen=True)
class LoadGood:
    """L514: from the provisional warehouse onto the barge, at the start or a pontoon."""

    TYPE: ClassVar[str] = "LoadGood"
    good: str


@dataclass(frozen=True)
class MoveBarge:
    """L530-532: one node; pay one resource, or nothing while steps are paid (022, 040)."""

    TYPE: ClassVar[str] = "MoveBarge"
    to: str
    pay: str | None = None


@dataclass(frozen=True)
class PickUpDocker:
    """L536: take a docker at this pontoon (+1 florin)."""

    TYPE: ClassVar[str] = "PickUpDocker"
    colour: str


@dataclass(frozen=True)
class DeliverGood:
    """L544-548: unload a good at this warehouse landing or depot."""

    TYPE: ClassVar[str] = "DeliverGood"
    good: str


@dataclass(frozen=True)
class AdvanceAmstel:
    """L589-594: the turn's Amstel move, one space per command: the first space costs 1
    resource of any colour, each further space 2, as long as no other action intervenes
    (1 / 3 / 5 / 7 resources for 1 / 2 / 3 / 4 spaces)."""

    TYPE: ClassVar[str] = "AdvanceAmstel"
    payment: tuple[str, ...]


@dataclass(frozen=True)
class BuyPrestige:
    """L611: once a turn (020: twice), pay the market tile's florins, gain its rewards."""

    TYPE: ClassVar[str] = "BuyPrestige"
    # expansion 4 tiles (L2176-2255): what the tile acts on
    give: str | None = None        # CA 18: the inactive card exchanged
    take: str | None = None        # CA 18: a discarded card, or "craftsman" / "building" pile
    node: str | None = None        # CB 21: where the barge goes
    block: str | None = None       # CB 22: the block taken for free
    sale: str | None = None        # CB 22: as TakeBlock
    bailiff_to: str | None = None  # CB 22: as TakeBlock
    pawn_to: str | None = None     # CB 22: as TakeBlock


@dataclass(frozen=True)
class ChooseResource:
    """Name the colour of a resource "of your choice" that a card or tile gave."""

    TYPE: ClassVar[str] = "ChooseResource"
    colour: str


@dataclass(frozen=True)
class EndTurn:
    """Pass (L450); the resource kept in the house for the next round (L624), if any."""

    TYPE: ClassVar[str] = "EndTurn"
    keep: str | None = None
    foreman_to: str | None = None  # L782: the foreman's next place after a delivery to him


COMMAND_TYPES = (ChooseOpeningCard, ChooseOpeningResources, PlaceFigure, TakeCard, DiscardForTom, DeclineCard, ChooseDice,
                 ActivateCard, UseCard, Convert, TakeBlock, LoadGood, MoveBarge, PickUpDocker,
                 DeliverGood, AdvanceAmstel, BuyPrestige, ChooseResource, EndTurn)
