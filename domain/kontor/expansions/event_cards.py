"""Expansion « Kontor – cartes d'événements » (2 players).

« Au début de la partie, les cartes d'événement sont mélangées et placées en une pile
cachée. » ; « Lorsqu'un secteur est terminé, on procède comme d'habitude à son estimation.
On retourne ensuite la carte d'événement supérieure de la pile, avant de commencer le tour
suivant. L'événement décrit est accompli, à moins que ce ne soit impossible. »

One card is turned per scored sector, at the end of the round in which it was scored
(« avant de commencer le tour suivant »), in the order of scoring. Events with choices put
the game in phase ``event`` until every concerned seat has acted; then the round ends as
usual (docs/rules/kontor.md (Expansions)). Shared with the export warehouse: the
warehouses a dock holds now (warehouse_goods.py, « Inondation ») and the final count
(final_bonuses.py, « Jours dorés »).

Hook points: the set-up's step "event_deck" (the deck's shuffle, after GameStarted), ``end_of_round``, ``round_started``,
``to_act``, ``legal_commands`` and ``command`` (phase ``event``), ``counting`` (``Counting.beats``),
``card_placed``, ``dock_removed``, ``evolve_unknown``, its part of the view (``add_view``), ``redact``,
``seen`` (what redetermine keeps: a pile seen whole, the hands shown), the event deck
redrawn first of the rules' ``redetermine``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from domain.common.frozen import replace
from domain.decider import RuleViolation
from domain.kontor.core import events as ev
from domain.kontor.core.board import occupancy, sector_of
from domain.kontor.core.changes import set_at
from domain.kontor.core.data import BLOCKADE_GOODS_BEATS, CARDS, EVENT_CARDS, EVENT_SETTINGS, GOODS
from domain.kontor.core.hooks import Counting, Hooks, Seen
from domain.kontor.core.placement import scored_cells, step_waits
from domain.kontor.core.scoring import current_points
from domain.kontor.core.state import KontorState, change_part, part, without_cell
from domain.kontor.expansions.warehouse_goods import WarehouseGoodsState, actual_goods, moved
from domain.rng import Rng


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


EVENTS: tuple[type, ...] = (EventDeckShuffled, EventTurned, EventResolved, EventSkipped, PileCardTaken, DockPutUnder, DocksPutUnder, TurnForfeitSet, TurnForfeited, MoneyLost, StrikePaid, CraneBurned, BonusPointAwarded, HandsShown, GoodsOrderChanged, WarehouseSwapped)


@dataclass(frozen=True)
class ChooseFromPile:
    """Event « Mariage »: take ``card`` from your dock pile (the others keep their order)."""

    TYPE: ClassVar[str] = "ChooseFromPile"
    card: int


@dataclass(frozen=True)
class PutUnder:
    """Event « Mariage »: then put ``card``, a dock from your hand, under your pile."""

    TYPE: ClassVar[str] = "PutUnder"
    card: int


@dataclass(frozen=True)
class SwapWarehouse:
    """Event « Inondation »: exchange your warehouse of ``good`` on the dock at (x, y)
    for one of ``new_good`` from the reserve."""

    TYPE: ClassVar[str] = "SwapWarehouse"
    x: int
    y: int
    good: str
    new_good: str


@dataclass(frozen=True)
class SkipEvent:
    """Decline an event's optional action (« Chacun peut ... »)."""

    TYPE: ClassVar[str] = "SkipEvent"


COMMANDS: tuple[type, ...] = (ChooseFromPile, PutUnder, SwapWarehouse, SkipEvent)


@dataclass(frozen=True)
class EventCardsState:
    event_deck: tuple[str, ...] = ()  # face down, secret order; index 0 is turned next
    events_turned: tuple[str, ...] = ()  # public, in the order they were turned
    events_due: int = 0  # scored sectors whose event card has been dealt with
    event_active: str | None = None  # the event waiting for players' choices
    event_waiting: tuple[int, ...] = ()  # seats still to act on it, in order
    event_step: tuple[str, ...] = ()  # per seat: "" | "choose" | "put_under" | "swap"
    event_sectors: tuple[tuple[tuple[int, int], ...], ...] = ()  # Inondation: sectors used
    forfeit: tuple[int, ...] = ()  # Conjuration: seats that pass their next turn
    goods_changed: bool = False  # Blocus maritime: the value order is changed
    bonus_points: tuple[int, ...] = ()  # Jours dorés: extra victory points per seat
    known_hand: tuple[frozenset[int], ...] = ()  # Lutte d'influence: cards shown
    pile_open: tuple[bool, ...] = ()  # Mariage: the owner has seen his whole dock pile


def _own(state: KontorState) -> EventCardsState:
    return part(state, EventCardsState)


#: the commands of the choices an event card leaves
EVENT_COMMANDS = (ChooseFromPile, PutUnder, SwapWarehouse, SkipEvent)
#: the events that wait for players' choices, and how: together or one after the other
SIMULTANEOUS = frozenset({"marriage"})
IN_TURN = frozenset({"flood"})


def start_events(options, seat_count: int, seed_hex: str, rng_counter: int) -> list:
    """« les cartes d'événement sont mélangées et placées en une pile cachée »."""
    if not options.event_cards:
        return []
    rng = Rng(seed_hex, rng_counter)
    deck = rng.shuffle(tuple(EVENT_CARDS))
    return [EventDeckShuffled(tuple(deck), rng.counter)]


def step_event_deck(setup, _: None) -> bool:
    """The set-up's step after GameStarted: the event deck, shuffled last (from the
    RNG's final counter: earlier, it would draw other cards)."""
    setup.events += start_events(setup.options, setup.seat_count, setup.seed_hex, setup.rng.counter)
    return False


def _per_seat(values: tuple, n: int, default) -> tuple:
    return values if values else (default,) * n



def richest(state: KontorState) -> int | None:
    """The single richest seat; a tie: nobody (« En cas d'égalité, personne ne passe »)."""
    best = max(state.money)
    seats = [s for s, m in enumerate(state.money) if m == best]
    return seats[0] if len(seats) == 1 else None


# ---------------------------------------------------------------------------------------
# turning cards at the end of a round


def before_next_round(log) -> bool:
    """Turn the event cards due (one per sector scored since the last one); carry out the
    automatic ones. True when the game waits for players' choices (phase ``event``)."""
    while True:
        st = log.state
        if not st.options.event_cards or st.phase == "over":
            return False
        if _own(st).event_active is not None:
            return True
        if _own(st).events_due >= len(st.scored) or not _own(st).event_deck:
            return False
        card = _own(st).event_deck[0]
        waiting = _waiting(st, card)
        log.emit(EventTurned(card, waiting))
        if waiting:
            return True
        for event in _automatic(log.state, card):
            log.emit(event)


def _waiting(st: KontorState, card: str) -> tuple[int, ...]:
    if card == "marriage":
        # « Chacun peut choisir une carte de sa pile de docks » (an empty pile: impossible)
        return tuple(s for s in range(st.seat_count) if st.dock_piles[s])
    if card == "flood":
        seats = [s for s in range(st.seat_count) if swap_commands(st, s)]

        points = current_points(st)
        # in turn, the seat behind on points first (then red): reading in the docs
        return tuple(sorted(seats, key=lambda s: (points[s], s)))
    return ()


def _automatic(st: KontorState, card: str) -> list:
    n = st.seat_count
    out: list = []
    if card == "disorder":
        # « Chacun remet tous ses docks sous la pile et tire trois nouveaux docks du dessus »
        for seat in range(n):
            docks = tuple(sorted(c for c in st.hands[seat] if CARDS[c].kind == "dock"))
            pile = st.dock_piles[seat] + docks
            if docks:
                out.append(DocksPutUnder(seat, docks))
            for c in pile[: EVENT_SETTINGS["disorder_draw"]]:
                out.append(ev.CardDrawn(seat, c, "dock"))
    elif card == "conspiracy":
        # « Le joueur le plus riche passe son prochain tour. En cas d'égalité, personne »
        seat = richest(st)
        if seat is not None:
            out.append(TurnForfeitSet(seat))
    elif card == "hurricane":
        # « Chacun perd tout son argent sauf une pièce »
        keep = EVENT_SETTINGS["hurricane_keep"]
        amounts = tuple(max(0, m - keep) for m in st.money)
        if any(amounts):
            out.append(MoneyLost(amounts))
    elif card == "strike":
        # « Un joueur qui a déjà posé sa taverne reçoit une pièce supplémentaire »
        treasury = st.treasury
        cells = occupancy(st)
        for seat in range(n):
            has = any(CARDS[c].tavern and CARDS[c].owner == seat for c in cells.values())
            amount = min(EVENT_SETTINGS["strike_coins"], treasury)
            if has and amount:
                treasury -= amount
                out.append(StrikePaid(seat, amount))
    elif card == "fire":
        # « Les grues posées retournent sous la pile de leur propriétaire, sauf si elles se
        # trouvent dans un secteur terminé »
        cells = occupancy(st)
        closed = scored_cells(st)
        for cell in st.board:
            pos = (cell.x, cell.y)
            if cells.get(pos) != cell.card or pos in closed or not CARDS[cell.card].crane:
                continue
            out.append(CraneBurned(cell.card, cell.x, cell.y, CARDS[cell.card].owner))
    elif card == "golden_days":
        # « Le joueur le plus riche actuellement reçoit un point de victoire supplémentaire »
        seat = richest(st)
        if seat is not None:
            out.append(BonusPointAwarded(seat, EVENT_SETTINGS["golden_days_points"]))
    elif card == "power_struggle":
        # « Chacun doit montrer les cartes qu'il a en main »
        out.append(HandsShown(tuple(tuple(sorted(h)) for h in st.hands)))
    elif card == "blockade":
        # « A partir de maintenant, la valeur relative des marchandises est modifiée »
        if not _own(st).goods_changed:
            out.append(GoodsOrderChanged(tuple(sorted(BLOCKADE_GOODS_BEATS.items()))))
    return out


# ---------------------------------------------------------------------------------------
# choices


def event_to_act(state: KontorState) -> tuple[int, ...]:
    if _own(state).event_active in IN_TURN:
        return _own(state).event_waiting[:1]
    return tuple(sorted(_own(state).event_waiting))


def swap_commands(state: KontorState, seat: int) -> list[SwapWarehouse]:
    """« Chacun peut échanger un de ses entrepôts contre un des réserves d'une autre
    couleur, mais pas dans le même secteur, ni dans un secteur terminé »."""
    cells = occupancy(state)
    closed = scored_cells(state)
    used = {p for sector in _own(state).event_sectors for p in sector}
    out = []
    for cell in state.board:
        pos = (cell.x, cell.y)
        card = cell.card
        if cells.get(pos) != card or pos in closed or pos in used:
            continue
        if CARDS[card].owner != seat or card not in state.warehouses:
            continue
        have = actual_goods(state, card)
        for i, good in enumerate(GOODS):
            if have[i] <= 0:
                continue
            for new in GOODS:
                if new != good:
                    out.append(SwapWarehouse(cell.x, cell.y, good, new))
    return out


def event_commands(state: KontorState, seat: int) -> list:
    if seat not in event_to_act(state):
        return []
    step = _own(state).event_step[seat]
    if step == "choose":
        return [ChooseFromPile(c) for c in state.dock_piles[seat]] + [SkipEvent()]
    if step == "put_under":
        return [PutUnder(c) for c in sorted(state.hands[seat]) if CARDS[c].kind == "dock"]
    if step == "swap":
        return swap_commands(state, seat) + [SkipEvent()]
    return []


def _wrong(step: str) -> RuleViolation:
    return RuleViolation(
        "kontor.event_choice",
        f"The event waits for another choice now ({step!r}): « Chacun peut choisir une carte "
        "de sa pile de docks ... Rejeter ensuite un dock sous la pile » ; « Chacun peut "
        "échanger un de ses entrepôts ».",
    )


def decide_event(log, seat: int, cmd) -> None:
    st = log.state
    if st.phase != "event":
        raise RuleViolation("kontor.no_event", "No event card is waiting for a choice now.")
    step = _own(st).event_step[seat]
    if isinstance(cmd, ChooseFromPile):
        if step != "choose":
            raise _wrong(step)
        pile = st.dock_piles[seat]
        if cmd.card not in pile:
            raise RuleViolation(
                "kontor.not_in_pile",
                "Choose a card of your own dock pile (« une carte de sa pile de docks »).",
            )
        i = pile.index(cmd.card)
        known = st.pile_known[seat] if st.pile_known else 0
        visible = i == 0 or i >= len(pile) - known
        log.emit(PileCardTaken(seat, cmd.card, visible))
    elif isinstance(cmd, PutUnder):
        if step != "put_under":
            raise _wrong(step)
        if cmd.card not in st.hands[seat] or CARDS[cmd.card].kind != "dock":
            raise RuleViolation(
                "kontor.put_under",
                "Put one dock from your hand under your pile (« Rejeter ensuite un dock sous "
                "la pile »).",
            )
        log.emit(DockPutUnder(seat, cmd.card))
    elif isinstance(cmd, SwapWarehouse):
        if step != "swap":
            raise _wrong(step)
        if cmd not in swap_commands(st, seat):
            raise RuleViolation(
                "kontor.swap_warehouse",
                "Exchange one of your warehouses for another colour, not in a finished "
                "sector nor in the sector the other player chose (« mais pas dans le même "
                "secteur, ni dans un secteur terminé »).",
            )
        cells = occupancy(st)
        sector = sector_of(cells, (cmd.x, cmd.y))
        ordered = tuple(sorted(sector, key=lambda p: (p[1], p[0])))
        log.emit(WarehouseSwapped(seat, cells[(cmd.x, cmd.y)], cmd.good, cmd.new_good, ordered))
    elif isinstance(cmd, SkipEvent):
        if step not in ("choose", "swap"):
            raise _wrong(step)
        log.emit(EventSkipped(seat))
    _settle(log)
    if _own(log.state).event_active is None:
        log.end_round()


def _settle(log) -> None:
    """Seats that can no longer act skip; when nobody waits, the event is resolved."""
    st = log.state
    if _own(st).event_active in IN_TURN:
        while _own(st).event_waiting and not swap_commands(st, _own(st).event_waiting[0]):
            log.emit(EventSkipped(_own(st).event_waiting[0]))
            st = log.state
    if not _own(st).event_waiting:
        log.emit(EventResolved(_own(st).event_active))


# ---------------------------------------------------------------------------------------
# evolve


def forget_shown(state: KontorState, seat: int, card: int) -> KontorState:
    shown = _own(state).known_hand
    if not shown or card not in shown[seat]:
        return state
    return change_part(state, EventCardsState, known_hand=set_at(shown, seat, shown[seat] - {card}))


def _leave(state: KontorState, seat: int) -> KontorState:
    own = _own(state)
    return change_part(
        state,
        EventCardsState,
        event_waiting=tuple(s for s in own.event_waiting if s != seat),
        event_step=set_at(own.event_step, seat, ""),
    )


#: the expansion's own events (applied by ``evolve_event``)
OWN_EVENTS = (
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


def evolve_event(state: KontorState, event) -> KontorState | None:  # noqa: C901
    t = type(event)
    n = state.seat_count
    if t is EventDeckShuffled:
        state = replace(state, rng_counter=event.rng_counter)
        return change_part(
            state,
            EventCardsState,
            event_deck=event.deck,
            event_step=("",) * n,
            forfeit=(),
            bonus_points=(0,) * n,
            known_hand=(frozenset(),) * n,
            pile_open=(False,) * n,
        )
    if t is EventTurned:
        own = _own(state)
        state = change_part(
            state,
            EventCardsState,
            event_deck=own.event_deck[1:],
            events_turned=own.events_turned + (event.card,),
            events_due=own.events_due + 1,
        )
        if not event.waiting:
            return state
        step = "choose" if event.card == "marriage" else "swap"
        steps = _per_seat(_own(state).event_step, n, "")
        opened = _per_seat(_own(state).pile_open, n, False)
        for s in event.waiting:
            steps = set_at(steps, s, step)
            if event.card == "marriage":
                opened = set_at(opened, s, True)  # he looks through his whole pile
        state = replace(state, phase="event")
        return change_part(
            state,
            EventCardsState,
            pile_open=opened,
            event_active=event.card,
            event_waiting=event.waiting,
            event_step=steps,
            event_sectors=(),
        )
    if t is EventResolved:
        return change_part(
            replace(state, phase="place"),
            EventCardsState,
            event_active=None,
            event_waiting=(),
            event_step=("",) * n,
            event_sectors=(),
        )
    if t is EventSkipped:
        return _leave(state, event.seat)
    if t is PileCardTaken:
        seat = event.seat
        pile = state.dock_piles[seat]
        i = pile.index(event.card)
        known = state.pile_known or (0,) * n
        if i >= len(pile) - known[seat] and i > 0:
            known = set_at(known, seat, known[seat] - 1)
        known = set_at(known, seat, min(known[seat], len(pile) - 1))
        state = replace(
            state,
            dock_piles=set_at(state.dock_piles, seat, pile[:i] + pile[i + 1 :]),
            hands=set_at(state.hands, seat, state.hands[seat] + (event.card,)),
            pile_known=known,
        )
        steps = set_at(_own(state).event_step, seat, "put_under")
        return change_part(state, EventCardsState, event_step=steps)
    if t is DockPutUnder:
        seat = event.seat
        state = forget_shown(state, seat, event.card)
        hand = list(state.hands[seat])
        hand.remove(event.card)
        known = state.pile_known or (0,) * n
        state = replace(
            state,
            hands=set_at(state.hands, seat, tuple(hand)),
            dock_piles=set_at(state.dock_piles, seat, state.dock_piles[seat] + (event.card,)),
            pile_known=set_at(known, seat, known[seat] + 1),
        )
        return _leave(state, seat)
    if t is DocksPutUnder:
        seat = event.seat
        for c in event.cards:
            state = forget_shown(state, seat, c)
        hand = tuple(c for c in state.hands[seat] if c not in event.cards)
        known = state.pile_known or (0,) * n
        return replace(
            state,
            hands=set_at(state.hands, seat, hand),
            dock_piles=set_at(state.dock_piles, seat, state.dock_piles[seat] + event.cards),
            pile_known=set_at(known, seat, 0),
        )
    if t is TurnForfeitSet:
        return change_part(state, EventCardsState, forfeit=_own(state).forfeit + (event.seat,))
    if t is TurnForfeited:
        forfeit = tuple(s for s in _own(state).forfeit if s != event.seat)
        state = replace(state, passed=set_at(state.passed, event.seat, True))
        return change_part(state, EventCardsState, forfeit=forfeit)
    if t is MoneyLost:
        money = tuple(m - a for m, a in zip(state.money, event.amounts))
        return replace(state, money=money, treasury=state.treasury + sum(event.amounts))
    if t is StrikePaid:
        money = set_at(state.money, event.seat, state.money[event.seat] + event.amount)
        return replace(state, money=money, treasury=state.treasury - event.amount)
    if t is CraneBurned:
        board = without_cell(state.board, event.x, event.y)
        to = event.to_seat
        known = state.pile_known or (0,) * n
        return replace(
            state,
            board=board,
            dock_piles=set_at(state.dock_piles, to, state.dock_piles[to] + (event.card,)),
            pile_known=set_at(known, to, known[to] + 1),
        )
    if t is BonusPointAwarded:
        bonus = _per_seat(_own(state).bonus_points, n, 0)
        return change_part(
            state,
            EventCardsState,
            bonus_points=set_at(bonus, event.seat, bonus[event.seat] + event.points),
        )
    if t is HandsShown:
        return change_part(state, EventCardsState, known_hand=tuple(frozenset(h) for h in event.hands))
    if t is GoodsOrderChanged:
        return change_part(state, EventCardsState, goods_changed=True)
    if t is WarehouseSwapped:
        swapped = moved(state).swapped + ((event.card, event.good, event.new_good),)
        state = change_part(state, WarehouseGoodsState, swapped=swapped)
        sectors = _own(state).event_sectors + (event.sector,)
        state = change_part(state, EventCardsState, event_sectors=sectors)
        return _leave(state, event.seat)
    return None


def goods_beats(state: KontorState) -> dict[str, str] | None:
    return dict(BLOCKADE_GOODS_BEATS) if _own(state).goods_changed else None


def after_round_started(log) -> None:
    """« passe son prochain tour »: the conspirator passes the round just started."""
    for seat in _own(log.state).forfeit:
        log.emit(TurnForfeited(seat))


# ---------------------------------------------------------------------------------------
# what each viewer may see


def _sees_whole_pile(state: KontorState, seat: int) -> bool:
    """« Mariage »: the seat has looked through its whole dock pile."""
    opened = _own(state).pile_open
    return bool(opened) and opened[seat]


def seen(state: KontorState, observer) -> Seen | None:
    """What redetermine keeps: the observer's own dock pile, seen whole after « Mariage »;
    « Lutte d'influence »: the cards of each seat's hand shown to all (None: nothing)."""
    pile = (observer,) if observer is not None and _sees_whole_pile(state, observer) else ()
    shown = _own(state).known_hand
    if not pile and not shown:
        return None
    return Seen(piles=pile, hands=shown or None)


def bonus_points(state: KontorState) -> tuple[int, ...] | None:
    """« Jours dorés »: the bonus victory points per seat (None: no event cards)."""
    return _own(state).bonus_points or None


def known_hand(state: KontorState, seat: int) -> tuple[int, ...]:
    """Cards of the seat shown by « Lutte d'influence » and still in its hand (or chosen
    face down this round: which of them was chosen stays secret)."""
    shown = _own(state).known_hand
    if not shown:
        return ()
    held = set(state.hands[seat])
    if state.chosen and state.chosen[seat] is not None:
        held.add(state.chosen[seat])
    return tuple(sorted(shown[seat] & held))


def view_keys(state: KontorState, out: dict, viewer) -> None:
    out["events"] = {
        "deck_size": len(_own(state).event_deck),
        "turned": list(_own(state).events_turned),
        "names": {c: EVENT_CARDS[c] for c in _own(state).events_turned},
        "active": _own(state).event_active,
        "waiting": list(_own(state).event_waiting),
        "steps": {str(s): _own(state).event_step[s] for s in _own(state).event_waiting},
        "sectors_used": [[{"x": x, "y": y} for x, y in sec] for sec in _own(state).event_sectors],
        "goods_beats": dict(BLOCKADE_GOODS_BEATS) if _own(state).goods_changed else None,
        "forfeit": list(_own(state).forfeit),
    }
    if state.phase == "over":
        out["events"]["deck"] = list(_own(state).event_deck)
    bonus = _per_seat(_own(state).bonus_points, state.seat_count, 0)
    for seat, p in enumerate(out["players"]):
        p["bonus_points"] = bonus[seat]
        p["known_hand"] = list(known_hand(state, seat))
    if viewer is not None and _sees_whole_pile(state, viewer):
        out["you"]["dock_pile"] = list(state.dock_piles[viewer])


def redact(event, viewer, data: dict) -> dict:
    t = type(event)
    if t is EventDeckShuffled:
        data["deck"] = {"size": len(event.deck)}
    elif t is PileCardTaken and not event.visible and event.seat != viewer:
        data["card"] = None
    elif t is DocksPutUnder and event.seat != viewer:
        data["cards"] = {"size": len(event.cards)}
    return data


# ---------------------------------------------------------------------------------------
# hooks


def _event_to_act(state: KontorState) -> tuple[int, ...] | None:
    return event_to_act(state) if state.phase == "event" else None


def _event_legal(state: KontorState, seat: int) -> list | None:
    return event_commands(state, seat) if state.phase == "event" else None


def _decide(log, seat: int, command) -> bool:
    if not isinstance(command, EVENT_COMMANDS) or step_waits(log.state):
        return False
    decide_event(log, seat, command)
    log.after_command()
    return True


def forget_dock(state: KontorState, card: int) -> KontorState:
    """A dock left the board: warehouses swapped on it leave with it."""
    if not moved(state).swapped:
        return state
    swapped = tuple(e for e in moved(state).swapped if e[0] != card)
    return change_part(state, WarehouseGoodsState, swapped=swapped)


def reshuffled(original: KontorState, observer, rng, slot, state: KontorState) -> KontorState:
    """« une pile cachée »: the deck's order is secret, redetermine draws it again (first
    of the rules' redetermine)."""
    if not _own(state).event_deck:
        return state
    deck = tuple(rng.shuffle(sorted(_own(state).event_deck)))
    return change_part(state, EventCardsState, event_deck=deck)


def register(hooks: Hooks) -> None:
    hooks.to_act.append(_event_to_act)
    hooks.legal_commands.append(_event_legal)
    hooks.counting.append(lambda state: Counting(beats=goods_beats(state), points=bonus_points(state)))
    hooks.on_commands(EVENT_COMMANDS, _decide)
    hooks.add_step("event_card", lambda log, turn: before_next_round(log), before="game_end")
    hooks.add_step("event_cards_new_round", lambda log, turn: after_round_started(log) or False, after="new_round")
    hooks.add_step("event_deck", step_event_deck, after="game_started")
    # known_hand and swapped are filled only by this expansion's events
    hooks.before_event(
        ev.CardPlaced,
        lambda state, event: forget_shown(state, event.seat, event.card),
        when=lambda options: options.event_cards,
    )
    hooks.before_event(
        ev.DockRemoved,
        lambda state, event: forget_dock(state, event.card),
        when=lambda options: options.event_cards,
    )
    hooks.on_events(OWN_EVENTS, evolve_event)
    hooks.add_view(lambda state, out, cells, viewer: view_keys(state, out, viewer), after="you")
    hooks.redact.append(redact)
    hooks.seen.append(seen)
    hooks.redraw_first(reshuffled)
