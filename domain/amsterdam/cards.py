"""The card engine: the 132 effects are data (data.Effect); this module gives each of
the few effect kinds its meaning: modifiers, triggers, once-per-round abilities ("use"
and "plan"), converters, Phase I/II effects and end-of-game scorers."""

from __future__ import annotations

from math import ceil

from domain.amsterdam import data
from domain.amsterdam import events as ev
from domain.amsterdam.board import amstel_order, blocks_of
from domain.amsterdam.commands import Convert, UseCard
from domain.amsterdam.payments import affordable, any_colours, less_one, normal
from domain.amsterdam.state import SeatState, State

CARDS = data.CARDS

#: The effect names this engine gives a meaning to, by kind (data.py may use no other).
EFFECT_NAMES = {
    "use": {"after_plan", "after_any_plan", "min_active", "barge_goods_at_most",
            "not_first_on_amstel", "last_on_amstel", "inactive_at_most", "alone_last_on_score",
            "alone_first_on_score", "per_arms", "per_plan_district", "barge_credit",
            "pay_florins", "free", "carpenters", "discard_plan", "pay_resources",
            "montelbaanstoren"},
    "modifier": {"market_twice", "block_discount", "block_for_florins", "second_block",
                 "plan_thrice", "activation_discount", "amstel_on_top", "sale_both",
                 "barge_half", "first_of_trade_discount", "docker_double"},
    "trigger": {"on_amstel_point", "on_barge_two_steps", "on_block_florins",
                "on_activate_florins", "on_activate_plan_use", "on_market_points_choice",
                "on_card_florins", "on_card_points", "on_deliver", "on_block_amstel",
                "on_deliver_good"},
    "converter": {"resources_to_florin", "resources_to_choice", "florins_to_activation",
                  "florins_to_choice"},
    "phase": {"skip_card", "ones_florins", "ones_resources", "adjacent_slot", "extra_resource"},
    "end": {"distinct_trades", "no_inactive_penalty", "amstel_advance", "barge_cargo",
            "docker_building", "black_market_goods", "plans_of_district", "churches",
            "active_kind", "laurel_cards", "trade_pairs", "plan_colour_pairs",
            "bridges_passed", "arms_in_city", "barge_at_start", "largest_trade"},
}


def effects(seat: SeatState, kind: str):
    for card in seat.active:
        effect = CARDS[card].effect
        if effect.kind == kind:
            yield card, effect


def has_modifier(seat: SeatState, name: str) -> bool:
    return any(e.name == name for _, e in effects(seat, "modifier"))


def modifier(seat: SeatState, name: str):
    """The params of the seat's active modifier ``name``, or None without one."""
    for _, effect in effects(seat, "modifier"):
        if effect.name == name:
            return effect.params
    return None


def converter(seat: SeatState, name: str):
    """The params of the seat's active converter ``name``, or None without one."""
    for _, effect in effects(seat, "converter"):
        if effect.name == name:
            return effect.params
    return None


def count_active(seat: SeatState, kind: str) -> int:
    return sum(1 for c in seat.active if CARDS[c].kind == kind)


# -- activation ------------------------------------------------------------------------
def activation_payments(seat: SeatState, card: str) -> list[tuple[tuple[str, ...], bool]]:
    """(payment, by_florins) pairs the seat may use to activate ``card`` (L460-466, B14)."""
    info = CARDS[card]
    cost = normal(info.cost)
    options = [cost]
    for _, effect in effects(seat, "modifier"):
        if effect.name == "activation_discount" and info.kind == effect.params[0]:
            options = list(less(cost, effect.params[1]))    # 031
            break
        if (effect.name == "first_of_trade_discount" and info.kind == data.CRAFTSMAN
                and info.group not in seat.trades_activated):
            options = list(less(cost, effect.params[0]))    # 042
            break
    out = [(p, False) for p in dict.fromkeys(options) if affordable(seat.reserve, p)]
    by_florins = converter(seat, "florins_to_activation")
    if by_florins is not None and seat.florins >= by_florins[0]:   # 038
        out.append(((), True))
    return out


def less(cost: tuple[str, ...], n: int) -> tuple[tuple[str, ...], ...]:
    """The payments of ``cost`` with ``n`` cubes of the payer's choice left out."""
    options: tuple[tuple[str, ...], ...] = (cost,)
    for _ in range(n):
        options = tuple(dict.fromkeys(p for o in options for p in less_one(o)))
    return options


def on_activate(tx, seat: int, card: str) -> None:
    """Triggers of an activation: 030, 033, 041 (florins), 035 (free plan use)."""
    kind = CARDS[card].kind
    for source, effect in list(effects(tx.seat(seat), "trigger")):
        if effect.name == "on_activate_florins" and effect.params[0] == kind:
            tx.florins(seat, effect.params[1], source, by_card=True)
        if effect.name == "on_activate_plan_use" and kind == data.PLAN:
            apply_gains(tx, seat, CARDS[card].effect.params[1:], source)


# -- gains -------------------------------------------------------------------------------
def apply_gains(tx, seat: int, gains, source: str) -> None:
    for gain in gains:
        what = gain[0]
        if what == "florins":
            tx.florins(seat, gain[1], source, by_card=True)
        elif what == "points":
            tx.points(seat, gain[1], source, by_card=True)
        elif what == "resource":
            tx.resources(seat, (gain[1],) * gain[2], source)
        elif what == "choice":
            tx.choices(seat, gain[1], source)
        elif what == "amstel":
            tx.advance(seat, gain[1], source)


# -- once-per-round abilities (III) -------------------------------------------------------
def _condition_holds(state: State, seat_index: int, effect) -> bool:
    seat = state.seats[seat_index]
    name, params = effect.name, effect.params
    if name == "after_plan":
        return params[0] in seat.turn.plans_used                    # B17
    if name == "after_any_plan":
        return bool(seat.turn.plans_used)
    if name == "min_active":
        return count_active(seat, params[0]) >= params[1]
    if name == "barge_goods_at_most":
        return len(seat.cargo) <= params[0]                         # A8
    if name == "not_first_on_amstel":
        return amstel_order(state)[0] != seat_index
    if name == "last_on_amstel":
        return amstel_order(state)[-1] == seat_index
    if name == "inactive_at_most":
        return len(seat.inactive) <= params[0]                      # A7
    others = [s.points for i, s in enumerate(state.seats) if i != seat_index]
    if state.tom is not None:                  # TOM has a marker on the score track (L895)
        others.append(state.tom.points)
    if name == "alone_last_on_score":
        return all(seat.points < p for p in others)                 # B34
    if name == "alone_first_on_score":
        return all(seat.points > p for p in others)
    if name == "pay_florins" or name == "barge_credit":
        return seat.florins >= params[0]
    return True


def plan_uses_left(seat: SeatState, card: str) -> bool:
    """Plans: once a turn; with 029 one plan card up to 3 times a turn (B15)."""
    uses = seat.turn.plan_uses
    mine = uses.count(card)
    base = data.PLAN_USES_PER_TURN
    if mine < base:
        return True
    thrice = modifier(seat, "plan_thrice")
    if thrice is None or mine >= thrice[0]:
        return False
    return all(uses.count(other) <= base for other in set(uses) if other != card)


def use_commands(state: State, seat_index: int) -> list[UseCard]:
    seat = state.seats[seat_index]
    out: list[UseCard] = []
    for card in seat.active:
        effect = CARDS[card].effect
        if effect.kind == "plan":
            colour = effect.params[0]
            if plan_uses_left(seat, card) and affordable(seat.reserve, (colour,)):
                out.append(UseCard(card, (colour,)))
            continue
        if effect.kind != "use" or card in seat.used:
            continue
        if not _condition_holds(state, seat_index, effect):
            continue
        if effect.name == "pay_resources":
            out += [UseCard(card, p) for p in any_colours(seat.reserve, effect.params[0])]
        elif effect.name == "discard_plan":
            out += [UseCard(card, (), target=p) for p in dict.fromkeys(seat.active)
                    if CARDS[p].kind == data.PLAN]
        else:
            out.append(UseCard(card))
    return out


def apply_use(tx, seat: int, command: UseCard) -> None:
    effect = CARDS[command.card].effect
    me = tx.seat(seat)
    if effect.kind == "plan":
        tx.spend(seat, command.payment, command.card)
        tx.emit(ev.CardUsed(seat, command.card, CARDS[command.card].group))
        apply_gains(tx, seat, effect.params[1:], command.card)
        return
    tx.emit(ev.CardUsed(seat, command.card, None))
    name, params = effect.name, effect.params
    gains = tuple(p for p in params if isinstance(p, tuple))
    if name == "per_arms":                                 # 019: per started group
        groups = ceil(len(blocks_of(tx.state, seat)) / params[0])
        gains = tuple((what, amount * groups) for what, amount in gains)
    elif name == "per_plan_district":                      # 021
        districts = len({CARDS[c].group for c in me.active if CARDS[c].kind == data.PLAN})
        gains = tuple((what, amount * districts) for what, amount in gains)
    elif name == "carpenters":                             # 044
        trade, per_card = params[0], params[1]
        count = sum(1 for c in me.active if CARDS[c].group == trade)
        gains = gains + (("points", per_card * count),)
    elif name == "montelbaanstoren":                       # 088-090
        tower = any(CARDS[c].group == params[0] for c in me.active)
        gains = (gains[1],) if tower else (gains[0],)
    elif name == "pay_florins":
        tx.florins(seat, -params[0], command.card)
    elif name == "pay_resources":
        tx.spend(seat, command.payment, command.card)
    elif name == "discard_plan":
        tx.emit(ev.CardDiscarded(seat, command.target))
    elif name == "barge_credit":
        tx.florins(seat, -params[0], command.card)
        tx.emit(ev.BargeCreditGained(seat, params[1]))
        return
    apply_gains(tx, seat, gains, command.card)


def validate_use(state: State, seat: int, command: UseCard) -> bool:
    return command in use_commands(state, seat)


# -- converters ----------------------------------------------------------------------
def convert_commands(seat: SeatState) -> list[Convert]:
    out: list[Convert] = []
    for card, effect in dict(effects(seat, "converter")).items():
        if effect.name in ("resources_to_florin", "resources_to_choice"):
            out += [Convert(card, p) for p in any_colours(seat.reserve, effect.params[0])]
        elif effect.name == "florins_to_choice" and seat.florins >= effect.params[0]:
            out.append(Convert(card))
    return out


def apply_convert(tx, seat: int, command: Convert) -> None:
    effect = CARDS[command.card].effect
    if effect.name == "resources_to_florin":               # 032
        tx.spend(seat, command.payment, command.card)
        tx.florins(seat, effect.params[1], command.card, by_card=True)
    elif effect.name == "resources_to_choice":             # 036
        tx.spend(seat, command.payment, command.card)
        tx.choices(seat, effect.params[1], command.card)
    elif effect.name == "florins_to_choice":               # 039
        tx.florins(seat, -effect.params[0], command.card)
        tx.choices(seat, effect.params[1], command.card)


# -- triggers of actions -----------------------------------------------------------------
def on_block(tx, seat: int) -> None:
    for source, effect in list(effects(tx.seat(seat), "trigger")):
        if effect.name == "on_block_florins":              # 026
            tx.florins(seat, effect.params[0], source, by_card=True)
        elif effect.name == "on_block_amstel":             # 074
            tx.advance(seat, effect.params[0], source)


def on_deliver(tx, seat: int, good: str) -> None:
    for source, effect in list(effects(tx.seat(seat), "trigger")):
        if effect.name == "on_deliver":                    # 073, 075
            apply_gains(tx, seat, effect.params, source)
        elif effect.name == "on_deliver_good" and effect.params[0] == good:  # 076-084
            tx.points(seat, effect.params[1], source, by_card=True)


def on_barge_steps(tx, seat: int) -> None:
    me = tx.seat(seat)
    for source, effect in list(effects(me, "trigger")):
        if effect.name == "on_barge_two_steps" and me.turn.barge_steps >= effect.params[0] \
                and not me.turn.barge_point:               # 016
            tx.emit(ev.OnceSpent(seat, source))
            tx.points(seat, effect.params[1], source, by_card=True)


def on_market_points(tx, seat: int) -> None:
    for source, effect in list(effects(tx.seat(seat), "trigger")):
        if effect.name == "on_market_points_choice":       # 045
            tx.choices(seat, effect.params[0], source)


# -- Phase II ------------------------------------------------------------------------
def phase_two(seat: SeatState) -> dict[str, tuple]:
    """The seat's Phase I/II effects: name -> params."""
    return {e.name: e.params for _, e in effects(seat, "phase")} if seat.active else {}


# -- end of game -----------------------------------------------------------------------
def _churches(seat: SeatState, params) -> int:
    """B39: each Oude Kerk pairs with at most one Westerkerk and one Zuiderkerk."""
    groups = [CARDS[c].group for c in seat.active]
    names, single, one, both = params
    k, w, z = (groups.count(name) for name in names)
    full = min(k, w, z)
    k, w, z = k - full, w - full, z - full
    half = min(k, w + z)
    return full * both + half * one + (k - half) * single


def end_points(state: State, seat_index: int) -> int:
    """The laurel cards of one seat (step 2 of the final scoring, L686-696)."""
    seat = state.seats[seat_index]
    total = 0
    churches_done = False
    for _card, effect in effects(seat, "end"):
        name, params = effect.name, effect.params
        if name == "churches":
            if not churches_done:
                total += _churches(seat, params)
                churches_done = True
        elif name == "distinct_trades":
            total += params[0] * len({CARDS[c].group for c in seat.active
                                      if CARDS[c].kind == data.CRAFTSMAN})
        elif name == "barge_cargo":
            total += params[0] * (len(seat.cargo) + len(seat.dockers))
        elif name == "docker_building":
            total += params[0] * len(state.docker_building)
        elif name == "black_market_goods":
            total += params[0] * len(state.black_market)
        elif name == "plans_of_district":
            total += params[1] * sum(1 for c in seat.active
                                     if CARDS[c].kind == data.PLAN and CARDS[c].group == params[0])
        elif name == "active_kind":
            total += params[1] * count_active(seat, params[0])
        elif name == "laurel_cards":
            total += params[0] * sum(1 for c in seat.active if CARDS[c].timing == data.END)
        elif name == "trade_pairs":
            trades = [CARDS[c].group for c in seat.active if CARDS[c].kind == data.CRAFTSMAN]
            total += params[0] * sum(trades.count(t) // 2 for t in set(trades))
        elif name == "plan_colour_pairs":
            plans = [CARDS[c].group for c in seat.active if CARDS[c].kind == data.PLAN]
            total += params[0] * sum(plans.count(t) // 2 for t in set(plans))
        elif name == "bridges_passed":
            total += params[0] * seat.bridges_passed
        elif name == "arms_in_city":
            total += params[0] * len(blocks_of(state, seat_index))
        elif name == "barge_at_start":
            total += params[0] if seat.barge == data.START else 0
        elif name == "largest_trade":
            trades = [CARDS[c].group for c in seat.active if CARDS[c].kind == data.CRAFTSMAN]
            total += params[0] * max((trades.count(t) for t in set(trades)), default=0)
    return total
