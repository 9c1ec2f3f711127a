"""Boards as pictures (SVG) drawn from a view, one drawing module per title.

The API serves them (`GET /v1/games/{id}/board.svg`, through
service/games/pictures.py), and mail and terminal clients can use the same drawings. A
drawing sees only the view it is given, so it can never show what the caller may not see.
This package is presentation, outside the application layer: it imports neither service/
nor any database or web library (a contract in pyproject.toml).
"""

from __future__ import annotations

from collections.abc import Callable

from boards import amsterdam, generic, kontor, speicherstadt

Drawing = Callable[[dict, dict | None], str]

DRAWINGS: dict[str, Drawing] = {
    "amsterdam": amsterdam.draw,
    "kontor": kontor.draw,
    "speicherstadt": speicherstadt.draw,
}


def render(title_id: str, view: dict, components: dict | None = None) -> str:
    """The SVG picture of ``view``; titles without a drawing of their own get a summary."""
    return DRAWINGS.get(title_id, generic.draw)(view, components)
