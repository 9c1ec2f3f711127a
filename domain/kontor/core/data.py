"""Kontor component tables.

The rulebooks print the facts about the cards but not the card list itself; the tables
below are reconstructed to satisfy every fact (RULES-NOTES.md, "Component data the
rulebooks do not print").  Rules code reads only these tables, never a card number, so
the printed values can be dropped in later without touching a rule.
"""

from __future__ import annotations

from dataclasses import dataclass

SEAT_COLORS: tuple[str, ...] = ("red", "black")
GOODS: tuple[str, ...] = ("tea", "wine", "spice")

#: Rulebook: "le vin vaut plus que les épices, les épices plus que le thé et le thé plus
#: que le vin" -- the cyclic value order: BEATS[g] is the good that g beats.
GOODS_BEATS_PROVENANCE = "rulebook"
GOODS_BEATS: dict[str, str] = {"wine": "spice", "spice": "tea", "tea": "wine"}

SETUP_PROVENANCE = "rulebook"
#: "Chacun prend quatre florins" (kontor.fr.txt; RULES-NOTES: 4, not the second
#: translation's 3); 20 florins in the box; 3 docks + 2 canals in hand; 8 canals in the
#: starting cross; the finished port is 6x6; 1 florin tax, income and pass bonus.
SETUP: dict[str, int] = {
    "treasury_total": 20,
    "starting_money": 4,
    "hand_docks": 3,
    "hand_water": 2,
    "cross_arm": 2,
    "board_size": 6,
    "tax": 1,
    "canal_income": 1,
    "pass_income": 1,
    "exemption_income": 1,
    "guardian_points": 1,
}

HOUSE_RULES_PROVENANCE = "house rule: the rulebook has no rule for a game nobody can finish"
HOUSE_RULES: dict[str, int] = {
    # complete rounds in a row in which no card was placed, after which the game ends
    "idle_round_limit": 20,
}


# ---------------------------------------------------------------------------------------
# Variants, scenarios, special rules, expansions: the contract identifiers, their player
# counts (from the rulebook headings « pour 2 joueurs », « pour 2 et 4 joueurs »), and
# the switches each one sets.  options.py reads these tables; rules read only Options.

VARIANTS_PROVENANCE = "rulebook: kontor.fr.txt section headings and set-up paragraphs"
#: variant -> allowed seat counts
VARIANT_SEATS: dict[str, tuple[int, ...]] = {
    "basic": (2,),
    "advanced": (2,),
    "team": (4,),
    "free_wheel": (2, 4),
    "free_for_all": (3, 4),
}
#: variant -> Options field values (anything not named keeps the basic game's default).
#: « Le plateau de jeu est de 7x7 cartes » ; « seuls les cinq plus grands secteurs
#: comptent » ; « Le plateau de jeu pour quatre joueurs est de 8x8 cases » ; « chacun
#: d'entre ceux-ci doit comporter au moins deux docks ».
VARIANT_SETTINGS: dict[str, dict] = {
    "basic": {},
    "advanced": {
        "board_size": 7,
        "ship": True,
        "final_selection": "largest",
        "final_count": 5,
    },
    "team": {
        "board_size": 8,
        "ship": True,
        "final_selection": "largest",
        "final_count": 5,
        "final_min_docks": 2,
        "teams": ((0, 1), (2, 3)),
        "tax_pairs": ((0, 2), (1, 3)),
        "specials_dealt": 1,
    },
}
# --- free wheel (« Roue libre », « Roue libre individuelle »): see free_wheel.py ---
#: « 1. On ne place au début que l'ancre. Le bateau est placé dessus. Le plateau de jeu
#: est de 7x7 cases » ; « 3. On met les cartes spéciales dans le paquet des canaux » ;
#: « 4. Chacun reçoit 2 canaux et 2 docks » ; « 5. libre choix » ; « 6. chacun joue à son
#: tour » ; « 8. aucun secteur n'est comptabilisé avant que la partie ne soit finie » ;
#: « 9. La grue ... qu'en diagonale » ; « 10. La taverne permet de saouler les ouvriers » ;
#: « 11. Tous les secteurs sont comptabilisés, à condition de comporter au moins 2 docks ».
#: « 2. un nombre de florins égal au nombre de joueurs » and the teams at 4 players
#: depend on the seat count: ``money_per_seat`` / ``teams_at_four`` are read (and
#: removed) by parse_options.
_FREE_WHEEL: dict = {
    "board_size": 7,
    "ship": True,
    "layout": "anchor",
    "hand_docks": 2,
    "hand_water": 2,
    "final_min_docks": 2,
    "sequential_turns": True,
    "score_at_end": True,
    "specials_in_water": True,
    "free_draw": True,
    "diagonal_cranes": True,
    "tavern_drunk": True,
    "money_per_seat": True,
}
VARIANT_SETTINGS["free_wheel"] = _FREE_WHEEL | {"teams_at_four": True}
#: « Chacun joue pour soi » ; « On mélange ensemble les deux paquets de docks » ;
#: « l'épice est supérieure au thé et au vin, et le thé est supérieur au vin » ;
#: « déclarer une alliance ».
VARIANT_SETTINGS["free_for_all"] = _FREE_WHEEL | {
    "shared_dock_pile": True,
    "goods_order": "spice_tea_wine",
    "alliances": True,
}
#: goods value orders: order -> {good: the goods it beats}.  "cyclic" is the basic rule
#: (GOODS_BEATS); "spice_tea_wine" the free-for-all one.
GOODS_ORDERS: dict[str, dict[str, frozenset[str]]] = {
    "cyclic": {"wine": frozenset({"spice"}), "spice": frozenset({"tea"}), "tea": frozenset({"wine"})},
    "spice_tea_wine": {
        "spice": frozenset({"tea", "wine"}),
        "tea": frozenset({"wine"}),
        "wine": frozenset(),
    },
}
#: marker colours for free for all (« quelques marqueurs colorés »); the first two are
#: the printed colours, so 2-seat views are unchanged
MARKER_COLORS: tuple[str, ...] = ("red", "black", "blue", "green")
# --- end free wheel ---
#: Implemented so far (the others are rejected with "is not available yet").
VARIANTS_AVAILABLE: tuple[str, ...] = ("basic", "advanced", "team", "free_wheel", "free_for_all")

#: scenario -> allowed seat counts (the heading of each scenario)
SCENARIO_SEATS: dict[str, tuple[int, ...]] = {
    "baksheesh": (2,),
    "canale_grande": (2,),
    "david_and_goliath": (2,),
    "isola_grande": (2, 4),
    "giant": (2,),
    "gulliver": (2,),
    "ever_smaller": (2,),
    "tic_tac_toe": (2,),
    "watergames": (2,),
    "speed": (2,),
    "small_is_beautiful": (2,),
    "embargo": (2,),
    "euphrates": (2, 4),
    "straight_lines": (2, 4),
    "spring_tide": (2,),
}
#: scenarios play on the advanced rules (2 players) or the team rules (4 players):
#: « Sauf indication contraire, les règles du jeu avancé s'appliquent ».
SCENARIO_VARIANTS: tuple[str, ...] = ("advanced", "team")
#: scenarios « On joue sans le bateau »: special rules that need the ship exclude them.
SCENARIOS_WITHOUT_SHIP: frozenset[str] = frozenset({"baksheesh", "ever_smaller"})
SCENARIOS_AVAILABLE: tuple[str, ...] = tuple(SCENARIO_SEATS)  # phase B: all fifteen

#: special rule -> allowed seat counts (the heading of each rule)
SPECIAL_RULE_SEATS: dict[str, tuple[int, ...]] = {
    "old_grudges": (2, 4),
    "poverty": (2, 4),
    "justice": (2,),
    "drunken_sailors": (2, 4),
    "free_choice": (2, 4),
    "choice_of_goods": (2, 4),
    "blockade": (2, 4),
    "first_choice": (2, 4),
    "flood_choice": (2, 4),
    "bribery_1": (2, 4),
    "bribery_2": (2, 4),
    "final_point": (2,),
    "final_sprint": (2, 4),
    "smuggling": (2,),
    "protection": (2, 4),
    "buy_special_cards": (2,),
    "bridge_and_flood": (2,),
    "great_flood": (2,),
}
#: special rules that act through the ship (« Le bateau reçoit une fonction
#: supplémentaire » ; « La taverne protège du bateau »): not with a game without ship.
SPECIAL_RULES_NEED_SHIP: frozenset[str] = frozenset({"blockade", "protection"})
#: pairs that cannot be combined, with the reason
SPECIAL_RULE_CONFLICTS: tuple[tuple[str, str, str], ...] = (
    ("bribery_1", "bribery_2", "Corruption 1 and Corruption 2 are two versions of one rule"),
    (
        "buy_special_cards",
        "bridge_and_flood",
        "both give out the same special cards (bought from a pile / dealt 90-93)",
    ),
    ("buy_special_cards", "great_flood", "both give out the flood cards"),
    ("bridge_and_flood", "great_flood", "both deal the flood cards at the start"),
)
SPECIAL_RULES_AVAILABLE: tuple[str, ...] = ()
# --- phase B, special rules A (domain/kontor/rules/<rule>.py) ------------------------------
SPECIAL_RULES_A: tuple[str, ...] = (
    "poverty",
    "justice",
    "drunken_sailors",
    "free_choice",
    "choice_of_goods",
    "first_choice",
    "flood_choice",
    "buy_special_cards",
    "bridge_and_flood",
    "great_flood",
    "final_sprint",
)
SPECIAL_RULES_AVAILABLE = SPECIAL_RULES_AVAILABLE + SPECIAL_RULES_A
#: rulebook numbers of the special rules A (« Misère », « Justice », « Premier choix »,
#: « Achat de cartes spéciales »); seat-dependent values are computed in rule_settings.py
SPECIAL_RULES_A_PROVENANCE = "rulebook: kontor.fr.txt, « Règles spéciales » and « Variantes avec les cartes spéciales »"
SPECIAL_RULES_A_NUMBERS: dict[str, int] = {
    "poverty_money": 3,  # « Chaque joueur ne reçoit que trois florins »
    "poverty_board": 7,  # « Plateau : 7x7 cases »
    "justice_choice": 3,  # « choisit ses trois premiers docks »
    "justice_aside": 4,  # « quatre docks sont retirés cachés de chaque pile »
    "first_choice_cost": 2,  # « En payant 2 pièces de monnaie »
    "special_price": 2,  # « pour un coût de deux pièces de monnaie »
    "bridge_and_flood_board": 7,  # « Plateau de jeu : 7x7 cases »
    "flood_water_cards": 2,  # « jouer deux cartes d'eau ... tire deux nouvelles cartes d'eau »
}
# --- end special rules A ---------------------------------------------------------------

# --- special rules B (rules/<rule>.py): the switches each one sets ---
SPECIAL_RULE_SETTINGS_B: dict[str, dict] = {
    "old_grudges": {"old_grudges": True},
    "blockade": {"blockade": True},
    "bribery_1": {"bribery": 1},
    "bribery_2": {"bribery": 2},
    "final_point": {"final_point": True},
    "smuggling": {"smuggling": True},
    "protection": {"protection": True},
}
SPECIAL_RULES_AVAILABLE += tuple(SPECIAL_RULE_SETTINGS_B)
_NO_TAVERN_ON_BOARD = (
    "Marins ivres morts gives each player a tavern as a secret pass card, kept in the hand, "
    "so no tavern comes to the board"
)
SPECIAL_RULE_CONFLICTS += (
    ("drunken_sailors", "old_grudges", _NO_TAVERN_ON_BOARD),
    ("drunken_sailors", "bribery_1", _NO_TAVERN_ON_BOARD),
    ("drunken_sailors", "bribery_2", _NO_TAVERN_ON_BOARD),
    ("drunken_sailors", "protection", _NO_TAVERN_ON_BOARD),
)
#: « Le dernier secteur terminé rapporte 2 points »: one point more than a guardian
FINAL_POINT_BONUS = 1
# --- end special rules B ---

#: expansion -> allowed seat counts (« Extension pour 2 joueurs »)
EXPANSION_SEATS: dict[str, tuple[int, ...]] = {"export_warehouse": (2,), "event_cards": (2,)}
EXPANSIONS_AVAILABLE: tuple[str, ...] = ("export_warehouse", "event_cards")

# --- expansions (phase B: export warehouse, event cards) -------------------------------
#: expansion -> Options switches it sets (merged by parse_options after the variant's)
EXPANSION_SETTINGS: dict[str, dict] = {
    "export_warehouse": {"export_warehouse": True},
    "event_cards": {"event_cards": True},
}
#: (expansion, variant, why): combinations refused by parse_options
EXPANSION_VARIANT_CONFLICTS: tuple[tuple[str, str, str], ...] = (
    (
        "event_cards",
        "free_wheel",
        "event cards are turned when a sector is scored (« Lorsqu'un secteur est terminé, on "
        "procède comme d'habitude à son estimation. On retourne ensuite la carte "
        "d'événement »), and in Roue libre no sector is scored before the end",
    ),
)
EVENT_CARDS_PROVENANCE = (
    "rulebook: the ten texts of « Kontor – cartes d'événements »; reconstructed: the "
    "identifiers, the list order (the order of the rulebook's list) and EVENT_SETTINGS"
)
#: event card id -> its French title (the texts are quoted in event_cards.py)
EVENT_CARDS: dict[str, str] = {
    "marriage": "Mariage",
    "disorder": "Désordres",
    "conspiracy": "Conjuration",
    "hurricane": "Ouragan",
    "strike": "Grève",
    "fire": "Incendie",
    "golden_days": "Jours dorés",
    "power_struggle": "Lutte d'influence",
    "blockade": "Blocus maritime",
    "flood": "Inondation",
}
#: numbers printed in the event texts: « tire trois nouveaux docks », « sauf une pièce »,
#: « une pièce supplémentaire », « un point de victoire supplémentaire »
EVENT_SETTINGS: dict[str, int] = {
    "disorder_draw": 3,
    "hurricane_keep": 1,
    "strike_coins": 1,
    "golden_days_points": 1,
    "export_majority_points": 1,
}
BLOCKADE_GOODS_BEATS_PROVENANCE = (
    "reconstructed: « la valeur relative des marchandises est modifiée » does not say how; "
    "we reverse the cycle (spice > wine, tea > spice, wine > tea)"
)
#: after « Blocus maritime »: BEATS[g] is the good that g beats (the cycle reversed)
BLOCKADE_GOODS_BEATS: dict[str, str] = {"spice": "wine", "tea": "spice", "wine": "tea"}

TEAM_PROVENANCE = (
    "rulebook: « Une équipe prend les cartes ... rouges, l'autre ... les noirs » ; seating "
    "(partners adjacent, seats 0-1 red, 2-3 black, facing 0-2 and 1-3) is our convention"
)


@dataclass(frozen=True)
class Card:
    id: int  # 0 is the anchor; otherwise the printed number
    number: int | None  # None for the anchor (it carries no number)
    kind: str  # anchor | water | dock | flood | bridge | customs
    owner: int | None  # seat index (0 red, 1 black) or None for neutral water
    goods: tuple[str, ...] = ()
    florin: bool = False
    ship: bool = False
    crane: bool = False
    tavern: bool = False

    @property
    def is_dock(self) -> bool:
        """Docks (goods docks, cranes, taverns) form sectors; customs and bridges too
        (« Le pont est considéré comme un dock »; RULES-NOTES for customs)."""
        return self.kind in ("dock", "customs", "bridge", "face_down")

    @property
    def is_hidden(self) -> bool:
        """A card placed face down (Contrebande's pseudo cards, ``FACE_DOWN_IDS``): what it
        is stays unknown until it is revealed, so its sector is not counted before."""
        return self.kind == "face_down"

    @property
    def is_water(self) -> bool:
        """Canals and the anchor; a flood « On considère ... comme des canaux »."""
        return self.kind in ("water", "anchor", "flood")

    @property
    def is_special(self) -> bool:
        return self.kind in SPECIAL_KINDS


ANCHOR_ID = 0

# ---------------------------------------------------------------------------------------
# Docks. One deck template of 22 entries, dealt identically to each colour (the decks are
# identical in goods and symbols).  Each goods entry is matched with a pair of numbers;
# pairs alternate which colour takes the lower number, so neither colour always plays
# first with the twin card.
DOCKS_PROVENANCE = (
    "reconstructed: the rulebooks print 44 docks (19 goods, 2 cranes, 1 tavern per colour), "
    "3/7/9/16/36, cranes 29-32 and taverns 88/89 but not the card list"
)

# (goods, florin, ship) for the 19 goods docks of one colour, in pair order.
_GOODS_TEMPLATE: tuple[tuple[tuple[str, ...], bool, bool], ...] = (
    # pair (3, 4): dock 3 shows three goods and a ship (the advanced rules' example: « Noir
    # retire le dock n°3 (avec trois marchandise) grâce au bateau »)
    (("tea", "wine", "spice"), False, True),
    (("tea",), True, False),
    (("wine",), False, True),
    (("spice",), True, False),
    (("tea", "wine"), False, False),
    (("wine", "spice"), False, False),
    (("spice", "tea"), False, True),  # pair with 16: shows spice
    (("tea", "wine", "spice"), False, False),
    (("tea",), False, False),
    (("wine",), True, False),
    (("spice",), False, False),
    (("tea", "tea"), False, False),
    (("wine", "wine"), False, False),
    (("spice", "spice"), False, False),
    (("tea", "wine", "spice"), False, False),
    (("tea",), False, True),
    (("wine",), False, False),
    (("spice",), False, False),
    (("tea", "wine", "spice"), True, False),
)

#: Numbers of goods docks, ascending (3..47 without water 12, 24, 38 and cranes 29-32).
_GOODS_NUMBERS: tuple[int, ...] = tuple(
    n for n in range(3, 48) if n not in (12, 24, 38, 29, 30, 31, 32)
)
#: Cranes: (number per colour), ship symbol.  29/30 without ship, 31/32 with ship.
_CRANES: tuple[tuple[tuple[int, int], bool], ...] = (((29, 30), False), ((31, 32), True))
#: Taverns: the highest dock numbers (rulebook "88 et 89").
_TAVERNS: tuple[int, int] = (88, 89)

# Specials (removed in the basic and advanced games; dealt one per player in the team game).
SPECIALS_PROVENANCE = (
    "rulebook for the numbers; reconstructed: which customs house is red "
    "(1 red, 2 black) is our choice"
)
_SPECIALS: tuple[tuple[int, str, int], ...] = (
    (1, "customs", 0),
    (2, "customs", 1),
    (90, "flood", 0),
    (92, "bridge", 0),
    (91, "bridge", 1),
    (93, "flood", 1),
)

WATER_PROVENANCE = (
    "reconstructed: 43 numbered canals plus the anchor, most numbered above the docks; "
    "which canals show a florin or a ship is our choice"
)
_WATER_NUMBERS: tuple[int, ...] = (12, 24, 38, *range(48, 88))
_WATER_FLORIN: frozenset[int] = frozenset({12, 50, 54, 58, 62, 66, 70, 74, 78, 82})
_WATER_SHIP: frozenset[int] = frozenset({24, 52, 57, 63, 69, 75, 81, 86})


def _build() -> dict[int, Card]:
    cards: dict[int, Card] = {ANCHOR_ID: Card(ANCHOR_ID, None, "anchor", None)}
    numbers = _GOODS_NUMBERS
    assert len(numbers) == 2 * len(_GOODS_TEMPLATE)
    for k, (goods, florin, ship) in enumerate(_GOODS_TEMPLATE):
        low, high = numbers[2 * k], numbers[2 * k + 1]
        first, second = (low, high) if k % 2 == 0 else (high, low)
        cards[first] = Card(first, first, "dock", 0, goods, florin, ship)
        cards[second] = Card(second, second, "dock", 1, goods, florin, ship)
    for (red, black), ship in _CRANES:
        cards[red] = Card(red, red, "dock", 0, (), False, ship, crane=True)
        cards[black] = Card(black, black, "dock", 1, (), False, ship, crane=True)
    cards[_TAVERNS[0]] = Card(_TAVERNS[0], _TAVERNS[0], "dock", 0, tavern=True)
    cards[_TAVERNS[1]] = Card(_TAVERNS[1], _TAVERNS[1], "dock", 1, tavern=True)
    for number, kind, owner in _SPECIALS:
        cards[number] = Card(number, number, kind, owner)
    for n in _WATER_NUMBERS:
        cards[n] = Card(n, n, "water", None, (), n in _WATER_FLORIN, n in _WATER_SHIP)
    return dict(sorted(cards.items()))


CARDS: dict[int, Card] = _build()

# --- special rules B: Contrebande's face-down card on the board, one pseudo card per
# colour (no number, no goods, a dock for the sectors); the real card stays secret ---
FACE_DOWN_IDS: tuple[int, ...] = (100, 101)
for _seat, _fid in enumerate(FACE_DOWN_IDS):
    CARDS[_fid] = Card(_fid, None, "face_down", _seat)
# --- end special rules B ---

#: The cards of the basic game: "Les six cartes spéciales (1, 2, 90, 91, 92 et 93) sont
#: retirés du jeu".
BASIC_KINDS: frozenset[str] = frozenset({"anchor", "water", "dock"})
SPECIAL_KINDS: frozenset[str] = frozenset({"flood", "bridge", "customs"})


def special_cards() -> tuple[int, ...]:
    """The six special cards (« deux cartes d'inondations, deux ponts et deux bureaux des
    douanes »)."""
    return tuple(c.id for c in CARDS.values() if c.kind in SPECIAL_KINDS)


def dock_deck(seat: int, kinds: frozenset[str] = BASIC_KINDS) -> tuple[int, ...]:
    return tuple(c.id for c in CARDS.values() if c.owner == seat and c.kind in kinds and c.is_dock)


def water_deck() -> tuple[int, ...]:
    """The numbered canals (the anchor is taken out first)."""
    return tuple(c.id for c in CARDS.values() if c.kind == "water")


def card_json(card_id: int) -> dict:
    c = CARDS[card_id]
    return {
        "number": c.number,
        "kind": c.kind,
        "owner": SEAT_COLORS[c.owner] if c.owner is not None else None,
        "goods": list(c.goods),
        "florin": c.florin,
        "ship": c.ship,
        "crane": c.crane,
        "tavern": c.tavern,
    }


def component_data() -> dict:
    return {
        "cards": [card_json(i) for i in CARDS],
        "goods": list(GOODS),
        "goods_beats": dict(GOODS_BEATS),
        "colors": list(SEAT_COLORS),
        "setup": dict(SETUP),
        "provenance": {
            "docks": DOCKS_PROVENANCE,
            "water": WATER_PROVENANCE,
            "specials": SPECIALS_PROVENANCE,
            "setup": SETUP_PROVENANCE,
            "house_rules": HOUSE_RULES_PROVENANCE,
            "event_cards": EVENT_CARDS_PROVENANCE,
            "blockade_goods_beats": BLOCKADE_GOODS_BEATS_PROVENANCE,
        },
        "event_cards": dict(EVENT_CARDS),
        "blockade_goods_beats": dict(BLOCKADE_GOODS_BEATS),
    }


def replacement_pile(card: int) -> str | None:
    """The pile a placed card is replaced from: as the card's kind; None for a special
    card (« Quand un joueur place une carte spéciale, il ne tire pas de carte »)."""
    c = CARDS[card]
    return None if c.is_special else ("dock" if c.is_dock else "water")
