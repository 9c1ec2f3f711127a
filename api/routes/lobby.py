"""The lobby, players by name, profiles, invitations and leaderboards (service/lobby/service.py,
service/lobby/ratings.py). GET /v1/lobby/stream is served natively async (api/lobby_live.py)."""

from __future__ import annotations

import uuid
from datetime import datetime

from flask import Blueprint
from marshmallow import fields, validate

from api.auth import optional_player, required_player
from api.cursors import decode_cursor, encode_cursor
from api.io import load_query, send_json
from api.schemas import GameSummaryOut, Strict
from api.services import services

bp = Blueprint("lobby", __name__)


class LobbyQuery(Strict):
    title = fields.Str(load_default=None, validate=validate.Length(min=1, max=64))
    limit = fields.Int(load_default=50, validate=validate.Range(min=1, max=200))
    cursor = fields.Str(load_default=None)


class PlayersQuery(Strict):
    name = fields.Str(required=True, validate=validate.Length(min=1, max=64))
    limit = fields.Int(load_default=20, validate=validate.Range(min=1, max=100))


class LeaderboardQuery(Strict):
    limit = fields.Int(load_default=50, validate=validate.Range(min=1, max=200))


class CreatorOut(Strict):
    id = fields.Str(allow_none=True)
    name = fields.Str(allow_none=True)
    rating = fields.Int()
    provisional = fields.Bool()


class LobbyGameOut(GameSummaryOut):
    creator = fields.Nested(CreatorOut)


LOBBY_QUERY = LobbyQuery()
PLAYERS_QUERY = PlayersQuery()
LEADERBOARD_QUERY = LeaderboardQuery()
LOBBY_GAME_OUT = LobbyGameOut()
GAME_SUMMARY_OUT = GameSummaryOut()


def lobby_json(seeks) -> list[dict]:
    return [LOBBY_GAME_OUT.dump({**seek.game.__dict__, "creator": seek.creator}) for seek in seeks]


def lobby_page(title: str | None, limit: int, cursor: str | None) -> dict:
    before = decode_cursor(cursor, _cursor_fields) if cursor else None
    seeks = services().lobby.seeks(title, limit, before)
    following = encode_cursor([seeks[-1].game.created_at.isoformat(), seeks[-1].game.id]) \
        if len(seeks) == limit else None
    return {"games": lobby_json(seeks), "next_cursor": following}


@bp.get("/lobby")
def lobby():
    query = load_query(LOBBY_QUERY)
    return send_json(lobby_page(query["title"], query["limit"], query["cursor"]))


@bp.get("/players")
def players_named():
    query = load_query(PLAYERS_QUERY)
    return send_json({"players": services().lobby.players_named(query["name"], query["limit"])})


@bp.get("/players/me/invitations")
def invitations():
    found = services().lobby.invitations(required_player())
    return send_json({"invitations": [
        {"game": GAME_SUMMARY_OUT.dump(i["game"]), "seat": i["seat"], "challenger": i["challenger"],
         "time_control": i["time_control"]} for i in found]})


@bp.get("/players/<player_id>")
def profile(player_id: str):
    found = services().lobby.profile(player_id, optional_player())
    return send_json({**found, "recent_games": [GAME_SUMMARY_OUT.dump(g) for g in found["recent_games"]]})


@bp.get("/titles/<title_id>/leaderboard")
def leaderboard(title_id: str):
    query = load_query(LEADERBOARD_QUERY)
    return send_json({"title": title_id, "players": services().ratings.leaderboard(title_id, query["limit"])})


def _cursor_fields(parts: list[str]) -> tuple[datetime, str]:
    return datetime.fromisoformat(parts[0]), str(uuid.UUID(parts[1]))
