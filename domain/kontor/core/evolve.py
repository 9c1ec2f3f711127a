"""evolve(state, event) -> state: applies a fact, decides nothing."""

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
from domain.kontor.core.hooks import HOOKS, answer, filtered
from domain.kontor.core.sides import seats_of
from domain.kontor.core.state import PASS_CHOICE, Cell, KontorState, ScoredSector


def evolve(state: KontorState | None, event) -> KontorState:
    own = answer(HOOKS.evolve_own, state, event)  # a rule's own events
    if own is not None:
        return own
    new = filtered(HOOKS.evolved, _evolve(state, event), state, event)
    if type(event) in (ev.CardDrawn, ev.CardReturned):  # public: the card goes to a hand
        return replace(new, seen_in_hand=new.seen_in_hand | {(event.seat, event.card)})
    if new.seen_in_hand and state is not None and new.hands is not state.hands:
        # a card that leaves its hand is forgotten: it may come back unseen
        held = frozenset((s, c) for s, hand in enumerate(new.hands) for c in hand)
        return replace(new, seen_in_hand=new.seen_in_hand & held)
    return new


def _evolve(state: KontorState | None, event) -> KontorState:
    t = type(event)
    if t is ev.GameStarted:
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
        return filtered(HOOKS.started, state, event)
    assert state is not None
    own = answer(HOOKS.evolve_event, state, event)  # a form's or a rule's events
    if own is not None:
        return own
    if t is ev.CardChosen:
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
    if t is ev.Passed:
        return replace(
            state,
            passed=set_at(state.passed, event.seat, True),
            money=add_at(state.money, event.seat, event.florins),
            treasury=state.treasury - event.florins,
        )
    if t is ev.CardsRevealed:
        return replace(state, revealed=event.cards, chosen=(None,) * state.seat_count)
    if t is ev.TaxPaid:
        return replace(
            state,
            money=add_at(state.money, event.seat, -event.amount),
            treasury=state.treasury + event.amount,
            tax=set_at(state.tax, event.seat, "paid"),
        )
    if t is ev.TaxCancelled:
        return replace(state, tax=set_at(state.tax, event.seat, "cancelled"))
    if t is ev.TaxWaived:
        money, tax = state.money, state.tax
        for seat, florins in zip(event.seats, event.florins):
            money = add_at(money, seat, florins)
            tax = set_at(tax, seat, "waived")
        return replace(state, money=money, tax=tax, treasury=state.treasury - sum(event.florins))
    if t is ev.CardReturned:
        seat = event.seat
        return replace(
            state,
            hands=set_at(state.hands, seat, state.hands[seat] + (event.card,)),
            order=tuple(s for s in state.order if s != seat),
            tax=set_at(state.tax, seat, "unpaid") if event.reason == "tax_unpaid" else state.tax,
            returned=state.returned + ((seat, event.card, event.reason),),
            ship_moved=False,
        )
    if t is ev.TurnOrderSet:
        return replace(state, order=event.order, phase="place")
    if t is ev.CardPlaced:
        warehouses = state.warehouses
        if event.covers is not None:
            warehouses = warehouses - {event.covers}
        state = filtered(HOOKS.card_placed, state, event)
        return replace(
            state,
            board=state.board + (Cell(event.x, event.y, event.card),),
            order=tuple(s for s in state.order if s != event.seat),
            placed_this_round=True,
            warehouses=warehouses,
            span=grown(state.span, event.x, event.y),
            ship_moved=False,
            round_cards=state.round_cards + (event.card,),  # special rules A
        )
    if t is ev.ShipMoved:
        return replace(state, ship=(event.x, event.y), ship_moved=True)
    if t is ev.DockRemoved:
        state = filtered(HOOKS.dock_removed, state, event)
        return dock_to_pile_bottom(state, event.card, event.x, event.y, event.to_seat)
    if t is ev.FinalSectorsCounted:
        return replace(
            state, counted=event.counted, eliminated=event.eliminated, points=event.points
        )
    if t is ev.WarehousesAdded:
        state = filtered(HOOKS.warehouses_added, state, event)
        return replace(state, warehouses=state.warehouses | {event.card})
    if t is ev.SectorScored:
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
    if t is ev.CardDrawn:
        seat = event.seat
        if event.pile == "dock":
            # the top card, or (Premier choix) the card taken from within the pile
            piles = set_at(state.dock_piles, seat, without_one(state.dock_piles[seat], event.card))
            state = replace(state, dock_piles=piles)
            if state.pile_known and state.pile_known[seat] > len(piles[seat]):
                state = replace(state, pile_known=set_at(state.pile_known, seat, len(piles[seat])))
        else:
            state = replace(state, water_pile=state.water_pile[1:])
        return replace(state, hands=set_at(state.hands, seat, state.hands[seat] + (event.card,)))
    if t is ev.IncomePaid:
        return replace(
            state,
            money=add_at(state.money, event.seat, event.amount),
            treasury=state.treasury - event.amount,
        )
    if t is ev.RoundStarted:
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
            round_cards=(),  # special rules A
        )
    if t is ev.GameEnded:
        return replace(
            state,
            phase="over",
            order=(),
            points=event.points,
            end_reason=event.reason,
            winners=event.winners,
        )
    out = answer(HOOKS.evolve_unknown, state, event)  # e.g. the scenarios', expansions' events
    if out is not None:
        return out
    raise TypeError(f"unknown event {event!r}")
