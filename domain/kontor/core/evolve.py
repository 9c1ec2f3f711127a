"""evolve(state, event) -> state: applies a fact, decides nothing."""

from __future__ import annotations

from domain.common.frozen import replace
from domain.kontor.core import events as ev
from domain.kontor.core.data import CARDS
from domain.kontor.core.hooks import HOOKS, answer, filtered
from domain.kontor.core.sides import seats_of
from domain.kontor.core.state import PASS_CHOICE, Cell, KontorState, ScoredSector, without_cell


def _grow(span, x: int, y: int):
    if span is None:
        return (x, x, y, y)
    return (min(span[0], x), max(span[1], x), min(span[2], y), max(span[3], y))


def _set(values: tuple, index: int, value) -> tuple:
    return values[:index] + (value,) + values[index + 1 :]


def _add(values: tuple[int, ...], index: int, amount: int) -> tuple[int, ...]:
    return _set(values, index, values[index] + amount)


def _remove(hand: tuple[int, ...], card: int) -> tuple[int, ...]:
    i = hand.index(card)
    return hand[:i] + hand[i + 1 :]


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
            # --- scenarios ---
            water_aside=event.water_aside,
            sunken=event.sunken,
            bribed=(False,) * n,
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
            hand = _remove(hand, event.card)
        # special rule « Marins ivres morts »: the secret "I pass" card
        chosen = PASS_CHOICE if event.passing else event.card
        return replace(
            state,
            hands=_set(state.hands, event.seat, hand),
            chosen=_set(state.chosen, event.seat, chosen),
        )
    if t is ev.Passed:
        return replace(
            state,
            passed=_set(state.passed, event.seat, True),
            money=_add(state.money, event.seat, event.florins),
            treasury=state.treasury - event.florins,
        )
    if t is ev.CardsRevealed:
        return replace(state, revealed=event.cards, chosen=(None,) * state.seat_count)
    if t is ev.TaxPaid:
        return replace(
            state,
            money=_add(state.money, event.seat, -event.amount),
            treasury=state.treasury + event.amount,
            tax=_set(state.tax, event.seat, "paid"),
        )
    if t is ev.TaxCancelled:
        return replace(state, tax=_set(state.tax, event.seat, "cancelled"))
    if t is ev.TaxWaived:
        money, tax = state.money, state.tax
        for seat, florins in zip(event.seats, event.florins):
            money = _add(money, seat, florins)
            tax = _set(tax, seat, "waived")
        return replace(state, money=money, tax=tax, treasury=state.treasury - sum(event.florins))
    if t is ev.CardReturned:
        seat = event.seat
        return replace(
            state,
            hands=_set(state.hands, seat, state.hands[seat] + (event.card,)),
            order=tuple(s for s in state.order if s != seat),
            tax=_set(state.tax, seat, "unpaid") if event.reason == "tax_unpaid" else state.tax,
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
            span=_grow(state.span, event.x, event.y),
            ship_moved=False,
            round_cards=state.round_cards + (event.card,),  # special rules A
        )
    if t is ev.ShipMoved:
        return replace(state, ship=(event.x, event.y), ship_moved=True)
    if t is ev.DockRemoved:
        state = filtered(HOOKS.dock_removed, state, event)
        return _dock_to_pile_bottom(state, event.card, event.x, event.y, event.to_seat)
    if t is ev.FinalSectorsCounted:
        return replace(
            state, counted=event.counted, eliminated=event.eliminated, points=event.points
        )
    if t is ev.WarehousesAdded:
        state = filtered(HOOKS.warehouses_added, state, event)
        # scenarios: Embargo's short supply, Euphrate's empty reserve
        if state.options.warehouse_supply or state.options.sunken_warehouses:
            state = _override(state, event.card, event.goods)
        return replace(state, warehouses=state.warehouses | {event.card})
    if t is ev.SectorScored:
        points = state.points
        if event.winner is not None:
            for seat in seats_of(state.options, event.winner, state.seat_count):
                points = _add(points, seat, event.points)
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
            piles = _set(state.dock_piles, seat, _remove(state.dock_piles[seat], event.card))
            state = replace(state, dock_piles=piles)
            if state.pile_known and state.pile_known[seat] > len(piles[seat]):
                state = replace(state, pile_known=_set(state.pile_known, seat, len(piles[seat])))
        else:
            state = replace(state, water_pile=state.water_pile[1:])
        return replace(state, hands=_set(state.hands, seat, state.hands[seat] + (event.card,)))
    if t is ev.IncomePaid:
        return replace(
            state,
            money=_add(state.money, event.seat, event.amount),
            treasury=state.treasury - event.amount,
        )
    if t is ev.RoundStarted:
        n = state.seat_count
        return replace(
            state,
            round=event.round,
            idle_rounds=event.idle_rounds,
            bribed=(False,) * n if state.bribed else state.bribed,
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
    out = _evolve_scenario(state, event)  # scenarios' events
    if out is None:
        out = answer(HOOKS.evolve_unknown, state, event)  # e.g. the expansions' events
    if out is not None:
        return out
    raise TypeError(f"unknown event {event!r}")


# --- the scenarios' events (decided in domain/kontor/scenarios/) ---


def _override(state: KontorState, card: int, goods) -> KontorState:
    """Record the goods of a dock's warehouses when they differ from the printed ones
    (None or the printed goods: no override)."""
    rest = tuple(o for o in state.goods_override if o[0] != card)
    if goods is not None and tuple(goods) != CARDS[card].goods:
        rest = rest + ((card, tuple(goods)),)
    if rest == state.goods_override:
        return state
    return replace(state, goods_override=rest)


def _dock_to_pile_bottom(state: KontorState, card: int, x: int, y: int, to: int) -> KontorState:
    """A dock leaves the board for the bottom of ``to``'s pile (the ship, a bribe): its
    warehouses go with it, and everyone knows one more card at the pile's bottom."""
    known = state.pile_known or (0,) * state.seat_count
    return replace(
        _override(state, card, None),
        board=without_cell(state.board, x, y),
        warehouses=state.warehouses - {card},
        dock_piles=_set(state.dock_piles, to, state.dock_piles[to] + (card,)),
        pile_known=_add(known, to, 1),
    )


def _evolve_scenario(state: KontorState, event) -> KontorState | None:
    t = type(event)
    if t is ev.DockBribed:
        state = _dock_to_pile_bottom(state, event.card, event.x, event.y, event.to_seat)
        return replace(
            state,
            money=_add(state.money, event.seat, -event.cost),
            treasury=state.treasury + event.cost,
            bribed=_set(state.bribed, event.seat, True),
        )
    if t is ev.SecondCanalOffered:
        return replace(state, second_canal=event.seat)
    if t is ev.SecondCanalDeclined:
        return replace(state, second_canal=None)
    if t is ev.SecondCanalPlaced:
        return replace(
            state,
            board=state.board + (Cell(event.x, event.y, event.card),),
            hands=_set(state.hands, event.seat, _remove(state.hands[event.seat], event.card)),
            money=_add(state.money, event.seat, -event.cost),
            treasury=state.treasury + event.cost,
            span=_grow(state.span, event.x, event.y),
            second_canal=None,
        )
    if t is ev.SunkenWarehouseRaised:
        sunken = tuple(s for s in state.sunken if (s[0], s[1]) != (event.x, event.y))
        pending = state.sunken_pending
        if event.pending:
            pending = pending + ((event.seat, event.good),)
        return replace(state, sunken=sunken, sunken_pending=pending)
    if t is ev.SunkenWarehouseUsed:
        sunken = tuple(s for s in state.sunken if (s[0], s[1]) != (event.x, event.y))
        return replace(state, sunken=sunken)
    if t is ev.SunkenWarehousePlaced:
        pending = list(state.sunken_pending)
        if (event.seat, event.good) in pending:
            pending.remove((event.seat, event.good))
        goods = state.goods_map().get(event.card, CARDS[event.card].goods)
        state = _override(state, event.card, (*goods, event.good))
        return replace(
            state,
            sunken_pending=tuple(pending),
            warehouses=state.warehouses | {event.card},
        )
    return None
