from __future__ import annotations

from flask import Blueprint

from api.io import send_json
from api.observe import DRAINING
from api.problems import problem
from api.services import services

bp = Blueprint("health", __name__)


@bp.get("/health")
def health():
    """200 when PostgreSQL and Redis answer and a worker was seen recently; else 503
    naming what is down."""
    return _ready()


@bp.get("/health/live")
def live():
    """The process answers (what a supervisor restarts on): checks nothing else."""
    return send_json({"status": "ok"})


@bp.get("/health/ready")
def ready():
    """Send traffic here: PostgreSQL, Redis and a worker reachable, and this process is
    not draining; else 503 with the failing check."""
    return _ready()


def _ready():
    checks = services().health.run()
    if DRAINING.is_set():
        checks["process"] = "draining: this process is stopping"
    down = [name for name, state in checks.items() if state != "ok"]
    if down:
        return problem(503, "unavailable", f"down: {', '.join(down)}", down=down, checks=checks)
    return send_json({"status": "ok", "checks": checks})
