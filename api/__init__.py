"""The HTTP API: Flask translates; marshmallow loads and dumps; the service decides."""

from __future__ import annotations

from pathlib import Path

from flask import Flask, Response, request, send_from_directory

from api import edge, ids, limits, oauth, observe, problems
from api.routes import correspondence, exports, games, health, keys, mail, players, titles, webhooks
from api.routes import lobby as lobby_routes
from api.routes import notes as notes_routes
from api.routes import takeback as takeback_routes
from api.routes.accounts import bp as accounts_bp
from service.config import Settings
from service.observability import tracing
from service.runtime.container import Services, build

OPENAPI = Path(__file__).resolve().parent.parent / "openapi.yaml"
#: the web client: static files that speak only the public API (clients/web)
WEB_CLIENT = Path(__file__).resolve().parent.parent / "clients" / "web"


def create_app(services: Services | None = None) -> Flask:
    app = Flask(__name__, static_folder=str(WEB_CLIENT), static_url_path="/web")
    services = services or build(Settings.from_env())
    app.extensions["entrepot"] = services
    app.config["MAX_CONTENT_LENGTH"] = services.settings.max_body_bytes
    app.json.sort_keys = False
    problems.install(app)
    app.url_value_preprocessor(lambda _endpoint, _values: observe.note_route(
        request.url_rule.rule if request.url_rule else None))
    ids.install(app)
    limits.install(app, services.settings, services.wire)
    edge.install(app)
    for blueprint in (health.bp, players.bp, titles.bp, games.bp, keys.bp, exports.bp, correspondence.bp,
                      mail.bp, webhooks.bp, accounts_bp, lobby_routes.bp, notes_routes.bp,
                      takeback_routes.bp):
        app.register_blueprint(blueprint, url_prefix="/v1")
    oauth.install(app)  # /.well-known/oauth-authorization-server and /oauth/*

    @app.get("/")
    def web_client():
        return send_from_directory(WEB_CLIENT, "index.html")

    @app.get("/v1/openapi.yaml")
    def openapi():
        return Response(OPENAPI.read_text(encoding="utf-8"), mimetype="application/yaml")

    tracing.instrument_flask(app)  # when on (service/observability/tracing.py)
    app.wsgi_app = observe.ObserveWSGI(app.wsgi_app)
    return app
