from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from flask import Blueprint, Response, request

from api.auth import optional_player, required_player
from api.cursors import decode_cursor, encode_cursor
from api.io import idempotency, json_body, load_body, load_query, respond, send, send_json
from api.schemas import (
    CommandOutcomeOut,
    CommandQuery,
    CommandRequest,
    EventPageOut,
    EventsQuery,
    GameCreate,
    GameOut,
    GameQuery,
    GameSummaryOut,
    LegalCommandsOut,
    MessageCreate,
    MessageOut,
    MessagePageOut,
    MessagesQuery,
    SeatQuery,
    StateQuery,
)
from api.services import services
from service.errors import Invalid
from service.games.idempotency import Replayed
from service.games.pictures import board_picture
from service.games.service import SeatRequest
from service.lobby.service import Listing

bp = Blueprint("games", __name__)

# marshmallow schemas are built once: building one per request costs more than using it
COMMAND_OUTCOME_OUT = CommandOutcomeOut()
COMMAND_REQUEST = CommandRequest()
COMMAND_QUERY = CommandQuery()
EVENTS_QUERY = EventsQuery()
EVENT_PAGE_OUT = EventPageOut()
GAME_CREATE = GameCreate()
GAME_OUT = GameOut()
GAME_QUERY = GameQuery()
GAME_SUMMARY_OUT_MANY = GameSummaryOut(many=True)
LEGAL_COMMANDS_OUT = LegalCommandsOut()
MESSAGE_CREATE = MessageCreate()
MESSAGE_OUT = MessageOut()
MESSAGE_PAGE_OUT = MessagePageOut()
MESSAGES_QUERY = MessagesQuery()
SEAT_QUERY = SeatQuery()
STATE_QUERY = StateQuery()


def _game_out(snapshot) -> dict:
    game = snapshot.game
    caller = optional_player()
    return GAME_OUT.dump({
        **game.__dict__,
        "view": snapshot.view,
        "your_seats": game.seats_of(caller.id) if caller else [],
        "viewer_seat": snapshot.viewer_seat,
        "seed": snapshot.seed,
    })


def _render_created(snapshot):
    return 201, _game_out(snapshot)


def _render_joined(snapshot):
    return 200, _game_out(snapshot)


def _render_outcome(outcome):
    """COMMAND_OUTCOME_OUT's dump (CommandOutcomeOut, EventOut), written out: a command's
    answer is every command's, and the schema's walk cost more than the rest of the
    rendering (tests/api/test_command_cache.py holds the two equal)."""
    return 201, {
        "version": int(outcome.version), "status": str(outcome.status), "to_act": [int(s) for s in outcome.to_act],
        "events": [{"seq": int(e["seq"]), "type": str(e["type"]), "schema_version": int(e["schema_version"]),
                    "at": str(e["at"]), "seat": None if e["seat"] is None else int(e["seat"]), "data": e["data"]}
                   for e in outcome.events],
        "receipt": None if outcome.receipt is None else dict(outcome.receipt),
    }


@bp.post("/games")
def create_game():
    caller = required_player()
    data = load_body(GAME_CREATE)
    seats = [
        SeatRequest(
            player_id=str(s["player_id"]) if "player_id" in s else None,
            ai=s.get("ai"),
            open=bool(s.get("open")),
        )
        for s in data["seats"]
    ]
    listing = Listing.of(seats, data["rated"], data["private"], data["rating_range"],
                         services().settings.seek_ttl_seconds)
    result = services().games.create(
        caller, data["title"], data["options"], seats, data["seed"], idempotency(_render_created),
        data["time_control"], listing,
    )
    return respond(result, _render_created)


@bp.get("/games")
def list_games():
    query = load_query(GAME_QUERY)
    player = query["player"]
    if player == "me":
        player = required_player().id
    before = _decode_cursor(query["cursor"]) if query["cursor"] else None
    if query["to_act"] == "me":  # most urgent first: one page, no cursor
        games, next_cursor = services().clocks.to_act(required_player(), query["limit"]), None
    elif query["status"] == "finished" or query["result"] or query["form"] or query["after"] or query["before"]:
        # the archive (service/lobby/service.py): finished games only, latest first
        if query["status"] not in (None, "finished"):
            raise Invalid("the archive holds finished games", {"status": ["must be finished with these filters"]})
        if query["before"] and not before:
            before = (query["before"], "00000000-0000-0000-0000-000000000000")
        games = services().lobby.archive(optional_player(), player, query["title"], query["result"] or "any",
                                         query["form"], query["after"], before, query["limit"])
        next_cursor = _encode_cursor(games[-1]) if len(games) == query["limit"] else None
    else:
        games = services().games.list(optional_player(), player, query["status"], query["title"], query["limit"], before)
        next_cursor = _encode_cursor(games[-1]) if len(games) == query["limit"] else None
    body = {
        "games": GAME_SUMMARY_OUT_MANY.dump(games),
        "next_cursor": next_cursor,
    }
    return send_json(body)


@bp.get("/games/<game_id>")
def get_game(game_id: str):
    query = load_query(SEAT_QUERY)
    snapshot = services().games.get(game_id, optional_player(), query["seat"])
    return send_json(_game_out(snapshot))


@bp.post("/games/<game_id>/seats/<int:index>/join")
def join(game_id: str, index: int):
    caller = required_player()
    result = services().games.join(caller, game_id, index, idempotency(_render_joined))
    return respond(result, _render_joined)


@bp.post("/games/<game_id>/seats/<int:index>/accept")
def accept(game_id: str, index: int):
    caller = required_player()
    result = services().games.accept(caller, game_id, index, idempotency(_render_joined))
    return respond(result, _render_joined)


@bp.post("/games/<game_id>/seats/<int:index>/decline")
def decline(game_id: str, index: int):
    caller = required_player()
    result = services().games.decline(caller, game_id, index, idempotency(_render_joined))
    return respond(result, _render_joined)


@bp.get("/games/<game_id>/legal-commands")
def legal_commands(game_id: str):
    query = load_query(SEAT_QUERY)
    found = services().games.legal_commands(game_id, required_player(), query["seat"])
    return send(LEGAL_COMMANDS_OUT, found)


_COMMAND_FIELDS = frozenset(("seat", "expected_version", "command"))


def command_fields(body: Any) -> dict | None:
    """COMMAND_REQUEST's load of a body that passes it (the body of every command a client
    sends): seat and expected_version absent, null or JSON integers from 0, a command
    object, nothing else. None for any other body, which the schema loads or refuses (its
    422s are the contract): tests/api/test_command_cache.py holds the two equal."""
    if type(body) is not dict or type(body.get("command")) is not dict or not body.keys() <= _COMMAND_FIELDS:
        return None
    seat, version = body.get("seat"), body.get("expected_version")
    if not (seat is None or (type(seat) is int and seat >= 0)):
        return None
    if not (version is None or (type(version) is int and version >= 0)):
        return None
    return {"seat": seat, "expected_version": version, "command": dict(body["command"])}


@bp.post("/games/<game_id>/commands")
def post_command(game_id: str):
    caller = required_player()
    data = command_fields(json_body()) or load_body(COMMAND_REQUEST)
    include = load_query(COMMAND_QUERY)["include"] if request.args else None
    games = services().games
    result = games.execute(
        caller, game_id, data["seat"], data["command"], data["expected_version"],
        idempotency(_render_outcome),
    )

    def legal_next(outcome) -> dict:
        # what the sender may play next, so that a client acting again asks no GET
        # legal-commands; after a replayed answer, at the game's version now
        legal = (games.legal_commands(game_id, caller, data["seat"]) if isinstance(outcome, Replayed)
                 else games.legal_commands_after(outcome, caller, data["seat"]))
        return {"legal_commands": LEGAL_COMMANDS_OUT.dump(legal)}

    return respond(result, _render_outcome, legal_next if include == "legal_commands" else None)


@bp.get("/games/<game_id>/events")
def events(game_id: str):
    query = load_query(EVENTS_QUERY)
    page = services().games.events(game_id, optional_player(), query["after"], query["limit"], query["seat"])
    return send(EVENT_PAGE_OUT, page)


@bp.get("/games/<game_id>/state")
def state(game_id: str):
    query = load_query(STATE_QUERY)
    version, view = services().games.state_at(game_id, optional_player(), query["at"], query["seat"])
    return send_json({"version": version, "view": view})


@bp.get("/games/<game_id>/board.svg")
def board(game_id: str):
    query = load_query(STATE_QUERY)
    picture = board_picture(services().games, game_id, optional_player(), query["at"], query["seat"])
    return Response(picture, mimetype="image/svg+xml")


@bp.post("/games/<game_id>/messages")
def post_message(game_id: str):
    caller = required_player()
    data = load_body(MESSAGE_CREATE)
    message = services().messages.post(caller, game_id, data["seat"], data["channel"], data["text"],
                                       idempotency(_render_message))
    return respond(message, _render_message)


def _render_message(message) -> tuple[int, dict]:
    return 201, MESSAGE_OUT.dump(message)


@bp.get("/games/<game_id>/messages")
def list_messages(game_id: str):
    query = load_query(MESSAGES_QUERY)
    page = services().messages.list(optional_player(), game_id, query["after"], query["seat"], query["limit"])
    return send(MESSAGE_PAGE_OUT, page)


@bp.get("/games/<game_id>/export")
def export(game_id: str):
    return send_json(services().audit.record(game_id, optional_player()))


def _encode_cursor(game) -> str:
    return encode_cursor([game.updated_at.isoformat(), game.id])


def _decode_cursor(cursor: str) -> tuple[datetime, str]:
    return decode_cursor(cursor, lambda parts: (datetime.fromisoformat(parts[0]), str(uuid.UUID(parts[1]))))
