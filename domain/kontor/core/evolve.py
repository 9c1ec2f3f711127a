"""evolve(state, event) -> state: applies a fact, decides nothing.

Dispatch by the event's type through one table: the core's events (``CORE_EVENTS``, below)
and the extensions' own events (``rules.events``, one owner per type). A core event may be
applied another way by a form while it is active (``rules.instead``), be preceded by what
a rule records (``rules.before``), and every event may be followed by what it also does
under a rule (``rules.after``; GameStarted's: the rules' part of the state at the start).
``rules``: the game's rule set (core/hooks.py, ``rules_for``)."""

from __future__ import annotations

from domain.common.frozen import replace
from domain.kontor.core import events as ev
from domain.kontor.core.changes import (
    add_at,
    dock_to_pile_bottom,
    grown,
    set_at,
    without_one,
)
from domain.kontor.core.hooks import rules_for
from domain.kontor.core.sides import seats_of
from domain.kontor.core.state import PASS_CHOICE, Cell, KontorState, ScoredSector

_CardDrawn, _CardReturned = ev.CardDrawn, ev.CardReturned


def evolve(state: KontorState | None, event) -> KontorState:
    t = type(event)
    options = event.options if state is None else state.options
    last = _last  # one read (threads)
    if last[0] is options:
        table = last[1]
    else:
        table = _table(options)
    found = table.get(t)
    if found is None:
        raise TypeError(f"unknown event {event!r}")
    apply, after = found
    new = apply(state, event)
    for also in after:
        new = also(state, event, new)
    if t is _CardDrawn or t is _CardReturned:  # public: the card goes to a hand
        return replace(new, seen_in_hand=new.seen_in_hand | {(event.seat, event.card)})
    if new.seen_in_hand and state is not None and new.hands is not state.hands:
        # a card that leaves its hand is forgotten: it may come back unseen (the seen cards
        # still held; a copy only where one was forgotten: replay, issue 24)
        hands = new.hands
        held = frozenset(seen for seen in new.seen_in_hand if seen[1] in hands[seen[0]])
        if len(held) != len(new.seen_in_hand):
            return replace(new, seen_in_hand=held)
    return new


#: the options of the game evolved last and its table ({event type: (apply, after
#: rules)}): a replay folds a game's events in a row
_last: tuple = (None, None)


def _table(options) -> dict:
    """The game's table, with only the rules its options make act, kept in its rule set
    (one per options value: built again for every game replayed, the tables made objects
    that lived on, and the garbage collector's full passes took a tenth of a replay)."""
    global _last
    rules = rules_for(options)
    table = rules.derived.get("evolve")
    if table is None:
        table = rules.derived["evolve"] = _build(rules, options)
    _last = (options, table)
    return table


def _active(rules, options) -> tuple:
    return tuple(rule for rule, when in rules if when is None or when(options))


def _build(rules, options) -> dict:
    table = {}
    for t, core in CORE_EVENTS.items():
        if t in rules.events:
            raise ValueError(f"event {t.__name__} is the core's")
        instead = _active(rules.instead.get(t, ()), options)
        before = _active(rules.before.get(t, ()), options)
        table[t] = (_with_rules(core, instead, before), ())
    for t, own in rules.events.items():
        table[t] = (own, ())
    for t, after in rules.after.items():
        if t in table:
            table[t] = (table[t][0], _active(after, options))
    # GameStarted's first phase, set once the rules' parts of the starting state are (a
    # form's own first phase, the free wheel's "turn", comes with its next event)
    apply, after = table[ev.GameStarted]
    table[ev.GameStarted] = (apply, (*after, _first_phase))
    return table


def _first_phase(old: None, event: ev.GameStarted, new: KontorState) -> KontorState:
    return new if new.phase == event.phase else replace(new, phase=event.phase)


def _with_rules(core, instead, before):
    if not instead and not before:
        return core

    def apply(state, event):
        for rule in instead:
            out = rule(state, event)
            if out is not None:
                return out
        for rule in before:
            state = rule(state, event)
        return core(state, event)

    return apply


def _game_started(state: None, event: ev.GameStarted) -> KontorState:
    n = event.seat_count
    state = KontorState(
        seat_count=n,
        seed=event.seed,
        rng_counter=event.rng_counter,
        options=event.options,
        rules_version=event.rules_version,
        board=event.cross,
        hands=event.hands,
        dock_piles=event.dock_piles,
        water_pile=event.water_pile,
        money=event.money,
        treasury=event.treasury,
        points=(0,) * n,
        warehouses=frozenset(),
        chosen=(None,) * n,
        passed=(False,) * n,
        revealed=(None,) * n,
        tax=("",) * n,
        ship=event.ship,
        specials_aside=event.specials_aside,
        span=(
            min(c.x for c in event.cross),
            max(c.x for c in event.cross),
            min(c.y for c in event.cross),
            max(c.y for c in event.cross),
        ),
        pile_known=(0,) * n,
    )
    return state


def _card_chosen(state: KontorState, event: ev.CardChosen) -> KontorState:
    # The seat's own copy carries the card; a redacted copy (None) is never folded.
    hand = state.hands[event.seat]
    if event.card is not None and event.card in hand:
        hand = without_one(hand, event.card)
    # special rule « Marins ivres morts »: the secret "I pass" card
    chosen = PASS_CHOICE if event.passing else event.card
    return replace(
        state,
        hands=set_at(state.hands, event.seat, hand),
        chosen=set_at(state.chosen, event.seat, chosen),
    )


def _passed(state: KontorState, event: ev.Passed) -> KontorState:
    return replace(
        state,
        passed=set_at(state.passed, event.seat, True),
        money=add_at(state.money, event.seat, event.florins),
        treasury=state.treasury - event.florins,
    )


def _cards_revealed(state: KontorState, event: ev.CardsRevealed) -> KontorState:
    return replace(state, revealed=event.cards, chosen=(None,) * state.seat_count)


def _tax_paid(state: KontorState, event: ev.TaxPaid) -> KontorState:
    return replace(
        state,
        money=add_at(state.money, event.seat, -event.amount),
        treasury=state.treasury + event.amount,
        tax=set_at(state.tax, event.seat, "paid"),
    )


def _tax_cancelled(state: KontorState, event: ev.TaxCancelled) -> KontorState:
    return replace(state, tax=set_at(state.tax, event.seat, "cancelled"))


def _tax_waived(state: KontorState, event: ev.TaxWaived) -> KontorState:
    money, tax = state.money, state.tax
    for seat, florins in zip(event.seats, event.florins):
        money = add_at(money, seat, florins)
        tax = set_at(tax, seat, "waived")
    return replace(state, money=money, tax=tax, treasury=state.treasury - sum(event.florins))


def _card_returned(state: KontorState, event: ev.CardReturned) -> KontorState:
    seat = event.seat
    return replace(
        state,
        hands=set_at(state.hands, seat, state.hands[seat] + (event.card,)),
        order=tuple(s for s in state.order if s != seat),
        tax=set_at(state.tax, seat, "unpaid") if event.reason == "tax_unpaid" else state.tax,
        returned=state.returned + ((seat, event.card, event.reason),),
        ship_moved=False,
    )


def _turn_order_set(state: KontorState, event: ev.TurnOrderSet) -> KontorState:
    return replace(state, order=event.order, phase="place")


def _card_placed(state: KontorState, event: ev.CardPlaced) -> KontorState:
    warehouses = state.warehouses
    if event.covers is not None:
        warehouses = warehouses - {event.covers}
    return replace(
        state,
        board=state.board + (Cell(event.x, event.y, event.card),),
        order=tuple(s for s in state.order if s != event.seat),
        placed_this_round=True,
        warehouses=warehouses,
        span=grown(state.span, event.x, event.y),
        ship_moved=False,
    )


def _ship_moved(state: KontorState, event: ev.ShipMoved) -> KontorState:
    return replace(state, ship=(event.x, event.y), ship_moved=True)


def _dock_removed(state: KontorState, event: ev.DockRemoved) -> KontorState:
    return dock_to_pile_bottom(state, event.card, event.x, event.y, event.to_seat)


def _final_sectors_counted(state: KontorState, event: ev.FinalSectorsCounted) -> KontorState:
    return replace(
        state, counted=event.counted, eliminated=event.eliminated, points=event.points
    )


def _warehouses_added(state: KontorState, event: ev.WarehousesAdded) -> KontorState:
    return replace(state, warehouses=state.warehouses | {event.card})


def _sector_scored(state: KontorState, event: ev.SectorScored) -> KontorState:
    points = state.points
    if event.winner is not None:
        for seat in seats_of(state.options, event.winner, state.seat_count):
            points = add_at(points, seat, event.points)
    return replace(
        state,
        points=points,
        warehouses=state.warehouses - frozenset(event.warehouses_returned),
        scored=state.scored
        + (ScoredSector(event.cells, event.winner, event.rule, event.guardian, event.points),),
    )


def _card_drawn(state: KontorState, event: ev.CardDrawn) -> KontorState:
    seat = event.seat
    hands = set_at(state.hands, seat, state.hands[seat] + (event.card,))
    if event.pile != "dock":
        return replace(state, water_pile=state.water_pile[1:], hands=hands)
    # the top card, or (Premier choix) the card taken from within the pile
    piles = set_at(state.dock_piles, seat, without_one(state.dock_piles[seat], event.card))
    if state.pile_known and state.pile_known[seat] > len(piles[seat]):
        known = set_at(state.pile_known, seat, len(piles[seat]))
        return replace(state, dock_piles=piles, pile_known=known, hands=hands)
    return replace(state, dock_piles=piles, hands=hands)


def _income_paid(state: KontorState, event: ev.IncomePaid) -> KontorState:
    return replace(
        state,
        money=add_at(state.money, event.seat, event.amount),
        treasury=state.treasury - event.amount,
    )


def _round_started(state: KontorState, event: ev.RoundStarted) -> KontorState:
    n = state.seat_count
    return replace(
        state,
        round=event.round,
        idle_rounds=event.idle_rounds,
        phase="choose",
        chosen=(None,) * n,
        passed=(False,) * n,
        revealed=(None,) * n,
        tax=("",) * n,
        order=(),
        returned=(),
        placed_this_round=False,
    )


def _game_ended(state: KontorState, event: ev.GameEnded) -> KontorState:
    return replace(
        state,
        phase="over",
        order=(),
        points=event.points,
        end_reason=event.reason,
        winners=event.winners,
    )


#: the core's events (the extensions' own: rules.events)
CORE_EVENTS: dict[type, object] = {
    ev.GameStarted: _game_started,
    ev.CardChosen: _card_chosen,
    ev.Passed: _passed,
    ev.CardsRevealed: _cards_revealed,
    ev.TaxPaid: _tax_paid,
    ev.TaxCancelled: _tax_cancelled,
    ev.TaxWaived: _tax_waived,
    ev.CardReturned: _card_returned,
    ev.TurnOrderSet: _turn_order_set,
    ev.CardPlaced: _card_placed,
    ev.ShipMoved: _ship_moved,
    ev.DockRemoved: _dock_removed,
    ev.FinalSectorsCounted: _final_sectors_counted,
    ev.WarehousesAdded: _warehouses_added,
    ev.SectorScored: _sector_scored,
    ev.CardDrawn: _card_drawn,
    ev.IncomePaid: _income_paid,
    ev.RoundStarted: _round_started,
    ev.GameEnded: _game_ended,
}
