"""Bearer tokens: who is calling. Reads without a token are the spectator's."""

from __future__ import annotations

from flask import request

from api.observe import note_player
from api.services import services
from service.errors import Unauthorized
from service.players import PlayerService
from service.store import Player

_KEY = "entrepot.player"


def optional_player() -> Player | None:
    # kept on the request itself: an app context (and its g) can outlive a request
    if _KEY in request.environ:
        return request.environ[_KEY]
    player = bearer_player(services().players, request.headers.get("Authorization"))
    request.environ[_KEY] = player
    return player


def bearer_player(players: PlayerService, header: str | None) -> Player | None:
    """The player an Authorization header names; None without one."""
    if header is None:
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise Unauthorized("use Authorization: Bearer <token>")
    player = players.authenticate(token.strip())
    note_player(player.id)
    return player


def required_player() -> Player:
    player = optional_player()
    if player is None:
        raise Unauthorized("this request needs Authorization: Bearer <token>")
    return player
