"""One way for a test to say "refused, and for this reason".

A bare ``pytest.raises(RuleViolation)`` passes whatever rule refused the command: a test
whose set-up is wrong (not the seat's turn, a missing resource, the wrong phase) passes by
accident. ``refused`` also asserts the refusal's stable code::

    with refused("amsterdam.market"):
        play(state, BuyPrestige())
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from domain.decider import RuleViolation


@contextmanager
def refused(code: str, exception: type[Exception] = RuleViolation,
            match: str | None = None) -> Iterator[pytest.ExceptionInfo]:
    """The block raises ``exception`` whose ``code`` is ``code`` (the domain's rule code,
    or a service error's code), and whose message matches ``match`` when given."""
    with pytest.raises(exception, match=match) as caught:
        yield caught
    got = getattr(caught.value, "code", None)
    assert got == code, f"refused for another reason: {got!r} ({caught.value}), not {code!r}"


def problem(response, status: int, code: str) -> dict:
    """The answer is the problem ``status`` with this ``code`` (a 4xx for the wrong reason,
    say a 403 ``missing_scope`` for a 403 ``not_your_seat``, fails); returns its body."""
    body = response.json() if callable(response.json) else response.json
    assert (response.status_code, body.get("code") if isinstance(body, dict) else None) == (status, code), body
    return body
