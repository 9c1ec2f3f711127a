"""Where every Kontor card is, for the conservation invariants of the conformance suites."""

from __future__ import annotations

from collections.abc import Iterable

from domain.kontor.core.state import PASS_CHOICE


def card_places(state, *extra: Iterable[int]) -> list[int]:
    """Every card's place: board cells (covered ones included), the canal pile, the
    ``extra`` groups (cards set aside, ...), hands, dock piles and choices not yet
    revealed, each card in one place only (asserted); then the revealed cards still in
    flight (not placed yet, or left unplaced when the board filled up)."""
    places = [c.card for c in state.board] + list(state.water_pile)
    for group in extra:
        places += list(group)
    for s in range(state.seat_count):
        places += list(state.hands[s]) + list(state.dock_piles[s])
        if state.chosen[s] is not None and state.chosen[s] != PASS_CHOICE:
            places.append(state.chosen[s])
    assert len(places) == len(set(places)), "a card is in two places"
    for s in range(state.seat_count):
        if state.revealed[s] is not None and state.revealed[s] not in places:
            places.append(state.revealed[s])
    return places
