"""Which extensions hook into the core. The only module that imports the extensions' hook
modules; each extension decides from the options whether it acts in a given game, so the
options select which are active.

The round's order is not decided here: it is the step lists of core/decide.py, each rule's
step placed next to the step it names (``round_order()``), and the view's parts likewise
(core/view.py: ``view_parts()``). The order of ``EXTENSIONS`` decides only the order of
the functions at one hook point and of a command's chain (its guards and rules); the
orders the rules rely on are asserted by tests/domain/kontor/test_kontor_hook_points.py
and tests/domain/kontor/test_kontor_tables.py.

To add a special rule, a scenario or an expansion: write its module with a
``register(hooks)`` that adds its steps, commands, events and functions (core/hooks.py),
and list it here."""

from __future__ import annotations

from domain.kontor.core.hooks import HOOKS
from domain.kontor.expansions import event_cards, export_warehouse, final_bonuses, warehouse_goods
from domain.kontor.forms import team
from domain.kontor.forms.free_wheel import evolve as free_wheel_evolve
from domain.kontor.forms.free_wheel import placement as free_wheel_placement
from domain.kontor.forms.free_wheel import turns as free_wheel
from domain.kontor.forms.free_wheel import view as free_wheel_view
from domain.kontor.rules import (
    blockade,
    bribery,
    bridge_and_flood,
    buy_special_cards,
    choice_of_goods,
    draw_step,
    drunken_sailors,
    final_point,
    final_sprint,
    first_choice,
    flood_choice,
    free_choice,
    great_flood,
    justice,
    old_grudges,
    pending_step,
    poverty,
    protection,
    smuggling,
)
from domain.kontor.rules import settings as special_rule_settings
from domain.kontor.scenarios import (
    baksheesh,
    decisions,
    embargo,
    euphrates,
    ever_smaller,
    final_count,
    isola_grande,
    port_and_deck,
    speed,
    spring_tide,
    tic_tac_toe,
    watergames,
)
from domain.kontor.scenarios import settings as scenario_settings

#: the forms, scenarios, special rules, expansions, registered in this order
EXTENSIONS = (
    team,
    blockade,
    free_wheel_placement,
    free_wheel,
    free_wheel_evolve,
    free_wheel_view,
    protection,
    tic_tac_toe,
    baksheesh,
    scenario_settings,
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
    special_rule_settings,  # the special rules A's switches
    justice,
    buy_special_cards,
    drunken_sailors,
    bridge_and_flood,
    pending_step,  # shared by several rules: the placer's pending step
    choice_of_goods,
    free_choice,
    first_choice,
    draw_step,  # shared by free_choice and first_choice
    flood_choice,
    poverty,
    great_flood,
    final_sprint,
    bribery,
    smuggling,
    final_point,
    old_grudges,
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
