"""The computer player: ``policy(state, seat, rng, level)`` -> a legal command.

Each policy reads only what the seat may know (its view: the board, public piles and
money, its own hand) or a redetermined state. basic.py plays the basic and advanced game
(with the scenarios', special rules B' and expansions' choices), special_rules.py the
phases and steps of the special rules A, free_wheel.py the free wheel forms."""

from __future__ import annotations

from domain.common.chance import win_chance
from domain.kontor.core.board import occupancy
from domain.kontor.core.decide import legal_commands
from domain.kontor.core.sides import side_lead, side_of
from domain.kontor.core.state import KontorState
from domain.kontor.policy import basic, free_wheel, special_rules


def policy(state: KontorState, seat: int, rng, level: str = "normal"):
    legal = legal_commands(state, seat)
    if not legal:
        raise ValueError("the seat may not act now")
    if state.options.sequential_turns:
        return free_wheel.policy(state, seat, rng, level, legal)
    if level == "easy" and rng.below(3) == 0:
        return rng.choice(legal)
    special = special_rules.choose(state, seat, rng, level, legal)
    if special is not None:
        return special
    return basic.choose(state, seat, rng, level, legal)


#: a board evaluation worth one closed sector's lead (policy.WIN) reads as about 3:1
EVALUATION_SCALE = 9.0


#: money breaks ties on points: a florin of lead is worth this share of a policy florin
MONEY_LEAD = 0.5


#: free wheel forms: a provisional point of lead reads as about 3:1
FREE_WHEEL_SCALE = 1.0


def evaluate(state, seat: int) -> float:
    """The search's cut-off estimate of ``seat``'s chances, squashed into [0, 1]: the
    points its side already leads by (a sector won is worth the policy's WIN), the
    policy's evaluation of the open board (sectors held, leads, threats), and the money
    lead that breaks ties.  "Largest sectors" games score only at the end: their board
    evaluation already ranks the scored sectors.  The free wheel forms count every
    sector at the end, as their own policy values a position (free_wheel.lead): the
    basic game's board evaluation would misjudge them."""
    if state.options.sequential_turns:
        return win_chance(free_wheel.lead(state, seat), FREE_WHEEL_SCALE)
    value = basic.evaluate_board(state, seat, occupancy(state), state.warehouses)
    opts = state.options
    points = side_values_max(opts, state.points)
    mine = side_of(opts, seat)
    others = [s for s in range(len(points)) if s != mine]
    if others:
        if opts.final_selection != "largest":
            value += basic.WIN * (points[mine] - max(points[s] for s in others))
        value += MONEY_LEAD * basic.money_worth(state) * side_lead(opts, state.money, seat)
    return win_chance(value, EVALUATION_SCALE)


def side_values_max(opts, per_seat: tuple[int, ...]) -> list[int]:
    """Per side, its seats' value (partners hold the same score: the highest of them)."""
    out: dict[int, int] = {}
    for seat, v in enumerate(per_seat):
        side = side_of(opts, seat)
        out[side] = max(out.get(side, v), v)
    return [out[s] for s in sorted(out)]
