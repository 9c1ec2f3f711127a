"""Special rule « Crue exceptionnelle » (``great_flood``, 2 players; switch ``flood_fills``).

« Chaque joueur reçoit une carte d'inondation en plus des cartes normales en main au début
de la partie. Lorsqu'il la joue, les cases libres avoisinant cette inondation,
horizontalement et verticalement, sont remplies avec des cartes d'eau, prises dans la pile
de pioche. »

The flood in hand is dealt by the special rules' setup (special_a.py, rules/settings.py);
this module fills the cells around a placed flood.
"""

from __future__ import annotations

from domain.kontor.core.data import CARDS
from domain.kontor.core.hooks import Hooks
from domain.kontor.rules.water_fill import fill_with_water


def after_card_placed(log, seat: int, card: int, x: int, y: int) -> None:
    """« les cases libres avoisinant cette inondation, horizontalement et verticalement,
    sont remplies avec des cartes d'eau »: above, left, right, below, while the pile lasts."""
    if not log.state.options.flood_fills or CARDS[card].kind != "flood":
        return
    around = [(x, y - 1), (x - 1, y), (x + 1, y), (x, y + 1)]
    fill_with_water(log, around, "great_flood")


def register(hooks: Hooks) -> None:
    hooks.after_card_placed.append(after_card_placed)
