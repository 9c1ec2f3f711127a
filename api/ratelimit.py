"""Limits on attempts to sign in, ask for a link or reset a password: per account (the
address tried, as its SHA-256) and per client address, counted in Redis with the `limits`
library (the one Flask-Limiter runs on, api/limits.py), so every API process shares them.
Known and unknown addresses are counted alike."""

from __future__ import annotations

import hashlib
import math
import time

from flask import current_app
from limits import parse_many
from limits.storage import storage_from_string
from limits.strategies import FixedWindowRateLimiter

from api.limits import client_address
from api.services import services

_KEY = "entrepot.signin_limits"


class TooManyAttempts(Exception):
    def __init__(self, detail: str, retry_after: int):
        super().__init__(detail)
        self.detail = detail
        self.retry_after = retry_after


def _limiter() -> tuple[FixedWindowRateLimiter, list, list, str]:
    found = current_app.extensions.get(_KEY)
    if found is None:
        svc = services()
        storage = storage_from_string("redis://", connection_pool=svc.redis.connection_pool)
        found = (FixedWindowRateLimiter(storage), parse_many(svc.settings.signin_limit_per_account),
                 parse_many(svc.settings.signin_limit_per_address), f"entrepot-signin:{svc.settings.queue_name}")
        current_app.extensions[_KEY] = found
    return found


def throttle(kind: str, email: str | None) -> None:
    """Count one attempt; TooManyAttempts (429) once a limit is reached."""
    limiter, per_account, per_address, prefix = _limiter()
    checks = [(limit, "address", client_address()) for limit in per_address]
    if email is not None:
        account = hashlib.sha256(email.strip().lower().encode("utf-8")).hexdigest()
        checks += [(limit, "account", account) for limit in per_account]
    for limit, scope, who in checks:
        try:
            allowed = limiter.hit(limit, prefix, kind, scope, who)
        except Exception:  # Redis down: serve without limits rather than not at all (as api/limits.py)
            continue
        if not allowed:
            reset_at, _ = limiter.get_window_stats(limit, prefix, kind, scope, who)
            retry = max(1, math.ceil(reset_at - time.time()))
            what = "from this client address" if scope == "address" else "for this account"
            raise TooManyAttempts(f"too many attempts {what}: try again in {retry} s", retry)
