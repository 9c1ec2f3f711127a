"""decide, start, to_act, legal_commands: every rule of Speicherstadt."""

from __future__ import annotations

from itertools import combinations

from domain.decider import GameOver, Issued, NotYourTurn, RuleViolation
from domain.rng import Rng
from domain.speicherstadt import commands as cmd
from domain.speicherstadt import events as ev
from domain.speicherstadt import goods as gd
from domain.speicherstadt.data import (
    BANK,
    CARD,
    FIRE,
    FIREMAN,
    GOODS,
    REMOVED_BY_PLAYERS,
    SEASONS,
    SETUP,
    SHIP,
    TRADER,
    WAREHOUSE,
    cards_of_season,
)
from domain.speicherstadt.evolve import evolve
from domain.speicherstadt.options import Options
from domain.speicherstadt.scoring import score_seat, winners
from domain.speicherstadt.state import (
    DEMAND,
    FINISHED,
    PURCHASE,
    SHIPPING,
    SeatState,
    State,
)

RULES_VERSION = "speicherstadt-1"
SOURCES = ("loose", "market", "warehouse")  # the order a used cube is taken in
PLACES = ("warehouse", "market")


class _Flow:
    """Collects events while keeping the state they lead to."""

    def __init__(self, state: State | None):
        self.state = state
        self.events: list = []

    def emit(self, event) -> None:
        self.events.append(event)
        self.state = evolve(self.state, event)


# --- setup ---------------------------------------------------------------------------


def start(options: Options, seat_count: int, seed_hex: str) -> list:
    rng = Rng(seed_hex, 0)
    first = rng.below(seat_count)
    removed = REMOVED_BY_PLAYERS["table"][seat_count]
    flow = _Flow(None)
    flow.emit(ev.GameStarted(options=options, seat_count=seat_count, rules_version=RULES_VERSION,
                             seed=seed_hex, first_player=first, removed=tuple(removed)))
    deck: tuple[str, ...] = ()
    for season in SEASONS:  # A on top ... E at the bottom; each season shuffled alone
        cards = [c for c in cards_of_season(season) if c not in removed]
        deck += rng.shuffle(cards)
    flow.emit(ev.DeckBuilt(deck=deck, rng_counter=rng.counter))
    _start_round(flow, 1, first)
    return flow.events


# --- automatic steps -----------------------------------------------------------------


def fire_changes(state: State, card_id: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Highest fireman sum gains the fire's points, lowest loses them; ties all; all equal none."""
    bonus = CARD[card_id].bonus
    sums = tuple(sum(CARD[c].value for c in s.cards if CARD[c].kind == FIREMAN)
                 for s in state.seats)
    hi, lo = max(sums), min(sums)
    if hi == lo:
        return sums, (0,) * len(sums)
    return sums, tuple(bonus if x == hi else -bonus if x == lo else 0 for x in sums)


def _resolve_fire(flow: _Flow, card_id: str) -> None:
    sums, changes = fire_changes(flow.state, card_id)
    flow.emit(ev.FireResolved(card=card_id, sums=sums, changes=changes))


def _start_round(flow: _Flow, number: int, first: int) -> None:
    flow.emit(ev.RoundStarted(round=number, first_player=first))
    state = flow.state
    wanted = state.seat_count + SETUP["cards_extra_over_players"]
    rng = Rng(state.seed, state.rng_counter)
    while len(flow.state.offer) < wanted and flow.state.deck:
        top = flow.state.deck[0]
        card = CARD[top]
        if card.kind == FIRE:
            if all(CARD[c].kind == FIRE for c in flow.state.deck):
                break  # only the last fires remain: they are kept for the end of the game
            _resolve_fire(flow, top)  # revealed: resolved at once, then replaced
            continue
        cubes: tuple[str, ...] = ()
        if card.kind == SHIP:
            cubes = _draw_cubes(rng, flow.state.bag, SETUP["cubes_per_ship"])
        flow.emit(ev.CardRevealed(card=top, column=len(flow.state.offer), cubes=cubes,
                                  rng_counter=rng.counter))
    last = all(CARD[c].kind == FIRE for c in flow.state.deck)
    flow.emit(ev.SupplyCompleted(last_round=last))


def _draw_cubes(rng: Rng, bag: tuple[int, ...], count: int) -> tuple[str, ...]:
    pool = [g for g, k in zip(GOODS, bag) for _ in range(k)]
    out = []
    for _ in range(min(count, len(pool))):
        out.append(pool.pop(rng.below(len(pool))))
    return tuple(out)


def _advance_purchase(flow: _Flow) -> None:
    """Discard columns nobody is left on; when every card is done, go on to shipping."""
    while flow.state.purchase_column < len(flow.state.offer):
        col = flow.state.offer[flow.state.purchase_column]
        if col.workers:
            return
        flow.emit(ev.CardDiscarded(column=flow.state.purchase_column, card=col.card))
    _start_shipping(flow)


def _start_shipping(flow: _Flow) -> None:
    seats = tuple(i for i in range(flow.state.seat_count) if _has_shipping_work(flow.state, i))
    if seats:
        flow.emit(ev.ShippingStarted(seats=seats))
    else:
        _end_round(flow)


def _end_round(flow: _Flow) -> None:
    state = flow.state
    income = []
    for seat in state.seats:
        amount = SETUP["income"]
        if not seat.bought:
            amount += SETUP["income_no_purchase"]
        amount += SETUP["income_bank"] * sum(1 for c in seat.cards if CARD[c].kind == BANK)
        income.append(amount)
    nxt = (state.first_player + 1) % state.seat_count  # the metal coin passes left
    flow.emit(ev.RoundEnded(income=tuple(income), first_player=nxt))
    if state.last_round:
        for card in list(flow.state.deck):  # the 3rd fire just above the 4th, then the 4th
            _resolve_fire(flow, card)
        lines = tuple(score_seat(s) for s in flow.state.seats)
        flow.emit(ev.GameEnded(scores=lines, winners=winners(lines)))
    else:
        _start_round(flow, state.round + 1, nxt)


# --- who acts --------------------------------------------------------------------------


def demand_seat(state: State) -> int:
    return (state.first_player + state.placed) % state.seat_count


def column_on_offer(state: State):
    """The purchase column whose lowest worker decides now, or None between the events of
    one decision (a fold may stop there: every version of a game has a view)."""
    if state.phase != PURCHASE or state.purchase_column >= len(state.offer):
        return None
    col = state.offer[state.purchase_column]
    return col if col.workers else None


def to_act(state: State) -> tuple[int, ...]:
    if state.phase == DEMAND:
        return (demand_seat(state),)
    if state.phase == PURCHASE:
        col = column_on_offer(state)
        return (col.workers[0],) if col is not None else ()
    if state.phase == SHIPPING:
        return tuple(sorted(state.shipping))
    return ()


# --- shipping helpers -----------------------------------------------------------------


def owned_kinds(seat: SeatState) -> set[str]:
    return {CARD[c].kind for c in seat.cards}


def trader_goods(seat: SeatState) -> set[str]:
    return {CARD[c].goods[0] for c in seat.cards if CARD[c].kind == TRADER}


def available(seat: SeatState) -> tuple[str, ...]:
    return gd.add(seat.loose, *seat.market, *seat.warehouse)


def sources_for(seat: SeatState, goods: tuple[str, ...]) -> tuple[str, ...] | None:
    """Where each cube comes from: unloaded cubes first, then the market, then the warehouse."""
    left = {src: list(getattr(seat, src)) for src in SOURCES}
    out = []
    for g in goods:
        for src in SOURCES:
            if g in left[src]:
                left[src].remove(g)
                out.append(src)
                break
        else:
            return None
    return tuple(out)


def contract_needs(seat: SeatState, contract: str) -> tuple[str, ...]:
    needs = list(CARD[contract].goods)
    for placed_card, placed in seat.contracts:
        if placed_card == contract:
            for g in placed:
                needs.remove(g)
    return tuple(needs)


def _usage_commands(state: State, i: int) -> list:
    seat = state.seats[i]
    have = available(seat)
    kinds = set(have)
    out: list = []
    for contract, _placed in seat.contracts:
        for g in sorted(set(contract_needs(seat, contract)) & kinds, key=gd.key):
            out.append(cmd.DeliverCube(good=g, contract=contract))
    for g in sorted(trader_goods(seat) & kinds, key=gd.key):
        out.append(cmd.SellCube(good=g))
    for a, b in sorted(set(combinations(have, 2))):
        out.append(cmd.MarketSell(first=a, second=b))
    for triple in sorted(set(combinations(have, 3))):
        reserve = gd.bump(state.reserve, triple, +1)
        for take, k in zip(GOODS, reserve):
            if k > 0:
                out.append(cmd.MarketConvert(first=triple[0], second=triple[1], third=triple[2],
                                             take=take))
    return out


def _can_store_market_cube(seat: SeatState) -> bool:
    """The market cube may go into the owner's warehouse (« placer des cubes Marchandise
    dans votre entrepôt »): it then scores 1 point and frees the market."""
    return (bool(seat.market) and WAREHOUSE in owned_kinds(seat)
            and len(seat.warehouse) < SETUP["warehouse_capacity"])


def _has_shipping_work(state: State, i: int) -> bool:
    """Whether the seat can do anything that matters in this shipping phase: unloaded
    cubes, a delivery, a sale, a conversion, or its market cube into its warehouse."""
    seat = state.seats[i]
    return (bool(seat.loose) or bool(_usage_commands(state, i))
            or _can_store_market_cube(seat))


def _shipping_commands(state: State, i: int) -> list:
    seat = state.seats[i]
    out = _usage_commands(state, i)
    loose_kinds = sorted(set(seat.loose), key=gd.key)
    if WAREHOUSE in owned_kinds(seat) and len(seat.warehouse) < SETUP["warehouse_capacity"]:
        out += [cmd.StoreCube(good=g) for g in loose_kinds]
    if len(seat.market) < SETUP["market_capacity"]:
        out += [cmd.KeepCube(good=g) for g in loose_kinds]
    for place in PLACES:
        out += [cmd.RetrieveCube(good=g, place=place)
                for g in sorted(set(getattr(seat, place)), key=gd.key)]
    out.append(cmd.EndShipping())
    return out


def legal_commands(state: State, seat: int) -> list:
    if state.phase == FINISHED or seat not in to_act(state):
        return []
    if state.phase == DEMAND:
        return [cmd.PlaceWorker(column=i) for i, col in enumerate(state.offer)
                if len(col.workers) < SETUP["spaces_per_column"]]
    if state.phase == PURCHASE:
        col = state.offer[state.purchase_column]
        out: list = []
        if state.seats[seat].coins >= len(col.workers):
            out.append(cmd.BuyCard())
        out.append(cmd.RefuseCard())
        return out
    return _shipping_commands(state, seat)


# --- decide ----------------------------------------------------------------------------


def _violation(rule: str, message: str) -> RuleViolation:
    return RuleViolation(f"speicherstadt.{rule}", message)


def _check_good(good: object) -> str:
    if good not in GOODS:
        raise _violation("unknown_good", f"Goods are {', '.join(GOODS)}.")
    return good  # type: ignore[return-value]


def decide(state: State, issued: Issued) -> list:
    if state.phase == FINISHED:
        raise GameOver()
    seat = issued.seat
    if seat is None or seat not in to_act(state):
        raise NotYourTurn()
    command = issued.command
    flow = _Flow(state)
    if state.phase == DEMAND:
        _decide_demand(flow, seat, command)
    elif state.phase == PURCHASE:
        _decide_purchase(flow, seat, command)
    else:
        _decide_shipping(flow, seat, command)
    return flow.events


def _decide_demand(flow: _Flow, seat: int, command) -> None:
    if not isinstance(command, cmd.PlaceWorker):
        raise _violation("demand_place_worker",
                         "Demand: each player in turn places 1 worker above a card "
                         "(« Vous devez faire cette action, vous ne pouvez pas passer »).")
    state = flow.state
    col = command.column
    if isinstance(col, bool) or not isinstance(col, int) or not 0 <= col < len(state.offer):
        raise _violation("no_such_column", "There is no card in that column.")
    if len(state.offer[col].workers) >= SETUP["spaces_per_column"]:
        raise _violation("column_full",
                         "« Si les 8 cases d'un bâtiment d'une carte sont occupées par des "
                         "ouvriers, vous ne pouvez plus y placer d'ouvrier. »")
    flow.emit(ev.WorkerPlaced(seat=seat, column=col, space=len(state.offer[col].workers)))
    if flow.state.placed == SETUP["workers_each"] * state.seat_count:
        flow.emit(ev.PurchaseStarted())
        _advance_purchase(flow)


def _decide_purchase(flow: _Flow, seat: int, command) -> None:
    state = flow.state
    column = state.purchase_column
    col = state.offer[column]
    price = len(col.workers)
    if isinstance(command, cmd.BuyCard):
        if state.seats[seat].coins < price:
            raise _violation("cannot_pay",
                             "The price is the number of workers above the card "
                             f"({price}); « s'il ne peut pas payer la carte, il reprend son "
                             "ouvrier ».")
        flow.emit(ev.CardBought(seat=seat, column=column, card=col.card, price=price))
    elif isinstance(command, cmd.RefuseCard):
        flow.emit(ev.CardRefused(seat=seat, column=column, price=price))
    else:
        raise _violation("purchase_buy_or_refuse",
                         "Purchase: the card on offer is bought (BuyCard) or refused (RefuseCard).")
    _advance_purchase(flow)


def _decide_shipping(flow: _Flow, i: int, command) -> None:
    state = flow.state
    seat = state.seats[i]
    if isinstance(command, cmd.EndShipping):
        flow.emit(ev.ShippingEnded(seat=i, lost=seat.loose))
        if not flow.state.shipping:
            _end_round(flow)
        return
    if isinstance(command, cmd.DeliverCube):
        good = _check_good(command.good)
        if not any(c == command.contract for c, _ in seat.contracts):
            raise _violation("not_your_contract", "Cubes go only on your own contract cards.")
        if good not in contract_needs(seat, command.contract):
            raise _violation("contract_goods",
                             "« Le type de marchandise doit correspondre à la carte Contrat »; "
                             "a filled symbol takes no more.")
        src = _sources_or_fail(seat, (good,))
        flow.emit(ev.CubeDelivered(seat=i, good=good, source=src[0], contract=command.contract))
        return
    if isinstance(command, cmd.SellCube):
        good = _check_good(command.good)
        if good not in trader_goods(seat):
            raise _violation("no_trader", "You can sell a good only to your own trader of it.")
        src = _sources_or_fail(seat, (good,))
        flow.emit(ev.CubeSold(seat=i, good=good, source=src[0], coins=SETUP["trader_price"]))
        return
    if isinstance(command, cmd.MarketSell):
        goods = tuple(sorted((_check_good(command.first), _check_good(command.second)), key=gd.key))
        src = _sources_or_fail(seat, goods)
        flow.emit(ev.MarketSold(seat=i, goods=goods, sources=src, coins=SETUP["market_sell_coins"]))
        return
    if isinstance(command, cmd.MarketConvert):
        goods = tuple(sorted((_check_good(command.first), _check_good(command.second),
                              _check_good(command.third)), key=gd.key))
        take = _check_good(command.take)
        src = _sources_or_fail(seat, goods)
        if gd.bump(state.reserve, goods, +1)[gd.key(take)] < 1:
            raise _violation("reserve_empty",
                             "Convert takes « 1 autre cube Marchandise de votre choix de la "
                             "réserve »: there is no such cube in the reserve.")
        flow.emit(ev.MarketConverted(seat=i, goods=goods, sources=src, take=take))
        return
    if isinstance(command, cmd.StoreCube):
        good = _check_good(command.good)
        if WAREHOUSE not in owned_kinds(seat):
            raise _violation("no_warehouse", "Only the owner of the Warehouse card stores cubes.")
        if len(seat.warehouse) >= SETUP["warehouse_capacity"]:
            raise _violation("warehouse_full", "« il ne peut pas y avoir plus de 4 cubes dans un "
                                               "entrepôt »")
        _require_loose(seat, good)
        flow.emit(ev.CubeMoved(seat=i, good=good, source="loose", target="warehouse"))
        return
    if isinstance(command, cmd.KeepCube):
        good = _check_good(command.good)
        if len(seat.market) >= SETUP["market_capacity"]:
            raise _violation("market_full", "« Vous ne pouvez pas garder plus d'un cube "
                                            "Marchandise sur votre marché »")
        _require_loose(seat, good)
        flow.emit(ev.CubeMoved(seat=i, good=good, source="loose", target="market"))
        return
    if isinstance(command, cmd.RetrieveCube):
        good = _check_good(command.good)
        if command.place not in PLACES or good not in getattr(seat, command.place):
            raise _violation("nothing_to_retrieve", f"There is no {good} cube there.")
        flow.emit(ev.CubeMoved(seat=i, good=good, source=command.place, target="loose"))
        return
    raise _violation("shipping_command", "Shipping: use your cubes, then EndShipping.")


def _sources_or_fail(seat: SeatState, goods: tuple[str, ...]) -> tuple[str, ...]:
    src = sources_for(seat, goods)
    if src is None:
        raise _violation("no_such_cube", "You do not have these cubes.")
    return src


def _require_loose(seat: SeatState, good: str) -> None:
    if good not in seat.loose:
        raise _violation("no_unloaded_cube", f"You have no unloaded {good} cube.")
