"""A computer seat chooses only from what its seat may know, for every registered title.

Two states that differ only in what the seat cannot see (another deal of the hidden
cards, drawn by the title's own ``redetermine``) must give the same command for the same
random stream, at every level.  The control: a deliberately leaky policy, which reads the
whole state, tells such states apart when handed the real state (the old service path),
so this test can fail; through ``computer_command`` even that policy cannot.
"""

from __future__ import annotations

import hashlib
from dataclasses import replace

import pytest

from domain.common.computer import LEVELS, computer_command
from domain.common.search import Budget
from domain.decider import Issued
from domain.registry import titles
from domain.rng import Rng

pytestmark = pytest.mark.slow(seconds=20)  # started first: tests/conftest.py

AT = "2026-01-01T00:00:00Z"
BUDGET = Budget(iterations=3)
#: (title, raw options, seats): every form of every title
FORMS = [
    ("kontor", {"variant": "basic"}, 2),
    ("kontor", {"variant": "advanced"}, 2),
    ("kontor", {"variant": "team"}, 4),
    ("kontor", {"variant": "free_wheel"}, 2),
    ("kontor", {"variant": "free_for_all"}, 3),
    *[("speicherstadt", {}, n) for n in range(2, 6)],
]


def forms_of_registered_titles():
    """Every registered title gets checked: a title without a listed form uses its
    default options at its smallest seat count (so a new title joins automatically)."""
    listed = {f[0] for f in FORMS}
    extra = [(tid, {}, g.min_players) for tid, g in titles().items() if tid not in listed]
    return FORMS + extra


def leaky_policy(game):
    """A policy that cheats: its choice depends on everything in the state."""

    def leaky(state, seat, rng, level):
        legal = game.legal_commands(state, seat)
        digest = hashlib.sha256(repr(state).encode()).digest()
        return legal[int.from_bytes(digest[:8], "big") % len(legal)]

    return leaky


def positions(game, raw, seats, count=4, spacing=7):
    """A few positions of a game played by the normal policy, with the seat to act."""
    state = game.fold(game.start(game.parse_options(raw, seats), seats, "5e" * 32))
    rng, moves, out = Rng("77" * 32), 0, []
    while not game.is_finished(state) and len(out) < count:
        seat = sorted(game.to_act(state))[moves % len(game.to_act(state))]
        if moves % spacing == spacing - 1 and len(game.legal_commands(state, seat)) > 1:
            out.append((state, seat))
        command = game.policy(state, seat, rng, "normal")
        state = game.fold(game.decide(state, Issued(seat, AT, command)), state)
        moves += 1
    return out


@pytest.mark.parametrize("title_id, raw, seats", forms_of_registered_titles(),
                         ids=lambda v: str(v))
def test_hidden_information_never_changes_a_computer_choice(title_id, raw, seats):
    game = titles()[title_id]
    leak_seen, leaky = False, leaky_policy(game)
    for n, (real, seat) in enumerate(positions(game, raw, seats)):
        other = game.redetermine(real, seat, Rng(f"{n + 1:064x}"))  # the same info set
        assert other != real
        for level in LEVELS:
            mine = computer_command(game, real, seat, Rng("a1" * 32), level, BUDGET)
            theirs = computer_command(game, other, seat, Rng("a1" * 32), level, BUDGET)
            assert mine == theirs, (level, seat)
        # the control: the leaky policy on the real states tells them apart...
        leak_seen |= leaky(real, seat, None, "normal") != leaky(other, seat, None, "normal")
        # ...but not through the entry point, which hands it only a re-dealt state
        cheat = replace(game, policy=leaky)
        for level in ("normal", "strong"):
            assert computer_command(cheat, real, seat, Rng("b2" * 32), level, BUDGET) == \
                computer_command(cheat, other, seat, Rng("b2" * 32), level, BUDGET)
    assert leak_seen, "the control policy never saw the difference: the test proves nothing"
