"""Kontor scenarios: the switches each scenario sets, and the reconstructed layouts.

Pure tables (no imports from the rules).  ``options.parse_options`` merges
``SCENARIO_SETTINGS[scenario]`` after the variant's settings (advanced at 2 players, team
at 4: « Sauf indication contraire, les règles du jeu avancé s'appliquent »), then
``SCENARIO_SEAT_SETTINGS[(scenario, seats)]``.  Every value quotes its passage in
docs/rules/kontor.md (Scenarios).
"""

from __future__ import annotations

SCENARIO_SETTINGS_PROVENANCE = "rulebook: kontor.fr.txt, « Scénarios » (each scenario's text)"

#: scenario -> Options field values on top of the variant's (advanced: 7x7, ship, five
#: largest; team: 8x8, ship, five largest of 2+ docks, one special card each).
SCENARIO_SETTINGS: dict[str, dict] = {
    # « Disposition initiale normale. Plateau : 6x6 cases. Chaque joueur ne reçoit que 3
    # florins ... mettez de côté 10 canaux ... On joue sans le bateau. Seuls les cinq plus
    # grands secteurs marquent des points. »
    "baksheesh": {
        "board_size": 6,
        "starting_money": 3,
        "water_aside": 10,
        "ship": False,
        "bribes": True,
    },
    # « Le cours du Canale Grande définit la taille du plateau à 4x12 cases. Tous les
    # secteurs rapportent. »  Layout and orientation: reconstructed (CANALE_GRANDE_LAYOUT)
    "canale_grande": {
        "board_size": 12,
        "board_height": 4,
        "layout": "canale_grande",
        "final_selection": "all",
        "final_count": 0,
    },
    # « Plateau : 6x6 cases. Seuls les trois plus petits secteurs rapportent »
    "david_and_goliath": {"board_size": 6, "final_selection": "smallest", "final_count": 3},
    # « 7x7 pour 2 joueurs, 8x8 pour 4 joueurs. Les 2 grues sans bateau (n°29 et n°30) sont
    # retirées du jeu. A 4 joueurs, on n'utilise pas les cartes spéciales. Le secteur
    # intérieur vaut deux points ... aucun canal ne peut y être placé. Tous les secteurs
    # rapportent. »
    "isola_grande": {
        "layout": "isola_grande",
        "removed_cards": ("cranes_without_ship",),
        "specials_dealt": 0,
        "final_selection": "all",
        "final_count": 0,
        "final_min_docks": 1,
        "island_points": 2,
    },
    # « Plateau : 8x8 cases. Seuls les sept plus grands secteurs rapporteront des points. »
    "giant": {"board_size": 8, "final_count": 7},
    # « l'ancre seule. Plateau : 5x5 cases. ... 3 florins. Les 2 grues sans bateau (n°29 et
    # n°30) et les tavernes (n°88 et n°89), sont retirées du jeu. Tous les secteurs »
    "gulliver": {
        "layout": "anchor",
        "board_size": 5,
        "starting_money": 3,
        "removed_cards": ("cranes_without_ship", "taverns"),
        "final_selection": "all",
        "final_count": 0,
    },
    # « l'ancre seule. Plateau : 6x6 cases. On retire toutes les grues ... sans le bateau.
    # Seuls les secteurs comportant moins de 4 docks rapportent ... taille 1 rapportent 1
    # point ... taille 2 ... 2 points ... taille 3 ... 3 points »
    "ever_smaller": {
        "layout": "anchor",
        "board_size": 6,
        "removed_cards": ("cranes",),
        "ship": False,
        "final_selection": "every",
        "final_count": 0,
        "final_max_docks": 3,
        "size_points": True,
    },
    # « Le plateau de jeu de 8x8 cases est déjà défini. On enlève toutes les grues ... trois
    # secteurs en ligne ... gagne la partie ... le gagnant est le joueur qui a le plus de
    # secteurs »
    "tic_tac_toe": {
        "layout": "tic_tac_toe",
        "board_size": 8,
        "removed_cards": ("cranes",),
        "final_selection": "all",
        "final_count": 0,
        "tic_tac_toe": True,
    },
    # « Plateau : 6x6 cases. Tous les secteurs rapportent. Les cartes de dock doivent
    # obligatoirement toucher au moins un canal. »
    "watergames": {
        "layout": "watergames",
        "board_size": 6,
        "final_selection": "all",
        "final_count": 0,
        "docks_touch_water": True,
    },
    # « l'ancre seule. Plateau : 6x6 cases. On enlève toutes les grues ... La partie est
    # finie dès que le premier secteur est terminé. »
    "speed": {
        "layout": "anchor",
        "board_size": 6,
        "removed_cards": ("cranes",),
        "final_selection": "all",
        "final_count": 0,
        "end_at_first_sector": True,
    },
    # « Plateau : 8x8 cases. Seuls les 5 les plus petits secteurs seront comptabilisés. »
    "small_is_beautiful": {"board_size": 8, "final_selection": "smallest", "final_count": 5},
    # « Chaque joueur reçoit au début de la partie 4 entrepôts de chaque couleur »
    "embargo": {"warehouse_supply": 4},
    # « Plateau : 6x6 cases. On place 1 entrepôt de type différent sur 3 canaux de la
    # croix de départ. »
    "euphrates": {"board_size": 6, "sunken_warehouses": 3},
    # « Plateau : 7x7 cases. Les secteurs ne sont comptabilisés que si tous les docks de ce
    # secteur sont en ligne droite. »
    "straight_lines": {"board_size": 7, "final_straight": True},
    # « Plateau : 7x7 cases. ... on peut placer immédiatement un deuxième canal, en payant
    # un florin ... Les secteurs ne comportant qu'un seul dock ne sont pas comptabilisés. »
    "spring_tide": {"board_size": 7, "second_canal_cost": 1, "final_min_docks": 2},
}

#: (scenario, seat count) -> settings on top of SCENARIO_SETTINGS
SCENARIO_SEAT_SETTINGS: dict[tuple[str, int], dict] = {
    ("isola_grande", 2): {"board_size": 7},
    ("isola_grande", 4): {"board_size": 8},
}

#: « 48 entrepôts : il y a trois types d'entrepôts » -- 16 of each (Euphrate's « Si les
#: entrepôts viennent à manquer dans les réserves »)
WAREHOUSES_PER_GOOD = 16

# ---------------------------------------------------------------------------------------
# Reconstructed starting layouts (« selon le dessin »): the drawings are not in the text.
# Cells relative to the anchor (0, 0); x grows right, y grows down.  Every layout keeps
# the anchor « au centre du port » as near the centre as the grid allows.

LAYOUTS_PROVENANCE: dict[str, str] = {
    "canale_grande": (
        "reconstructed: « Le cours du Canale Grande définit la taille du plateau à 4x12 "
        "cases » -- the cross's 8 canals laid as one straight canal through the anchor, "
        "along the long side (horizontal: 12 wide, 4 high); the 5x5 cross cannot fit 4 rows"
    ),
    "isola_grande": (
        "reconstructed: the drawing is not in the text -- a ring of 16 canals around the "
        "anchor's 3x3 square; the 8 cells around the anchor are the island (inner sector)"
    ),
    "tic_tac_toe": (
        "reconstructed: « Le plateau de jeu de 8x8 cases est déjà défini » -- two rows and "
        "two columns of canals from edge to edge cut the 8x8 port into 3x3 cases of 2x2 "
        "cells (2+1+2+1+2 = 8); the anchor is the grid cell next to the centre case"
    ),
    "watergames": (
        "reconstructed: « selon l'image » (not the normal cross) -- the cross turned by 45 "
        "degrees: 8 canals on the two diagonals through the anchor (a 5x5 saltire)"
    ),
}


def _canale_grande() -> tuple[tuple[int, int], ...]:
    return tuple((x, 0) for x in (-4, -3, -2, -1, 1, 2, 3, 4))


def _ring(radius: int) -> tuple[tuple[int, int], ...]:
    return tuple(
        (x, y)
        for y in range(-radius, radius + 1)
        for x in range(-radius, radius + 1)
        if max(abs(x), abs(y)) == radius
    )


#: Tic Tac Toe: grid rows and columns (relative to the anchor) and the 8x8 port's extent
TIC_TAC_TOE_GRID_X: tuple[int, ...] = (-1, 2)
TIC_TAC_TOE_GRID_Y: tuple[int, ...] = (0, 3)
TIC_TAC_TOE_SPAN: tuple[int, int, int, int] = (-3, 4, -2, 5)  # min_x, max_x, min_y, max_y
#: the cases' columns and rows (each 2 cells wide), left to right and top to bottom
TIC_TAC_TOE_COLUMNS: tuple[tuple[int, ...], ...] = ((-3, -2), (0, 1), (3, 4))
TIC_TAC_TOE_ROWS: tuple[tuple[int, ...], ...] = ((-2, -1), (1, 2), (4, 5))


def _tic_tac_toe() -> tuple[tuple[int, int], ...]:
    x0, x1, y0, y1 = TIC_TAC_TOE_SPAN
    out = []
    for y in range(y0, y1 + 1):
        for x in range(x0, x1 + 1):
            if (x in TIC_TAC_TOE_GRID_X or y in TIC_TAC_TOE_GRID_Y) and (x, y) != (0, 0):
                out.append((x, y))
    return tuple(out)


def _watergames() -> tuple[tuple[int, int], ...]:
    return tuple((s * d, t * d) for d in (1, 2) for t in (-1, 1) for s in (-1, 1))


#: layout -> canal cells (the anchor is always at (0, 0) and not listed)
LAYOUTS: dict[str, tuple[tuple[int, int], ...]] = {
    "canale_grande": _canale_grande(),
    "isola_grande": _ring(2),
    "tic_tac_toe": _tic_tac_toe(),
    "watergames": _watergames(),
}
#: Isola grande: the island's cells (the inner sector)
ISLAND_CELLS: frozenset[tuple[int, int]] = frozenset(_ring(1))

# ---------------------------------------------------------------------------------------
# Combinations with special rules that cannot work (« Certaines règles spéciales peuvent
# être combinées avec les scénarios »: some, not all).

#: special rules that set their own port (« Disposition initiale normale. Plateau : 7x7
#: cases » in Misère and Pont et inondation): only with scenarios on the 7x7 cross
RULES_WITH_OWN_PORT: frozenset[str] = frozenset({"poverty", "bridge_and_flood"})
#: special rules that give the tavern a use: not where the taverns are removed
RULES_NEEDING_TAVERNS: frozenset[str] = frozenset(
    {"old_grudges", "protection", "bribery_1", "bribery_2"}
)
#: special rules that bring special cards into play: not in Isola grande at 4 players
#: (« A 4 joueurs, on n'utilise pas les cartes spéciales »)
RULES_WITH_SPECIAL_CARDS: frozenset[str] = frozenset(
    {"buy_special_cards", "bridge_and_flood", "great_flood", "flood_choice"}
)
