"""Scenario « Toujours plus petit pour 2 joueurs » (``ever_smaller``; switch
``size_points``):

« Disposition initiale : l'ancre seule. Plateau : 6x6 cases.

On retire toutes les grues du jeu (n°29, 30, 31 et 32) et on joue sans le bateau. Seuls
les secteurs comportant moins de 4 docks rapportent. Les secteurs de taille 1 rapportent
1 point de victoire, ceux de taille 2 rapportent 2 points de victoire, et ceux de taille
3 rapportent 3 points de victoire. »

Tables (scenarios/data.py): ``SCENARIO_SETTINGS["ever_smaller"]`` (the anchor alone, 6x6,
no cranes (port_and_deck.py), no ship, every sector of at most 3 docks counts
(final_count.py)). Here: a sector is worth its size (hook point ``sector_worth``).
"""

from __future__ import annotations

from domain.kontor.core.hooks import Hooks
from domain.kontor.core.options import Options


def sector_worth(options: Options, sector, base: int, customs: int) -> int | None:
    """« Les secteurs de taille 1 rapportent 1 point ... taille 3 rapportent 3 points »
    (customs houses still add theirs; registered under this scenario only: registry.ACTIVE)."""
    return len(tuple(sector)) + customs


def register(hooks: Hooks) -> None:
    hooks.sector_worth.append(sector_worth)
