"""Speicherstadt component tables.

Every number a rule reads lives here, with its provenance.  The rulebook prints the card
mix per season, the counting-office table, contract sizes and worths, the end points of
each building, the setup counts; it does not print the fireman values, the fire cards'
points or the goods on each contract: those tables are reconstructed (RULES-NOTES.md).
"""

from __future__ import annotations

from dataclasses import dataclass

GOODS: tuple[str, ...] = ("coffee", "tea", "saffron", "rubber", "carpet")
SEASONS: tuple[str, ...] = ("A", "B", "C", "D", "E")

# --- kinds of trade card --------------------------------------------------------------
BANK = "bank"
COUNTING_OFFICE = "counting_office"
CONTRACT = "contract"
CHAMBER_OF_COMMERCE = "chamber_of_commerce"
TRADER = "trader"
BOATMEN_CHURCH = "boatmen_church"
WAREHOUSE = "warehouse"
FIRE = "fire"
PORT = "port"
ST_MICHAELIS = "st_michaelis"
SHIP = "ship"
FIREMAN = "fireman"


@dataclass(frozen=True)
class Card:
    id: str
    season: str
    kind: str
    name: str
    value: int = 0  # fireman value
    goods: tuple[str, ...] = ()  # contract goods, or the trader's good
    bonus: int = 0  # fire: points to the highest sum (and taken from the lowest)


SETUP = {
    "provenance": "rulebook",
    "coins_each": 5,  # "Chaque joueur reçoit 5 pièces"
    "workers_each": 3,  # "Les 3 ouvriers restants"
    "spaces_per_column": 8,  # "les 8 cases d'un bâtiment"
    "cubes_per_good": 9,  # "45 cubes Marchandise: 9 x Café ..."
    "cubes_per_ship": 3,  # "tirez au hasard ... 3 cubes Marchandise"
    "cards_extra_over_players": 1,  # "Révélez 1 carte de plus que le nombre de joueurs"
    "income": 1,  # "Chaque joueur reçoit 1 pièce"
    "income_no_purchase": 1,  # "1 pièce supplémentaire"
    "income_bank": 1,  # Banque: "1 pièce supplémentaire"
    "warehouse_capacity": 4,  # "plus de 4 cubes"
    "market_capacity": 1,  # "plus d'un cube Marchandise sur votre marché"
    "market_convert_in": 3,  # "Placez 3 cubes ... prenez 1 autre cube"
    "market_sell_in": 2,  # "Placez 2 cubes ... prenez 1 pièce"
    "market_sell_coins": 1,  # "... et prenez 1 pièce de la réserve"
    "trader_price": 1,  # "1 pièce par cube"
}

# "2 points ... 1 Comptoir, 5 ... 2, 9 ... 3, 14 ... les 4"
COUNTING_OFFICE_POINTS = {"provenance": "rulebook", "table": (0, 2, 5, 9, 14)}
# "petits contrats: 2 marchandises pour 5 points; moyens 3 pour 8; larges 4 pour 11"
CONTRACT_POINTS = {"provenance": "rulebook", "table": {2: 5, 3: 8, 4: 11}}
# End-of-game points of fixed-value cards; per-card counting rules live in scoring.py.
END_POINTS = {
    "provenance": "rulebook",
    "table": {BOATMEN_CHURCH: 3, ST_MICHAELIS: 4, TRADER: 1},
    "per_coin_chamber": 1,  # Chambre du Commerce: "1 point pour chaque pièce"
    "per_ship_port": 1,  # Port: "1 point pour chaque navire"
    "per_cube_warehouse": 1,  # Entrepôt: "1 point pour chaque cube"
}

# Autumn cards removed by player count (setup step 9).
REMOVED_BY_PLAYERS = {
    "provenance": "rulebook (fireman id reconstructed: the only D fireman of value 3)",
    "table": {2: ("D-port", "D-fireman-3"), 3: ("D-boatmen", "D-fireman-3"), 4: (),
              5: ("D-boatmen", "D-fireman-3")},
}

FIREMEN = {
    "provenance": "reconstructed: values 1-5 not printed; A2 B3 C2 D3, one D of value 3",
    "table": {"A": (1, 2), "B": (1, 2, 3), "C": (2, 4), "D": (3, 4, 5)},
}

FIRES = {
    "provenance": "reconstructed: points not printed; they grow with the season",
    "table": {"B": 2, "C": 4, "D": 6, "E": 8},
}

CONTRACTS = {
    "provenance": "reconstructed: goods not printed; A3 B3 C4 of 2-4 goods; fits Blue's example",
    "table": {
        "A": (("saffron", "carpet"), ("coffee", "tea"), ("tea", "rubber", "carpet")),
        "B": (("coffee", "rubber"), ("coffee", "saffron", "carpet"),
              ("tea", "saffron", "rubber", "carpet")),
        "C": (("tea", "saffron"), ("coffee", "tea", "saffron"),
              ("coffee", "tea", "rubber", "carpet"), ("coffee", "saffron", "rubber", "carpet")),
    },
}

TRADERS = {
    "provenance": "rulebook",
    "table": (("coffee", "Coffee Roaster"), ("tea", "Tea Taster"), ("saffron", "Spice Trader"),
              ("rubber", "Vulcanizer"), ("carpet", "Carpet Trader")),
}

# Season mix of the other cards, "Les chiffres ... (A/B/C/D)".
SINGLES = {
    "provenance": "rulebook",
    "table": (
        ("A", COUNTING_OFFICE, "Counting Office", 1), ("B", COUNTING_OFFICE, "Counting Office", 1),
        ("D", COUNTING_OFFICE, "Counting Office", 2), ("C", BANK, "Bank", 1),
        ("D", CHAMBER_OF_COMMERCE, "Chamber of Commerce", 1),
        ("D", BOATMEN_CHURCH, "Boatmen Church", 1), ("A", WAREHOUSE, "Warehouse", 1),
        ("D", PORT, "Port", 1), ("D", ST_MICHAELIS, "St. Michaelis", 1),
        ("B", SHIP, "Ship", 5), ("C", SHIP, "Ship", 5), ("D", SHIP, "Ship", 5),
    ),
}

_SHORT = {BOATMEN_CHURCH: "boatmen", COUNTING_OFFICE: "office", CHAMBER_OF_COMMERCE: "chamber",
          ST_MICHAELIS: "michaelis"}


def _build() -> tuple[Card, ...]:
    cards: list[Card] = []
    for season, kind, name, count in SINGLES["table"]:
        short = _SHORT.get(kind, kind)
        for i in range(count):
            cid = f"{season}-{short}" if count == 1 else f"{season}-{short}-{i + 1}"
            cards.append(Card(cid, season, kind, name))
    for good, name in TRADERS["table"]:
        cards.append(Card(f"A-{good}-trader", "A", TRADER, name, goods=(good,)))
    for season, values in FIREMEN["table"].items():
        for v in values:
            cards.append(Card(f"{season}-fireman-{v}", season, FIREMAN, "Fireman", value=v))
    for season, bonus in FIRES["table"].items():
        name = "4th Fire" if season == "E" else "Fire"
        cards.append(Card(f"{season}-fire", season, FIRE, name, bonus=bonus))
    for season, contracts in CONTRACTS["table"].items():
        for i, goods in enumerate(contracts):
            cards.append(Card(f"{season}-contract-{i + 1}", season, CONTRACT, "Contract", goods=goods))
    return tuple(sorted(cards, key=lambda c: (SEASONS.index(c.season), c.id)))


CARDS: tuple[Card, ...] = _build()
CARD: dict[str, Card] = {c.id: c for c in CARDS}
LAST_FIRE = "E-fire"


def cards_of_season(season: str) -> tuple[str, ...]:
    return tuple(c.id for c in CARDS if c.season == season)


def contract_points(card: Card) -> int:
    return CONTRACT_POINTS["table"][len(card.goods)]
