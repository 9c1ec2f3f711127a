"""Kontor options: the contract (variant, scenario, special_rules, expansions) parsed into
one frozen Options of named switches.  Rules read only the switches, never a preset name.

The switch values of each variant live in ``data.VARIANT_SETTINGS``; a scenario, special
rule or expansion adds its own switches here (a field with the basic game's value as
default) and its settings table in data.py.  See docs/rules/kontor.md, "Extension points".
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from functools import lru_cache
from typing import Any

from domain.common.codec import to_data
from domain.decider import OptionsError
from domain.kontor.core.data import (
    EXPANSION_SEATS,
    EXPANSION_SETTINGS,
    EXPANSION_VARIANT_CONFLICTS,
    EXPANSIONS_AVAILABLE,
    HOUSE_RULES,
    SCENARIO_SEATS,
    SCENARIO_VARIANTS,
    SCENARIOS_AVAILABLE,
    SCENARIOS_WITHOUT_SHIP,
    SETUP,
    SPECIAL_RULE_CONFLICTS,
    SPECIAL_RULE_SEATS,
    SPECIAL_RULE_SETTINGS_B,
    SPECIAL_RULES_AVAILABLE,
    SPECIAL_RULES_NEED_SHIP,
    VARIANT_SEATS,
    VARIANT_SETTINGS,
    VARIANTS_AVAILABLE,
)
from domain.kontor.core.hooks import CATALOGUE  # no options yet: every extension

RAW_FIELDS: tuple[str, ...] = ("variant", "scenario", "special_rules", "expansions")
#: kept for callers of the first version
VARIANTS_PLANNED: tuple[str, ...] = tuple(v for v in VARIANT_SEATS if v not in VARIANTS_AVAILABLE)


@dataclass(frozen=True)
class Options:
    """Every default is the basic game's value, so a basic game's options (and its stored
    GameStarted) are unchanged by new switches."""

    variant: str = "basic"
    scenario: str | None = None
    special_rules: tuple[str, ...] = ()
    expansions: tuple[str, ...] = ()
    #: the side of the finished square port ("un plateau de 6x6 cartes")
    board_size: int = SETUP["board_size"]
    #: house rule: the game ends after this many complete rounds without a placement
    idle_round_limit: int = HOUSE_RULES["idle_round_limit"]
    #: starting layout: "cross" (anchor + 8 canals); scenarios add others (layouts.py)
    layout: str = "cross"
    #: the patrol ship (advanced game): starts on the anchor, moved by ship cards
    ship: bool = False
    #: sides: () = each seat plays its own colour; else seats of each colour (team game)
    teams: tuple[tuple[int, ...], ...] = ()
    #: tax groups: () = every seat taxes every other; else pairs of facing opponents
    tax_pairs: tuple[tuple[int, ...], ...] = ()
    #: special cards dealt face down to each player at the start (team game: 1)
    specials_dealt: int = 0
    hand_docks: int = SETUP["hand_docks"]
    hand_water: int = SETUP["hand_water"]
    starting_money: int = SETUP["starting_money"]
    treasury_total: int = SETUP["treasury_total"]
    #: final count: "all" (every guardian counts) | "largest" (the final_count largest
    #: sectors of at least final_min_docks docks, ties by distance to the anchor)
    final_selection: str = "all"
    final_count: int = 0
    final_min_docks: int = 1
    # --- special rules A (rule_settings.py, special_rules.py); defaults: the basic game ---
    #: Misère: a broke player with an empty treasury ends the game, the opponent wins
    poverty_end: bool = False
    #: Justice: docks each player picks from his deck before the start, docks set aside
    starting_dock_choice: int = 0
    docks_set_aside: int = 0
    #: Marins ivres morts: passing is chosen secretly like a card, revealed with the others
    secret_pass: bool = False
    #: Libre choix: draw from either pile, keeping a dock and a canal in hand
    free_draw: bool = False
    #: Choix de la marchandise: one chosen good of a 2- or 3-good dock gets its warehouse
    choose_good: bool = False
    #: Premier choix: the price of taking any dock from within one's pile (0: not allowed)
    pile_pick_cost: int = 0
    #: Choix d'inondation: a flood may instead play this many water cards from the hand
    flood_as_water: int = 0
    #: Achat de cartes spéciales: price of a special card from the face-down pile (0: none)
    special_price: int = 0
    #: Pont et inondation / Crue exceptionnelle: special cards in each seat's starting hand
    hand_specials: tuple[tuple[int, ...], ...] = ()
    #: Crue exceptionnelle: free cells next to a played flood fill with water from the pile
    flood_fills: bool = False
    #: Sprint final: the game ends when a player's dock pile is empty
    sprint_end: bool = False
    # --- end special rules A ---
    # --- special rules B (rules/<rule>.py) ---
    #: Vieilles rancunes: a tavern's owner decides whether its sector counts
    old_grudges: bool = False
    #: Blocus: no card next to the ship; the ship blocking a round ends the game
    blockade: bool = False
    #: Corruption 1 or 2 (0: none): the tavern bribes warehouses, may not close a sector
    bribery: int = 0
    #: Point final: the last finished sector scores 2 points
    final_point: bool = False
    #: Contrebande: once per game a card placed face down, revealed at the end
    smuggling: bool = False
    #: Protection: a tavern shields its owner's ship docks of its sector from the ship
    protection: bool = False
    # --- end special rules B ---
    # --- free wheel (free_wheel.py; docs/rules/kontor.md (Free wheel)) ---
    #: « chacun joue à son tour et non simultanément » (turn: play, actions, draw)
    sequential_turns: bool = False
    #: « aucun secteur n'est comptabilisé avant que la partie ne soit finie »: every
    #: sector of at least final_min_docks docks is scored at the end
    score_at_end: bool = False
    #: « On met les cartes spéciales dans le paquet des canaux »
    specials_in_water: bool = False
    #: « libre choix » of the pile to draw from: the field ``free_draw`` above (shared with
    #: the special rule Libre choix)
    #: « La grue ... ne peut être jouée qu'en diagonale par rapport à une carte déjà placée »
    diagonal_cranes: bool = False
    #: « La taverne permet de saouler les ouvriers d'un dock »
    tavern_drunk: bool = False
    #: « On mélange ensemble les deux paquets de docks »: one pile, docks owned by the
    #: seat that plays them
    shared_dock_pile: bool = False
    #: goods value order (data.GOODS_ORDERS): cyclic | spice_tea_wine
    goods_order: str = "cyclic"
    #: « déclarer une alliance dans un secteur »
    alliances: bool = False
    # --- end free wheel ---
    # --- expansions (expansions.py) ---
    #: « l'entrepôt d'exportation »: a placed dock may send one warehouse to export
    export_warehouse: bool = False
    #: « cartes d'événements »: an event card is turned after each scored sector
    event_cards: bool = False
    # --- scenarios (scenario_data.SCENARIO_SETTINGS; docs/rules/kontor.md (Scenarios)) ---
    #: the port's height when it is not square (0: square, board_size x board_size);
    #: board_size is then the width (Canale Grande: 12 wide, 4 high)
    board_height: int = 0
    #: dock cards taken out: "cranes_without_ship" (29, 30), "cranes" (all), "taverns"
    removed_cards: tuple[str, ...] = ()
    #: canals set aside unseen before the game (Bakchich: 10)
    water_aside: int = 0
    #: Bakchich: buy back an opponent's goods dock before choosing
    bribes: bool = False
    #: final count: sectors of more docks than this never count (0: no maximum)
    final_max_docks: int = 0
    #: a counted sector is worth its number of docks (Toujours plus petit)
    size_points: bool = False
    #: only sectors whose docks are all in one straight line count
    final_straight: bool = False
    #: Isola grande: what the island (inner sector) is worth (0: no island)
    island_points: int = 0
    #: Tic Tac Toe: three won cases in a line win; one sector per case
    tic_tac_toe: bool = False
    #: Watergames: docks must touch a water card
    docks_touch_water: bool = False
    #: Vitesse: the game ends when the first sector is finished
    end_at_first_sector: bool = False
    #: Embargo: each player's personal supply of warehouses of each colour (0: unlimited)
    warehouse_supply: int = 0
    #: Euphrate: warehouses sunk on canals of the starting cross
    sunken_warehouses: int = 0
    #: Grande marée: price of a second canal placed at once (0: no second canal)
    second_canal_cost: int = 0

    @property
    def board_dims(self) -> tuple[int, int]:
        """(width, height) of the finished port."""
        return self.board_size, (self.board_height or self.board_size)

    @property
    def board_cells(self) -> int:
        w, h = self.board_dims
        return w * h


#: The fields that name the contract and the first version's switches: the view always
#: shows them; other switches only when they differ from the basic game.
VIEW_ALWAYS: tuple[str, ...] = (*RAW_FIELDS, "board_size", "idle_round_limit")


def _seats_text(counts: tuple[int, ...]) -> str:
    return " or ".join(str(c) for c in counts)


def parse_options(raw: Mapping[str, Any] | None, seat_count: int) -> Options:
    raw = dict(raw or {})
    errors: dict[str, list[str]] = {}

    def err(field: str, message: str) -> None:
        errors.setdefault(field, []).append(message)

    for name in sorted(set(raw) - set(RAW_FIELDS)):
        err(name, "is not a known option")
    variant = raw.get("variant", "basic")
    if variant is None:
        variant = "basic"
    if not isinstance(variant, str):
        err("variant", "must be a string")
        variant = None
    elif variant not in VARIANT_SEATS:
        err("variant", f"unknown variant {variant!r}; known: {', '.join(VARIANT_SEATS)}")
        variant = None
    elif seat_count not in VARIANT_SEATS[variant]:
        err(
            "seat_count",
            f"the {variant} game is for {_seats_text(VARIANT_SEATS[variant])} players, "
            f"not {seat_count}",
        )
    scenario = raw.get("scenario")
    if scenario is not None:
        if not isinstance(scenario, str):
            err("scenario", "must be a string or null")
            scenario = None
        elif scenario not in SCENARIO_SEATS:
            err("scenario", f"unknown scenario {scenario!r}")
            scenario = None
        else:
            if seat_count not in SCENARIO_SEATS[scenario]:
                err(
                    "scenario",
                    f"{scenario} is for {_seats_text(SCENARIO_SEATS[scenario])} players, "
                    f"not {seat_count}",
                )
            if variant is not None and variant not in SCENARIO_VARIANTS:
                err(
                    "scenario",
                    f"{scenario} is played on the advanced rules (2 players) or the team "
                    f"rules (4 players), not with the {variant} variant "
                    "(« les règles du jeu avancé s'appliquent »)",
                )
    lists: dict[str, tuple[str, ...]] = {}
    for name, table in (("special_rules", SPECIAL_RULE_SEATS), ("expansions", EXPANSION_SEATS)):
        value = raw.get(name, [])
        if value is None:
            value = []
        if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
            err(name, "must be a list of strings")
            lists[name] = ()
            continue
        known = []
        for item in value:
            if item not in table:
                err(name, f"unknown {name[:-1].replace('_', ' ')} {item!r}")
            elif item in known:
                err(name, f"{item} is listed twice")
            else:
                known.append(item)
                if seat_count not in table[item]:
                    err(
                        name,
                        f"{item} is for {_seats_text(table[item])} players, not {seat_count}",
                    )
        lists[name] = tuple(known)
    rules = set(lists["special_rules"])
    for a, b, why in SPECIAL_RULE_CONFLICTS:
        if a in rules and b in rules:
            err("special_rules", f"{a} and {b} cannot be combined: {why}")
    settings = dict(VARIANT_SETTINGS.get(variant or "basic", {}))
    # the special rules' switches and impossible combinations, by rule (rules/settings.py)
    said: list[str] = []
    for name, rule_settings in CATALOGUE.rule_settings.items():
        if name in rules:
            more, messages = rule_settings(rules, seat_count, settings, variant)
            settings.update(more)
            for message in messages:
                if message not in said:  # a reason several rules share, said once
                    said.append(message)
                    err("special_rules", message)
    # --- free wheel: settings that depend on the seat count, and what it excludes ---
    if settings.pop("money_per_seat", False):
        # « Chaque joueur reçoit un nombre de florins égal au nombre de joueurs »
        settings["starting_money"] = seat_count
    if settings.pop("teams_at_four", False) and seat_count == 4:
        # « On joue avec les règles originales du jeu avancé »: at 4 players, the teams of
        # « L'Affrontement à Quatre » (free for all is « Chacun joue pour soi »)
        settings["teams"] = ((0, 1), (2, 3))
    if settings.get("sequential_turns"):
        if lists["special_rules"]:
            err(
                "special_rules",
                f"special rules are not played with the {variant} variant (« Elles peuvent "
                "aussi se jouer avec les règles de base ou avancées »; they act on the "
                "simultaneous round)",
            )
        if lists["expansions"]:
            err(
                "expansions",
                f"expansions are not played with the {variant} variant (they are written "
                "for the 2-player simultaneous round)",
            )
    # --- end free wheel ---
    # --- expansions: their switches and the variants they cannot join ---
    if "export_warehouse" in lists["expansions"]:
        # each of these decides which of a dock's warehouses reach its sector, as the
        # export warehouse does; the texts do not say how they would combine
        if "choice_of_goods" in rules:
            err("expansions", "export_warehouse cannot be combined with the special rule "
                "choice_of_goods: both decide which of a dock's goods get a warehouse")
        if scenario in ("embargo", "euphrates"):
            err("expansions", f"export_warehouse cannot be combined with the scenario "
                f"{scenario}: its warehouse supply and the export warehouse would both decide "
                "which warehouses a dock brings, and the rules do not say how they combine")
    for item in lists["expansions"]:
        settings.update(EXPANSION_SETTINGS.get(item, {}))
        for name, other, why in EXPANSION_VARIANT_CONFLICTS:
            if item == name and variant == other:
                err("expansions", f"{item} cannot be played with the {other} variant: {why}")
    no_ship = not settings.get("ship", False) or scenario in SCENARIOS_WITHOUT_SHIP
    for rule in sorted(rules & SPECIAL_RULES_NEED_SHIP):
        if no_ship:
            err("special_rules", f"{rule} acts through the ship, and this game has no ship")
    # --- scenarios: their settings after the variant's (scenarios/data.py) ---
    scenario_settings = None if scenario is None else CATALOGUE.scenario_settings.get(scenario)
    if scenario_settings is not None:
        settings.update(scenario_settings(seat_count))
        for conflicts in CATALOGUE.option_conflicts:
            for message in conflicts(settings, scenario, rules, seat_count):
                err("scenario", message)
    # --- end scenarios ---
    # identifiers of the contract that this server does not play (none today: every one
    # of the rulebook is implemented; the tables in data.py say so)
    if variant is not None and variant not in VARIANTS_AVAILABLE:
        err("variant", f"{variant} is not available yet")
    if scenario is not None and scenario not in SCENARIOS_AVAILABLE:
        err("scenario", f"{scenario} is not available yet")
    for name, available in (
        ("special_rules", SPECIAL_RULES_AVAILABLE),
        ("expansions", EXPANSIONS_AVAILABLE),
    ):
        for item in lists[name]:
            if item not in available:
                err(name, f"{item} is not available yet")
    # --- special rules B: their switches ---
    for rule in lists["special_rules"]:
        settings.update(SPECIAL_RULE_SETTINGS_B.get(rule, {}))
    # --- end special rules B ---
    if "blockade" in rules and settings.get("layout") == "anchor":
        err("special_rules", "blockade cannot be played in a port that starts from the anchor "
            "alone: the ship on the anchor would block every cell, and the game would end "
            "before its first card (« aucun joueur ne peut plus placer de carte »)")
    if errors:
        raise OptionsError(errors)
    return Options(
        variant=variant,
        scenario=scenario,
        special_rules=lists["special_rules"],
        expansions=lists["expansions"],
        **settings,
    )


def view_options(options: Options) -> dict:
    """The options as the view shows them: the contract and the first version's fields,
    plus every other switch that differs from the basic game."""
    try:
        shown = _shown_fields(options)
    except TypeError:  # options that cannot be hashed (a list in a field): worked out here
        shown = _shown_fields.__wrapped__(options)
    # every view shows them: only the fields shown are encoded, not all of them
    return {name: to_data(getattr(options, name)) for name in shown}


@lru_cache(maxsize=256)
def _shown_fields(options: Options) -> tuple[str, ...]:
    """The fields ``view_options`` shows, in the fields' order (worked out once per
    options value: the same for every view of a game)."""
    basic = Options()
    return tuple(
        f.name
        for f in fields(Options)
        if f.name in VIEW_ALWAYS or getattr(options, f.name) != getattr(basic, f.name)
    )


def _enum(values, available) -> dict:
    return {
        "type": "string",
        "enum": list(values),
        "x-available": [v for v in values if v in available],
    }


def options_schema() -> dict:
    avail = ", ".join(VARIANTS_AVAILABLE)
    return {
        "type": "object",
        "additionalProperties": False,
        "description": (
            "Kontor options. Identifiers not listed under x-available are part of the "
            "contract but rejected for now with '<id> is not available yet'."
        ),
        "properties": {
            "variant": _enum(VARIANT_SEATS, VARIANTS_AVAILABLE)
            | {
                "default": "basic",
                "description": (
                    "basic (2 players), advanced (2, « Le Grand Affrontement »), team (4, "
                    "« L'Affrontement à Quatre »), free_wheel (2 or 4, « Roue libre »), "
                    "free_for_all (3 or 4, « Roue libre individuelle »). Available: "
                    f"{avail}."
                ),
                "x-seats": {k: list(v) for k, v in VARIANT_SEATS.items()},
            },
            "scenario": {
                "oneOf": [{"type": "null"}, _enum(SCENARIO_SEATS, SCENARIOS_AVAILABLE)],
                "default": None,
                "description": "One scenario (advanced rules at 2, team rules at 4), or null.",
                "x-seats": {k: list(v) for k, v in SCENARIO_SEATS.items()},
            },
            "special_rules": {
                "type": "array",
                "uniqueItems": True,
                "default": [],
                "items": _enum(SPECIAL_RULE_SEATS, SPECIAL_RULES_AVAILABLE),
                "x-seats": {k: list(v) for k, v in SPECIAL_RULE_SEATS.items()},
            },
            "expansions": {
                "type": "array",
                "uniqueItems": True,
                "default": [],
                "items": _enum(EXPANSION_SEATS, EXPANSIONS_AVAILABLE),
                "x-seats": {k: list(v) for k, v in EXPANSION_SEATS.items()},
            },
        },
    }
