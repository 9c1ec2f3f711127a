"""Special rule « Blocus » (``blockade``, 2 and 4 players; switch ``blockade``).

« Le bateau reçoit une fonction supplémentaire, en plus d'enlever des docks. Il est
maintenant interdit de placer une carte qui avoisinerait directement le bateau, par un
côté. Si à cause du bateau, aucun joueur ne peut plus placer de carte lors d'un tour, la
partie se termine prématurément. »

Hook points: the cells next to the ship are taken away (cell_filters, placement_error); a
card that has no cell only because of the ship goes back to the hand « for the blockade »
(its step "blockade_reason" for a card without a cell), and moving the ship may free a
cell (its step "blockade_ship"); a round in which nobody placed and the ship stopped
someone ends the game (its step "blockade_end" of the round's end); the view shows the
blockaded cells.
"""

from __future__ import annotations

from collections.abc import Mapping

from domain.common.frozen import replace
from domain.decider import RuleViolation
from domain.kontor.core.board import Pos, occupancy
from domain.kontor.core.hooks import Hooks
from domain.kontor.core.placement import placement_cells
from domain.kontor.core.ship import ship_commands
from domain.kontor.core.state import KontorState


def next_to_ship(state: KontorState, pos: Pos) -> bool:
    """« interdit de placer une carte qui avoisinerait directement le bateau, par un côté »"""
    if not state.options.blockade or state.ship is None:
        return False
    return abs(pos[0] - state.ship[0]) + abs(pos[1] - state.ship[1]) == 1


def filter_cells(
    state: KontorState, cells: Mapping[Pos, int], card: int, seat: int, found: list[Pos]
) -> list[Pos]:
    if state.options.blockade and state.ship is not None:
        return [p for p in found if not next_to_ship(state, p)]
    return found


def placement_error(
    state: KontorState, cells: Mapping[Pos, int], card: int, seat: int, pos: Pos
) -> RuleViolation | None:
    if state.options.blockade and next_to_ship(state, pos):
        return RuleViolation(
            "kontor.blockade",
            "Blockade: no card may be placed next to the ship by a side (« Il est maintenant "
            "interdit de placer une carte qui avoisinerait directement le bateau »).",
        )
    return None


def without_blockade(state: KontorState) -> KontorState:
    return replace(state, options=replace(state.options, blockade=False))


def ship_may_unblock(state: KontorState) -> bool:
    """With the blockade, moving the ship may free the cells next to it."""
    return state.options.blockade


def no_cell_reason(state: KontorState, seat: int, card: int) -> str | None:
    """« Si à cause du bateau, aucun joueur ne peut plus placer de carte »: a card with no
    cell only because of the ship is returned for the blockade."""
    if state.options.blockade and state.ship is not None:
        free = without_blockade(state)
        if placement_cells(free, occupancy(free), card, seat):
            return "blockade"
    return None


def ship_step(log, turn) -> bool:
    """With the blockade, moving the ship may free the cells next to it: the placer plays."""
    return ship_may_unblock(log.state) and bool(ship_commands(log.state, turn.seat))


def reason_step(log, turn) -> bool:
    reason = no_cell_reason(log.state, turn.seat, turn.card)
    if reason is not None:
        turn.reason = reason
    return False


def blockade_ends(state: KontorState) -> str | None:
    """The round is over, nobody placed a card, and the ship stopped someone: « la partie
    se termine prématurément »."""
    if (
        state.options.blockade
        and not state.placed_this_round
        and any(r[2] == "blockade" for r in state.returned)
    ):
        return "blockade"
    return None


def view_keys(state: KontorState, out: dict, cells: Mapping[Pos, int], viewer) -> None:
    """Public: the free cells next to the ship."""
    if state.options.blockade and state.ship is not None:
        sx, sy = state.ship
        out["board"]["blockaded_cells"] = [
            {"x": p[0], "y": p[1]}
            for p in ((sx + 1, sy), (sx - 1, sy), (sx, sy + 1), (sx, sy - 1))
            if p not in cells
        ]


def blockade_end_step(log, turn: None) -> bool:
    """A step of the round's end (core/decide.py: ROUND_END): the game ends here."""
    reason = blockade_ends(log.state)
    if reason is None:
        return False
    log.end_game(reason)
    return True


def register(hooks: Hooks) -> None:
    hooks.cell_filters.append(filter_cells)
    hooks.placement_error.append(placement_error)
    # a card without a cell (core/decide.py: NO_CELL): moving the ship may free one (the
    # placer plays), else it goes back « for the blockade » if the ship alone stopped it
    hooks.add_step("blockade_ship", ship_step, after="ship_may_free")
    hooks.add_step("blockade_reason", reason_step, before="card_returned")
    # the blockade ends the game at the round's end, after the event card's turn (an
    # expansion's step) and before the core's own ends (idle rounds, stalled)
    hooks.add_step("blockade_end", blockade_end_step, after="event_card")
    hooks.add_view(view_keys, after="you")
