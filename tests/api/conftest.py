from __future__ import annotations

import pytest

from api import create_app
from service.container import build
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
