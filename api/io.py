"""Reading requests and writing responses: JSON bodies, queries, idempotency, replays."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from flask import Response, request
from marshmallow import EXCLUDE, Schema

from api.auth import optional_player
from api.problems import MalformedJson, problem_response, service_problem
from api.services import services
from service.errors import Invalid
from service.idempotency import IdempotencyKey, Replayed, idempotency_key


def json_body() -> Any:
    raw = request.get_data(cache=True)  # raises 413 past MAX_CONTENT_LENGTH
    if not raw.strip():
        raise MalformedJson("the request body is empty; send a JSON object")
    try:
        return json.loads(raw)
    except (ValueError, UnicodeDecodeError) as err:
        raise MalformedJson(f"the request body is not valid JSON: {err}") from None


def load_body(schema: Schema) -> Any:
    body = json_body()
    if not isinstance(body, dict):
        raise MalformedJson("the request body must be a JSON object")
    return schema.load(body)


def load_query(schema: Schema) -> Any:
    return schema.load(request.args.to_dict(), unknown=EXCLUDE)


def send(schema: Schema, value: Any, status: int = 200) -> Response:
    return Response(json.dumps(schema.dump(value)), status=status, mimetype="application/json")


def send_json(body: Any, status: int = 200) -> Response:
    return Response(json.dumps(body), status=status, mimetype="application/json")


def idempotency(render: Callable[[Any], tuple[int, Any]]) -> IdempotencyKey | None:
    """The request's Idempotency-Key, scoped to the caller, the method and the path."""
    key = request.headers.get("Idempotency-Key")
    if key is None:
        return None
    if not 1 <= len(key) <= 255:
        raise Invalid("bad Idempotency-Key", {"Idempotency-Key": ["must be 1 to 255 characters"]})
    caller = optional_player()
    raw = request.get_data(cache=True)
    try:
        body = json.loads(raw) if raw.strip() else None
    except (ValueError, RecursionError):
        body = raw.decode("latin-1")  # not JSON: the route refuses it, the key stays out of it
    return idempotency_key(
        caller.id if caller else None, request.method, request.path, key, body,
        services().settings.idempotency_ttl_seconds, render, service_problem,
    )


def respond(result: Any, render: Callable[[Any], tuple[int, Any]]) -> Response:
    """A fresh result rendered, or the first response to a retried Idempotency-Key."""
    if isinstance(result, Replayed):
        if result.status >= 400:  # the first answer was a refusal
            response = problem_response(result.status, result.body)
        else:
            response = send_json(result.body, result.status)
        response.headers["Idempotent-Replayed"] = "true"
        return response
    status, body = render(result)
    return send_json(body, status)
