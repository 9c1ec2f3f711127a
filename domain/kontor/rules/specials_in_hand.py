"""Shared by the special rules that put special cards of one's colour in hand at the start
(« Pont et inondation »: « Rouge prend l'inondation 90 et le pont 92. Noir prend le pont 91
et l'inondation 93 »; « Crue exceptionnelle »: « Chaque joueur reçoit une carte
d'inondation »): not a rule itself. The cards per seat are the switch
``Options.hand_specials`` (rules/settings.py); everyone knows who holds which."""

from __future__ import annotations

from domain.kontor.core.data import CARDS


def deal_into(options, seat_count: int, specials: list) -> None:
    """Each seat's special cards of ``hand_specials`` join its special cards in hand."""
    for seat, extra in enumerate(options.hand_specials):
        if seat < seat_count:
            specials[seat] = tuple(specials[seat]) + tuple(extra)


def identity_slot(base):
    """The kind of a hidden slot, where a special card keeps its identity (everyone knows
    red holds 90 and 92)."""

    def slot(card: int) -> tuple:
        if CARDS[card].is_special:
            return ("special", card)
        return base(card)

    return slot
