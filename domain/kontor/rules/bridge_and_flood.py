"""Special rule A « Pont et inondation » (``bridge_and_flood``, 2 players; switches
``hand_specials`` and ``board_size``; kontor.fr.txt, « Variantes avec les cartes
spéciales »):

« Disposition initiale normale. Plateau de jeu : 7x7 cases. Chaque joueur prend en main au
début de la partie 1 pont et 1 inondation, en plus de ses cartes. Rouge prend l'inondation
90 et le pont 92. Noir prend le pont 91 et l'inondation 93. »

The board and the cards per seat are switches (rules/settings.py); the bridge and the
flood play as in the basic game. Hook points: deal (the cards in hand) and slot (in a
redetermined hand each keeps its identity: everyone knows who holds which), through
rules/specials_in_hand.py, shared with « Crue exceptionnelle ». This rule's hands hold a
bridge (Crue exceptionnelle's do not; the two cannot be combined). Tests:
tests/domain/kontor/test_kontor_special_a.py (bridge and flood).
"""

from __future__ import annotations

from domain.kontor.core.data import CARDS
from domain.kontor.core.hooks import Hooks
from domain.kontor.core.state import KontorState
from domain.kontor.rules.specials_in_hand import deal_into, identity_slot


def acts(options) -> bool:
    """This rule's cards in hand: a bridge among them."""
    return any(CARDS[c].kind == "bridge" for cards in options.hand_specials for c in cards)


def deal(options, seat_count: int, rng, dock_hands: list, piles: list, specials: list):
    """« Chaque joueur prend en main au début de la partie 1 pont et 1 inondation »."""
    if acts(options):
        deal_into(options, seat_count, specials)
    return {}, []


def slot(state: KontorState, base):
    return identity_slot(base) if acts(state.options) else base


def register(hooks: Hooks) -> None:
    hooks.deal.append(deal)
    hooks.slot.append(slot)
