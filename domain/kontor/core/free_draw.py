"""« Libre choix » of the pile to draw from (special rule A, and point 5 of the free wheel
games: « On applique la règle spéciale de libre choix de la pioche »).

« Vous pouvez choisir librement la pile dont vous tirez la carte. Vous devez cependant
toujours avoir au moins un dock et un canal en main. »  A card is judged by what it is,
not by the pile it came from: « Le pont est considéré comme un dock », the customs house
is played as a dock (RULES-NOTES), a flood is water (« On considère ... comme des
canaux »).  The piles are face up (« La pile est ensuite retournée face ouverte, de telle
sorte que la première carte soit toujours visible » ; the dock piles « face visible »), so
the card a draw brings is known before the choice: in the free wheel games, where the
special cards are shuffled into the canal pile (« 3. On met les cartes spéciales dans le
paquet des canaux »), a pile is judged by its top card (``tops``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from domain.kontor.core.data import CARDS

PILES = ("dock", "water")


def free_draw_piles(
    hand: Iterable[int],
    available: Iterable[str],
    by_printed_kind: bool = False,
    tops: Mapping[str, int] | None = None,
) -> list[str]:
    """The piles (among ``available``, those with cards) a seat may draw from: those after
    which the hand holds a dock and a canal; when none achieves that, every available pile
    (reading R-A4: the restriction « cependant » binds only a draw that can honour it, the
    free choice stands otherwise).

    ``tops`` (pile -> its visible top card): the draw is judged by the card it brings (free
    wheel games from kontor-free-wheel-2 and kontor-free-for-all-3). Without it a pile counts
    as its name: the dock pile brings a dock, the canal pile a canal (the special rule in
    the basic games, whose piles hold only their own kind, and the free wheel games played
    before, versions.py). ``by_printed_kind``: only plain docks and canals in hand count
    (games of the versions played before the hand was read by kind, versions.py)."""
    hand = tuple(hand)
    available = [p for p in PILES if p in set(available)]
    if by_printed_kind:
        has_dock = any(CARDS[c].kind == "dock" for c in hand)
        has_water = any(CARDS[c].kind == "water" for c in hand)
    else:
        has_dock = any(CARDS[c].is_dock for c in hand)
        has_water = any(CARDS[c].is_water for c in hand)

    def brings(pile: str) -> tuple[bool, bool]:
        if tops is None:
            return pile == "dock", pile == "water"
        card = CARDS[tops[pile]]
        return card.is_dock, card.is_water

    keep = [
        pile
        for pile in available
        if (has_dock or brings(pile)[0]) and (has_water or brings(pile)[1])
    ]
    return keep or available
