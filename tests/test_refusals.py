"""The helper every refusal test uses fails when the command is refused for another reason."""

from __future__ import annotations

import pytest

from domain.decider import NotYourTurn, RuleViolation
from service.errors import IllegalCommand
from tests.refusals import refused


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
