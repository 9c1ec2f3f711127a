"""Which extensions hook into the core, in which order (each hook point runs its functions
in the order of ``EXTENSIONS``). The only module that imports the extensions' hook
modules; each extension decides from the options whether it acts in a given game, so the
options select which are active.

To add a special rule, a scenario or an expansion: write its module with a
``register(hooks)`` that appends its functions to the points of core/hooks.py it needs,
and list it here."""

from __future__ import annotations

from domain.kontor.core.hooks import HOOKS
from domain.kontor.expansions import event_cards, export_warehouse, final_bonuses, warehouse_goods
from domain.kontor.forms import team
from domain.kontor.forms.free_wheel import evolve as free_wheel_evolve
from domain.kontor.forms.free_wheel import placement as free_wheel_placement
from domain.kontor.forms.free_wheel import turns as free_wheel
from domain.kontor.forms.free_wheel import view as free_wheel_view
from domain.kontor.rules import blockade, final_sprint, great_flood, poverty, protection
from domain.kontor.rules import special_a as special_rules_a
from domain.kontor.rules import special_b as special_rules_b
from domain.kontor.rules import special_b_filters as special_rules_b_filters
from domain.kontor.rules import special_b_view as special_rules_b_view
from domain.kontor.scenarios import (
    baksheesh,
    decisions,
    embargo,
    euphrates,
    ever_smaller,
    final_count,
    isola_grande,
    port_and_deck,
    settings,
    speed,
    spring_tide,
    tic_tac_toe,
    watergames,
)

#: special rules B's filters first (their placement errors are named before a form's),
#: then the forms, scenarios, special rules, expansions: who acts is asked in this order
EXTENSIONS = (
    team,
    blockade,
    special_rules_b_filters,
    free_wheel_placement,
    free_wheel,
    free_wheel_evolve,
    free_wheel_view,
    protection,
    tic_tac_toe,
    baksheesh,
    settings,
    port_and_deck,
    final_count,
    watergames,
    ever_smaller,
    isola_grande,
    speed,
    embargo,
    decisions,
    euphrates,
    spring_tide,
    special_rules_a,
    poverty,
    great_flood,
    final_sprint,
    special_rules_b,
    special_rules_b_view,
    export_warehouse,
    event_cards,
    warehouse_goods,
    final_bonuses,
)

#: what the service asks of the team game (GameDefinition.team_of, may_confer)
team_of = team.team_name
may_confer = team.may_confer

_registered = False


def register_all() -> None:
    """Fill ``HOOKS`` once."""
    global _registered
    if _registered:
        return
    _registered = True
    for extension in EXTENSIONS:
        extension.register(HOOKS)
