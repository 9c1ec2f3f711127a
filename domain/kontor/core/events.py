"""Kontor events: past tense, explicit kontor.* names, schema version 1."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from domain.kontor.core.options import Options
from domain.kontor.core.state import Cell


@dataclass(frozen=True)
class GameStarted:
    TYPE: ClassVar[str] = "kontor.GameStarted"
    SCHEMA_VERSION: ClassVar[int] = 1
    options: Options
    seat_count: int
    seed: str
    rules_version: str
    rng_counter: int
    cross: tuple[Cell, ...]
    hands: tuple[tuple[int, ...], ...]
    dock_piles: tuple[tuple[int, ...], ...]
    water_pile: tuple[int, ...]
    money: tuple[int, ...]
    treasury: int
    #: the patrol ship's cell (« le bateau commence sur l'ancre »); None without ship
    ship: tuple[int, int] | None = None
    #: special cards removed unseen (« Le reste est enlevé du jeu et gardé caché »)
    specials_aside: tuple[int, ...] = ()
    # --- special rules A ---
    #: the first phase: "choose", or "starting_docks" (Justice)
    phase: str = "choose"
    #: Achat de cartes spéciales: the face-down pile of special cards
    specials_pile: tuple[int, ...] = ()
    #: free for all: the single dock pile (« une pile unique »), top first
    common_docks: tuple[int, ...] = ()
    # --- scenarios ---
    #: canals set aside unseen (Bakchich: « mettez de côté 10 canaux sans les regarder »)
    water_aside: tuple[int, ...] = ()
    #: Euphrate: (x, y, good) warehouses sunk on canals of the cross
    sunken: tuple[tuple[int, int, str], ...] = ()


@dataclass(frozen=True)
class CardChosen:
    """A seat laid a card face down. ``card`` is None in every other seat's copy."""

    TYPE: ClassVar[str] = "kontor.CardChosen"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int
    card: int | None
    #: Marins ivres morts: the seat secretly laid its "I pass" card (False for others)
    passing: bool = False
    # --- special rules B (Contrebande): chosen face down, and the replacement pile;
    # dropped from every other seat's copy ---
    face_down: bool = False
    draw: str | None = None


@dataclass(frozen=True)
class Passed:
    TYPE: ClassVar[str] = "kontor.Passed"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int
    florins: int  # received from the treasury (0 when it is empty)


@dataclass(frozen=True)
class CardsRevealed:
    TYPE: ClassVar[str] = "kontor.CardsRevealed"
    SCHEMA_VERSION: ClassVar[int] = 1
    cards: tuple[int | None, ...]  # per seat; None for a seat that passed


@dataclass(frozen=True)
class TaxPaid:
    TYPE: ClassVar[str] = "kontor.TaxPaid"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int
    amount: int


@dataclass(frozen=True)
class TaxCancelled:
    """The florin card that taxed this seat was taken back: no tax to pay."""

    TYPE: ClassVar[str] = "kontor.TaxCancelled"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int


@dataclass(frozen=True)
class TaxWaived:
    """Both seats owed tax and neither could pay: both exempt, each gets florins."""

    TYPE: ClassVar[str] = "kontor.TaxWaived"
    SCHEMA_VERSION: ClassVar[int] = 1
    seats: tuple[int, ...]
    florins: tuple[int, ...]  # received by each of ``seats``


@dataclass(frozen=True)
class CardReturned:
    """A revealed card goes back to its owner's hand: reason tax_unpaid | no_legal_cell."""

    TYPE: ClassVar[str] = "kontor.CardReturned"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int
    card: int
    reason: str


@dataclass(frozen=True)
class TurnOrderSet:
    TYPE: ClassVar[str] = "kontor.TurnOrderSet"
    SCHEMA_VERSION: ClassVar[int] = 1
    order: tuple[int, ...]  # seats that place this round, highest card first


@dataclass(frozen=True)
class CardPlaced:
    TYPE: ClassVar[str] = "kontor.CardPlaced"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int
    card: int
    x: int
    y: int
    #: the card now covered (flood on a dock or bridge, bridge on a canal or flood)
    covers: int | None = None


@dataclass(frozen=True)
class ShipMoved:
    """The placer moved the patrol ship to another water card before placing."""

    TYPE: ClassVar[str] = "kontor.ShipMoved"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int
    x: int
    y: int


@dataclass(frozen=True)
class DockRemoved:
    """The ship removed a dock next to it: under ``to_seat``'s dock pile; its warehouses
    go back to the reserve."""

    TYPE: ClassVar[str] = "kontor.DockRemoved"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int
    card: int
    x: int
    y: int
    to_seat: int


@dataclass(frozen=True)
class FinalSectorsCounted:
    """End of a "largest sectors" game: which scored sectors count (indices in scoring
    order), which an unbreakable tie eliminated, and the points per seat."""

    TYPE: ClassVar[str] = "kontor.FinalSectorsCounted"
    SCHEMA_VERSION: ClassVar[int] = 1
    counted: tuple[int, ...]
    eliminated: tuple[int, ...]
    sizes: tuple[int, ...]  # per scored sector: its number of docks
    distances: tuple[int | None, ...]  # per scored sector: steps to the anchor
    points: tuple[int, ...]


@dataclass(frozen=True)
class WarehousesAdded:
    TYPE: ClassVar[str] = "kontor.WarehousesAdded"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int
    card: int
    goods: tuple[str, ...]


@dataclass(frozen=True)
class SectorScored:
    TYPE: ClassVar[str] = "kontor.SectorScored"
    SCHEMA_VERSION: ClassVar[int] = 1
    cells: tuple[tuple[int, int], ...]
    warehouses: tuple[tuple[int, ...], ...]  # per seat: tea, wine, spice counts
    winner: int | None
    rule: str  # highest | most | value | tie | empty
    guardian: tuple[int, int] | None
    points: int
    warehouses_returned: tuple[int, ...]  # dock cards whose warehouses go back


@dataclass(frozen=True)
class CardDrawn:
    """The drawn card was the face-up top of its pile, so it is public."""

    TYPE: ClassVar[str] = "kontor.CardDrawn"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int
    card: int
    pile: str  # dock | water


@dataclass(frozen=True)
class IncomePaid:
    TYPE: ClassVar[str] = "kontor.IncomePaid"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int
    amount: int


@dataclass(frozen=True)
class RoundStarted:
    TYPE: ClassVar[str] = "kontor.RoundStarted"
    SCHEMA_VERSION: ClassVar[int] = 1
    round: int
    idle_rounds: int  # complete rounds in a row without a placement


@dataclass(frozen=True)
class GameEnded:
    TYPE: ClassVar[str] = "kontor.GameEnded"
    SCHEMA_VERSION: ClassVar[int] = 1
    reason: str  # board_full | stalled | idle
    points: tuple[int, ...]
    money: tuple[int, ...]
    winners: tuple[int, ...]


# --- free wheel (« Roue libre », « Roue libre individuelle »): free_wheel.py ---


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


FREE_WHEEL_EVENT_TYPES: tuple[type, ...] = (
    TurnStarted,
    TurnSkipped,
    CardPlayed,
    TaxUnpaid,
    StepStarted,
    DrunkDockSet,
    DockSobered,
    AllianceProposed,
    AllianceDeclared,
    AllianceDeclined,
    AllianceEnded,
    SectorCounted,
)
# --- end free wheel ---

EVENT_TYPES: tuple[type, ...] = (
    GameStarted,
    CardChosen,
    Passed,
    CardsRevealed,
    TaxPaid,
    TaxCancelled,
    TaxWaived,
    CardReturned,
    TurnOrderSet,
    CardPlaced,
    WarehousesAdded,
    SectorScored,
    CardDrawn,
    IncomePaid,
    RoundStarted,
    GameEnded,
    ShipMoved,
    DockRemoved,
    FinalSectorsCounted,
    *FREE_WHEEL_EVENT_TYPES,
)


# --- special rules A (special_rules.py) ----------------------------------------------------
@dataclass(frozen=True)
class StartingDockChosen:
    """Justice: a seat took a dock of its deck into its hand (``card`` None for others)."""

    TYPE: ClassVar[str] = "kontor.StartingDockChosen"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int
    card: int | None


@dataclass(frozen=True)
class DockPilesFormed:
    """Justice: the chosen docks go to the hands, the rest of each deck (shuffled at the
    start) is the pile, and its first cards are set aside unseen (``aside``)."""

    TYPE: ClassVar[str] = "kontor.DockPilesFormed"
    SCHEMA_VERSION: ClassVar[int] = 1
    aside: tuple[tuple[int, ...], ...]


@dataclass(frozen=True)
class BuyingOpened:
    """Achat de cartes spéciales: before the round, these seats may buy a special card."""

    TYPE: ClassVar[str] = "kontor.BuyingOpened"
    SCHEMA_VERSION: ClassVar[int] = 1
    seats: tuple[int, ...]


@dataclass(frozen=True)
class BuyDeclared:
    """A seat said whether it buys (``buy`` None for others until all have said)."""

    TYPE: ClassVar[str] = "kontor.BuyDeclared"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int
    buy: bool | None


@dataclass(frozen=True)
class SpecialCardBought:
    """The buyer pays ``price`` to the treasury and takes the top special card (``card``
    None for others: it stays face down)."""

    TYPE: ClassVar[str] = "kontor.SpecialCardBought"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int
    card: int | None
    price: int


@dataclass(frozen=True)
class BuyingClosed:
    """The buying is over: who wanted to buy (public now); the round's choice begins."""

    TYPE: ClassVar[str] = "kontor.BuyingClosed"
    SCHEMA_VERSION: ClassVar[int] = 1
    wanted: tuple[int, ...]


@dataclass(frozen=True)
class StepOpened:
    """The placer must now choose: step good | draw | pick | flood_water."""

    TYPE: ClassVar[str] = "kontor.StepOpened"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int
    step: str
    card: int


@dataclass(frozen=True)
class StepClosed:
    TYPE: ClassVar[str] = "kontor.StepClosed"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int
    step: str
    choice: str


@dataclass(frozen=True)
class PilePickPaid:
    """Premier choix: the seat paid to take a dock from within its pile."""

    TYPE: ClassVar[str] = "kontor.PilePickPaid"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int
    amount: int


@dataclass(frozen=True)
class WaterPlacedForFlood:
    """Choix d'inondation: a canal from the hand placed instead of the flood."""

    TYPE: ClassVar[str] = "kontor.WaterPlacedForFlood"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int
    card: int
    x: int
    y: int


@dataclass(frozen=True)
class FloodDiscarded:
    """Choix d'inondation: the flood used for two water cards leaves the game."""

    TYPE: ClassVar[str] = "kontor.FloodDiscarded"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int
    card: int


@dataclass(frozen=True)
class WaterFilled:
    """Cells filled with water cards from the draw pile: (x, y, card) each -- around a
    flood (Crue exceptionnelle) or every free cell at the end (Sprint final)."""

    TYPE: ClassVar[str] = "kontor.WaterFilled"
    SCHEMA_VERSION: ClassVar[int] = 1
    cells: tuple[tuple[int, int, int], ...]
    reason: str  # great_flood | final_sprint


EVENT_TYPES = EVENT_TYPES + (
    StartingDockChosen,
    DockPilesFormed,
    BuyingOpened,
    BuyDeclared,
    SpecialCardBought,
    BuyingClosed,
    StepOpened,
    StepClosed,
    PilePickPaid,
    WaterPlacedForFlood,
    FloodDiscarded,
    WaterFilled,
)
# --- end special rules A ------------------------------------------------------------------
# --- special rules B ---
from domain.kontor.core.events_b import EVENTS_B  # noqa: E402

EVENT_TYPES += EVENTS_B
# --- end special rules B ---


# --- expansions (export_warehouse.py, event_cards.py) ------------------------------------


@dataclass(frozen=True)
class WarehouseExported:
    """Export warehouse: the warehouse of ``good`` of the placed dock went to export."""

    TYPE: ClassVar[str] = "kontor.WarehouseExported"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int
    card: int
    good: str


@dataclass(frozen=True)
class ExportWarehouseKept:
    """The ship removed ``card``, whose ``good`` was not in the sector; the owner had
    another warehouse of that good in the sector (on ``from_card``): that one leaves, the
    export warehouse stays."""

    TYPE: ClassVar[str] = "kontor.ExportWarehouseKept"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int
    card: int
    good: str
    from_card: int


@dataclass(frozen=True)
class ExportWarehouseReturned:
    """The ship removed ``card``; the owner had no warehouse of ``good`` in the sector: he
    takes it from his export warehouse back to the reserve."""

    TYPE: ClassVar[str] = "kontor.ExportWarehouseReturned"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int
    card: int
    good: str


@dataclass(frozen=True)
class FinalBonusesCounted:
    """At the end: export majorities (per good, the seat with more, or None) and the event
    bonus points; ``points`` are the final points with them."""

    TYPE: ClassVar[str] = "kontor.FinalBonusesCounted"
    SCHEMA_VERSION: ClassVar[int] = 1
    export_majorities: tuple[int | None, ...]  # per good (tea, wine, spice)
    bonus_points: tuple[int, ...]  # per seat, from « Jours dorés »
    points: tuple[int, ...]


@dataclass(frozen=True)
class EventDeckShuffled:
    """The ten event cards shuffled face down (the order is secret: redacted)."""

    TYPE: ClassVar[str] = "kontor.EventDeckShuffled"
    SCHEMA_VERSION: ClassVar[int] = 1
    deck: tuple[str, ...]
    rng_counter: int


@dataclass(frozen=True)
class EventTurned:
    """The top event card is turned; ``waiting``: seats that have a choice to make."""

    TYPE: ClassVar[str] = "kontor.EventTurned"
    SCHEMA_VERSION: ClassVar[int] = 1
    card: str
    waiting: tuple[int, ...] = ()


@dataclass(frozen=True)
class EventResolved:
    TYPE: ClassVar[str] = "kontor.EventResolved"
    SCHEMA_VERSION: ClassVar[int] = 1
    card: str


@dataclass(frozen=True)
class EventSkipped:
    """A seat declines (or cannot make) the event's optional action."""

    TYPE: ClassVar[str] = "kontor.EventSkipped"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int


@dataclass(frozen=True)
class PileCardTaken:
    """Mariage: a card taken from the seat's own pile. ``card`` is None for others unless
    it was visible (the top card or a known card at the bottom)."""

    TYPE: ClassVar[str] = "kontor.PileCardTaken"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int
    card: int | None
    visible: bool


@dataclass(frozen=True)
class DockPutUnder:
    """Mariage: a dock from the hand put under the pile, openly."""

    TYPE: ClassVar[str] = "kontor.DockPutUnder"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int
    card: int


@dataclass(frozen=True)
class DocksPutUnder:
    """Désordres: all the seat's docks from its hand under its pile (others: null)."""

    TYPE: ClassVar[str] = "kontor.DocksPutUnder"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int
    cards: tuple[int, ...]


@dataclass(frozen=True)
class TurnForfeitSet:
    """Conjuration: the seat will pass its next turn."""

    TYPE: ClassVar[str] = "kontor.TurnForfeitSet"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int


@dataclass(frozen=True)
class TurnForfeited:
    """Conjuration: the seat passes this round (no card, no florin, no tax)."""

    TYPE: ClassVar[str] = "kontor.TurnForfeited"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int


@dataclass(frozen=True)
class MoneyLost:
    """Ouragan: florins each seat loses to the treasury."""

    TYPE: ClassVar[str] = "kontor.MoneyLost"
    SCHEMA_VERSION: ClassVar[int] = 1
    amounts: tuple[int, ...]


@dataclass(frozen=True)
class StrikePaid:
    """Grève: a seat whose tavern is on the board gets a florin from the treasury."""

    TYPE: ClassVar[str] = "kontor.StrikePaid"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int
    amount: int


@dataclass(frozen=True)
class CraneBurned:
    """Incendie: a placed crane (outside finished sectors) goes under its owner's pile."""

    TYPE: ClassVar[str] = "kontor.CraneBurned"
    SCHEMA_VERSION: ClassVar[int] = 1
    card: int
    x: int
    y: int
    to_seat: int


@dataclass(frozen=True)
class BonusPointAwarded:
    """Jours dorés: the richest seat gets an extra victory point."""

    TYPE: ClassVar[str] = "kontor.BonusPointAwarded"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int
    points: int


@dataclass(frozen=True)
class HandsShown:
    """Lutte d'influence: every hand is shown (public)."""

    TYPE: ClassVar[str] = "kontor.HandsShown"
    SCHEMA_VERSION: ClassVar[int] = 1
    hands: tuple[tuple[int, ...], ...]


@dataclass(frozen=True)
class GoodsOrderChanged:
    """Blocus maritime: from now on the value order of the goods is the changed one."""

    TYPE: ClassVar[str] = "kontor.GoodsOrderChanged"
    SCHEMA_VERSION: ClassVar[int] = 1
    beats: tuple[tuple[str, str], ...]  # (good, the good it beats)


@dataclass(frozen=True)
class WarehouseSwapped:
    """Inondation: the seat's warehouse of ``good`` on ``card`` exchanged for ``new_good``."""

    TYPE: ClassVar[str] = "kontor.WarehouseSwapped"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int
    card: int
    good: str
    new_good: str
    sector: tuple[tuple[int, int], ...]


EXPANSION_EVENT_TYPES: tuple[type, ...] = (
    WarehouseExported,
    ExportWarehouseKept,
    ExportWarehouseReturned,
    FinalBonusesCounted,
    EventDeckShuffled,
    EventTurned,
    EventResolved,
    EventSkipped,
    PileCardTaken,
    DockPutUnder,
    DocksPutUnder,
    TurnForfeitSet,
    TurnForfeited,
    MoneyLost,
    StrikePaid,
    CraneBurned,
    BonusPointAwarded,
    HandsShown,
    GoodsOrderChanged,
    WarehouseSwapped,
)
EVENT_TYPES += EXPANSION_EVENT_TYPES


# --- scenarios (domain/kontor/scenarios/) ---


@dataclass(frozen=True)
class DockBribed:
    """Bakchich: ``seat`` bought back the opponent's dock at (x, y) for ``cost`` florins
    (to the treasury); it goes under ``to_seat``'s pile, its warehouses to the reserve."""

    TYPE: ClassVar[str] = "kontor.DockBribed"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int
    card: int
    x: int
    y: int
    cost: int
    to_seat: int


@dataclass(frozen=True)
class SecondCanalOffered:
    """Grande marée: the seat that just placed a canal may place a second one."""

    TYPE: ClassVar[str] = "kontor.SecondCanalOffered"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int


@dataclass(frozen=True)
class SecondCanalPlaced:
    """Grande marée: a canal from the hand at (x, y), ``cost`` paid to the treasury."""

    TYPE: ClassVar[str] = "kontor.SecondCanalPlaced"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int
    card: int
    x: int
    y: int
    cost: int


@dataclass(frozen=True)
class SecondCanalDeclined:
    TYPE: ClassVar[str] = "kontor.SecondCanalDeclined"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int


@dataclass(frozen=True)
class SunkenWarehouseRaised:
    """Euphrate: the canal at (x, y) is surrounded; ``seat`` (who placed the last card)
    gets its warehouse. ``pending``: the seat must choose the centre; otherwise it is
    placed at once (SunkenWarehousePlaced) or, with no centre in an unfinished sector,
    goes to the reserve."""

    TYPE: ClassVar[str] = "kontor.SunkenWarehouseRaised"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int
    x: int
    y: int
    good: str
    pending: bool


@dataclass(frozen=True)
class SunkenWarehousePlaced:
    """Euphrate: the raised warehouse is added to the distribution centre ``card``."""

    TYPE: ClassVar[str] = "kontor.SunkenWarehousePlaced"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int
    good: str
    card: int
    x: int
    y: int


@dataclass(frozen=True)
class SunkenWarehouseUsed:
    """Euphrate: the reserve ran out of ``good``; the warehouse sunk at (x, y) is used."""

    TYPE: ClassVar[str] = "kontor.SunkenWarehouseUsed"
    SCHEMA_VERSION: ClassVar[int] = 1
    x: int
    y: int
    good: str


EVENT_TYPES += (
    DockBribed,
    SecondCanalOffered,
    SecondCanalPlaced,
    SecondCanalDeclined,
    SunkenWarehouseRaised,
    SunkenWarehousePlaced,
    SunkenWarehouseUsed,
)
# --- end scenarios ---
