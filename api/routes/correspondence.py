"""Correspondence play: resign, abort, vacation. "My turn" is GET /v1/games?to_act=me."""

from __future__ import annotations

from flask import Blueprint, request

from api.auth import required_player
from api.io import idempotency, load_body, respond, send
from api.schemas import CommandOutcomeOut, SeatChoice, VacationIn, VacationOut
from api.services import services

bp = Blueprint("correspondence", __name__)

COMMAND_OUTCOME_OUT = CommandOutcomeOut()
SEAT_CHOICE = SeatChoice()
VACATION_IN = VacationIn()
VACATION_OUT = VacationOut()


def _render_outcome(outcome):
    return 201, COMMAND_OUTCOME_OUT.dump(outcome)


def _seat_choice() -> int | None:
    """The optional {"seat": n} body: an empty body means the caller's only seat."""
    if not request.get_data(cache=True).strip():
        return None
    return load_body(SEAT_CHOICE)["seat"]


@bp.post("/games/<game_id>/resign")
def resign(game_id: str):
    caller = required_player()
    result = services().clocks.resign(caller, game_id, _seat_choice(), idempotency(_render_outcome))
    return respond(result, _render_outcome)


@bp.post("/games/<game_id>/abort")
def abort(game_id: str):
    caller = required_player()
    result = services().clocks.abort(caller, game_id, _seat_choice(), idempotency(_render_outcome))
    return respond(result, _render_outcome)


@bp.get("/players/me/vacation")
def vacation():
    return send(VACATION_OUT, services().clocks.vacation(required_player()))


@bp.put("/players/me/vacation")
def start_vacation():
    caller = required_player()
    data = load_body(VACATION_IN)
    return send(VACATION_OUT, services().clocks.start_vacation(caller, data["from_"], data["until"]))


@bp.delete("/players/me/vacation")
def end_vacation():
    return send(VACATION_OUT, services().clocks.end_vacation(required_player()))
