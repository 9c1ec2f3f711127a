"""Scenario « Vitesse pour deux joueurs » (``speed``; switch ``end_at_first_sector``):

« Disposition initiale : l'ancre seule. Plateau : 6x6 cases.

On enlève toutes les grues du jeu (n°29, 30, 31 et 32). La partie est finie dès que le
premier secteur est terminé. Le joueur qui a la suprématie sur ce secteur est le
vainqueur. »

Tables (scenarios/data.py): ``SCENARIO_SETTINGS["speed"]`` (the anchor alone, 6x6, no
cranes: port_and_deck.py). Here: the game ends after the first sector is scored (hook
point ``early_end``); its winner has the only points.
"""

from __future__ import annotations

from domain.kontor.core.hooks import Hooks


def early_end(log) -> bool:
    """« La partie est finie dès que le premier secteur est terminé »: True if it ended."""
    st = log.state
    if st.scored:  # registered under this scenario only (registry.ACTIVE)
        log.end_game("first_sector")
        return True
    return False


def register(hooks: Hooks) -> None:
    hooks.early_end.append(early_end)
