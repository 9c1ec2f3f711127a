"""« Libre choix » of the pile to draw from (special rule A, and point 5 of the free wheel
games: « On applique la règle spéciale de libre choix de la pioche »).

« Vous pouvez choisir librement la pile dont vous tirez la carte. Vous devez cependant
toujours avoir au moins un dock et un canal en main. »  A card in hand is judged by what it
is, not by the pile it came from: « Le pont est considéré comme un dock », the customs
house is played as a dock (RULES-NOTES), a flood is water (« On considère ... comme des
canaux »).
"""

from __future__ import annotations

from collections.abc import Iterable

from domain.kontor.core.data import CARDS

PILES = ("dock", "water")


def free_draw_piles(
    hand: Iterable[int], available: Iterable[str], by_printed_kind: bool = False
) -> list[str]:
    """The piles (among ``available``, those with cards) a seat may draw from: those after
    which the hand holds a dock and a canal; when none achieves that, every available pile
    (reading R-A4). ``by_printed_kind``: only plain docks and canals count (games of the
    versions played before this reading, versions.py)."""
    hand = tuple(hand)
    available = [p for p in PILES if p in set(available)]
    if by_printed_kind:
        has_dock = any(CARDS[c].kind == "dock" for c in hand)
        has_water = any(CARDS[c].kind == "water" for c in hand)
    else:
        has_dock = any(CARDS[c].is_dock for c in hand)
        has_water = any(CARDS[c].is_water for c in hand)
    keep = [
        pile
        for pile in available
        if (has_dock or pile == "dock") and (has_water or pile == "water")
    ]
    return keep or available
