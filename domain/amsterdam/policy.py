"""Computer seats for Amsterdam: "easy" and "normal" (greedy one-step lookahead on a
heuristic value of the board). "strong" plays as "normal" until the generic search of
domain/common gives this title its strong level. Every lookahead runs on
``redetermine(state, seat, rng)``, so no hidden pile, tile or die is ever read."""

from __future__ import annotations

from domain.amsterdam import data
from domain.amsterdam.board import blocks_of, largest_group
from domain.amsterdam.commands import EndTurn, MoveBarge
from domain.amsterdam.evolve import evolve
from domain.amsterdam.rounds import decide, legal_commands
from domain.amsterdam.state import ACTIONS, State
from domain.amsterdam.view import redetermine
from domain.decider import Issued

AT = "1970-01-01T00:00:00Z"
VALUE = {"florin": 0.8, "resource": 0.35, "kept": 0.9, "provisional_good": 3.0,
         "cargo_good": 4.5, "docker": 4.0, "active_card": 2.5, "inactive_card": 0.5,
         "amstel_space": 0.6, "arms": 1.5, "penalty": 5.0}


def value(state: State, seat: int) -> float:
    me = state.seats[seat]
    rounds_left = max(0, data.ROUNDS_FULL - state.round)
    card_weight = min(1.0, rounds_left / 6)
    return (me.points - VALUE["penalty"] * me.penalties
            + VALUE["florin"] * me.florins
            + VALUE["resource"] * sum(me.reserve) + VALUE["kept"] * (me.house is not None)
            + sum(VALUE["resource"] * (7 - slot) / 6 * sum(v) for slot, v in enumerate(me.rose))
            + VALUE["provisional_good"] * len(me.provisional)
            + VALUE["cargo_good"] * len(me.cargo) + VALUE["docker"] * len(me.dockers)
            + VALUE["active_card"] * card_weight * len(me.active)
            + VALUE["inactive_card"] * card_weight * len(me.inactive)
            + VALUE["amstel_space"] * me.amstel
            + VALUE["arms"] * len(blocks_of(state, seat))
            + data.CITY_POINTS_PER_ARM * largest_group(blocks_of(state, seat)) * 0.5
            - 2.0 * me.pending_choices * 0)


def _after(state: State, seat: int, command) -> State:
    for event in decide(state, Issued(seat, AT, command)):
        state = evolve(state, event)
    return state


def _score(state: State, seat: int, command) -> float:
    try:
        return value(_after(state, seat, command), seat)
    except Exception:  # noqa: BLE001 - a command the determinized state refuses
        return float("-inf")


def policy(state: State, seat: int, rng, level: str = "normal"):
    legal = legal_commands(state, seat)
    if level == "easy" and rng.below(2) == 0:
        return rng.choice(legal)
    sample = redetermine(state, seat, rng)
    if state.phase == ACTIONS and not state.seats[seat].pending_choices:
        # a barge step is judged with the next step too, so a move towards a landing counts
        base = value(sample, seat)
        best, best_value = None, base
        for command in legal:
            if isinstance(command, EndTurn):
                continue
            score = _score(sample, seat, command)
            if isinstance(command, MoveBarge) and score > float("-inf"):
                after = _after(sample, seat, command)
                follow = [c for c in legal_commands(after, seat) if not isinstance(c, MoveBarge)
                          and not isinstance(c, EndTurn)]
                score = max([score] + [_score(after, seat, c) for c in follow])
            if score > best_value + 1e-9:
                best, best_value = command, score
        if best is not None:
            return best
        keeps = [c for c in legal if isinstance(c, EndTurn)]
        return max(keeps, key=lambda c: _score(sample, seat, c))
    return max(legal, key=lambda c: (_score(sample, seat, c), -legal.index(c)))
