"""The dispatch tables of issue 32: every stored event type has exactly one way to be
applied (the core's or one extension's), every command type reaches a rule or the core,
and the round's order is the step lists of core/decide.py."""

from __future__ import annotations

from domain.kontor import GAME
from domain.kontor.core import decide as core_decide
from domain.kontor.core import evolve as core_evolve
from domain.kontor.core.commands import ChooseCard, MoveShip, Pass, PlaceCard
from domain.kontor.core.hooks import CATALOGUE
from domain.kontor.rules.bribery import PlaceBribeWarehouse
from domain.kontor.scenarios.baksheesh import Bribe

CORE_COMMANDS = {ChooseCard, Pass, PlaceCard, MoveShip}
#: the free wheel form decides every command of its games (its rule comes first in every
#: chain, and answers False in the other games)
FREE_WHEEL = "domain.kontor.forms.free_wheel.turns"
#: the commands only the free wheel's games know
FREE_WHEEL_COMMANDS = {
    "AcceptAlliance",
    "DeclineAlliance",
    "LeaveAlliance",
    "ProposeAlliance",
    "SetDrunkDock",
}


def test_every_event_type_has_one_applier_the_core_or_one_extension():
    core = set(core_evolve.CORE_EVENTS)
    own = set(CATALOGUE.events)
    assert not core & own
    assert core | own == set(GAME.event_types)


def test_every_command_type_reaches_a_rule_or_the_core():
    ruled = {
        t
        for types, fn in CATALOGUE.commands
        if types is not None and fn.__module__ != FREE_WHEEL
        for t in types
    }
    free_wheel = {t for t in GAME.command_types if t.__name__ in FREE_WHEEL_COMMANDS}
    assert len(free_wheel) == len(FREE_WHEEL_COMMANDS)
    assert ruled | CORE_COMMANDS | free_wheel == set(GAME.command_types)
    assert not ruled & CORE_COMMANDS
    # the free wheel's rule is the first of every command's chain
    for t in GAME.command_types:
        assert CATALOGUE.command_chain(t)[0][1].__module__ == FREE_WHEEL


def test_a_guard_refuses_only_the_commands_registered_after_it():
    # Bakchich's Bribe is registered before any guard; the core's commands meet them all
    from domain.kontor.core.commands import DrawCard

    def guards_first(command_type):
        """The guards a command of this type meets before its first rule."""
        out = []
        for is_guard, fn in CATALOGUE.command_chain(command_type)[1:]:  # the free wheel's first
            if not is_guard:
                break
            out.append(fn)
        return out

    guards = [fn for types, fn in CATALOGUE.commands if types is None]
    assert len(guards) == 2
    assert guards_first(Bribe) == []
    assert guards_first(DrawCard) == guards[:1]
    assert guards_first(PlaceBribeWarehouse) == guards
    assert guards_first(PlaceCard) == guards
    # two rules decide DrawCard, Premier choix's « dock_pick » first
    rules = [fn.__module__ for is_guard, fn in CATALOGUE.command_chain(DrawCard) if not is_guard]
    assert rules == [FREE_WHEEL, "domain.kontor.rules.first_choice", "domain.kontor.rules.draw_step"]


def test_the_round_reads_as_one_list_the_rules_steps_in_their_place():
    assert core_decide.round_order() == (
        "start: deal",  # the free wheel swaps it for its whole set-up
        "start: start_fields",
        "start: game_started",
        "start: event_deck",  # the event cards' deck, shuffled after everything else
        "setup: setup_over",
        "setup: first_buying",  # the special cards bought once Justice's set-up is over
        "choose",
        "pass: secret_pass",  # Marins ivres morts: a pass chosen in secret, no florin yet
        "pass: pass_income",
        "reveal",
        "secret_passes",  # Marins ivres morts: the secret passes take their florin
        "taxes",
        "order",  # Contrebande swaps it: its face-down card placed after the others
        "first placer",
        "no cell: ship_may_free",  # a placer whose card has no cell: the ship may free one
        "no cell: blockade_ship",  # Blocus: moving the ship frees the cells next to it
        "no cell: flood_as_water",  # « Choix de l'inondation »: two canals instead
        "no cell: blockade_reason",  # Blocus: returned « for the blockade »
        "no cell: card_returned",
        "ship: ship_moved",  # a ship's move (MoveShip, or before a placement)
        "ship: export_kept",  # the export warehouse: a removed dock's exported goods
        "ship: dock_removed",
        "turn: place",
        "turn: great_flood",  # « Crue exceptionnelle »: right after the flood is placed
        "turn: export",  # the export warehouse: the exported good and the others
        "turn: choose_good",  # « Choix des marchandises »: the turn waits for ChooseGood
        "turn: euphrates_sunken_warehouses",  # Euphrate: a missing good from a canal
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
        "end: blockade_end",  # Blocus: a round where the ship stopped everyone
        "end: game_end",
        "end: new_round",
        "end: buying",  # the special cards bought before the new round's choice
        "end: event_cards_new_round",
        # special rules B: Contrebande reveals before Point final awards, before Vieilles
        # rancunes asks (the end waits for its decisions)
        "game end: face_down_revealed",
        "game end: final_point_award",
        "game end: tavern_sectors_asked",
        "game end: final_selection",
        "game end: final_bonuses",  # the expansions' export majorities and bonus points
        "game end: game_ended",
        "scored: sectors_scored",
        "scored: final_point_last_closed",  # Point final: the sectors scored last remembered
        "command: command_over",
        "command: poverty",  # Misère: a seat broke and an empty treasury end the game
    )
    core = [name for name, _ in core_decide.TURN_STEPS]
    assert [name for name, _ in core_decide.turn_steps() if name in core] == core
    # every rule's step is placed once, in one of the lists
    placed = [name for name in core_decide.round_order()]
    names = [name for _, _, name, _ in CATALOGUE.steps]
    assert len(set(names)) == len(names)
    for name in names:
        assert sum(p.split(": ")[-1] == name for p in placed) == 1, name


def test_the_view_reads_as_one_list_the_rules_parts_in_their_place():
    from domain.kontor.core import view as core_view

    names = [name for name, _ in core_view.view_parts()]
    core = [name for name, _ in core_view.VIEW_PARTS]
    assert [n for n in names if n in core] == core
    # the team game's teams before the final scoring, the scenarios' facts after it, a
    # form's keys before the seat's own, the rules' after it, then the expansions'
    assert names.index("teams") == names.index("variant") + 1
    assert names.index("final_scoring") < names.index("baksheesh") < names.index("known_piles")
    assert names.index("known_piles") < names.index("free_wheel") < names.index("you")
    after_you = names[names.index("you") + 1 : names.index("hidden")]
    assert after_you[-3:] == ["export_warehouse", "event_cards", "warehouse_goods"]
    assert len(after_you) == 20
    # every rule's part is placed (a part naming no part would be left out)
    from domain.kontor.core.hooks import CATALOGUE as hooks

    placed = [fn for _, fn in core_view.view_parts()]
    assert all(part in placed for _, _, _, part in hooks.view_parts)
    assert len(placed) == len(core) + len(hooks.view_parts)


def test_the_legal_commands_read_as_lists_the_rules_parts_in_their_place():
    choose = [name for name, _ in core_decide.command_parts(CATALOGUE, "choose")]
    place = [name for name, _ in core_decide.command_parts(CATALOGUE, "place")]
    # Bakchich's bribes, then Contrebande's face-down choices, after the cards and Pass
    assert choose == ["cards", "pass", "bribes", "face_down"]
    # the exports next to the placements they copy; Inondation au choix's canals last
    assert place == ["cells", "export", "ship", "flood_as_water"]
    # a game without those rules has the core's parts only
    from domain.kontor.core.hooks import rules_for

    basic = rules_for(GAME.parse_options({"variant": "basic"}, 2))
    assert [name for name, _ in core_decide.command_parts(basic, "place")] == ["cells", "ship"]


def test_game_started_sets_its_first_phase_once_the_rules_parts_are_set():
    """The core applies GameStarted's phase after every rule's part of the starting state
    (Justice used to, in every game): the free wheel's own "turn" comes with its next event."""
    options = GAME.parse_options({"variant": "free_wheel"}, 2)
    events = GAME.start(options, 2, "ab" * 32)
    assert core_evolve.evolve(None, events[0]).phase == events[0].phase == "choose"
    assert GAME.fold(events).phase == "turn"
    justice = GAME.parse_options({"variant": "advanced", "special_rules": ["justice"]}, 2)
    started = GAME.start(justice, 2, "ab" * 32)[0]
    assert core_evolve.evolve(None, started).phase == started.phase == "starting_docks"
