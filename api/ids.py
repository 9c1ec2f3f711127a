"""Ids in paths: one spelling (lowercase, hyphenated UUID), checked once for every route.

PostgreSQL and Python's uuid accept other spellings (urn:uuid:..., braces, capitals, no
hyphens); a resource has one URL, so any other spelling is simply not found."""

from __future__ import annotations

from flask import Flask

from api.fields import CANONICAL_UUID
from service.errors import NotFound

#: Path parameters that name a stored id (a title's id is a name, not a UUID).
ID_PARAMETERS = ("game_id", "player_id", "webhook_id")


def install(app: Flask) -> None:
    @app.url_value_preprocessor
    def canonical_ids(_endpoint, values):
        for name in ID_PARAMETERS:
            value = (values or {}).get(name)
            if value is not None and not CANONICAL_UUID.match(value):
                raise NotFound(f"no {name.removesuffix('_id')} {value}")
