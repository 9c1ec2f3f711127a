"""The board of a game as a picture, for the caller's view: boards/ draws, this finds the view."""

from __future__ import annotations

from boards import render
from service.errors import NotFound
from service.games.titles import title as title_of


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
