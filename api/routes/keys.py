"""The server's public keys: receipts are checked against them (docs/audit.md)."""

from __future__ import annotations

from flask import Blueprint

from api.io import send_json
from api.services import services

bp = Blueprint("keys", __name__)


@bp.get("/keys")
def keys():
    return send_json({"keys": services().keys.published()})
