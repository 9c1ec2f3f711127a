"""evolve: apply one Amsterdam event to the state. Records facts; decides nothing.

Replay folds every event of a game (issue 24: 100k events a second per core), so the
copies are made here at the least cost: a state's fields are copied as its instance
dictionary (domain/common/frozen.py's ``replace``, and a seat's copy written out below: no
``__init__``, the same object ``dataclasses.replace`` would build), and each event type
finds its function in one dict (domain/common/event_table.py). A misspelt field in the
written-out copy would add an attribute instead of failing: tests/domain/amsterdam/
test_evolve.py checks every state of many games has exactly its dataclass's fields.
"""

from __future__ import annotations

from domain.amsterdam import data
from domain.amsterdam import events as ev
from domain.amsterdam.state import (
    EMPTY,
    FINISHED,
    OPENING_CARD,
    PLACEMENTS,
    SeatState,
    State,
    TomState,
    Turn,
)
from domain.common.event_table import EventTable
from domain.common.frozen import replace

_INDEX = {c: i for i, c in enumerate(data.COLOURS)}
_NEW = object.__new__
_SET = object.__setattr__
_FRESH_TURN = Turn()
_BLOCK_INDEX = {block: i for i, block in enumerate(data.BLOCK_IDS)}


def add(vector: tuple[int, ...], colours, sign: int = 1) -> tuple[int, ...]:
    out = list(vector)
    for colour in colours:
        out[_INDEX[colour]] += sign
    return tuple(out)


def remove_one(items: tuple[str, ...], item: str) -> tuple[str, ...]:
    i = items.index(item)
    return items[:i] + items[i + 1:]


def _seat(state: State, seat: int, **changes) -> State:
    seats = state.seats
    fields = seats[seat].__dict__.copy()       # replace(), written out: the commonest copy
    fields.update(changes)
    new = _NEW(SeatState)
    _SET(new, "__dict__", fields)
    fields = state.__dict__.copy()
    fields["seats"] = seats[:seat] + (new,) + seats[seat + 1:]
    new = _NEW(State)
    _SET(new, "__dict__", fields)
    return new


def _turn(state: State, seat: int, **changes) -> State:
    return _seat(state, seat, turn=replace(state.seats[seat].turn, **changes))


def _seat_and(state: State, seat: int, seat_changes: dict, **changes) -> State:
    """One copy of the state for a change of one seat and of the state's own fields."""
    seats = state.seats
    new = replace(seats[seat], **seat_changes)
    return replace(state, seats=seats[:seat] + (new,) + seats[seat + 1:], **changes)


#: event type -> the function that records it
_APPLY = EventTable()
_records = _APPLY.records


def evolve(state: State | None, event) -> State:
    return _APPLY[type(event)](event, state)


@_records(ev.GameStarted)
def _(e: ev.GameStarted, state):
    return State(seat_count=e.seat_count, seed=e.seed, rng_counter=0, options=e.options,
                 rules_version=e.rules_version,
                 seats=tuple(SeatState(florins=data.START_FLORINS) for _ in range(e.seat_count)),
                 phase=OPENING_CARD, tom=TomState() if e.seat_count == 1 else None)


@_records(ev.BoardDealt)
def _(e: ev.BoardDealt, state):
    stamps = {seat: len(e.amstel_order) - i for i, seat in enumerate(e.amstel_order)}
    seats = tuple(replace(s, stamp=stamps[i]) for i, s in enumerate(state.seats))
    tom = replace(state.tom, stamp=stamps[data.TOM]) if state.tom is not None else None
    return replace(
        state, seats=seats, tom=tom, rng_counter=e.rng_counter, round=e.first_round,
        block_goods=e.block_goods, block_owner=(None,) * len(e.block_goods),
        roofs=(0,) * len(data.GOODS), depots=(None,) * len(data.DEPOTS), pontoons=e.pontoons,
        districts_scored=e.districts_scored, districts_hidden=e.districts_hidden,
        craftsmen=e.craftsmen, buildings=e.buildings, plans=e.plans,
        market_stack=e.market_stack[1:], market_removed=e.market_removed,
        market_tile=e.market_stack[0], market_seen=e.market_stack[:1],
        next_stamp=len(e.amstel_order) + 1)


@_records(ev.TomDiscarded)
def _(e: ev.TomDiscarded, state):
    return replace(state, offer=remove_one(state.offer, e.card), discard=state.discard + (e.card,),
                   tom_discard=())


@_records(ev.TomDiscardTied)
def _(e: ev.TomDiscardTied, state):
    return replace(state, tom_discard=e.cards)


@_records(ev.TomAdvanced)
def _(e: ev.TomAdvanced, state):
    tom = state.tom
    tom = replace(tom, amstel=e.space, stamp=e.stamp, bridges_passed=tom.bridges_passed + e.bridges,
                  mouth_slot=tom.mouth_slot if e.mouth_slot is None else e.mouth_slot)
    return replace(state, tom=tom, next_stamp=max(state.next_stamp, e.stamp + 1),
                   mouth_arrivals=state.mouth_arrivals + (e.mouth_slot is not None))


@_records(ev.TomScored)
def _(e: ev.TomScored, state):
    return replace(state, tom=replace(state.tom, points=state.tom.points + e.points))


@_records(ev.TomFlorins)
def _(e: ev.TomFlorins, state):
    return replace(state, tom=replace(state.tom, florins=state.tom.florins + e.amount))


@_records(ev.TomDockerDelivered)
def _(e: ev.TomDockerDelivered, state):
    state = replace(state, tom=replace(state.tom, triples=state.tom.triples + (e.face,)))
    if e.colour is None:
        return state
    pontoons = tuple(remove_one(d, e.colour) if e.colour in d and not done else d
                     for d, done in zip(state.pontoons, _firsts(state.pontoons, e.colour)))
    return replace(state, pontoons=pontoons,
                   docker_building=state.docker_building + ((e.colour, data.TOM),))


def _firsts(pontoons, colour):
    """True for every pontoon after the first one holding ``colour``."""
    seen = False
    out = []
    for dockers in pontoons:
        out.append(seen)
        seen = seen or colour in dockers
    return out


@_records(ev.TomBlockTaken)
def _(e: ev.TomBlockTaken, state):
    i = data.BLOCK_IDS.index(e.block)
    goods = list(state.block_goods)
    owners = list(state.block_owner)
    goods[i], owners[i] = None, data.TOM
    state = replace(state, block_goods=tuple(goods), block_owner=tuple(owners))
    if e.place == "black_market":
        return replace(state, black_market=state.black_market + (e.good,))
    if e.place in data.DEPOTS:
        depots = list(state.depots)
        depots[tuple(data.DEPOTS).index(e.place)] = e.good
        return replace(state, depots=tuple(depots))
    if e.place is not None:
        roofs = list(state.roofs)
        roofs[data.GOODS.index(e.good)] += 1
        return replace(state, roofs=tuple(roofs))
    return state


@_records(ev.TasksDealt)
def _(e: ev.TasksDealt, state):
    return replace(state, tasks=e.hands, task_pile=e.pile, rng_counter=e.rng_counter)


@_records(ev.PlacementsStarted)
def _(e: ev.PlacementsStarted, state):
    return replace(state, phase=PLACEMENTS, placing=e.figures, order=e.seats, position=0)


@_records(ev.FigureMoved)
def _(e: ev.FigureMoved, state):
    return replace(state, **{e.figure: e.space})


@_records(ev.CardsRevealed)
def _(e: ev.CardsRevealed, state):
    piles = {"craftsman": state.craftsmen, "building": state.buildings, "plan": state.plans}
    for card in e.cards:
        kind = data.CARDS[card].kind
        piles[kind] = remove_one(piles[kind], card)
    return replace(state, offer=state.offer + e.cards, craftsmen=piles["craftsman"],
                   buildings=piles["building"], plans=piles["plan"])


@_records(ev.PhaseStarted)
def _(e: ev.PhaseStarted, state):
    return replace(state, phase=e.phase, round=e.round, order=e.order, position=0,
                   dice_choices=())


@_records(ev.SeatAdvanced)
def _(e: ev.SeatAdvanced, state):
    return replace(state, position=e.position)


@_records(ev.CardTaken)
def _(e: ev.CardTaken, state):
    seat = state.seats[e.seat]
    inactive = seat.inactive + (e.card,)
    discard = state.discard
    if e.discarded is not None:
        inactive = remove_one(inactive, e.discarded)
        discard += (e.discarded,)
    return _seat_and(state, e.seat, {"inactive": inactive},
                     offer=remove_one(state.offer, e.card), discard=discard)


@_records(ev.CardDeclined)
def _(e: ev.CardDeclined, state):
    seat = state.seats[e.seat]
    card = next(c for c in seat.active if data.CARDS[c].effect.name == "skip_card")  # 049
    return _seat(state, e.seat, used=seat.used + (card,))


@_records(ev.OfferDiscarded)
def _(e: ev.OfferDiscarded, state):
    return replace(state, offer=(), discard=state.discard + e.cards)


@_records(ev.PenaltyTaken)
def _(e: ev.PenaltyTaken, state):
    return _seat(state, e.seat, penalties=state.seats[e.seat].penalties + 1)


@_records(ev.DiceRolled)
def _(e: ev.DiceRolled, state):
    return replace(state, dice=e.faces, rng_counter=e.rng_counter, dice_choices=())


@_records(ev.RoseFilled)
def _(e: ev.RoseFilled, state):
    rose = list(state.seats[e.seat].rose)
    for colour, count, slot in e.placements:
        cubes = list(rose[slot - 1])
        cubes[_INDEX[colour]] += count
        rose[slot - 1] = tuple(cubes)
    return _seat(state, e.seat, rose=tuple(rose), dice=e.dice)


@_records(ev.DiceChosen)
def _(e: ev.DiceChosen, state):
    return replace(state, dice_choices=state.dice_choices + ((e.seat, e.dice, e.slots),))


@_records(ev.RoseTurned)
def _(e: ev.RoseTurned, state):
    seat = state.seats[e.seat]
    reserve = tuple(a + b for a, b in zip(seat.reserve, seat.rose[0]))
    if seat.house is not None:
        reserve = add(reserve, (seat.house,))
    return _seat(state, e.seat, reserve=reserve, rose=seat.rose[1:] + (EMPTY,), house=None)


@_records(ev.ResourcesGained)
def _(e: ev.ResourcesGained, state):
    return _seat(state, e.seat, reserve=add(state.seats[e.seat].reserve, e.colours))


@_records(ev.ResourcesSpent)
def _(e: ev.ResourcesSpent, state):
    return _seat(state, e.seat, reserve=add(state.seats[e.seat].reserve, e.colours, -1))


@_records(ev.ChoicesOwed)
def _(e: ev.ChoicesOwed, state):
    return _seat(state, e.seat, pending_choices=state.seats[e.seat].pending_choices + e.count)


@_records(ev.ResourceChosen)
def _(e: ev.ResourceChosen, state):
    seat = state.seats[e.seat]
    return _seat(state, e.seat, pending_choices=seat.pending_choices - 1,
                 reserve=add(seat.reserve, (e.colour,)))


@_records(ev.FlorinsChanged)
def _(e: ev.FlorinsChanged, state):
    return _seat(state, e.seat, florins=state.seats[e.seat].florins + e.amount)


@_records(ev.PointsScored)
def _(e: ev.PointsScored, state):
    return _seat(state, e.seat, points=state.seats[e.seat].points + e.points)


@_records(ev.OnceSpent)
def _(e: ev.OnceSpent, state):
    name = data.CARDS[e.card].effect.name
    if name == "on_amstel_point":                     # 014: once a turn
        return _turn(state, e.seat, amstel_point=True)
    if name == "on_barge_two_steps":                  # 016: once a turn
        return _turn(state, e.seat, barge_point=True)
    return _seat(state, e.seat, once=state.seats[e.seat].once + (e.card,))


@_records(ev.CardActivated)
def _(e: ev.CardActivated, state):
    seat = state.seats[e.seat]
    card = data.CARDS[e.card]
    trades = seat.trades_activated
    if card.kind == data.CRAFTSMAN and card.group not in trades:
        trades += (card.group,)
    state = _seat(state, e.seat, inactive=remove_one(seat.inactive, e.card),
                  active=seat.active + (e.card,), trades_activated=trades,
                  activated_count=seat.activated_count + 1)
    if e.free:
        state = _turn(state, e.seat, free_activations=seat.turn.free_activations - 1)
    return state


@_records(ev.CardUsed)
def _(e: ev.CardUsed, state):
    seat = state.seats[e.seat]
    state = _seat(state, e.seat, used=seat.used + (e.card,))
    if e.plan_district is not None:
        turn = state.seats[e.seat].turn
        state = _turn(state, e.seat, plans_used=turn.plans_used + (e.plan_district,),
                      plan_uses=turn.plan_uses + (e.card,))
    return state


@_records(ev.CardDiscarded)
def _(e: ev.CardDiscarded, state):
    seat = state.seats[e.seat]
    state = replace(state, discard=state.discard + (e.card,))
    return _seat(state, e.seat, active=remove_one(seat.active, e.card))


@_records(ev.BlockTaken)
def _(e: ev.BlockTaken, state):
    i = _BLOCK_INDEX[e.block]
    goods = list(state.block_goods)
    owners = list(state.block_owner)
    goods[i], owners[i] = None, e.seat
    seat = state.seats[e.seat]
    changes = {"turn": replace(seat.turn, blocks_taken=seat.turn.blocks_taken + e.counted)}
    black_market = state.black_market
    if e.sold:
        black_market += (e.good,)
    else:
        changes["provisional"] = seat.provisional + (e.good,)
    return _seat_and(state, e.seat, changes, block_goods=tuple(goods),
                     block_owner=tuple(owners), black_market=black_market)


@_records(ev.GoodLoaded)
def _(e: ev.GoodLoaded, state):
    seat = state.seats[e.seat]
    return _seat(state, e.seat, provisional=remove_one(seat.provisional, e.good),
                 cargo=seat.cargo + (e.good,))


@_records(ev.BargeMoved)
def _(e: ev.BargeMoved, state):
    turn = state.seats[e.seat].turn
    return _seat(state, e.seat, barge=e.to,
                 turn=replace(turn, barge_credit=e.credit, barge_steps=turn.barge_steps + 1,
                              docker_taken_here=False))


@_records(ev.BargeCreditGained)
def _(e: ev.BargeCreditGained, state):
    turn = state.seats[e.seat].turn
    return _turn(state, e.seat, barge_credit=turn.barge_credit + e.steps)


@_records(ev.DockerPickedUp)
def _(e: ev.DockerPickedUp, state):
    pontoons = list(state.pontoons)
    i = tuple(data.PONTOONS).index(e.pontoon)
    pontoons[i] = remove_one(pontoons[i], e.colour)
    seat = state.seats[e.seat]
    return _seat_and(state, e.seat, {"dockers": seat.dockers + (e.colour,),
                                     "turn": replace(seat.turn, docker_taken_here=True)},
                     pontoons=tuple(pontoons))


@_records(ev.DockerDelivered)
def _(e: ev.DockerDelivered, state):
    return _seat_and(state, e.seat, {"dockers": remove_one(state.seats[e.seat].dockers, e.colour)},
                     docker_building=state.docker_building + ((e.colour, e.seat),))


@_records(ev.GoodDelivered)
def _(e: ev.GoodDelivered, state):
    if e.place in data.DEPOTS:
        depots = list(state.depots)
        depots[tuple(data.DEPOTS).index(e.place)] = e.good
        state = replace(state, depots=tuple(depots))
    else:
        roofs = list(state.roofs)
        roofs[data.GOODS.index(e.good)] += 1
        state = replace(state, roofs=tuple(roofs))
    state = _seat(state, e.seat, cargo=remove_one(state.seats[e.seat].cargo, e.good))
    return _turn(state, e.seat, foreman_due=True) if e.foreman else state


@_records(ev.AmstelAdvanced)
def _(e: ev.AmstelAdvanced, state):
    seat = state.seats[e.seat]
    changes = {"amstel": e.space, "stamp": e.stamp,
               "mouth_slot": seat.mouth_slot if e.mouth_slot is None else e.mouth_slot,
               "bridges_passed": seat.bridges_passed + e.bridges}
    if e.action:
        changes["turn"] = replace(seat.turn, amstel_moved=True, amstel_open=True)
    return _seat_and(state, e.seat, changes, next_stamp=max(state.next_stamp, e.stamp + 1),
                     mouth_arrivals=state.mouth_arrivals + (e.mouth_slot is not None))


@_records(ev.AmstelMoveEnded)
def _(e: ev.AmstelMoveEnded, state):
    return _turn(state, e.seat, amstel_open=False)


@_records(ev.CardExchanged)
def _(e: ev.CardExchanged, state):
    seat = state.seats[e.seat]
    piles = {"craftsman": state.craftsmen, "building": state.buildings}
    discard = state.discard
    if e.taken in discard:
        discard = remove_one(discard, e.taken)
    else:
        kind = data.CARDS[e.taken].kind
        piles[kind] = remove_one(piles[kind], e.taken)
    state = replace(state, discard=discard + (e.given,), craftsmen=piles["craftsman"],
                    buildings=piles["building"])
    return _seat(state, e.seat, inactive=remove_one(seat.inactive, e.given) + (e.taken,))


@_records(ev.FreeActivationsGained)
def _(e: ev.FreeActivationsGained, state):
    turn = state.seats[e.seat].turn
    return _turn(state, e.seat, free_activations=turn.free_activations + e.count)


@_records(ev.PrestigeBought)
def _(e: ev.PrestigeBought, state):
    return _turn(state, e.seat, market_uses=state.seats[e.seat].turn.market_uses + 1)


@_records(ev.TurnEnded)
def _(e: ev.TurnEnded, state):
    seat = state.seats[e.seat]
    reserve = seat.reserve if e.kept is None else add(seat.reserve, (e.kept,), -1)
    return _seat(state, e.seat, house=e.kept, reserve=reserve, turn=_FRESH_TURN)


@_records(ev.RoundEnded)
def _(e: ev.RoundEnded, state):
    seats = tuple(replace(s, reserve=EMPTY, used=(), once=(), dice=()) for s in state.seats)
    stack = state.market_stack[1:] if e.next_tile is not None else state.market_stack
    seen = state.market_seen + ((e.next_tile,) if e.next_tile is not None else ())
    return replace(state, seats=seats, market_tile=e.next_tile, market_stack=stack,
                   market_seen=seen, round=e.round + 1, dice=())


@_records(ev.GameEnded)
def _(e: ev.GameEnded, state):
    return replace(state, phase=FINISHED, scores=e.scores, winners=e.winners, tom_score=e.tom)
