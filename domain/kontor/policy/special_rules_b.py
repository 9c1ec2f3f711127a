"""The computer player's choices for the special rules B' own commands (basic.py calls
them): a pending bribe (« Corruption »), a tavern decision (« Vieilles rancunes »), a
face-down card (« Contrebande »). It reads only its own seat's knowledge: the board, the
public state, its own hand."""

from __future__ import annotations

from domain.kontor.core.board import occupancy
from domain.kontor.core.data import CARDS
from domain.kontor.core.sides import side_of
from domain.kontor.core.state import KontorState, change_part, part
from domain.kontor.rules.bribery import BriberyState, EndBribe, PlaceBribeWarehouse, pending_bribe
from domain.kontor.rules.old_grudges import DecideTavernSector, GrudgesState
from domain.kontor.rules.smuggling import ChooseFaceDown, SmugglingState


def policy_b(state: KontorState, seat: int, legal: list, evaluate, rng):
    """A command for a pending bribe or tavern decision; None to let the main policy
    decide."""
    side = side_of(state.options, seat)
    if pending_bribe(state) is not None:
        best, best_value = EndBribe(), evaluate(state)
        for cmd in legal:
            if isinstance(cmd, PlaceBribeWarehouse):
                card = occupancy(state)[(cmd.x, cmd.y)]
                v = evaluate(change_part(state, BriberyState, bribes=part(state, BriberyState).bribes + (card,)))
                v += rng.below(1000) / 1e6
                if v > best_value:
                    best, best_value = cmd, v
        return best
    if state.phase == "grudges":
        cmd = legal[0]
        s = state.scored[part(state, GrudgesState).grudge_pending[0]]
        # keep a sector won or tied; drop one the other side won
        counted = s.winner is None or s.winner == side
        return DecideTavernSector(cmd.x, cmd.y, counted)
    return None


def smuggle_choice(state: KontorState, seat: int, card: int) -> ChooseFaceDown | None:
    """Late in the game, hide a goods dock with two or more goods (its warehouses then
    count only at the end, out of the opponent's sight), while the rule is still open to
    the seat (« une fois dans la partie »)."""
    if not state.options.smuggling or seat in part(state, SmugglingState).smuggle_used or state.round < 8:
        return None
    c = CARDS[card]
    if c.kind == "dock" and len(c.goods) >= 2 and state.dock_piles[seat]:
        return ChooseFaceDown(card, "dock")
    return None
