from __future__ import annotations

from flask import Blueprint

from api.auth import required_player
from api.io import idempotency, load_body, respond, send
from api.schemas import MeOut, NewPlayerOut, PlayerCreate, PlayerSettings
from api.services import services

bp = Blueprint("players", __name__)


def _render_new(result):
    return 201, NewPlayerOut().dump({**result.player.__dict__, "token": result.token})


@bp.post("/players")
def create_player():
    data = load_body(PlayerCreate())
    result = services().players.create(data["name"], data["email"], idempotency(_render_new))
    return respond(result, _render_new)


@bp.get("/players/me")
def me():
    return send(MeOut(), required_player())


@bp.patch("/players/me")
def update_me():
    player = required_player()
    data = load_body(PlayerSettings())
    updated = services().players.update_settings(
        player, data.get("notify_by_email"), data.get("vacation_until", ...)
    )
    return send(MeOut(), updated)
