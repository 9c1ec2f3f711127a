"""The computer player: a card-valuation heuristic over public information.

Everything it reads is public (cards owned, offer, the stack's size per season, the
bag and reserve as multisets); it never reads the order of the stack or the seed, so it
needs no redetermination (no lookahead).  Levels: "easy" plays a random legal command
one time in three, otherwise as "normal"; "normal" and "strong" use the same valuation
(which counts the fire cards still to come: public, the card list is printed).
"""

from __future__ import annotations

from functools import lru_cache

from domain.common.chance import win_chance
from domain.speicherstadt import commands as cmd
from domain.speicherstadt import goods as gd
from domain.speicherstadt.data import (
    BANK,
    BOATMEN_CHURCH,
    CARD,
    CHAMBER_OF_COMMERCE,
    CONTRACT,
    COUNTING_OFFICE,
    COUNTING_OFFICE_POINTS,
    END_POINTS,
    FIRE,
    FIREMAN,
    PORT,
    SETUP,
    SHIP,
    ST_MICHAELIS,
    TRADER,
    WAREHOUSE,
    contract_points,
)
from domain.speicherstadt.rules import contract_needs, legal_commands, owned_kinds, trader_goods
from domain.speicherstadt.scoring import score_seat
from domain.speicherstadt.state import DEMAND, PURCHASE, SeatState, State


def rounds_left(state: State) -> float:
    return _non_fire(state.deck) / (state.seat_count + 1)


@lru_cache(maxsize=1024)
def _non_fire(deck: tuple[str, ...]) -> int:
    """Cached: the search asks it thousands of times per move for a few decks."""
    return sum(1 for c in deck if CARD[c].kind != FIRE)


def coin_value(state: State, seat: SeatState) -> float:
    if CHAMBER_OF_COMMERCE in owned_kinds(seat):
        return 1.0
    r = rounds_left(state)
    scarce = 0.3 if seat.coins < 3 else 0.0
    return 0.25 + min(0.6, 0.15 * r) + scarce


def _needs(seat: SeatState) -> list[str]:
    out: list[str] = []
    for c, _ in seat.contracts:
        out += contract_needs(seat, c)
    return out


def _fire_outcome(mine: int, others: list[int], bonus: int) -> float:
    sums = others + [mine]
    hi, lo = max(sums), min(sums)
    if hi == lo:
        return 0.0
    return bonus if mine == hi else -bonus if mine == lo else 0.0


def _fireman_sum(seat: SeatState) -> int:
    return sum(CARD[c].value for c in seat.cards if CARD[c].kind == FIREMAN)


def card_value(state: State, i: int, card_id: str) -> float:
    """Rough worth of a card to seat ``i``, in points."""
    seat = state.seats[i]
    card = CARD[card_id]
    r = rounds_left(state)
    kinds = [CARD[c].kind for c in seat.cards]
    cv = coin_value(state, seat)
    if card.kind == COUNTING_OFFICE:
        table = COUNTING_OFFICE_POINTS["table"]
        k = min(kinds.count(COUNTING_OFFICE), len(table) - 2)
        return float(table[k + 1] - table[k]) + 0.5
    if card.kind == CONTRACT:
        size = len(card.goods)
        chance = min(0.9, 0.1 + 0.13 * r) * {2: 1.0, 3: 0.85, 4: 0.7}.get(size, 0.6)
        open_contracts = sum(1 for c, _ in seat.contracts if contract_needs(seat, c))
        chance /= 1.0 + 0.45 * open_contracts
        have = list(seat.warehouse) + list(seat.market)
        bonus = sum(0.1 for g in card.goods if g in have)
        return contract_points(card) * min(1.0, chance + bonus) - 0.5
    if card.kind == SHIP:
        return ship_value(state, i, card_id) + (END_POINTS["per_ship_port"] if PORT in kinds else 0)
    if card.kind == FIREMAN:
        mine = _fireman_sum(seat)
        others = [_fireman_sum(s) for j, s in enumerate(state.seats) if j != i]
        total = 0.0
        for c in state.deck:
            if CARD[c].kind == FIRE:
                b = CARD[c].bonus
                total += _fire_outcome(mine + card.value, others, b) - _fire_outcome(mine, others, b)
                total += 0.08 * card.value * b
        return total
    if card.kind == BANK:
        return r * SETUP["income_bank"] * cv
    if card.kind == CHAMBER_OF_COMMERCE:
        return 3.0 + 0.5 * seat.coins
    if card.kind in (BOATMEN_CHURCH, ST_MICHAELIS):
        return float(END_POINTS["table"][card.kind])
    if card.kind == PORT:
        ships = kinds.count(SHIP)
        return ships + 0.3 * r
    if card.kind == WAREHOUSE:
        return 1.0 + min(4.0, 0.5 * r)
    if card.kind == TRADER:
        return END_POINTS["table"][TRADER] + 0.25 * r * cv
    return 0.0


def ship_value(state: State, i: int, card_id: str) -> float:
    seat = state.seats[i]
    needs = _needs(seat)
    traders = trader_goods(seat)
    cv = coin_value(state, seat)
    col = next((c for c in state.offer if c.card == card_id), None)
    cubes = col.cubes if col is not None else ()
    value = 0.0
    for g in cubes:
        if g in needs:
            needs.remove(g)
            value += 2.6
        elif g in traders:
            value += max(cv, 0.4)
        else:
            value += 0.5 * cv + (0.3 if WAREHOUSE in owned_kinds(seat) else 0.0)
    return value


# --- phases ------------------------------------------------------------------------------


def _demand(state: State, i: int, legal: list) -> cmd.PlaceWorker:
    seat = state.seats[i]
    cv = coin_value(state, seat)
    best, best_score = legal[0], -1e9
    mine_total = sum(col.workers.count(i) for col in state.offer)
    for c in legal:
        col = state.offer[c.column]
        value = card_value(state, i, col.card)
        price = len(col.workers) + 1 + 0.6
        score = value - cv * price
        if col.workers and col.workers[0] != i:
            score = 0.45 * score  # only if those below refuse
        if i in col.workers:
            score -= 2.5 * cv  # a second worker only raises my own price
        if price > seat.coins + 0.6:
            score -= 3.0
        score -= 0.01 * c.column + 0.001 * mine_total
        if score > best_score:
            best, best_score = c, score
    return best


def _purchase(state: State, i: int, legal: list):
    col = state.offer[state.purchase_column]
    if not any(isinstance(c, cmd.BuyCard) for c in legal):
        return cmd.RefuseCard()
    if len(col.workers) > 1 and all(w == i for w in col.workers):
        return cmd.RefuseCard()  # it comes back to me, cheaper
    seat = state.seats[i]
    value = card_value(state, i, col.card)
    price = len(col.workers)
    if value - coin_value(state, seat) * price > -0.25:
        return cmd.BuyCard()
    return cmd.RefuseCard()


def _shipping(state: State, i: int, legal: list):
    seat = state.seats[i]
    legal_set = set(legal)
    last = state.last_round
    # 1. fill contracts, the closest to completion first
    for contract, _ in sorted(seat.contracts, key=lambda cp: len(contract_needs(seat, cp[0]))):
        for g in contract_needs(seat, contract):
            c = cmd.DeliverCube(good=g, contract=contract)
            if c in legal_set:
                return c
    needs = _needs(seat)
    kinds = owned_kinds(seat)
    loose = list(seat.loose)
    surplus = [g for g in loose if g not in needs]
    # 2. convert three spare cubes into a needed one
    if needs and len(surplus) >= 3 and (not last or len(needs) <= 1):
        three = sorted(sorted(surplus)[:3], key=gd.key)
        for cand in legal:
            if (isinstance(cand, cmd.MarketConvert) and cand.take in needs
                    and [cand.first, cand.second, cand.third] == three):
                return cand
    # 3. keep needed cubes
    for g in loose:
        if g in needs:
            c = cmd.StoreCube(good=g)
            if c in legal_set:
                return c
            c = cmd.KeepCube(good=g)
            if c in legal_set:
                return c
    # 4. sell to own traders
    for g in loose:
        if g in trader_goods(seat):
            return cmd.SellCube(good=g)
    # 5. store spare cubes for points (warehouse) or later use
    if WAREHOUSE in kinds:
        for g in loose:
            c = cmd.StoreCube(good=g)
            if c in legal_set:
                return c
    # 5b. the market cube scores in the warehouse, and frees the market
    if not loose and seat.market and WAREHOUSE in kinds:
        c = cmd.RetrieveCube(good=seat.market[0], place="market")
        if c in legal_set and len(seat.warehouse) < SETUP["warehouse_capacity"]:
            return c
    # 6. sell spare pairs at the market, keep the last one
    if len(loose) >= 2:
        a, b = sorted(loose)[:2]
        for cand in legal:
            if isinstance(cand, cmd.MarketSell) and sorted((cand.first, cand.second)) == [a, b]:
                if sorted(seat.loose).count(a) >= 1:
                    return cand
    if loose and not seat.market and not last:
        return cmd.KeepCube(good=loose[0])
    if last and seat.market and len(loose) == 1:
        for cand in legal:
            if isinstance(cand, cmd.MarketSell) and sorted((cand.first, cand.second)) == sorted(
                    (loose[0], seat.market[0])):
                return cand
    return cmd.EndShipping()


def policy(state: State, seat: int, rng, level: str = "normal"):
    legal = legal_commands(state, seat)
    if not legal:
        raise ValueError("this seat may not act now")
    if level == "easy" and rng.below(3) == 0:
        return rng.choice(legal)
    if state.phase == DEMAND:
        choice = _demand(state, seat, legal)
    elif state.phase == PURCHASE:
        choice = _purchase(state, seat, legal)
    else:
        choice = _shipping(state, seat, legal)
    return choice if choice in legal else legal[-1]


#: points of lead that make a win about three times as likely as a loss
EVALUATION_SCALE = 6.0


def evaluate(state: State, seat: int) -> float:
    """The search's cut-off estimate of ``seat``'s chances: the points each seat would
    score now, with a coin as a small tie-break, against the best other seat."""
    def worth(s: SeatState) -> float:
        return score_seat(s).total + 0.05 * s.coins

    mine = worth(state.seats[seat])
    best_other = max(worth(s) for i, s in enumerate(state.seats) if i != seat)
    return win_chance(mine - best_other, EVALUATION_SCALE)
