"""Private notes on a game: PUT and GET /v1/games/{id}/notes, the caller's own only."""

from __future__ import annotations

from flask import Blueprint
from marshmallow import Schema, fields, validate

from api.auth import required_player
from api.io import load_body, send
from api.schemas import Strict
from api.services import services
from service.games.notes import MAX_NOTE_CHARS, NoteService

bp = Blueprint("notes", __name__)


class NoteIn(Strict):
    text = fields.Str(required=True, validate=validate.Length(max=MAX_NOTE_CHARS))


class NoteOut(Schema):
    game_id = fields.Str()
    text = fields.Str()
    updated_at = fields.AwareDateTime(allow_none=True)


NOTE_IN = NoteIn()
NOTE_OUT = NoteOut()


def _notes() -> NoteService:
    return NoteService(services().store, services().games.clock)


@bp.get("/games/<game_id>/notes")
def get_notes(game_id: str):
    return send(NOTE_OUT, _notes().get(required_player(), game_id))


@bp.put("/games/<game_id>/notes")
def put_notes(game_id: str):
    caller = required_player()
    data = load_body(NOTE_IN)
    return send(NOTE_OUT, _notes().put(caller, game_id, data["text"]))
