"""The scenarios' switches and the special rules they cannot be played with (shared by every
scenario: the scenario's own table row, scenarios/data.py).

« Sauf indication contraire, les règles du jeu avancé s'appliquent » ; « Certaines règles
spéciales peuvent être combinées avec les scénarios » (some, not all).

The options' table ``scenario_settings`` (scenario name -> its switches, after the
variant's) and the hook point ``option_conflicts`` (a special rule that sets its own port, or needs the taverns a
scenario removes). Isola grande's own conflict is in isola_grande.py.
"""

from __future__ import annotations

from domain.kontor.core.hooks import Hooks
from domain.kontor.scenarios.data import (
    RULES_NEEDING_TAVERNS,
    RULES_WITH_OWN_PORT,
    SCENARIO_SEAT_SETTINGS,
    SCENARIO_SETTINGS,
)


def switches_of(scenario: str):
    """(seat count) -> the scenario's switches (scenarios/data.py), after the variant's."""
    return lambda seat_count: {**SCENARIO_SETTINGS[scenario], **SCENARIO_SEAT_SETTINGS.get((scenario, seat_count), {})}


def option_conflicts(settings: dict, scenario: str, special_rules, seat_count: int) -> list[str]:
    """Why a scenario cannot be played with these special rules (empty: it can).
    ``settings`` are the merged Options values of the variant and the scenario."""
    out = []
    rules = set(special_rules)
    size = settings.get("board_size", 6)
    square_cross = settings.get("layout", "cross") == "cross" and not settings.get("board_height")
    for rule in sorted(rules & RULES_WITH_OWN_PORT):
        if size != 7 or not square_cross:
            out.append(
                f"{rule} plays on the normal cross of a 7x7 port (« Disposition initiale "
                f"normale. Plateau : 7x7 cases »), {scenario} has its own port"
            )
    if "taverns" in settings.get("removed_cards", ()):
        for rule in sorted(rules & RULES_NEEDING_TAVERNS):
            out.append(f"{rule} gives the tavern a use, and {scenario} removes the taverns")
    return out


def register(hooks: Hooks) -> None:
    hooks.option_conflicts.append(option_conflicts)
    hooks.scenario_settings.update((scenario, switches_of(scenario)) for scenario in SCENARIO_SETTINGS)
