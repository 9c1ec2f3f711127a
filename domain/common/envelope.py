"""Events and commands as stored and sent: explicit type names, schema versions, upcasters.

An event is stored as (type, schema_version, data).  ``type`` is the class's ``TYPE``
string (never a module path) and ``schema_version`` its ``SCHEMA_VERSION``.  A class whose
shape changes bumps SCHEMA_VERSION and its title registers an upcaster from the old
version; stored events are never edited, they are upcast when read.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from domain.common.codec import CodecError, decoder_of, from_data, to_data
from domain.decider import GameDefinition, schema_version


@cache
def _registry(types: tuple[type, ...]) -> dict[str, type]:
    registry: dict[str, type] = {}
    for cls in types:
        if cls.TYPE in registry:
            raise ValueError(f"duplicate type name {cls.TYPE}")
        registry[cls.TYPE] = cls
    return registry


def encode_event(event: Any) -> tuple[str, int, dict]:
    return event.TYPE, schema_version(event), to_data(event)


def decode_event(game: GameDefinition, type_name: str, version: int, data: dict) -> Any:
    last = _last  # one read (threads): the title of the last table asked and its table
    table = last[1] if last[0] is game else _event_table(game)
    found = table.get(type_name)
    if found is None:
        found = _event_entry(game, table, type_name)
    cls, current, decoder = found
    if version == current:  # the common case, kept short: a replay decodes every event
        try:
            return decoder(data)
        except CodecError:
            return from_data(cls, data)  # raises the same error, its fields named
    while version < current:
        upcast = game.upcasters.get((type_name, version))
        if upcast is None:
            raise ValueError(f"no upcaster for {type_name} v{version}")
        data = upcast(data)
        version += 1
    if version != current:
        raise ValueError(f"{type_name} v{version} is newer than this server (v{current})")
    return from_data(cls, data)


#: per title (by identity): type name -> (class, current schema version, decoder), an
#: entry made at the type's first decoding (its decoder compiled then: a title has up to
#: 80 event types, a process replaying a game meets a fifth to a half of them)
_EVENT_TABLES: dict[int, tuple[GameDefinition, dict[str, tuple[type, int, Any]]]] = {}
#: the title and table of the last _event_table call: a replay decodes a game's events in a row
_last: tuple = (None, None)


def _event_table(game: GameDefinition) -> dict[str, tuple[type, int, Any]]:
    global _last
    entry = _EVENT_TABLES.get(id(game))
    if entry is None or entry[0] is not game:
        _registry(game.event_types)  # a duplicate type name fails here, before any decoding
        entry = _EVENT_TABLES[id(game)] = (game, {})
    _last = entry
    return entry[1]


def _event_entry(game: GameDefinition, table: dict, type_name: str) -> tuple[type, int, Any]:
    cls = _registry(game.event_types).get(type_name)
    if cls is None:
        raise ValueError(f"unknown event type {type_name!r} for {game.id}")
    found = table[type_name] = (cls, schema_version(cls), decoder_of(cls))
    return found


def encode_command(command: Any) -> dict:
    return {"type": command.TYPE, **to_data(command)}


def command_class(game: GameDefinition, type_name: str) -> type | None:
    return _registry(game.command_types).get(type_name)


def decode_command(game: GameDefinition, data: Any) -> Any:
    """A command from its JSON form ``{"type": ..., fields...}``; CodecError if malformed."""
    if not isinstance(data, dict):
        raise CodecError({"command": ["must be an object"]})
    type_name = data.get("type")
    cls = command_class(game, type_name) if isinstance(type_name, str) else None
    if cls is None:
        known = ", ".join(sorted(_registry(game.command_types)))
        raise CodecError({"command.type": [f"must be one of {known}"]})
    fields = {k: v for k, v in data.items() if k != "type"}
    return from_data(cls, fields, "command")
