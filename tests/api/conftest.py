from __future__ import annotations

import threading

import pytest
from werkzeug.serving import make_server

from api import create_app
from service.runtime.container import build
from tests.openapi_check import ValidatingClient


@pytest.fixture(scope="session")
def services(settings):
    services = build(settings)
    yield services
    services.close()


@pytest.fixture(scope="session")
def app(services):
    app = create_app(services)
    app.testing = True
    return app


@pytest.fixture
def client(app) -> ValidatingClient:
    return ValidatingClient(app.test_client())


@pytest.fixture
def new_player(client):
    def make(name: str = "Ada") -> dict:
        response = client.post("/v1/players", json={"name": name})
        assert response.status_code == 201, response.json
        return response.json

    return make


@pytest.fixture(scope="session")
def live_server(app):
    """The app behind a real threaded HTTP server on loopback, for tests that race requests."""
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
