"""The helper every refusal test uses fails when the command is refused for another reason."""

from __future__ import annotations

import pytest

from domain.decider import NotYourTurn, RuleViolation
from service.errors import IllegalCommand
from tests.refusals import problem, refused


def test_refused_passes_on_the_code_and_fails_on_another_or_none():
    with refused("kontor.a"):
        raise RuleViolation("kontor.a", "a")
    with pytest.raises(AssertionError, match="another reason: 'not_your_turn'"):
        with refused("kontor.a"):
            raise NotYourTurn()
    with pytest.raises(pytest.fail.Exception):  # not refused at all
        with refused("kontor.a"):
            pass
    with refused("illegal_command", IllegalCommand):
        raise IllegalCommand("no", "kontor.a")


def test_problem_checks_the_status_and_the_code():
    class Answer:  # the shape of a Flask test response (requests' has json())
        def __init__(self, status_code, json):
            self.status_code, self.json = status_code, json

    assert problem(Answer(403, {"code": "not_your_seat"}), 403, "not_your_seat") == {"code": "not_your_seat"}
    for wrong in (Answer(403, {"code": "missing_scope"}), Answer(409, {"code": "not_your_seat"}), Answer(403, None)):
        with pytest.raises(AssertionError):
            problem(wrong, 403, "not_your_seat")
