from __future__ import annotations

from flask import Blueprint

from api.io import send
from api.schemas import TitleDetailOut, TitleOut
from service.errors import NotFound
from service.games.titles import all_titles

bp = Blueprint("titles", __name__)

# marshmallow schemas are built once: building one per request costs more than using it
TITLE_DETAIL_OUT = TitleDetailOut()
TITLE_OUT_MANY = TitleOut(many=True)


def _describe(title, detail: bool = False) -> dict:
    described = {
        "id": title.id,
        "name": title.name,
        "rules_version": title.rules_version,
        "min_players": title.min_players,
        "max_players": title.max_players,
        "variants": list(title.variants),
        "ai_levels": list(title.ai_levels),
        "options_schema": title.options_schema(),
        "commands": [c.TYPE for c in title.command_types],
    }
    if detail:
        described["components"] = title.component_data()
    return described


@bp.get("/titles")
def list_titles():
    return send(TITLE_OUT_MANY, [_describe(t) for t in all_titles().values()])


@bp.get("/titles/<title_id>")
def get_title(title_id: str):
    title = all_titles().get(title_id)
    if title is None:
        raise NotFound(f"no title {title_id!r}")
    return send(TITLE_DETAIL_OUT, _describe(title, detail=True))
