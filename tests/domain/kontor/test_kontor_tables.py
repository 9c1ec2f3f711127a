"""The dispatch tables of issue 32: every stored event type has exactly one way to be
applied (the core's or one extension's), every command type reaches a rule or the core,
and the round's order is the step lists of core/decide.py."""

from __future__ import annotations

from domain.kontor import GAME
from domain.kontor.core import decide as core_decide
from domain.kontor.core import evolve as core_evolve
from domain.kontor.core.commands import ChooseCard, MoveShip, Pass, PlaceCard
from domain.kontor.core.hooks import HOOKS

CORE_COMMANDS = {ChooseCard, Pass, PlaceCard, MoveShip}
#: decided by the free wheel form's own turns (hook point ``decide``), not by the table
FREE_WHEEL_COMMANDS = {
    "AcceptAlliance",
    "DeclineAlliance",
    "LeaveAlliance",
    "ProposeAlliance",
    "SetDrunkDock",
}


def test_every_event_type_has_one_applier_the_core_or_one_extension():
    core = set(core_evolve.CORE_EVENTS)
    own = set(HOOKS.events)
    assert not core & own
    assert core | own == set(GAME.event_types)


def test_every_command_type_reaches_a_rule_or_the_core():
    ruled = {t for types, _ in HOOKS.commands if types is not None for t in types}
    free_wheel = {t for t in GAME.command_types if t.__name__ in FREE_WHEEL_COMMANDS}
    assert len(free_wheel) == len(FREE_WHEEL_COMMANDS)
    assert ruled | CORE_COMMANDS | free_wheel == set(GAME.command_types)
    assert not ruled & CORE_COMMANDS


def test_a_guard_refuses_only_the_commands_registered_after_it():
    # Bakchich's Bribe is registered before any guard; the core's commands meet them all
    from domain.kontor.core.commands import Bribe, DrawCard
    from domain.kontor.core.commands_b import PlaceBribeWarehouse

    def guards_first(command_type):
        """The guards a command of this type meets before its first rule."""
        out = []
        for is_guard, fn in HOOKS.command_chain(command_type):
            if not is_guard:
                break
            out.append(fn)
        return out

    guards = [fn for types, fn in HOOKS.commands if types is None]
    assert len(guards) == 2
    assert guards_first(Bribe) == []
    assert guards_first(DrawCard) == guards[:1]
    assert guards_first(PlaceBribeWarehouse) == guards
    assert guards_first(PlaceCard) == guards
    # two rules decide DrawCard, Premier choix's « dock_pick » first
    rules = [fn.__module__ for is_guard, fn in HOOKS.command_chain(DrawCard) if not is_guard]
    assert rules == ["domain.kontor.rules.first_choice", "domain.kontor.rules.draw_step"]


def test_the_round_reads_as_one_list_the_rules_steps_in_their_place():
    assert core_decide.round_order() == (
        "choose",
        "reveal",
        "taxes",
        "order",
        "first placer",
        "turn: place",
        "turn: great_flood",  # « Crue exceptionnelle »: right after the flood is placed
        "turn: warehouses",
        "turn: score",
        "turn: draw_pile",
        "turn: bribe",  # Corruption: after scoring, only right after the tavern
        "turn: board_full",
        "turn: free_choice",  # « Libre choix »: a single open pile, drawn at once
        "turn: draw_step",  # the shared draw step (two piles or more)
        "turn: draw",
        "turn: income",
        "turn: euphrates_surrounded_canals",
        "turn: spring_tide_second_canal",
        "turn: next",
        "end: final_sprint",  # « Sprint final »: the round's end taken over
        "end: event_card",  # the event cards' turn before the next round
        "end: game_end",
        "end: new_round",
        "end: buying",  # the special cards bought before the new round's choice
        "end: event_cards_new_round",
    )
    core = [name for name, _ in core_decide.TURN_STEPS]
    assert [name for name, _ in core_decide.turn_steps() if name in core] == core
