"""Kontor's stored vocabulary does not move when its classes do (issue 32): the event and
command types the title lists (the core's and each extension's, gathered by the title's
package) are, as (TYPE, SCHEMA_VERSION, field names in order), the list fixed from main
before the extensions took theirs out of the core (kontor_vocabulary.json). A type lost,
renamed, re-versioned or with its fields changed fails here; every stored game replays."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

from domain.kontor import GAME

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
