"""Which extensions hook into the core, and in which games each acts. The only module that
imports the extensions' hook modules.

``EXTENSIONS`` lists them in their order; ``ACTIVE`` says, for each, under which options
it acts (the others act in every game: they read only their own sub-state, or serve
several rules). A game's rule set (``rule_set``, read by the core as
``core.hooks.rules_for(options)``, built once per options value) holds only the active
extensions' steps (added or swapped), swaps of the core's functions, tables by name, view
parts, evolve rules and functions; ``CATALOGUE`` holds every one (core/hooks.py says what
it is read for).

The round's order is not decided here: it is the step lists of core/decide.py (and the
set-up's, core/setup.py: START_STEPS), each rule's step placed next to the step it names
or swapped for the core's step of that name (``round_order()``), and the view's parts
likewise (core/view.py: ``view_parts()``). The order of ``EXTENSIONS`` decides only the
order of the functions at one hook point, of a command's chain (its guards and rules) and
of the special rules' switches (rules/settings.py's table); the orders the rules rely on
are asserted by tests/domain/kontor/test_kontor_hook_points.py and
tests/domain/kontor/test_kontor_tables.py.

The title's stored vocabulary is gathered here too (``EVENT_TYPES``, ``COMMAND_TYPES``,
for the codec): the core's own events and commands (core/events.py, core/commands.py, with
the one command extensions of two kinds share, DrawCard) and each extension's own, which
it defines and lists next to it (``EVENTS``, ``COMMANDS``: in the rule's, the scenario's,
the expansion's module, or a module of its kind that several of them share, like
rules/pending_step.py's steps or forms/free_wheel/events.py).

To add a special rule, a scenario or an expansion: write its module with its events and
commands (``EVENTS``, ``COMMANDS``) and a ``register(hooks)`` that adds its steps
(``add_step``, ``swap_step``), swaps (``swap``), commands, events, table entries and
functions (core/hooks.py), list it in ``EXTENSIONS`` and, if it acts only under some
options, in ``ACTIVE``; add its events and commands to ``EVENT_TYPES`` and
``COMMAND_TYPES``."""

from __future__ import annotations

from collections.abc import Callable

from domain.kontor.core import commands as core_commands
from domain.kontor.core import events as core_events
from domain.kontor.core.hooks import CATALOGUE, Hooks, use_rule_sets
from domain.kontor.expansions import event_cards, export_warehouse, final_bonuses, warehouse_goods
from domain.kontor.forms import team
from domain.kontor.forms.free_wheel import commands as free_wheel_commands
from domain.kontor.forms.free_wheel import events as free_wheel_events
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
    water_fill,
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

#: every stored event type: the core's, then each extension's own (``EVENTS``)
EVENT_TYPES: tuple[type, ...] = (
    *core_events.EVENTS,
    *free_wheel_events.EVENTS,
    *justice.EVENTS,
    *buy_special_cards.EVENTS,
    *pending_step.EVENTS,  # the placer's pending step, shared by several special rules A
    *first_choice.EVENTS,
    *water_fill.EVENTS,  # shared by Choix d'inondation, Crue exceptionnelle, Sprint final
    *flood_choice.EVENTS,
    *bribery.EVENTS,
    *smuggling.EVENTS,
    *final_point.EVENTS,
    *old_grudges.EVENTS,
    *export_warehouse.EVENTS,
    *final_bonuses.EVENTS,
    *event_cards.EVENTS,
    *baksheesh.EVENTS,
    *spring_tide.EVENTS,
    *euphrates.EVENTS,
)

#: every command type: the core's, then each extension's own (``COMMANDS``), in the order
#: the title has always listed them (the titles' description shows it)
COMMAND_TYPES: tuple[type, ...] = (
    *core_commands.COMMANDS,
    *justice.COMMANDS,
    *buy_special_cards.COMMANDS,
    *choice_of_goods.COMMANDS,
    *core_commands.SHARED_COMMANDS,  # DrawCard: the special rules A's and the free wheel's
    *first_choice.COMMANDS,
    *flood_choice.COMMANDS,
    *free_wheel_commands.COMMANDS,
    *smuggling.COMMANDS,
    *bribery.COMMANDS,
    *old_grudges.COMMANDS,
    *export_warehouse.COMMANDS,
    *event_cards.COMMANDS,
    *baksheesh.COMMANDS,
    *decisions.COMMANDS,  # shared by Euphrate and Grande marée
)

#: what the service asks of the team game (GameDefinition.team_of, may_confer)
team_of = team.team_name
may_confer = team.may_confer

#: extension -> the options under which it acts (every flag its functions read to decide
#: whether they act: where it is absent, they do nothing); not listed: every game
ACTIVE: dict[object, Callable[[object], bool]] = {
    team: lambda o: bool(o.teams),
    blockade: lambda o: o.blockade,
    free_wheel_placement: lambda o: o.diagonal_cranes or o.shared_dock_pile,
    free_wheel: lambda o: o.sequential_turns or o.score_at_end,
    free_wheel_evolve: lambda o: o.sequential_turns,
    free_wheel_view: lambda o: o.sequential_turns or o.score_at_end,
    protection: lambda o: o.protection,
    tic_tac_toe: lambda o: o.tic_tac_toe,
    baksheesh: lambda o: o.water_aside or o.bribes,
    final_count: final_count.own_selection,
    watergames: lambda o: o.docks_touch_water,
    ever_smaller: lambda o: o.size_points,
    isola_grande: lambda o: o.island_points,
    speed: lambda o: o.end_at_first_sector,
    embargo: lambda o: o.warehouse_supply,
    euphrates: lambda o: o.sunken_warehouses,
    spring_tide: lambda o: o.second_canal_cost,
    justice: lambda o: o.starting_dock_choice or o.docks_set_aside,
    buy_special_cards: lambda o: o.special_price,
    drunken_sailors: lambda o: o.secret_pass,
    bridge_and_flood: bridge_and_flood.acts,
    choice_of_goods: lambda o: o.choose_good,
    free_choice: lambda o: o.free_draw,
    first_choice: lambda o: o.pile_pick_cost,
    flood_choice: lambda o: o.flood_as_water,
    poverty: lambda o: o.poverty_end,
    great_flood: lambda o: o.flood_fills,
    final_sprint: lambda o: o.sprint_end,
    bribery: lambda o: o.bribery,
    smuggling: lambda o: o.smuggling,
    final_point: lambda o: o.final_point,
    old_grudges: lambda o: o.old_grudges,
    export_warehouse: lambda o: o.export_warehouse,
    event_cards: lambda o: o.event_cards,
    final_bonuses: lambda o: o.export_warehouse or o.event_cards,
}

_registered = False


def register_all() -> None:
    """Fill ``CATALOGUE`` once, and have the core build its rule sets here."""
    global _registered
    if _registered:
        return
    _registered = True
    for extension in EXTENSIONS:
        extension.register(CATALOGUE)
    use_rule_sets(rule_set)


def rule_set(options) -> Hooks:
    """A game's rule set: the extensions active under ``options``, in their order. The
    commands and own events stay the catalogue's tables, dispatched by type (a command
    of a rule this game does not play is refused by that rule, with its reason, as
    always; an event is applied by its owner)."""
    rules = Hooks()
    for extension in EXTENSIONS:
        active = ACTIVE.get(extension)
        if active is None or active(options):
            extension.register(rules)
    rules.commands = CATALOGUE.commands
    rules.command_guard = CATALOGUE.command_guard
    rules.events = CATALOGUE.events
    return rules
