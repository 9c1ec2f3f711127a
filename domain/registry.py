"""The titles this server hosts, by id."""

from __future__ import annotations

from domain.amsterdam import GAME as AMSTERDAM
from domain.decider import GameDefinition
from domain.kontor import GAME as KONTOR
from domain.speicherstadt import GAME as SPEICHERSTADT


def titles() -> dict[str, GameDefinition]:
    return {game.id: game for game in (AMSTERDAM, KONTOR, SPEICHERSTADT)}
