"""Bulk export of finished games' audit records, as NDJSON pages with a cursor."""

from __future__ import annotations

import json
import re
import uuid
from datetime import datetime

from flask import Blueprint, Response

from api.cursors import decode_cursor, encode_cursor
from api.io import load_query
from api.schemas import ExportsQuery
from api.services import services

bp = Blueprint("exports", __name__)
EXPORTS_QUERY = ExportsQuery()


@bp.get("/exports")
def exports():
    query = load_query(EXPORTS_QUERY)
    cursor = decode_cursor(query["cursor"], _cursor_fields) if query["cursor"] else None
    audit = services().audit
    page, following = audit.finished(query["title"], query["finished_after"], query["finished_before"],
                                     cursor, query["limit"])
    headers = {"Next-Cursor": encode_cursor(following)} if following else {}
    lines = (json.dumps(record) + "\n" for record in audit.records(page))
    return Response(lines, mimetype="application/x-ndjson", headers=headers)


def _cursor_fields(parts: list[str]) -> tuple[str, str]:
    at, game_id = parts
    # exactly the form this server writes (the chain's times): Python's fromisoformat also
    # takes forms PostgreSQL refuses ("2026-W01-1"), which were a 500
    if not _CURSOR_TIME.fullmatch(at):
        raise ValueError("not a cursor time")
    datetime.fromisoformat(at.replace("Z", "+00:00"))
    return at, str(uuid.UUID(game_id))


_CURSOR_TIME = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z", re.ASCII)
