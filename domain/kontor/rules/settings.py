"""Switches and validation of the special rules A (« Règles spéciales », « Variantes avec
les cartes spéciales »): one table for all of them, by rule name (``RULE_SETTINGS``, the options' table
``rule_settings``). Shared by the special rules A, not a rule itself."""

from __future__ import annotations

from domain.kontor.core.data import CARDS, SPECIAL_RULES_A_NUMBERS
from domain.kontor.core.hooks import Hooks

N = SPECIAL_RULES_A_NUMBERS


def hand_specials(kinds: tuple[str, ...], seat_count: int) -> tuple[tuple[int, ...], ...]:
    """Per seat, the special cards of its colour of the given kinds, in kinds order (« Rouge
    prend l'inondation 90 et le pont 92. Noir prend le pont 91 et l'inondation 93 »)."""
    out = []
    for seat in range(seat_count):
        mine = []
        for kind in kinds:
            mine += sorted(c.id for c in CARDS.values() if c.kind == kind and c.owner == seat)
        out.append(tuple(mine))
    return tuple(out)


def _board(settings: dict, size: int) -> dict:
    """The port grows to ``size`` if it is smaller (the variant's or an earlier rule's)."""
    return {"board_size": size} if size > settings.get("board_size", 6) else {}


def _poverty(rules, seat_count: int, settings: dict, variant) -> tuple[dict, list[str]]:
    # « Chaque joueur ne reçoit que trois florins ; le reste est enlevé du jeu. »
    # « Plateau : 7x7 cases » (the team game keeps its 8x8: reading R-A1)
    switches = {
        "starting_money": N["poverty_money"],
        "treasury_total": N["poverty_money"] * seat_count,
        "poverty_end": True,
    }
    return switches | _board(settings, N["poverty_board"]), []


def _flood_choice(rules, seat_count: int, settings: dict, variant) -> tuple[dict, list[str]]:
    floods = variant == "team" or rules & {"bridge_and_flood", "great_flood", "buy_special_cards"}
    if floods:
        return {"flood_as_water": N["flood_water_cards"]}, []
    return {"flood_as_water": N["flood_water_cards"]}, [
        "flood_choice changes how a flood card is used, and this game has none (the team "
        "game, bridge_and_flood, great_flood or buy_special_cards bring them)"
    ]


def _special_cards(switches):
    """A special-card variant's switches (``switches(seat_count, settings)``): for 2 players."""

    def settings_of(rules, seat_count: int, settings: dict, variant) -> tuple[dict, list[str]]:
        if variant == "team":
            return switches(seat_count, settings), [
                "the special-card variants are for 2 players; the team game deals its own"
            ]
        return switches(seat_count, settings), []

    return settings_of


def _fixed(switches: dict):
    """A rule whose switches depend on nothing else."""
    return lambda rules, seat_count, settings, variant: (switches, [])


#: special rule A -> its switches and why it cannot be played in this game: (the game's
#: special rules, seat count, the settings so far, variant) -> (switches, [message]).
#: Asked in this order (a later rule sees the earlier ones' switches: the port's size is
#: the largest asked; « La grande crue »'s hand after « Pont et inondation »'s)
RULE_SETTINGS = {
    "poverty": _poverty,
    "justice": _fixed({"starting_dock_choice": N["justice_choice"], "docks_set_aside": N["justice_aside"]}),
    "drunken_sailors": _fixed({"secret_pass": True}),
    "free_choice": _fixed({"free_draw": True}),
    "choice_of_goods": _fixed({"choose_good": True}),
    "first_choice": _fixed({"pile_pick_cost": N["first_choice_cost"]}),
    "flood_choice": _flood_choice,
    "buy_special_cards": _special_cards(lambda seat_count, settings: {"special_price": N["special_price"]}),
    "bridge_and_flood": _special_cards(
        lambda seat_count, settings: {"hand_specials": hand_specials(("flood", "bridge"), seat_count)}
        | _board(settings, N["bridge_and_flood_board"])
    ),
    "great_flood": _special_cards(
        lambda seat_count, settings: {"hand_specials": hand_specials(("flood",), seat_count), "flood_fills": True}
    ),
    "final_sprint": _fixed({"sprint_end": True}),
}


def register(hooks: Hooks) -> None:
    hooks.rule_settings.update(RULE_SETTINGS)
