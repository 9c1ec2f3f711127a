"""Switches and validation of the special rules A (« Règles spéciales », « Variantes avec
les cartes spéciales »): one table for all of them, the options' hook point
``rule_settings``. Shared by the special rules A, not a rule itself."""

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


def special_rule_settings(rules: set[str], seat_count: int, settings: dict) -> dict:
    """Options switches set by the special rules A, given the variant's ``settings``."""
    out: dict = {}
    board = settings.get("board_size", 6)
    if "poverty" in rules:
        # « Chaque joueur ne reçoit que trois florins ; le reste est enlevé du jeu. »
        # « Plateau : 7x7 cases » (the team game keeps its 8x8: reading R-A1)
        out["starting_money"] = N["poverty_money"]
        out["treasury_total"] = N["poverty_money"] * seat_count
        out["poverty_end"] = True
        board = max(board, N["poverty_board"])
    if "justice" in rules:
        out["starting_dock_choice"] = N["justice_choice"]
        out["docks_set_aside"] = N["justice_aside"]
    if "drunken_sailors" in rules:
        out["secret_pass"] = True
    if "free_choice" in rules:
        out["free_draw"] = True
    if "choice_of_goods" in rules:
        out["choose_good"] = True
    if "first_choice" in rules:
        out["pile_pick_cost"] = N["first_choice_cost"]
    if "flood_choice" in rules:
        out["flood_as_water"] = N["flood_water_cards"]
    if "buy_special_cards" in rules:
        out["special_price"] = N["special_price"]
    if "bridge_and_flood" in rules:
        out["hand_specials"] = hand_specials(("flood", "bridge"), seat_count)
        board = max(board, N["bridge_and_flood_board"])
    if "great_flood" in rules:
        out["hand_specials"] = hand_specials(("flood",), seat_count)
        out["flood_fills"] = True
    if "final_sprint" in rules:
        out["sprint_end"] = True
    if board != settings.get("board_size", 6):
        out["board_size"] = board
    return out


def special_rule_errors(rules: set[str], variant: str | None) -> list[str]:
    """Combinations of the special rules A that cannot be played, each with the reason."""
    errors = []
    floods = variant == "team" or rules & {"bridge_and_flood", "great_flood", "buy_special_cards"}
    if "flood_choice" in rules and not floods:
        errors.append(
            "flood_choice changes how a flood card is used, and this game has none (the team "
            "game, bridge_and_flood, great_flood or buy_special_cards bring them)"
        )
    if rules & {"bridge_and_flood", "great_flood", "buy_special_cards"} and variant == "team":
        errors.append("the special-card variants are for 2 players; the team game deals its own")
    return errors


def rule_settings(rules: set[str], seat_count: int, settings: dict, variant: str | None):
    """(switches, messages) for the options (hook point rule_settings)."""
    return (
        special_rule_settings(rules, seat_count, settings),
        special_rule_errors(rules, variant),
    )


def register(hooks: Hooks) -> None:
    hooks.rule_settings.append(rule_settings)
