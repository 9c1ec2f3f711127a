"""Special rule « Crue exceptionnelle » (``great_flood``, 2 players; switch ``flood_fills``).

« Chaque joueur reçoit une carte d'inondation en plus des cartes normales en main au début
de la partie. Lorsqu'il la joue, les cases libres avoisinant cette inondation,
horizontalement et verticalement, sont remplies avec des cartes d'eau, prises dans la pile
de pioche. »

The flood in hand is a switch (``hand_specials``, rules/settings.py), dealt (deal, slot)
through rules/specials_in_hand.py, shared with « Pont et inondation »; this module fills
the cells around a placed flood (WaterFilled, rules/water_fill.py).
"""

from __future__ import annotations

from domain.kontor.core.data import CARDS
from domain.kontor.core.hooks import Hooks
from domain.kontor.core.state import KontorState
from domain.kontor.rules.specials_in_hand import deal_into, identity_slot
from domain.kontor.rules.water_fill import WaterFilled, fill_with_water, record


def deal(options, seat_count: int, rng, dock_hands: list, piles: list, specials: list):
    """« Chaque joueur reçoit une carte d'inondation en plus des cartes normales »."""
    if options.flood_fills:
        deal_into(options, seat_count, specials)
    return {}, []


def slot(state: KontorState, base):
    return identity_slot(base) if state.options.flood_fills else base


def flood_step(log, turn) -> bool:
    """A step of the placer's turn (core/decide.py:TURN_STEPS, right after "place")."""
    after_card_placed(log, turn.seat, turn.card, *turn.at)
    return False


def after_card_placed(log, seat: int, card: int, x: int, y: int) -> None:
    """« les cases libres avoisinant cette inondation, horizontalement et verticalement,
    sont remplies avec des cartes d'eau »: above, left, right, below, while the pile lasts."""
    if not log.state.options.flood_fills or CARDS[card].kind != "flood":
        return
    around = [(x, y - 1), (x - 1, y), (x + 1, y), (x, y + 1)]
    fill_with_water(log, around, "great_flood")


def register(hooks: Hooks) -> None:
    hooks.deal.append(deal)
    hooks.slot.append(slot)
    hooks.add_step("great_flood", flood_step, after="place")
    hooks.on_events((WaterFilled,), record)  # shared with final_sprint
