"""Amsterdam (Stefan Feld, 2013) for 2 to 4 players: the base game, 12 or 10 rounds."""

from domain.amsterdam.game import GAME

__all__ = ["GAME"]
