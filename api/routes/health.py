from __future__ import annotations

from flask import Blueprint

from api.io import send_json
from api.problems import problem
from api.services import services

bp = Blueprint("health", __name__)


@bp.get("/health")
def health():
    """200 when PostgreSQL and Redis answer and a worker was seen recently; else 503
    naming what is down."""
    checks = services().health.run()
    down = [name for name, state in checks.items() if state != "ok"]
    if down:
        return problem(503, "unavailable", f"down: {', '.join(down)}", down=down, checks=checks)
    return send_json({"status": "ok", "checks": checks})
