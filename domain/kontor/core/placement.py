"""Where a card may go: empty cells (all cards), covered cells (flood, bridge), and the
checks special cards add. Pure functions over a cells map, so the policy can ask about
hypothetical boards.

Extension point: a scenario or special rule that restricts placement (« Les cartes de
dock doivent obligatoirement toucher au moins un canal », « aucun canal ne peut y être
placé », the blockade around the ship) adds a filter in ``placement_cells`` reading an
Options switch.
"""

from __future__ import annotations

from collections.abc import Mapping

from domain.decider import RuleViolation
from domain.kontor.core.board import (
    Pos,
    bounds,
    crane_blocks,
    grow,
    is_closed,
    legal_cells,
    neighbours,
    possible,
    sector_of,
)
from domain.kontor.core.data import CARDS
from domain.kontor.core.hooks import answer, filtered, rules_for
from domain.kontor.core.sides import side_of
from domain.kontor.core.state import KontorState


def scored_cells(state: KontorState) -> frozenset[Pos]:
    out: set[Pos] = set()
    for s in state.scored:
        out.update(s.cells)
    return frozenset(out)


def box_of(state: KontorState, cells: Mapping[Pos, int]):
    """The port's extent: every cell that ever held a card, and ``cells``."""
    return grow(state.span, cells) if state.span is not None else bounds(cells)


def flood_may_cover(card: int) -> bool:
    """« soit un pont, soit un dock ne montrant au maximum qu'une marchandise »."""
    c = CARDS[card]
    return c.kind == "bridge" or (c.kind == "dock" and len(c.goods) <= 1)


def bridge_may_cover(card: int) -> bool:
    """« Un pont peut recouvrir un canal déjà placé, ou une inondation » (not the anchor)."""
    return CARDS[card].kind in ("water", "flood")


def cover_cells(state: KontorState, cells: Mapping[Pos, int], kind: str, crane_blocked) -> list[Pos]:
    """Cells a flood or a bridge may cover (``crane_blocked(pos)``: an opponent's crane
    forbids a bridge there). « Des cartes spéciales ne peuvent pas être jouées sur ou dans
    des secteurs terminés. »"""
    closed = scored_cells(state)
    out = []
    for pos, under in cells.items():
        if pos in closed:
            continue
        if kind == "flood":
            if not flood_may_cover(under):
                continue
        else:
            if not bridge_may_cover(under) or pos == state.ship:
                continue
            if any(n in closed for n in neighbours(pos)):
                continue  # it would join a finished sector
            if crane_blocked(pos):
                continue
        out.append(pos)
    return out


def placement_cells(
    state: KontorState, cells: Mapping[Pos, int], card: int, seat: int
) -> list[Pos]:
    """Every cell where ``seat`` may put ``card`` on the board ``cells``, sorted (y, x)."""
    options = state.options
    own = rules_for(options).swaps.legal_cells  # a form's own placement (the free wheel)
    if own is not None:
        return own(state, cells, card, seat)
    size = options.board_dims
    side = side_of(options, seat)
    kind = CARDS[card].kind
    box = box_of(state, cells)
    if kind in ("flood", "bridge"):
        out = cover_cells(state, cells, kind, lambda pos: crane_blocks(cells, pos, side))
        out = sorted(out, key=lambda p: (p[1], p[0]))
        return filtered(rules_for(state.options).cell_filters, out, state, cells, card, seat)
    found = legal_cells(cells, card, side, size, box)
    if kind == "customs":
        # « Il est toutefois interdit de terminer un secteur en plaçant une douane. »
        ok = []
        for pos in found:
            after = dict(cells)
            after[pos] = card
            if not is_closed(after, sector_of(after, pos), size, box):
                ok.append(pos)
        found = ok
    return filtered(rules_for(state.options).cell_filters, found, state, cells, card, seat)


def placement_error(state: KontorState, cells, card: int, seat: int, pos: Pos) -> RuleViolation:
    size = state.options.board_dims
    kind = CARDS[card].kind
    side = side_of(state.options, seat)
    found = answer(rules_for(state.options).placement_error, state, cells, card, seat, pos)  # a rule's reason
    if found is not None:
        return found
    if kind == "flood":
        return RuleViolation(
            "kontor.flood_cover",
            "A flood covers a bridge or a dock showing at most one good, outside finished "
            "sectors (« soit un pont, soit un dock ne montrant au maximum qu'une marchandise »).",
        )
    if kind == "bridge":
        return RuleViolation(
            "kontor.bridge_cover",
            "A bridge covers a canal or a flood (not the anchor nor the ship's card), and may "
            "not join a finished sector (« à condition qu'ils ne soient pas encore terminés »).",
        )
    if pos in cells:
        return RuleViolation("kontor.cell_occupied", "Cards may not be covered ('ni recouvertes').")
    if not any(n in cells for n in neighbours(pos)):
        return RuleViolation(
            "kontor.not_adjacent",
            "The card must touch a card on the table by a side ('doit toucher par un côté').",
        )
    if not possible(pos, box_of(state, cells), size):
        return RuleViolation(
            "kontor.board_limit",
            f"The port is {size[0]}x{size[1]}: once the layout is {size[0]} wide or "
            f"{size[1]} high it may not "
            "grow that way.",
        )
    violation = answer(rules_for(state.options).placement_violation, state, cells, card, pos)  # scenarios
    if violation is not None and pos not in cells:
        return violation
    if CARDS[card].is_dock and crane_blocks(cells, pos, side):
        return RuleViolation(
            "kontor.crane_blocks_dock",
            "A dock may not be placed next to an opponent's crane (canals may).",
        )
    if kind == "customs":
        return RuleViolation(
            "kontor.customs_closes_sector",
            "A customs house may not finish a sector (« Il est toutefois interdit de terminer "
            "un secteur en plaçant une douane »).",
        )
    return RuleViolation("kontor.illegal_cell", "This card may not be placed there.")


def placed_goods(state: KontorState, seat: int, card: int) -> tuple[str, ...]:
    """The warehouses a goods dock placed now would bring: its printed goods, unless a
    rule limits them (``Swaps.placed_goods``, e.g. a scenario's short supply; read by
    decide's "warehouses" step, Euphrate's step and the policy)."""
    own = rules_for(state.options).swaps.placed_goods
    return CARDS[card].goods if own is None else own(state, seat, card)


def step_waits(state: KontorState) -> bool:
    """A rule's step waits for the placer, or a scenario's decision for its seat (hook point
    ``step_waits``): the core's commands, the commands that play a card and the round's
    next placer wait for it. Here, not in decide.py: the expansions
    ask it too, and they may not import decide."""
    return any(waits(state) for waits in rules_for(state.options).step_waits)
