"""Rule properties checked on every random Kontor game, each stated from the rulebook
without the rules code's helpers (an independent oracle)."""

from __future__ import annotations

from domain.kontor import GAME
from domain.kontor.core import events as ev
from domain.kontor.core.commands import DrawCard
from domain.kontor.core.data import CARDS
from domain.kontor.core.state import part
from domain.kontor.forms.free_wheel.state import FreeWheelState

#: « Le pont est considéré comme un dock »; the customs house is played as a dock
#: (RULES-NOTES.md); a flood is water (« On considère ... comme des canaux »)
DOCK_KINDS = ("dock", "bridge", "customs")
WATER_KINDS = ("water", "anchor", "flood")
DRAW_PILES = ("dock", "water", "common")


def _dock_pile(state, seat: int) -> tuple[int, ...]:
    return part(state, FreeWheelState).common_docks if state.options.shared_dock_pile else state.dock_piles[seat]


#: free wheel versions played before a draw was judged by the card it brings (issue 25)
DRAW_BY_PILE_VERSIONS = ("kontor-free-wheel-1", "kontor-free-for-all-1", "kontor-free-for-all-2")


def free_draw_allowed(state, seat: int) -> set[str]:
    """« Vous devez cependant toujours avoir au moins un dock et un canal en main »: the
    piles after whose draw the hand holds a dock and a canal, judged by what each card is
    (in hand, and the face-up top card the draw brings: « la première carte soit toujours
    visible »; the free wheel games shuffle the specials into the canal pile); every pile
    with cards when none does. The basic games' piles hold only their own kind."""
    hand = state.hands[seat]
    has_dock = any(CARDS[c].kind in DOCK_KINDS for c in hand)
    has_water = any(CARDS[c].kind in WATER_KINDS for c in hand)
    piles = {p: cards for p, cards in (("dock", _dock_pile(state, seat)), ("water", state.water_pile)) if cards}
    by_card = state.options.sequential_turns and state.rules_version not in DRAW_BY_PILE_VERSIONS

    def brings(pile: str, kinds) -> bool:
        if by_card:
            return CARDS[piles[pile][0]].kind in kinds
        return pile == ("dock" if kinds is DOCK_KINDS else "water")

    keep = {p for p in piles if (has_dock or brings(p, DOCK_KINDS)) and (has_water or brings(p, WATER_KINDS))}
    return keep or set(piles)


def _removed_dock_owners(state, card: int) -> set[int]:
    """« Il est replacé sous la pile de son propriétaire »: in free for all whoever placed
    it (« Il place ensuite un marqueur à sa couleur »), else the seats of its colour."""
    if state.options.shared_dock_pile:
        return {seat for c, seat in part(state, FreeWheelState).dock_owners if c == card}
    owner = CARDS[card].owner
    if state.options.teams:
        return set(state.options.teams[owner])
    return {owner}


def check_rule_properties(played) -> None:
    """Every removed dock goes to its owner's pile; with free choice of the pile, every
    draw (and every draw step's offer) keeps a dock and a canal in hand by card nature."""
    state = None
    for event in played.events:
        if state is not None and isinstance(event, ev.DockRemoved):
            assert event.to_seat in _removed_dock_owners(state, event.card), (
                f"dock {event.card} sent under seat {event.to_seat}'s pile"
            )
        if (
            state is not None
            and isinstance(event, ev.CardDrawn)
            and state.options.free_draw
            and event.pile in DRAW_PILES
        ):
            pile = "dock" if event.pile == "common" else event.pile
            assert pile in free_draw_allowed(state, event.seat), (
                f"seat {event.seat} drew from {pile} holding {state.hands[event.seat]}"
            )
        state = GAME.evolve(state, event)
    for state in played.states:
        if not state.options.free_draw:
            continue
        for seat in GAME.to_act(state):
            offered = {c.pile for c in GAME.legal_commands(state, seat) if isinstance(c, DrawCard)}
            offered.discard("dock_pick")
            if offered:
                assert offered == free_draw_allowed(state, seat), (
                    f"seat {seat} offered {offered} holding {state.hands[seat]}"
                )
