"""Speicherstadt (Stefan Feld, 2010) for 2 to 5 players."""

from domain.speicherstadt.game import GAME

__all__ = ["GAME"]
