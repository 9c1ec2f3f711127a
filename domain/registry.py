"""The titles this server hosts, by id."""

from __future__ import annotations

from domain.decider import GameDefinition


def titles() -> dict[str, GameDefinition]:
    from domain.kontor import GAME as KONTOR

    found = {KONTOR.id: KONTOR}
    try:  # titles land one issue at a time; a title folder not yet present is not hosted
        from domain.speicherstadt import GAME as SPEICHERSTADT
    except ImportError:
        pass
    else:
        found[SPEICHERSTADT.id] = SPEICHERSTADT
    return found
