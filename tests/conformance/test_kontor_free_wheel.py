"""Kontor free wheel conformance: random « Roue libre » (2 and 4 seats) and « Roue libre
individuelle » (3 and 4 seats) games through the title-agnostic harness (determinism,
JSON round trip, no leak under redetermine, turn enforcement, the game ends), and games
with the computer policy."""

from __future__ import annotations

import pytest

from domain.kontor import GAME
from domain.kontor.core.data import CARDS
from domain.kontor.core.state import part
from domain.kontor.forms.free_wheel.state import FreeWheelState
from tests.conformance.harness import check_game, sampled, seed_for
from tests.conformance.kontor_properties import check_rule_properties

pytestmark = pytest.mark.slow(seconds=45)  # started first: tests/conftest.py

FORMS = [("free_wheel", 2), ("free_wheel", 4), ("free_for_all", 3), ("free_for_all", 4)]
GAMES = 24
BATCH = 12


def _check_invariants(state) -> None:
    """20 florins conserved; all 94 cards (88 + the 6 specials in the canal pile) in one
    place; the port is at most 7x7; drunk docks and alliances are well formed."""
    assert sum(state.money) + state.treasury == 20 and min(state.money) >= 0
    places = [c.card for c in state.board] + list(state.water_pile) + list(part(state, FreeWheelState).common_docks)
    for s in range(state.seat_count):
        places += list(state.hands[s]) + list(state.dock_piles[s])
    for s in range(state.seat_count):
        if state.revealed[s] is not None and state.revealed[s] not in places:
            places.append(state.revealed[s])
    assert len(places) == len(set(places)) == 94
    size = state.options.board_size
    assert len({(c.x, c.y) for c in state.board}) <= size * size
    for tavern, _, dock in part(state, FreeWheelState).taverns:
        assert CARDS[tavern].tavern and (dock is None or CARDS[dock].goods)
    for a, b, _ in part(state, FreeWheelState).alliances:
        assert a < b


@pytest.mark.parametrize("batch", range(GAMES // BATCH))
@pytest.mark.parametrize(("variant", "seats"), FORMS, ids=[f"{v}-{n}" for v, n in FORMS])
def test_random_free_wheel_games(variant, seats, batch):
    options = GAME.parse_options({"variant": variant}, seats)
    for n in range(batch * BATCH, (batch + 1) * BATCH):
        played = check_game(GAME, options, seats, seed_for(n), n, leak_samples=3, every_version=sampled(n))
        check_rule_properties(played)
        final = played.final
        assert final.end_reason in ("board_full", "stalled", "idle")
        counted = [e for e in played.events if type(e).__name__ == "SectorCounted"]
        assert not [e for e in played.events if type(e).__name__ == "SectorScored"]
        totals = [sum(e.shares[s] for e in counted) for s in range(seats)]
        assert tuple(totals) == final.points == tuple(int(x) for x in GAME.result(final).scores)
        if options.teams:
            assert final.points[0] == final.points[1] and final.points[2] == final.points[3]
        for state in played.states[::7] + [final]:
            _check_invariants(state)


@pytest.mark.parametrize(
    ("variant", "seats", "n", "policy_seats"),
    [
        ("free_wheel", 2, 4000, {0: "normal"}),
        ("free_wheel", 2, 4001, {0: "normal", 1: "easy"}),
        ("free_wheel", 4, 4002, {0: "normal", 2: "normal"}),
        ("free_for_all", 3, 4003, {0: "normal", 1: "normal", 2: "easy"}),
        ("free_for_all", 4, 4004, {0: "normal", 1: "normal", 2: "normal", 3: "easy"}),
        ("free_for_all", 4, 4005, {1: "normal"}),
    ],
)
def test_policy_free_wheel_games(variant, seats, n, policy_seats):
    options = GAME.parse_options({"variant": variant}, seats)
    check_game(GAME, options, seats, seed_for(n), n, leak_samples=3, policy_seats=policy_seats)
