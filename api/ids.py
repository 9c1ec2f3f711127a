"""Ids in paths: one spelling (lowercase, hyphenated UUID), checked once for every route.

PostgreSQL and Python's uuid accept other spellings (urn:uuid:..., braces, capitals, no
hyphens); a resource has one URL, so any other spelling is simply not found.

``check`` is the rule; each router applies it to the path parameters it parsed: Flask's
(``install``) and the live streams' (api/edge.py ``Edge.route``), so both answer the same
404 problem."""

from __future__ import annotations

from collections.abc import Mapping

from flask import Flask

from api.fields import CANONICAL_UUID
from service.errors import NotFound

#: Path parameters that name a stored id (a title's id is a name, not a UUID).
ID_PARAMETERS = ("game_id", "player_id", "webhook_id")


def check(values: Mapping[str, object] | None) -> None:
    """NotFound unless every id among a route's path parameters is spelled as this API spells it."""
    if not values:
        return
    for name in ID_PARAMETERS:
        value = values.get(name)
        if value is not None and not CANONICAL_UUID.fullmatch(str(value)):
            raise NotFound(f"no {name.removesuffix('_id')} {value}")


def install(app: Flask) -> None:
    @app.url_value_preprocessor
    def canonical_ids(_endpoint, values):
        check(values)
