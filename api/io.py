"""Reading requests and writing responses: JSON bodies, queries, idempotency, replays."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import orjson
from flask import Response, request
from marshmallow import EXCLUDE, Schema
from werkzeug.exceptions import UnsupportedMediaType

from api.auth import optional_player
from api.problems import MalformedJson, problem_response, service_problem
from api.services import services
from service.errors import Invalid
from service.games.idempotency import IdempotencyKey, Replayed, idempotency_key

#: Deeper JSON is refused: no request of this API nests more than a few levels, and
#: recursion over hostile nesting is how a parser or a validator falls over.
MAX_JSON_DEPTH = 32
#: Text PostgreSQL cannot store (NUL) or UTF-8 cannot encode (lone surrogates).
_UNSTORABLE = re.compile("[\x00\ud800-\udfff]")


def json_body() -> Any:
    """The request's JSON body, decoded strictly: application/json, UTF-8, nested at most
    MAX_JSON_DEPTH deep, no text the database cannot hold. Every body enters here."""
    if request.mimetype != "application/json":
        raise UnsupportedMediaType("send the body as Content-Type: application/json")
    raw = request.get_data(cache=True)  # raises 413 past MAX_CONTENT_LENGTH
    if not raw.strip():
        raise MalformedJson("the request body is empty; send a JSON object")
    try:
        body = json.loads(raw.decode("utf-8"))
    except RecursionError:
        raise MalformedJson(f"the request body is nested more than {MAX_JSON_DEPTH} deep") from None
    except (ValueError, UnicodeDecodeError) as err:
        raise MalformedJson(f"the request body is not valid JSON: {err}") from None
    check_json(body)
    return body


def optional_json_body() -> Any:
    """The JSON body of a request that may have none (None then)."""
    return json_body() if request.get_data(cache=True).strip() else None


def check_json(value: Any) -> None:
    """Refuse nesting past MAX_JSON_DEPTH and unstorable text anywhere (keys too), iteratively."""
    stack: list[tuple[Any, str, int]] = [(value, "body", 1)]
    while stack:
        item, path, depth = stack.pop()
        if isinstance(item, str):
            _check_text(item, path)
            continue
        if not isinstance(item, (dict, list)):
            continue
        if depth > MAX_JSON_DEPTH:
            raise MalformedJson(f"the request body is nested more than {MAX_JSON_DEPTH} deep")
        pairs = item.items() if isinstance(item, dict) else enumerate(item)
        for key, child in pairs:
            child_path = f"{path}.{key}" if path != "body" else str(key)
            if isinstance(key, str):
                _check_text(key, child_path)
            stack.append((child, child_path, depth + 1))


def _check_text(text: str, path: str) -> None:
    found = _UNSTORABLE.search(text)
    if found:
        what = "a NUL character" if found.group() == "\x00" else "a lone surrogate"
        raise Invalid(f"{path} contains {what}, which no text may hold", {path: [f"contains {what}"]})


def load_body(schema: Schema) -> Any:
    body = json_body()
    if not isinstance(body, dict):
        raise MalformedJson("the request body must be a JSON object")
    return schema.load(body)


def load_query(schema: Schema) -> Any:
    query = request.args.to_dict()
    for name, value in query.items():
        _check_text(value, name)
    return schema.load(query, unknown=EXCLUDE)


def send(schema: Schema, value: Any, status: int = 200) -> Response:
    return send_json(schema.dump(value), status)


def send_json(body: Any, status: int = 200) -> Response:
    return Response(json_bytes(body), status=status, mimetype="application/json")


def json_bytes(body: Any) -> bytes:
    """A response's JSON, compact UTF-8, by orjson: 7.7 us against the standard library's
    56 us for a 60-command legal-commands body (bench/README.md, section 21). What orjson
    refuses (an integer past 64 bits, a lone surrogate) is written by the standard library,
    as before."""
    try:
        return orjson.dumps(body, option=orjson.OPT_NON_STR_KEYS)
    except TypeError:
        return json.dumps(body).encode()


def idempotency(render: Callable[[Any], tuple[int, Any]]) -> IdempotencyKey | None:
    """The request's Idempotency-Key, scoped to the caller, the method and the path."""
    key = request.headers.get("Idempotency-Key")
    if key is None:
        return None
    if not 1 <= len(key) <= 255:
        raise Invalid("bad Idempotency-Key", {"Idempotency-Key": ["must be 1 to 255 characters"]})
    caller = optional_player()
    body = optional_json_body()  # an invalid body is refused here, before any key is kept
    return idempotency_key(
        caller.id if caller else None, request.method, request.path, key, body,
        services().settings.idempotency_ttl_seconds, render, service_problem, at=services().clock.now(),
    )


def respond(result: Any, render: Callable[[Any], tuple[int, Any]],
            more: Callable[[Any], dict] | None = None) -> Response:
    """A fresh result rendered, or the first response to a retried Idempotency-Key.
    ``more``: fields of the moment added to a success, fresh or replayed (given the result,
    a ``Replayed`` for a replay); never kept under the key."""
    if isinstance(result, Replayed):
        if result.status >= 400:  # the first answer was a refusal
            response = problem_response(result.status, result.body)
        else:
            response = send_json(result.body if more is None else {**result.body, **more(result)}, result.status)
        response.headers["Idempotent-Replayed"] = "true"
        return response
    status, body = render(result)
    return send_json(body if more is None else {**body, **more(result)}, status)
