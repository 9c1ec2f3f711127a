"""Boards as pictures (SVG) drawn from a view, one drawing module per title.

The API serves them (`GET /v1/games/{id}/board.svg`), and mail and terminal clients can
use the same drawings. A drawing sees only the view it is given, so it can never show
what the caller may not see.
"""

from __future__ import annotations

from collections.abc import Callable

from boards import amsterdam, generic, kontor, speicherstadt
from service.errors import NotFound
from service.games.titles import title as title_of

Drawing = Callable[[dict, dict | None], str]

DRAWINGS: dict[str, Drawing] = {
    "amsterdam": amsterdam.draw,
    "kontor": kontor.draw,
    "speicherstadt": speicherstadt.draw,
}


def render(title_id: str, view: dict, components: dict | None = None) -> str:
    """The SVG picture of ``view``; titles without a drawing of their own get a summary."""
    return DRAWINGS.get(title_id, generic.draw)(view, components)


def board_picture(games, game_id: str, caller, at: int | None, seat: int | None) -> str:
    """The board of a game as ``caller`` may see it after event ``at`` (default: now)."""
    snapshot = games.get(game_id, caller, seat)
    view = snapshot.view
    if view is None:  # found by schemathesis: a waiting game has no board yet
        raise NotFound("this game has not started: it has no board yet")
    if at is not None and at != snapshot.game.version:
        _, view = games.state_at(game_id, caller, at, seat)
    title_id = snapshot.game.title
    return render(title_id, view, title_of(title_id).component_data())
