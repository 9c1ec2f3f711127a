"""Computer seats for Amsterdam: "easy" and "normal" (greedy one-step lookahead on a
heuristic value of the board); "strong" is the generic search of domain/common, which
rolls out with "normal" and cuts its rollouts off with ``evaluate``. Every lookahead
runs on ``redetermine(state, seat, rng)``, so no hidden pile, tile or die is ever read."""

from __future__ import annotations

from domain.amsterdam import cards, data
from domain.amsterdam.actions import barge_commands
from domain.amsterdam.board import blocks_of, first_free_roof, largest_group
from domain.amsterdam.commands import (
    AdvanceAmstel,
    Convert,
    DeliverGood,
    EndTurn,
    LoadGood,
    MoveBarge,
    PickUpDocker,
)
from domain.amsterdam.evolve import evolve
from domain.amsterdam.rounds import decide, legal_commands, to_act
from domain.amsterdam.state import ACTIONS, State
from domain.amsterdam.view import redetermine
from domain.decider import Issued

AT = "1970-01-01T00:00:00Z"
VALUE = {"florin": 0.8, "resource": 0.2, "kept": 0.9, "step": 0.45, "active_card": 2.0,
         "inactive_card": 0.8, "amstel_space": 0.6, "arms": 1.5, "empty_arrow": 4.0}


def _distances() -> dict[str, dict[str, int]]:
    out = {}
    for origin in data.HARBOUR:
        seen = {origin: 0}
        frontier = [origin]
        while frontier:
            nxt = []
            for node in frontier:
                for other in data.HARBOUR[node]:
                    if other not in seen:
                        seen[other] = seen[node] + 1
                        nxt.append(other)
            frontier = nxt
        out[origin] = seen
    return out


DISTANCE = _distances()
DOCK = {colour: pontoon for pontoon, colour in data.PONTOONS.items()}


def _delivery_value(state: State, node: str, good: str) -> float:
    fast = max(0, data.FAST_DELIVERY_BASE - state.round) if state.round <= 7 else 0
    options = [0.0]
    roof = first_free_roof(state, good)
    if roof is not None:
        options.append(roof + fast - VALUE["step"] * DISTANCE[node][good])
    for depot, filled in zip(data.DEPOTS, state.depots):
        if filled is None:
            options.append(data.DEPOTS[depot] + fast - VALUE["step"] * DISTANCE[node][depot])
    return max(options)


def value(state: State, seat: int) -> float:
    """A heuristic worth of the seat's position, in points."""
    return sum(terms(state, seat).values())


def terms(state: State, seat: int) -> dict[str, float]:
    """``value``'s parts, by name (the search's ``evaluate`` weighs them apart)."""
    me = state.seats[seat]
    rounds_left = max(0, data.ROUNDS_FULL - state.round)
    card_weight = min(1.0, rounds_left / 5)
    unload = VALUE["step"] * (0 if me.barge == data.START or me.barge in data.PONTOONS else 2)
    cargo = sum(_delivery_value(state, me.barge, g) for g in me.cargo) * (0.5 + 0.5 * card_weight)
    waiting = sum(max(0.0, _delivery_value(state, me.barge, g) - unload - 1.0)
                  for g in me.provisional) * 0.6 * card_weight
    values = data.DOCKER_BUILDING["values"]
    next_space = values[min(len(state.docker_building), len(values) - 1)]
    dockers = sum(next_space - VALUE["step"] * DISTANCE[me.barge][DOCK[c]] for c in me.dockers)
    blocks = blocks_of(state, seat)
    expected_penalties = me.penalties + round(len(me.inactive) * (1 - card_weight))
    arrow_risk = VALUE["empty_arrow"] if rounds_left and not any(me.rose[0]) else 0.0
    # in the order value() has always added them: the same floats, so the same choices
    return {
        "points": me.points,
        "penalties": -data.penalty_points(expected_penalties),
        "arrow_risk": -arrow_risk,
        "florins": VALUE["florin"] * me.florins,
        "reserve": VALUE["resource"] * sum(me.reserve),
        "kept": VALUE["kept"] * (me.house is not None),
        "rose": sum(VALUE["resource"] * sum(v) for v in me.rose),
        "cargo": cargo,
        "waiting": waiting,
        "dockers": dockers,
        "active_cards": VALUE["active_card"] * card_weight * len(me.active),
        "laurels": cards.end_points(state, seat),
        "inactive_cards": VALUE["inactive_card"] * card_weight * len(me.inactive),
        "amstel": VALUE["amstel_space"] * me.amstel,
        "arms": VALUE["arms"] * len(blocks),
        "city": data.CITY_POINTS_PER_ARM * largest_group(blocks),
    }


def _after(state: State, seat: int, command) -> State:
    for event in decide(state, Issued(seat, AT, command)):
        state = evolve(state, event)
    return state


def _score(state: State, seat: int, command) -> float:
    try:
        return value(_after(state, seat, command), seat)
    except Exception:  # noqa: BLE001 - a command the determinized state refuses
        return float("-inf")


def _candidates(state: State, seat: int, legal: list) -> list:
    """One representative per colour-blind choice: the heuristic ignores which colours
    pay for an Amstel move, a barge step or an exchange, so keep the payment that leaves
    the most varied reserve (the first listed uses the most plentiful colours last)."""
    seen: dict = {}
    for command in legal:
        if isinstance(command, AdvanceAmstel):
            key = ("amstel", len(command.payment))
        elif isinstance(command, MoveBarge):
            key = ("barge", command.to)
        elif isinstance(command, Convert):
            key = ("convert", command.card)
        else:
            key = command
        if key not in seen or _plenty(state, seat, command) > _plenty(state, seat, seen[key]):
            seen[key] = command
    return list(seen.values())


def _plenty(state: State, seat: int, command) -> int:
    reserve = dict(zip(data.COLOURS, state.seats[seat].reserve))
    paid = getattr(command, "payment", None) or ((command.pay,) if getattr(command, "pay", None) else ())
    return sum(reserve[c] for c in paid)


FOLLOW_UPS = (DeliverGood, PickUpDocker, LoadGood)


def _follow_ups(state: State, seat: int) -> list:
    """The barge commands among ``legal_commands(state, seat)`` (only the barge offers a
    follow-up: listing every card, block and payment would be wasted)."""
    if (state.phase != ACTIONS or seat not in to_act(state)
            or state.seats[seat].pending_choices):
        return []
    return barge_commands(state, seat)


def policy(state: State, seat: int, rng, level: str = "normal"):
    legal = legal_commands(state, seat)
    if level == "easy" and rng.below(2) == 0:
        return rng.choice(legal)
    sample = redetermine(state, seat, rng)
    if state.phase == ACTIONS and not state.seats[seat].pending_choices:
        best, best_value = None, value(sample, seat)
        for command in _candidates(sample, seat, legal):
            if isinstance(command, EndTurn):
                continue
            score = _score(sample, seat, command)
            if isinstance(command, MoveBarge) and score > float("-inf"):
                # a barge step is judged with what it allows next: unload, load, pick up
                after = _after(sample, seat, command)
                follow = [c for c in _follow_ups(after, seat) if isinstance(c, FOLLOW_UPS)]
                score = max([score] + [_score(after, seat, c) for c in follow])
            if score > best_value + 1e-9:
                best, best_value = command, score
        if best is not None:
            return best
        keeps = [c for c in legal if isinstance(c, EndTurn)]
        return max(keeps, key=lambda c: _score(sample, seat, c))
    return max(legal, key=lambda c: (_score(sample, seat, c), -legal.index(c)))
