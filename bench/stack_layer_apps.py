"""The middle layers of bench/stack_layers.py: a one-route Flask app behind the bridge
(api/bridge.py), alone and inside what api/asgi.py wraps around it."""

from __future__ import annotations

from flask import Flask, jsonify
from starlette.applications import Starlette

from api.asgi import assemble
from api.bridge import FlaskBridge
from api.observe import ObserveMiddleware


def _flask() -> Flask:
    app = Flask("layer")

    @app.get("/")
    def root():
        return jsonify(status="ok")

    return app


def bridged() -> FlaskBridge:
    return FlaskBridge(_flask(), threads=8, max_body_bytes=1 << 20)


def wrapped() -> ObserveMiddleware:
    """As api/asgi.py assembles it: request ids and the log line outermost, the security
    headers, then a router of no stream route, and the bridge for every other path."""
    return assemble(Starlette(routes=[]), bridged())
