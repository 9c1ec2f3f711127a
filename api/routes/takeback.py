"""Takeback with consent: POST /v1/games/{id}/takeback, .../takeback/accept, .../takeback/decline."""

from __future__ import annotations

from flask import Blueprint

from api.auth import required_player
from api.io import idempotency, respond
from api.routes.correspondence import _render_outcome, _seat_choice
from api.services import services
from service.correspondence.takeback import TakebackService

bp = Blueprint("takeback", __name__)


def _takebacks() -> TakebackService:
    found = services()
    return TakebackService(found.store, found.games)


@bp.post("/games/<game_id>/takeback")
def request_takeback(game_id: str):
    caller = required_player()
    result = _takebacks().request(caller, game_id, _seat_choice(), idempotency(_render_outcome))
    return respond(result, _render_outcome)


@bp.post("/games/<game_id>/takeback/accept")
def accept_takeback(game_id: str):
    caller = required_player()
    result = _takebacks().answer(caller, game_id, _seat_choice(), True, idempotency(_render_outcome))
    return respond(result, _render_outcome)


@bp.post("/games/<game_id>/takeback/decline")
def decline_takeback(game_id: str):
    caller = required_player()
    result = _takebacks().answer(caller, game_id, _seat_choice(), False, idempotency(_render_outcome))
    return respond(result, _render_outcome)
