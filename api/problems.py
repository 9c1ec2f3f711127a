"""Every error leaves here as RFC 9457 problem+json with a stable ``code``.

The one place errors are translated: service errors, validation errors, HTTP errors
from routing and body limits, malformed JSON, and the unexpected (500, logged).
"""

from __future__ import annotations

import logging

from flask import Flask, Response, json
from marshmallow import ValidationError
from werkzeug.exceptions import HTTPException, MethodNotAllowed

from api.observe import request_id
from service.errors import (
    Conflict,
    Forbidden,
    IllegalCommand,
    Invalid,
    NotFound,
    ServiceError,
    Unauthorized,
    Unavailable,
    VersionConflict,
)

log = logging.getLogger(__name__)

PROBLEM_JSON = "application/problem+json"
TYPE_BASE = "https://entrepot.dev/problems/"

_STATUS = [(NotFound, 404), (Unauthorized, 401), (Forbidden, 403), (Conflict, 409), (Invalid, 422),
           (Unavailable, 503)]
_HTTP_CODES = {
    400: "bad_request",
    404: "not_found",
    405: "method_not_allowed",
    406: "not_acceptable",
    413: "payload_too_large",
    415: "unsupported_media_type",
    429: "rate_limited",
}
_TITLES = {
    "malformed_json": "Malformed JSON",
    "validation_error": "Invalid request",
    "illegal_command": "Illegal command",
    "not_your_turn": "Not your turn",
    "not_your_seat": "Not your seat",
    "version_conflict": "Version conflict",
    "unauthorized": "Unauthorized",
    "not_found": "Not found",
    "payload_too_large": "Payload too large",
    "rate_limited": "Too many requests",
    "internal_error": "Internal server error",
}


class MalformedJson(Exception):
    def __init__(self, detail: str):
        super().__init__(detail)
        self.detail = detail


def problem(status: int, code: str, detail: str, **extra) -> Response:
    return problem_response(status, problem_body(status, code, detail, **extra))


def problem_response(status: int, body: dict) -> Response:
    response = Response(json.dumps(body), status=status, mimetype=PROBLEM_JSON)
    response.headers.update(problem_headers(status))
    return response


#: seconds a client waits before retrying a 503 (a database failover, a restart)
RETRY_AFTER_UNAVAILABLE = "2"


def problem_headers(status: int) -> dict[str, str]:
    if status == 503:
        return {"Retry-After": RETRY_AFTER_UNAVAILABLE}
    return {"WWW-Authenticate": 'Bearer realm="entrepot"'} if status == 401 else {}


def problem_body(status: int, code: str, detail: str, **extra) -> dict:
    return {
        "type": TYPE_BASE + code,
        "title": _TITLES.get(code, code.replace("_", " ").capitalize()),
        "status": status,
        "detail": detail,
        "code": code,
        **extra,
        **({"request_id": rid} if (rid := request_id()) else {}),
    }


def service_problem(err: ServiceError) -> tuple[int, dict]:
    """A service error as (status, problem body): answered now, or kept for a retry."""
    status = next((s for cls, s in _STATUS if isinstance(err, cls)), 400)
    extra = {}
    if isinstance(err, Invalid) and err.errors:
        extra["errors"] = err.errors
    if isinstance(err, IllegalCommand):
        extra["rule"] = err.rule
    if isinstance(err, VersionConflict):
        extra["current_version"] = err.current_version
    return status, problem_body(status, err.code, err.detail, **extra)


def validation_problem(err: ValidationError) -> tuple[int, dict]:
    return 422, problem_body(422, "validation_error", "the request does not fit its schema",
                             errors=_flatten(err.messages))


def unexpected_problem() -> tuple[int, dict]:
    log.exception("unexpected error")
    return 500, problem_body(500, "internal_error", "something went wrong on our side; it was logged")


def install(app: Flask) -> None:
    @app.errorhandler(ServiceError)
    def service_error(err: ServiceError):
        status, body = service_problem(err)
        return problem_response(status, body)

    @app.errorhandler(ValidationError)
    def validation_error(err: ValidationError):
        return problem_response(*validation_problem(err))

    @app.errorhandler(MalformedJson)
    def malformed(err: MalformedJson):
        return problem(400, "malformed_json", err.detail)

    @app.errorhandler(HTTPException)
    def http_error(err: HTTPException):
        status = err.code or 500
        code = _HTTP_CODES.get(status, "http_error")
        response = problem(status, code, err.description or code)
        if isinstance(err, MethodNotAllowed) and err.valid_methods:
            response.headers["Allow"] = ", ".join(sorted(err.valid_methods))
        return response

    @app.errorhandler(Exception)
    def unexpected(err: Exception):
        return problem_response(*unexpected_problem())


def _flatten(messages, prefix: str = "") -> dict[str, list[str]]:
    """marshmallow's nested messages as {"a.b.0.c": [...]}."""
    flat: dict[str, list[str]] = {}
    if isinstance(messages, dict):
        for key, value in messages.items():
            path = f"{prefix}.{key}" if prefix else str(key)
            if key == "_schema":
                path = prefix or "body"
            if isinstance(value, (dict,)):
                flat.update(_flatten(value, path))
            else:
                flat.setdefault(path, []).extend(value if isinstance(value, list) else [str(value)])
    else:
        flat[prefix or "body"] = messages if isinstance(messages, list) else [str(messages)]
    return flat
