from __future__ import annotations

from flask import Blueprint

from api.auth import required_player
from api.io import idempotency, load_body, respond, send
from api.schemas import MeOut, NewPlayerOut, PlayerCreate, PlayerSettings
from api.services import services

bp = Blueprint("players", __name__)

# marshmallow schemas are built once: building one per request costs more than using it
ME_OUT = MeOut()
NEW_PLAYER_OUT = NewPlayerOut()
PLAYER_CREATE = PlayerCreate()
PLAYER_SETTINGS = PlayerSettings()


def _render_new(result):
    return 201, NEW_PLAYER_OUT.dump({**result.player.__dict__, "token": result.token})


@bp.post("/players")
def create_player():
    data = load_body(PLAYER_CREATE)
    result = services().players.create(data["name"], data["email"], idempotency(_render_new), data["password"])
    return respond(result, _render_new)


@bp.get("/players/me")
def me():
    return send(ME_OUT, services().players.get(required_player().id))


@bp.patch("/players/me")
def update_me():
    player = required_player()
    data = load_body(PLAYER_SETTINGS)
    updated = services().players.update_settings(
        player, data.get("notify_by_email"), data.get("vacation_until", ...),
        email=data.get("email", ...), notify=data.get("notify"),
    )
    return send(ME_OUT, updated)
