"""evolve(state, event) -> state: applies a fact, decides nothing.

Replay folds every event of a game (issue 24: 100k events a second per core), so each
event type finds its function in one dict (domain/common/event_table.py), and states are
copied as their instance dictionaries (domain/common/frozen.py's ``replace``, and
``_column_of`` below, which builds a revealed card's column without ``__init__``: the same
object, its fields in order; ``_seat`` and ``_column``, replace() written out for a seat's
and a column's copy, one call less per event).
tests/domain/speicherstadt/test_evolve.py checks every state of many games has exactly its
dataclass's fields.
"""

from __future__ import annotations

from domain.common.event_table import EventTable
from domain.common.frozen import replace
from domain.speicherstadt import events as ev
from domain.speicherstadt import goods as gd
from domain.speicherstadt.data import CARD, CONTRACT, GOODS, SETUP
from domain.speicherstadt.state import (
    BOUGHT,
    DEMAND,
    DISCARDED,
    FINISHED,
    OPEN,
    PURCHASE,
    SHIPPING,
    SUPPLY,
    Column,
    SeatState,
    State,
)

_NEW = object.__new__
_SET = object.__setattr__  # a frozen dataclass's own __setattr__ refuses


def _seat(state: State, i: int, **changes) -> tuple[SeatState, ...]:
    seats = state.seats
    fields = seats[i].__dict__.copy()  # replace(), written out: one call less per event
    fields.update(changes)
    seat = _NEW(SeatState)
    _SET(seat, "__dict__", fields)
    return seats[:i] + (seat,) + seats[i + 1:]


def _column(state: State, i: int, **changes) -> tuple[Column, ...]:
    offer = state.offer
    fields = offer[i].__dict__.copy()  # as _seat
    fields.update(changes)
    column = _NEW(Column)
    _SET(column, "__dict__", fields)
    return offer[:i] + (column,) + offer[i + 1:]


def _column_of(card: str, cubes: tuple[str, ...]) -> Column:
    """``Column(card=card, cubes=cubes)`` without its ``__init__`` (a frozen dataclass's
    sets each field through object.__setattr__): the fields in declaration order."""
    column = _NEW(Column)
    _SET(column, "__dict__", {"card": card, "workers": (), "cubes": cubes, "status": OPEN, "buyer": None})
    return column


def _take(seat: SeatState, good: str, source: str) -> SeatState:
    return replace(seat, **{source: gd.remove(getattr(seat, source), good)})


def _without_deck_card(deck: tuple[str, ...], card: str) -> tuple[str, ...]:
    items = list(deck)
    items.remove(card)
    return tuple(items)


#: event type -> the function that records it
_APPLY = EventTable()
_records = _APPLY.records


def evolve(state: State | None, event) -> State:
    return _APPLY[type(event)](state, event)


@_records(ev.GameStarted)
def _(state, event):
    n = event.seat_count
    return State(
        seat_count=n, seed=event.seed, rng_counter=0, options=event.options,
        rules_version=event.rules_version, first_player=event.first_player,
        seats=tuple(SeatState(coins=SETUP["coins_each"]) for _ in range(n)),
        removed=event.removed, bag=(SETUP["cubes_per_good"],) * len(GOODS),
        reserve=(0,) * len(GOODS),
    )


@_records(ev.DeckBuilt)
def _(state, event):
    return replace(state, deck=event.deck, rng_counter=event.rng_counter)


@_records(ev.RoundStarted)
def _(state, event):
    seats = tuple(replace(s, bought=False) for s in state.seats)
    return replace(state, round=event.round, first_player=event.first_player, offer=(),
                   phase=SUPPLY, placed=0, purchase_column=0, seats=seats, shipping=frozenset())


@_records(ev.CardRevealed)
def _(state, event):
    return replace(
        state, deck=_without_deck_card(state.deck, event.card),
        offer=state.offer + (_column_of(event.card, event.cubes),),
        bag=gd.bump(state.bag, event.cubes, -1), rng_counter=event.rng_counter,
    )


@_records(ev.FireResolved)
def _(state, event):
    seats = tuple(replace(s, points=s.points + d) for s, d in zip(state.seats, event.changes))
    return replace(state, deck=_without_deck_card(state.deck, event.card),
                   discard=state.discard + (event.card,), seats=seats)


@_records(ev.SupplyCompleted)
def _(state, event):
    return replace(state, phase=DEMAND, last_round=event.last_round)


@_records(ev.WorkerPlaced)
def _(state, event):
    col = state.offer[event.column]
    return replace(state, offer=_column(state, event.column, workers=col.workers + (event.seat,)),
                   placed=state.placed + 1)


@_records(ev.PurchaseStarted)
def _(state, event):
    return replace(state, phase=PURCHASE, purchase_column=0)


@_records(ev.CardBought)
def _(state, event):
    seat = state.seats[event.seat]
    col = state.offer[event.column]
    contracts = seat.contracts
    if CARD[event.card].kind == CONTRACT:
        contracts = contracts + ((event.card, ()),)
    seats = _seat(state, event.seat, coins=seat.coins - event.price,
                  cards=seat.cards + (event.card,), bought=True,
                  loose=gd.add(seat.loose, *col.cubes), contracts=contracts)
    offer = _column(state, event.column, status=BOUGHT, buyer=event.seat, workers=(), cubes=())
    return replace(state, seats=seats, offer=offer, purchase_column=event.column + 1)


@_records(ev.CardRefused)
def _(state, event):
    col = state.offer[event.column]
    return replace(state, offer=_column(state, event.column, workers=col.workers[1:]))


@_records(ev.CardDiscarded)
def _(state, event):
    col = state.offer[event.column]
    offer = _column(state, event.column, status=DISCARDED, workers=(), cubes=())
    return replace(state, offer=offer, discard=state.discard + (event.card,),
                   reserve=gd.bump(state.reserve, col.cubes, +1),
                   purchase_column=event.column + 1)


@_records(ev.ShippingStarted)
def _(state, event):
    return replace(state, phase=SHIPPING, shipping=frozenset(event.seats))


@_records(ev.CubeDelivered)
def _(state, event):
    seat = _take(state.seats[event.seat], event.good, event.source)
    contracts = tuple(
        (c, gd.add(placed, event.good)) if c == event.contract else (c, placed)
        for c, placed in seat.contracts
    )
    seats = list(state.seats)
    seats[event.seat] = replace(seat, contracts=contracts)
    return replace(state, seats=tuple(seats))


@_records(ev.CubeSold)
def _(state, event):
    seat = _take(state.seats[event.seat], event.good, event.source)
    seats = list(state.seats)
    seats[event.seat] = replace(seat, coins=seat.coins + event.coins)
    return replace(state, seats=tuple(seats), reserve=gd.bump(state.reserve, (event.good,), +1))


@_records(ev.MarketSold, ev.MarketConverted)
def _(state, event):
    seat = state.seats[event.seat]
    for good, source in zip(event.goods, event.sources):
        seat = _take(seat, good, source)
    reserve = gd.bump(state.reserve, event.goods, +1)
    if isinstance(event, ev.MarketSold):
        seat = replace(seat, coins=seat.coins + event.coins)
    else:
        seat = replace(seat, loose=gd.add(seat.loose, event.take))
        reserve = gd.bump(reserve, (event.take,), -1)
    seats = list(state.seats)
    seats[event.seat] = seat
    return replace(state, seats=tuple(seats), reserve=reserve)


@_records(ev.CubeMoved)
def _(state, event):
    seat = _take(state.seats[event.seat], event.good, event.source)
    seat = replace(seat, **{event.target: gd.add(getattr(seat, event.target), event.good)})
    seats = list(state.seats)
    seats[event.seat] = seat
    return replace(state, seats=tuple(seats))


@_records(ev.ShippingEnded)
def _(state, event):
    seats = _seat(state, event.seat, loose=())
    return replace(state, seats=seats, reserve=gd.bump(state.reserve, event.lost, +1),
                   shipping=state.shipping - {event.seat})


@_records(ev.RoundEnded)
def _(state, event):
    seats = tuple(replace(s, coins=s.coins + i) for s, i in zip(state.seats, event.income))
    return replace(state, seats=seats, first_player=event.first_player, offer=(),
                   shipping=frozenset())


@_records(ev.GameEnded)
def _(state, event):
    return replace(state, phase=FINISHED, scores=event.scores, winners=event.winners)
