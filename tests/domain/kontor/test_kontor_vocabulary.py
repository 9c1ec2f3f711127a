"""Kontor's stored vocabulary does not move when its classes do (issue 32): the event and
command types the title lists (the core's and each extension's, gathered by the title's
package) are, as (TYPE, SCHEMA_VERSION, field names in order), the list fixed from main
before the extensions took theirs out of the core (kontor_vocabulary.json). A type lost,
renamed, re-versioned or with its fields changed fails here; every stored game replays."""

from __future__ import annotations

import dataclasses
import importlib
import json
from pathlib import Path

import domain.kontor
from domain.kontor import GAME
from domain.kontor.core import commands as core_commands
from domain.kontor.core import events as core_events

FIXED = Path(__file__).with_name("kontor_vocabulary.json")


def _rows(types, kind):
    return {
        (kind, t.TYPE, getattr(t, "SCHEMA_VERSION", None), tuple(f.name for f in dataclasses.fields(t)))
        for t in types
    }


def test_the_event_and_command_types_are_the_fixed_list():
    fixed = {(k, t, v, tuple(f)) for k, t, v, f in json.loads(FIXED.read_text())}
    listed = _rows(GAME.event_types, "event") | _rows(GAME.command_types, "command")
    assert listed == fixed
    assert len(GAME.event_types) + len(GAME.command_types) == len(fixed)  # none twice


def test_the_commands_keep_their_order():
    """The titles' description lists the command types in this order (api/routes/titles.py)."""
    fixed = [t for k, t, _, _ in json.loads(FIXED.read_text()) if k == "command"]
    assert [t.TYPE for t in GAME.command_types] == fixed


def _vocabulary_modules():
    """Every Kontor module that lists stored types of its own (``EVENTS``, ``COMMANDS``)."""
    root = Path(domain.kontor.__file__).parent
    for path in sorted(root.rglob("*.py")):
        name = ".".join(("domain", "kontor", *path.relative_to(root).with_suffix("").parts))
        if name.endswith(".__init__") or ".policy" in name:
            continue
        module = importlib.import_module(name)
        if hasattr(module, "EVENTS") or hasattr(module, "COMMANDS"):
            yield module


def test_each_owner_lists_only_what_it_defines_and_the_title_gathers_every_list():
    """The shape of issue 32: the core defines and lists only its own events and commands
    (and DrawCard, shared by extensions of two kinds); each extension lists its own, defined
    in its module; the title's tuples are exactly all those lists."""
    events, commands = [], []
    for module in _vocabulary_modules():
        for t in (*getattr(module, "EVENTS", ()), *getattr(module, "COMMANDS", ())):
            assert t.__module__ == module.__name__, (t, module.__name__)
        events += getattr(module, "EVENTS", ())
        commands += getattr(module, "COMMANDS", ())
    commands += core_commands.SHARED_COMMANDS
    assert sorted(events, key=repr) == sorted(GAME.event_types, key=repr)
    assert sorted(commands, key=repr) == sorted(GAME.command_types, key=repr)


#: what the core owns: the basic and advanced games' events and commands, and DrawCard (the
#: special rules A's and the free wheel's: extensions of two kinds, which never import each
#: other). An extension's event or command is defined next to it, never here.
CORE_EVENTS = {
    "GameStarted", "CardChosen", "Passed", "CardsRevealed", "TaxPaid", "TaxCancelled",
    "TaxWaived", "CardReturned", "TurnOrderSet", "CardPlaced", "WarehousesAdded",
    "SectorScored", "CardDrawn", "IncomePaid", "RoundStarted", "GameEnded", "ShipMoved",
    "DockRemoved", "FinalSectorsCounted",
}
CORE_COMMANDS = {"ChooseCard", "Pass", "PlaceCard", "MoveShip", "DrawCard"}


def test_the_core_defines_no_extensions_event_or_command():
    in_core = {
        t.__name__ for t in (*GAME.event_types, *GAME.command_types)
        if t.__module__.startswith("domain.kontor.core.")
    }
    assert in_core == CORE_EVENTS | CORE_COMMANDS
    assert {t.__name__ for t in core_events.EVENTS} == CORE_EVENTS
    assert {t.__name__ for t in (*core_commands.COMMANDS, *core_commands.SHARED_COMMANDS)} == CORE_COMMANDS
