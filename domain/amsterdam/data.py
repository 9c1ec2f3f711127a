"""Amsterdam component tables: every number the rules read lives here.

Printed tables carry ``provenance = "rulebook"`` with the line of rules/amsterdam.fr.txt;
tables that only the pictures held carry ``provenance = "reconstructed"`` and a reason.
They satisfy every constraint of AMSTERDAM.md §7.3 (tests/domain/amsterdam/test_data.py
checks each one), so printed values can replace them without touching a rule.
"""

from __future__ import annotations

from dataclasses import dataclass

# -- resources and goods --------------------------------------------------------------
#: The six resource colours, in die order (L160: one die per colour).
COLOURS = ("black", "brown", "violet", "pink", "orange", "grey")
#: The nine goods (L38-48); four tiles of each (36 / 9, AMSTERDAM.md D11).
GOODS = ("beer", "tulip", "cheese", "furniture", "genever", "tiles", "lace", "coffee", "crystal")
GOODS_PER_TYPE = {"provenance": "reconstructed: 36 tiles of 9 types, count per type not printed",
                  "count": 4}
DOCKER_COLOURS = ("light_blue", "brown", "white", "yellow", "pink", "light_green")

# -- districts (D5) --------------------------------------------------------------------
DISTRICTS = {
    "provenance": "reconstructed: Jan's example pairs 001 (Plantage) with a pink plan (L486);"
                  " the others follow the supplement's plan-number order",
    "colour": {"Plantage": "pink", "Haarlemmerbuurt": "grey", "Jordaan": "orange",
               "Burgwallen": "brown", "Nieuwmarkt": "violet", "Grachtengordel": "black"},
}

# -- scales printed in the rulebook ----------------------------------------------------
RULEBOOK = "rulebook"
START_FLORINS = 1                      # L262
HOUSE_CAPACITY = 1                     # L305
INACTIVE_SLOTS = 5                     # L311
MAX_DOCKERS_ON_BARGE = 2               # L303
ROUNDS_FULL = 12                       # L328
FIRST_ROUND = 1                        # L328: rounds 1 to 12
SHORT_GAME_FIRST_ROUND = 3             # L277-279
FAST_DELIVERY_LAST_ROUND = 7           # L637-641: + (8 - round) per good in rounds 1-7
FAST_DELIVERY_BASE = 8
DICE_CHANGE_FROM_ROUND = 8             # L645: faces >= 14 - round become 1
DICE_CHANGE_BASE = 14
MOUTH_POINTS = 10                      # L605
DOCKER_PICKUP_FLORINS = 1              # L536
BLACK_MARKET_FLORINS = 2               # L580: 1 resource of choice or 2 florins
PENALTY_POINTS = (3, 5, 7)             # L673-680: the 3rd and every later token costs 7
CITY_POINTS_PER_ARM = 3                # L700
SURPLUS_ITEMS_PER_POINT = 2            # L735
OPENING_SINGLE, OPENING_PAIR = 1, 2    # L320: 1 resource on slot 1, 2 of a colour on slot 2
#: Majority points per rank, by seat count (L714-717; solo and 2 players: 5).
MAJORITY_POINTS = {1: (5,), 2: (5,), 3: (5, 2), 4: (8, 5, 2)}
#: Cards revealed per round (L387-390): (plans, buildings, craftsmen); 3 players alternate.
ROUND_OFFER = {2: ((2, 1, 1), (2, 1, 1)), 3: ((2, 1, 2), (2, 2, 1)), 4: ((2, 2, 2), (2, 2, 2))}
#: Opening offer (L317-318, A2): craftsmen = players - 1, buildings = 2.
OPENING_OFFER = {"provenance": "reconstructed: the row icons of L317-318 are lost (A2)",
                 "craftsmen": {1: 1, 2: 1, 3: 2, 4: 3}, "buildings": {1: 2, 2: 2, 3: 2, 4: 2}}
#: L320: (cubes, wind-rose slot) of the opening resources: 1 of any colour on slot 1, then
#: 2 of one colour on slot 2 (OPENING_SINGLE, OPENING_PAIR are the counts)
OPENING_SLOTS = (1, 2)
#: L250-251: dockers per pontoon at setup; the solo game has one of each colour (L894)
DOCKERS_PER_PONTOON = {"game": 2, "solo": 1}
#: L252: district tiles scored = players - 1 (the solo game scores one: TOM counts, L971)
DISTRICTS_SCORED = {1: 1, 2: 1, 3: 2, 4: 3}
#: L160, L424-426: six dice of six faces, each seat chooses two different dice
DIE_FACES = 6
DICE_CHOSEN = 2
#: L436: the rose's slots 1-6 below the arrow (053 moves to a neighbour among them, B19)
ROSE_SLOTS = 6
#: L645: in rounds 8-12 the faces >= DICE_CHANGE_BASE - round become this face
DICE_CHANGED_FACE = 1
#: L494: « qu'une seule fois par tour » (028 raises it); L611: the market once per turn
#: (020 raises it); L1035, L1284-1286: a plan once per turn (029: one of them 3 times)
BLOCKS_PER_TURN = 1
MARKET_USES_PER_TURN = 1
PLAN_USES_PER_TURN = 1
#: L580: a black-market sale pays 1 resource of choice or 2 florins (BLACK_MARKET_FLORINS)
BLACK_MARKET_CHOICES = 1
#: L589-594: 1 resource for the first space, 2 for each further one: 1 / 3 / 5 / 7
AMSTEL_COST = {"first": 1, "further": 2}
#: Expansion 1: the foreman's place gives 2 more points (L770); buying the bailiff's block
#: costs one resource fewer (L786)
FOREMAN_POINTS = 2
BAILIFF_DISCOUNT = 1
#: L758-762, L848: who places each figure, as an index in the Amstel order (the last
#: places the foreman, the second-to-last the bailiff, the leader the black-market pawn)
FIGURE_PLACERS = {"foreman": -1, "bailiff": -2, "market_pawn": 0}


def amstel_cost(spaces: int) -> int:
    """L589-594: 1 resource for the first space, 2 for each further one."""
    return AMSTEL_COST["first"] + AMSTEL_COST["further"] * (spaces - 1)


def penalty_points(tokens: int) -> int:
    return sum(PENALTY_POINTS[min(i, len(PENALTY_POINTS) - 1)] for i in range(tokens))


# -- cards -----------------------------------------------------------------------------
CRAFTSMAN, BUILDING, PLAN = "craftsman", "building", "plan"
PHASE_I, II, III, PERMANENT, END = "I", "II", "III", "permanent", "end"


@dataclass(frozen=True)
class Effect:
    """A card's effect as data: one of a few kinds, read by domain/amsterdam/cards.py.

    kind: "use" (a once-per-round ability: condition, cost, gain), "modifier" (a
    permanent change of a rule), "trigger" (a gain when something happens), "converter"
    (a permanent exchange, as often as wished), "phase" (a Phase I/II effect), "end" (an
    end-of-game scorer).
    """

    kind: str
    name: str
    params: tuple = ()


@dataclass(frozen=True)
class Card:
    id: str            # "001" .. "132"
    kind: str          # craftsman | building | plan
    group: str         # craftsman trade, building type, or plan district
    cost: tuple[str, ...]
    timing: str
    effect: Effect


CRAFTSMAN_TRADES = {
    "provenance": "reconstructed: each block of 6 numbers shares one effect family (D3);"
                  " the carpenter builds houses (025-030)",
    "trades": ("plan_keeper", "laurel_maker", "guildsman", "merchant", "carpenter",
               "cheese_maker", "brewer", "tulip_grower", "dock_master"),
}
BUILDING_TYPES = {
    "provenance": "reconstructed: the 11 effect groups of 055-108 (D4); Westerkerk,"
                  " Zuiderkerk, Montelbaanstoren are the 3-card groups that pair with them",
    "groups": (("Waag", 55, 60), ("Weeshuis", 61, 66), ("Oude Kerk", 67, 69),
               ("Westerkerk", 70, 72), ("Zuiderkerk", 73, 75), ("Pakhuis", 76, 84),
               ("Montelbaanstoren", 85, 87), ("Munttoren", 88, 90), ("Stadhuis", 91, 96),
               ("Beurs", 97, 102), ("Schreierstoren", 103, 108)),
}
PLAN_DISTRICT_ORDER = ("Plantage", "Haarlemmerbuurt", "Jordaan", "Burgwallen", "Nieuwmarkt",
                       "Grachtengordel")

# Costs (D1) and timings (D2): reconstructed; letters k b v p o g = the six colours.
CARD_COSTS = {
    "provenance": "reconstructed: only an icon on the card (L343); 1-4 cubes, Jan's 001 +"
                  " pink plan = 3 (L470), a Haarlemmerbuurt plan of 2 (L919)",
    "craftsman": ("o", "b", "g", "v", "k", "p",          # 001-006
                  "kv", "bg", "vo", "pk", "og", "gb",     # 007-012
                  "ko", "bp", "vg", "pb", "ok", "gv",     # 013-018
                  "k", "b", "v", "p", "o", "g",           # 019-024
                  "pp", "oo", "kk", "bb", "vv", "gg",     # 025-030
                  "kbv", "bvp", "vpo", "pog", "ogk", "gkb",  # 031-036
                  "ko", "bv", "pg", "kg", "bo", "vp",     # 037-042
                  "o", "b", "g", "v", "k", "p",           # 043-048
                  "kp", "bo", "vg", "pk", "ob", "gv"),    # 049-054
    "building": ("pp", "gg", "oo", "bb", "vv", "kk",     # 055-060
                 "ppo", "ggb", "oov", "bbk", "vvp", "kkg",  # 061-066
                 "kgb", "kgb", "kgb",                    # 067-069
                 "vvo", "ppb", "kkg",                    # 070-072
                 "ggo", "bbp", "oov",                    # 073-075
                 "ook", "bbk", "ggv", "ppb", "vvo", "kkp", "oog", "bbv", "ppg",  # 076-084
                 "pvgk", "obvk", "gbop",                 # 085-087
                 "gp", "bv", "ok",                       # 088-090
                 "bo", "gk", "vp", "ok", "pg", "vb",     # 091-096
                 "kvp", "bgo", "pbk", "vgo", "okb", "gpv",  # 097-102
                 "kbvp", "bvpo", "vpog", "pogk", "ogkb", "gkbv"),  # 103-108
    "plan_cubes": 2,  # two cubes of the plan's colour
}
TIMING_PROVENANCE = ("reconstructed: the symbol is picture-only; AMSTERDAM.md §4 infers it"
                     " from each effect text (t = printed, i = inferred)")


def _u(name, *params):
    return Effect("use", name, params)


def _m(name, *params):
    return Effect("modifier", name, params)


def _t(name, *params):
    return Effect("trigger", name, params)


def _c(name, *params):
    return Effect("converter", name, params)


def _e(name, *params):
    return Effect("end", name, params)


def _craftsman_effects() -> list[tuple[str, Effect]]:
    out: list[tuple[str, Effect]] = []
    gives = ("orange", "brown", "grey", "violet", "black", "pink")  # 001-006 (D5)
    for district, colour in zip(PLAN_DISTRICT_ORDER, gives):
        out.append((III, _u("after_plan", district, ("resource", colour, 1))))
    out += [
        (END, _e("distinct_trades", 2)),                      # 007
        (END, _e("no_inactive_penalty")),                     # 008 (L1150)
        (END, _e("amstel_advance", 5)),                       # 009 (L1157, B37)
        (END, _e("barge_cargo", 1)),                          # 010
        (END, _e("docker_building", 1)),                      # 011
        (END, _e("black_market_goods", 1)),                   # 012
        (III, _u("min_active", BUILDING, 3, ("florins", 1))),  # 013
        (PERMANENT, _t("on_amstel_point", 1)),                # 014 (L1188): once a turn
        (III, _u("barge_goods_at_most", 2, ("points", 1))),   # 015 (A8)
        (PERMANENT, _t("on_barge_two_steps", 2, 1)),          # 016 (L1205): 2 spaces, 1 point
        (III, _u("not_first_on_amstel", ("amstel", 1))),      # 017
        (III, _u("last_on_amstel", ("florins", 1))),          # 018
        (III, _u("per_arms", 5, ("florins", 1))),             # 019 (L1226): per started 5
        (PERMANENT, _m("market_twice", 2)),                   # 020 (L1231)
        (III, _u("per_plan_district", ("florins", 1))),       # 021 (A6): per district
        (III, _u("barge_credit", 1, 3)),                      # 022 (L1243): 1 florin, 3 spaces
        (III, _u("pay_florins", 1, ("points", 1))),           # 023 (L1250)
        (III, _u("free", ("florins", 1), ("points", 1))),     # 024
        (PERMANENT, _m("block_discount", 1)),                 # 025 (L1260)
        (PERMANENT, _t("on_block_florins", 1)),               # 026
        (PERMANENT, _m("block_for_florins", 2)),              # 027 (L1271)
        (PERMANENT, _m("second_block", 2)),                   # 028 (L1278): 2 blocks a turn
        (PERMANENT, _m("plan_thrice", 3)),                    # 029 (L1284)
        (PERMANENT, _t("on_activate_florins", BUILDING, 2)),  # 030
        (PERMANENT, _m("activation_discount", BUILDING, 1)),  # 031
        (PERMANENT, _c("resources_to_florin", 3, 1)),         # 032
        (PERMANENT, _t("on_activate_florins", CRAFTSMAN, 1)),  # 033
        (PERMANENT, _m("amstel_on_top")),                     # 034
        (PERMANENT, _t("on_activate_plan_use")),              # 035
        (PERMANENT, _c("resources_to_choice", 2, 1)),         # 036
        (PERMANENT, _m("sale_both")),                         # 037 (B12)
        (PERMANENT, _c("florins_to_activation", 3)),          # 038 (L1345)
        (PERMANENT, _c("florins_to_choice", 2, 2)),           # 039
        (PERMANENT, _m("barge_half", 2)),                     # 040 (L1361): 2 spaces a cube
        (PERMANENT, _t("on_activate_florins", PLAN, 1)),      # 041
        (PERMANENT, _m("first_of_trade_discount", 1)),        # 042
        (III, _u("alone_last_on_score", ("choice", 1))),      # 043
        (III, _u("carpenters", "carpenter", 1, ("florins", 1))),  # 044 (L1389): 1 point each
        (PERMANENT, _t("on_market_points_choice", 1)),        # 045
        (III, _u("free", ("choice", 1))),                     # 046
        (III, _u("discard_plan", ("florins", 3))),            # 047
        (III, _u("pay_resources", 1, ("florins", 1))),        # 048 (L1417)
        (PHASE_I, Effect("phase", "skip_card")),              # 049
        (PERMANENT, _m("docker_double", 2)),                  # 050 (L1431): twice the points
        (II, Effect("phase", "ones_florins", (1, 2))),        # 051 (L1437): face 1, 2 florins
        (II, Effect("phase", "ones_resources", (1, 2, 1))),   # 052 (L1445): face 1, 2 on slot 1
        (II, Effect("phase", "adjacent_slot")),               # 053
        (II, Effect("phase", "extra_resource", (1,))),        # 054 (L1459)
    ]
    return out


def _building_effects() -> list[tuple[str, Effect]]:
    out: list[tuple[str, Effect]] = []
    for district in PLAN_DISTRICT_ORDER:                      # 055-060
        out.append((III, _u("after_plan", district, ("florins", 1))))
    for district in PLAN_DISTRICT_ORDER:                      # 061-066
        out.append((END, _e("plans_of_district", district, 1)))
    out += [(END, _e("churches", ("Oude Kerk", "Westerkerk", "Zuiderkerk"), 3, 8, 15))] * 3
    #                                                        067-069 Oude Kerk (L1509, A9)
    out += [
        (III, _u("inactive_at_most", 3, ("florins", 1))),     # 070 (A7)
        (PERMANENT, _t("on_card_florins", 1)),                # 071 (L1535, B16)
        (PERMANENT, _t("on_card_points", 1)),                 # 072 (L1541, B16)
        (PERMANENT, _t("on_deliver", ("points", 1))),         # 073
        (PERMANENT, _t("on_block_amstel", 1)),                # 074
        (PERMANENT, _t("on_deliver", ("florins", 1))),        # 075
    ]
    for good in ("crystal", "genever", "coffee", "beer", "tiles", "cheese", "lace",
                 "furniture", "tulip"):                       # 076-084
        out.append((PERMANENT, _t("on_deliver_good", good, 4)))
    out += [
        (END, _e("active_kind", PLAN, 1)),                    # 085
        (END, _e("laurel_cards", 2)),                         # 086
        (END, _e("active_kind", BUILDING, 2)),                # 087
    ]
    out += [(III, _u("montelbaanstoren", "Montelbaanstoren", ("florins", 1),
                 ("florins", 2)))] * 3                   # 088-090 (L1655-1669)
    for colour in ("pink", "orange", "brown", "grey", "violet", "black"):  # 091-096
        out.append((III, _u("free", ("resource", colour, 1))))
    out += [
        (III, _u("alone_first_on_score", ("points", 1))),     # 097
        (III, _u("inactive_at_most", 3, ("points", 2))),      # 098
        (III, _u("after_any_plan", ("points", 2))),           # 099
        (III, _u("min_active", CRAFTSMAN, 3, ("florins", 1))),  # 100
        (III, _u("min_active", BUILDING, 3, ("points", 2))),  # 101
        (III, _u("min_active", PLAN, 3, ("florins", 1))),     # 102
        (END, _e("trade_pairs", 2)),                          # 103
        (END, _e("plan_colour_pairs", 3)),                    # 104
        (END, _e("bridges_passed", 2)),                       # 105
        (END, _e("arms_in_city", 1)),                         # 106
        (END, _e("barge_at_start", 8)),                       # 107
        (END, _e("largest_trade", 2)),                        # 108
    ]
    return out


def _plan_effects() -> list[tuple[str, Effect]]:
    out: list[tuple[str, Effect]] = []
    for district in PLAN_DISTRICT_ORDER:
        colour = DISTRICTS["colour"][district]
        out.append((III, Effect("plan", district, (colour, ("points", 1)))))
        out.append((III, Effect("plan", district, (colour, ("florins", 1)))))
        out.append((III, Effect("plan", district, (colour, ("florins", 1)))))
        out.append((III, Effect("plan", district, (colour, ("florins", 1), ("points", 1)))))
    return out


_LETTER = {"k": "black", "b": "brown", "v": "violet", "p": "pink", "o": "orange", "g": "grey"}


def _build_cards() -> dict[str, Card]:
    cards: dict[str, Card] = {}
    for i, (timing, effect) in enumerate(_craftsman_effects()):
        cid = f"{i + 1:03d}"
        trade = CRAFTSMAN_TRADES["trades"][i // 6]
        cost = tuple(_LETTER[x] for x in CARD_COSTS["craftsman"][i])
        cards[cid] = Card(cid, CRAFTSMAN, trade, cost, timing, effect)
    groups = {n: name for name, lo, hi in BUILDING_TYPES["groups"] for n in range(lo, hi + 1)}
    for i, (timing, effect) in enumerate(_building_effects()):
        n = 55 + i
        cost = tuple(_LETTER[x] for x in CARD_COSTS["building"][i])
        cards[f"{n:03d}"] = Card(f"{n:03d}", BUILDING, groups[n], cost, timing, effect)
    for i, (timing, effect) in enumerate(_plan_effects()):
        n = 109 + i
        district = PLAN_DISTRICT_ORDER[i // 4]
        colour = DISTRICTS["colour"][district]
        cards[f"{n:03d}"] = Card(f"{n:03d}", PLAN, district, (colour,) * CARD_COSTS["plan_cubes"],
                                 timing, effect)
    return cards


CARDS: dict[str, Card] = _build_cards()
CARD_IDS = tuple(CARDS)
PILES = {kind: tuple(c for c in CARD_IDS if CARDS[c].kind == kind)
         for kind in (CRAFTSMAN, BUILDING, PLAN)}


def cards_with(name: str) -> tuple[str, ...]:
    """The cards whose effect is ``name`` (the rules find a card by its effect, never by
    its number)."""
    return tuple(c for c in CARD_IDS if CARDS[c].effect.name == name)

# -- market tiles (L2130-2255), printed in full ----------------------------------------


@dataclass(frozen=True)
class MarketTile:
    id: str
    half: str          # A (rounds 1-6) or B (rounds 7-12)
    florins: int
    points: int = 0
    amstel: int = 0
    choices: int = 0   # resources of your choice
    special: str = ""  # expansion 4 tiles
    expansion: bool = False
    count: int = 0     # CA 17: barge spaces; CA 20, CB 24: free activations


MARKET_TILES = {t.id: t for t in (
    MarketTile("A1", "A", 1, 1, amstel=2), MarketTile("A2", "A", 1, 2),
    MarketTile("A3", "A", 1, 3), MarketTile("A4", "A", 2, 2, choices=1),
    MarketTile("A5", "A", 2, 3, amstel=1), MarketTile("A6", "A", 2, 4),
    MarketTile("A7", "A", 3, 4, amstel=2), MarketTile("A8", "A", 3, 5),
    MarketTile("B9", "B", 3, 5, choices=1), MarketTile("B10", "B", 4, 4, amstel=2),
    MarketTile("B11", "B", 4, 6, amstel=1), MarketTile("B12", "B", 4, 8),
    MarketTile("B13", "B", 5, 11, choices=1), MarketTile("B14", "B", 5, 12),
    MarketTile("B15", "B", 6, 14), MarketTile("B16", "B", 6, 15),
    MarketTile("CA17", "A", 1, special="barge_three", expansion=True, count=3),
    MarketTile("CA18", "A", 2, special="exchange_card", expansion=True),
    MarketTile("CA19", "A", 2, choices=2, expansion=True),
    MarketTile("CA20", "A", 3, special="free_activations_1", expansion=True, count=1),
    MarketTile("CB21", "B", 3, special="barge_anywhere", expansion=True),
    MarketTile("CB22", "B", 4, special="free_block", expansion=True),
    MarketTile("CB23", "B", 5, special="one_of_each", expansion=True),
    MarketTile("CB24", "B", 6, special="free_activations_2", expansion=True, count=2),
)}
#: L273: remove 2 random tiles of each half, unseen (3 each in the short game, L279).
MARKET_REMOVED_PER_HALF = {12: 2, 10: 3}
#: Expansion 4 mode b (L876-884, A11): per half, 3 base tiles and 3 of its 4 C tiles (one
#: removed unseen); in the short game 2 C tiles (two removed)
EXTRA_MARKET_TILES = {"base_kept": 3, "c_kept": {12: 3, 10: 2}}

# -- the city (D6) ---------------------------------------------------------------------


@dataclass(frozen=True)
class Block:
    id: str
    district: str
    colour: str
    cost: int
    x: int            # column, left to right (TOM's "le plus à gauche", L936)
    y: int
    double: bool      # "case composée de deux blocs de maisons" (L762, B28)


_CITY_LAYOUT = (
    # district origin (x, y) on a 6 x 6 grid of 2-wide, 3-high districts, and its costs
    # listed row by row, left block first.
    ("Plantage", 0, 0, (1, 2, 2, 3, 3, 4)),
    ("Haarlemmerbuurt", 2, 0, (1, 2, 2, 3, 3, 4)),
    ("Jordaan", 4, 0, (1, 2, 2, 3, 3, 4)),
    ("Burgwallen", 0, 3, (1, 2, 2, 3, 3, 4)),
    ("Nieuwmarkt", 2, 3, (2, 2, 3, 2, 3, 4)),
    ("Grachtengordel", 4, 3, (2, 3, 2, 3, 4, 4)),
)
CITY_PROVENANCE = ("reconstructed: block costs, bridges and double spaces are picture-only;"
                   " a 6 x 6 grid of districts 2 wide and 3 high, bridges between orthogonal"
                   " neighbours, fitting every example of AMSTERDAM.md D6")


def _build_city() -> dict[str, Block]:
    blocks: dict[str, Block] = {}
    for district, ox, oy, costs in _CITY_LAYOUT:
        colour = DISTRICTS["colour"][district]
        for i, cost in enumerate(costs):
            x, y = ox + i % 2, oy + i // 2
            bid = f"{colour}{i + 1}"
            blocks[bid] = Block(bid, district, colour, cost, x, y, double=(i == 2))
    return blocks


BLOCKS: dict[str, Block] = _build_city()
BLOCK_IDS = tuple(BLOCKS)
_AT = {(b.x, b.y): b.id for b in BLOCKS.values()}
BRIDGES: dict[str, tuple[str, ...]] = {
    b.id: tuple(_AT[(b.x + dx, b.y + dy)] for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))
                if (b.x + dx, b.y + dy) in _AT)
    for b in BLOCKS.values()
}

# -- the harbour (D7) ------------------------------------------------------------------
START = "start"
HARBOUR_PROVENANCE = ("reconstructed: the harbour graph and roof values are picture-only;"
                      " a channel of 9 water spaces with the landings on its banks, values"
                      " growing with the distance from the start (goblins remark), fitting"
                      " L555, L570, L656, L780, L964")
#: water space -> landings on its banks (warehouse goods, depots "D1".., pontoons "P:<colour>")
_HARBOUR_BANKS = (
    ("W1", ("beer", "P:light_blue")),
    ("W2", ("cheese", "D1")),
    ("W3", ("furniture", "P:brown")),
    ("W4", ("P:white",)),
    ("W5", ("tulip", "P:yellow")),
    ("W6", ("lace",)),
    ("W7", ("genever", "D2", "P:pink")),
    ("W8", ("tiles", "D3", "P:light_green")),
    ("W9", ("coffee", "crystal", "D4")),
)
#: roofs left to right; a good goes on the empty roof with the most points (L544)
ROOFS = {"beer": (6, 5, 4), "cheese": (7, 6, 5), "furniture": (7, 6, 5), "tulip": (8, 7, 5),
         "lace": (8, 6, 5), "genever": (9, 7, 6), "tiles": (9, 8, 6), "coffee": (10, 8, 7),
         "crystal": (10, 9, 7)}
DEPOTS = {"D1": 3, "D2": 4, "D3": 5, "D4": 6}
WATER = tuple(w for w, _ in _HARBOUR_BANKS)
PONTOONS = {f"P:{c}": c for c in DOCKER_COLOURS}


def _build_harbour() -> dict[str, tuple[str, ...]]:
    edges: dict[str, set[str]] = {START: {"W1"}}
    previous = START
    for water, landings in _HARBOUR_BANKS:
        edges.setdefault(water, set()).add(previous)
        edges.setdefault(previous, set()).add(water)
        for landing in landings:
            edges.setdefault(water, set()).add(landing)
            edges.setdefault(landing, set()).add(water)
        previous = water
    return {node: tuple(sorted(n)) for node, n in edges.items()}


HARBOUR: dict[str, tuple[str, ...]] = _build_harbour()
HARBOUR_NODES = tuple(sorted(HARBOUR))

# -- the Amstel (D8) -------------------------------------------------------------------
AMSTEL_SPACES = 19  # L245: the start space is not one of the 19; 19 is the mouth
AMSTEL = {
    "provenance": "reconstructed: bridge places and values are picture-only; one bridge of 4"
                  " passed by a 2-space move (L601), one of 2 passed by a 1-space move (L960)",
    #: a bridge between space k and k + 1 is passed by a pawn moving from <= k to > k
    "bridges": {3: 2, 7: 4, 11: 5, 15: 6},
}

# -- the docker building (D9) ----------------------------------------------------------
DOCKER_BUILDING = {
    "provenance": "reconstructed: only the second space (7) is printed (L565);"
                  " values decrease from top to bottom (L540)",
    "values": (9, 7, 5, 3),  # the last space takes every later docker
}

# -- the black market (D10) ------------------------------------------------------------
BLACK_MARKET = {
    "provenance": "reconstructed: crystal in the centre, coffee in a corner (L858, L864);"
                  " the other places are picture-only",
    "grid": {"coffee": (0, 0), "furniture": (1, 0), "beer": (2, 0),
             "genever": (0, 1), "crystal": (1, 1), "tiles": (2, 1),
             "tulip": (0, 2), "lace": (1, 2), "cheese": (2, 2)},
}

PROVENANCE = {
    "goods_per_type": GOODS_PER_TYPE["provenance"],
    "districts": DISTRICTS["provenance"],
    "opening_offer": OPENING_OFFER["provenance"],
    "card_costs": CARD_COSTS["provenance"],
    "card_timings": TIMING_PROVENANCE,
    "craftsman_trades": CRAFTSMAN_TRADES["provenance"],
    "building_types": BUILDING_TYPES["provenance"],
    "city": CITY_PROVENANCE,
    "harbour": HARBOUR_PROVENANCE,
    "amstel": AMSTEL["provenance"],
    "docker_building": DOCKER_BUILDING["provenance"],
    "black_market": BLACK_MARKET["provenance"],
    "market_tiles": RULEBOOK + ": L2130-2255 (CA 24 read as CB 24, A5)",
    "scales": RULEBOOK + ": L262-320, L589-605, L637-680, L700-735",
}

# -- expansion 2: task tiles (L1907-2128), printed in full --------------------------------


@dataclass(frozen=True)
class Task:
    id: int
    kind: str
    param: str | int | None
    points: tuple[int, ...]  # 2 / 3 / 4 players (task 33: by resources returned, 1-6)
    count: int = 0           # how many the condition or the return needs (below)


def _tasks() -> dict[int, Task]:
    out: list[Task] = []
    pairs = ("light_blue", "brown", "light_green", "pink", "yellow", "white")
    out += [Task(1 + i, "docker_pair_in_building", c, (8, 7, 6), 2)  # both of a colour
            for i, c in enumerate(pairs)]
    districts = ("Grachtengordel", "Plantage", "Nieuwmarkt", "Burgwallen", "Haarlemmerbuurt",
                 "Jordaan")
    out += [Task(7 + i, "four_blocks_in", d, (6, 7, 8), 4) for i, d in enumerate(districts)]
    out += [Task(13, "three_of_each_kind", None, (9, 9, 9), 3),
            Task(14, "reached_the_mouth", None, (10, 10, 10)),
            Task(15, "active_timing", END, (7, 7, 7), 3),
            Task(16, "active_timing", III, (7, 7, 7), 4),
            Task(17, "active_timing", PERMANENT, (7, 7, 7), 5),
            Task(18, "black_market_goods", 7, (7, 6, 5)),
            Task(19, "different_goods_on_barge", 2, (6, 6, 6))]
    full = ("furniture", "lace", "cheese", "genever", "beer", "tiles", "tulip", "crystal", "coffee")
    out += [Task(20 + i, "warehouse_full", g, (7, 6, 5)) for i, g in enumerate(full)]
    out += [Task(29, "depots_full", None, (7, 6, 5)),
            Task(30, "barge_at_start", None, (4, 4, 4)),
            Task(31, "dockers_in_building", 7, (9, 7, 5)),
            Task(32, "return_two_dockers_a_good", None, (4, 5, 6), 2),
            Task(33, "return_different_resources", None, (1, 2, 3, 5, 7, 10), 6),
            Task(34, "return_docker_good_resource", None, (4, 5, 6)),
            Task(35, "blocks", 9, (7, 8, 9)),
            Task(36, "cards_activated", 10, (4, 5, 6))]
    returns = ("light_blue", "yellow", "brown", "light_green", "pink", "white")
    out += [Task(37 + i, "return_dockers_of", c, (2, 3, 4), 2) for i, c in enumerate(returns)]
    return {t.id: t for t in out}


TASKS: dict[int, Task] = _tasks()
#: tasks 37-42 with 2 dockers returned (L2104-2128)
TWO_DOCKERS_RETURNED = (7, 8, 9)
#: the player counts of the task points columns (L1909: « (2/3/4) »)
TASK_POINT_SEATS = (2, 3, 4)
TASK_DEAL = {"secret3": (3, True), "secret5": (5, True), "open1": (1, False), "open2": (2, False)}
PROVENANCE["tasks"] = RULEBOOK + ": L1907-2128"

# -- the solo opponent TOM (L886-972) ---------------------------------------------------------
TOM = 1  # TOM's index in block owners and the docker building (the human is seat 0)
SOLO = {
    "provenance": "reconstructed: the die icons of L925 and L936 are lost (A13, D12); a 1"
                  " moves TOM on the Amstel, a 6 takes a block; triples fetch the docker of"
                  " the pontoon printed in that order (L929-930)",
    # the faces are options (options.solo_amstel_face / solo_block_face, defaults 1 and 6)
    "triple_pontoons": {1: "light_blue", 2: "white", 3: "yellow", 4: "brown", 5: "pink",
                        6: "light_green"},
    "offer_seats": 2,  # L903: the cards of a 2-player game
    "amstel_per_face": 1,   # L925: « TOM avance d'une case » per Amstel face
    "triple": 3,            # L927: « trois fois le même résultat (ou plus) »
    "docker_florins": 1,    # L927: « et gagne 1 Florin de la réserve »
    "market_florins": 1,    # L944: « Si ce n'est pas le cas, TOM gagne 1 Florin »
    "sale_florins": 2,      # L938: « vendez cette marchandise au marché noir pour 2 Florins »
}
