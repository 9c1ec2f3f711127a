"""Errors of the application layer. api/problems.py maps each to one HTTP problem."""

from __future__ import annotations

from collections.abc import Mapping, Sequence


class ServiceError(Exception):
    code = "error"

    def __init__(self, detail: str):
        super().__init__(detail)
        self.detail = detail


class NotFound(ServiceError):
    code = "not_found"


class Unauthorized(ServiceError):
    code = "unauthorized"


class Forbidden(ServiceError):
    code = "forbidden"


class NotYourSeat(Forbidden):
    code = "not_your_seat"


class NotYourTurn(Forbidden):
    code = "not_your_turn"


class Conflict(ServiceError):
    code = "conflict"


class VersionConflict(Conflict):
    code = "version_conflict"

    def __init__(self, detail: str, current_version: int):
        super().__init__(detail)
        self.current_version = current_version


class SeatTaken(Conflict):
    code = "seat_taken"


class NotInvited(Conflict):
    code = "not_invited"


class GameNotActive(Conflict):
    code = "game_not_active"


class Invalid(ServiceError):
    """Input that is well-formed but cannot be accepted (422)."""

    code = "validation_error"

    def __init__(self, detail: str, errors: Mapping[str, Sequence[str]] | None = None):
        super().__init__(detail)
        self.errors = {k: list(v) for k, v in (errors or {}).items()}


class InvalidOptions(Invalid):
    code = "invalid_options"


class IllegalCommand(Invalid):
    code = "illegal_command"

    def __init__(self, detail: str, rule: str):
        super().__init__(detail)
        self.rule = rule


class IdempotencyKeyReused(Invalid):
    code = "idempotency_key_reused"


class Unavailable(ServiceError):
    """A backing service (PostgreSQL, Redis) did not answer in time (503)."""

    code = "unavailable"


class StatementTimeout(Unavailable):
    code = "statement_timeout"


class VacationAllowanceExceeded(Invalid):
    code = "vacation_allowance_exceeded"


class WeakIdempotencyKey(Invalid):
    code = "idempotency_key_too_weak"


class InvalidToken(Invalid):
    """A verification or unsubscribe token that is not one of ours (or not the caller's)."""

    code = "invalid_token"


class TokenUsed(Conflict):
    code = "token_used"


class TokenExpired(Conflict):
    code = "token_expired"


class WebhookUrlRefused(Invalid):
    """A webhook URL that is not http(s), or whose host is not public (no SSRF)."""

    code = "webhook_url_refused"

    def __init__(self, detail: str):
        super().__init__(detail, {"url": [detail]})
