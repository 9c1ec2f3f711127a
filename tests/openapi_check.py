"""Validate real responses against openapi.yaml (openapi-core), so the contract cannot drift."""

from __future__ import annotations

import json
from functools import cache

import yaml
from openapi_core import Config, OpenAPI
from openapi_core.contrib.werkzeug import WerkzeugOpenAPIRequest, WerkzeugOpenAPIResponse
from werkzeug.test import EnvironBuilder
from werkzeug.wrappers import Request

from tests.conftest import ROOT


@cache
def spec() -> OpenAPI:
    config = Config(extra_media_type_deserializers={
        "application/problem+json": json.loads,
        "application/x-ndjson": lambda raw: [json.loads(line) for line in raw.splitlines() if line.strip()],
        "application/yaml": yaml.safe_load,
        "image/svg+xml": lambda raw: raw.decode("utf-8") if isinstance(raw, bytes) else raw,
        "text/html": lambda raw: raw.decode("utf-8") if isinstance(raw, bytes) else raw,
    })
    return OpenAPI.from_file_path(str(ROOT / "openapi.yaml"), config=config)


def validate(response) -> None:
    """Raise if a werkzeug test response does not match its operation in openapi.yaml."""
    sent = response.request  # its body was consumed by the app: rebuild it without one
    headers = [(k, v) for k, v in sent.headers.items() if k.lower() != "content-length"]
    bare = Request(EnvironBuilder(path=sent.path, method=sent.method, query_string=sent.query_string.decode("latin-1"),
                                  headers=headers, data=b"").get_environ())
    spec().validate_response(WerkzeugOpenAPIRequest(bare), WerkzeugOpenAPIResponse(response))


class ValidatingClient:
    """A Flask test client whose every response is checked against the contract."""

    def __init__(self, client):
        self.client = client

    def open(self, method: str, path: str, token: str | None = None, **kwargs):
        headers = dict(kwargs.pop("headers", {}) or {})
        if token:
            headers["Authorization"] = f"Bearer {token}"
        response = self.client.open(path, method=method, headers=headers, **kwargs)
        validate(response)
        return response

    def get(self, path, **kw):
        return self.open("GET", path, **kw)

    def post(self, path, **kw):
        return self.open("POST", path, **kw)

    def patch(self, path, **kw):
        return self.open("PATCH", path, **kw)

    def put(self, path, **kw):
        return self.open("PUT", path, **kw)

    def delete(self, path, **kw):
        return self.open("DELETE", path, **kw)
