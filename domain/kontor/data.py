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
        """Docks (goods docks, cranes, taverns) form sectors; customs are docks too."""
        return self.kind in ("dock", "customs")

    @property
    def is_water(self) -> bool:
        return self.kind in ("water", "anchor")


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
    (("tea", "wine", "spice"), False, False),  # pair (3, 4): dock 3 shows three goods
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

# Specials (removed in the basic game, kept for the advanced game).
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

#: The cards of the basic game: "Les six cartes spéciales (1, 2, 90, 91, 92 et 93) sont
#: retirés du jeu".
BASIC_KINDS: frozenset[str] = frozenset({"anchor", "water", "dock"})


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
        },
    }
