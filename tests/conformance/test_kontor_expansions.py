"""Kontor expansions (export warehouse, event cards; 2 players): random legal games over
the basic and advanced rules through the title-agnostic harness (determinism, JSON round
trip, no leak under redetermine, turn enforcement, the game ends), and games with the
computer policy."""

from __future__ import annotations

import pytest

from domain.kontor import GAME
from domain.kontor.core.data import GOODS
from domain.kontor.core.state import part
from domain.kontor.expansions.event_cards import EventCardsState
from domain.kontor.expansions.warehouse_goods import WarehouseGoodsState
from tests.conformance.harness import check_game, sampled, seed_for
from tests.conformance.kontor_cards import card_places
from tests.conformance.kontor_properties import check_rule_properties

pytestmark = pytest.mark.slow(seconds=30)  # started first: tests/conftest.py

SEEDS = 40
FORMS = [
    (variant, expansions)
    for variant in ("basic", "advanced")
    for expansions in (("export_warehouse",), ("event_cards",), ("export_warehouse", "event_cards"))
]


def _invariants(state) -> None:
    """20 florins; each of the 88 cards in one place; export warehouses never negative."""
    assert sum(state.money) + state.treasury == 20 and min(state.money) >= 0
    assert len(card_places(state)) == 88
    for row in part(state, WarehouseGoodsState).exports:
        assert len(row) == len(GOODS) and min(row) >= 0
    assert len(part(state, EventCardsState).event_deck) + len(part(state, EventCardsState).events_turned) in (0, 10)


@pytest.mark.parametrize(
    ("variant", "expansions"), FORMS, ids=["-".join((v, *e)) for v, e in FORMS]
)
def test_random_expansion_games(variant, expansions):
    options = GAME.parse_options({"variant": variant, "expansions": list(expansions)}, 2)
    turned = 0
    exported = 0
    for n in range(SEEDS):
        played = check_game(GAME, options, 2, seed_for(n), n, leak_samples=3, every_version=sampled(n))
        check_rule_properties(played)
        final = played.final
        assert final.end_reason in ("board_full", "stalled", "idle")
        for state in played.states[::7] + [final]:
            _invariants(state)
        bonus = [e for e in played.events if type(e).__name__ == "FinalBonusesCounted"]
        assert len(bonus) == 1 and tuple(GAME.result(final).scores) == tuple(
            map(float, bonus[0].points)
        )
        turned += len(part(final, EventCardsState).events_turned)
        exported += sum(map(sum, part(final, WarehouseGoodsState).exports))
    if "event_cards" in expansions:
        assert turned > SEEDS  # events do happen
    if "export_warehouse" in expansions:
        assert exported > 0


@pytest.mark.parametrize("variant", ["basic", "advanced"])
def test_policy_plays_the_expansions(variant):
    options = GAME.parse_options(
        {"variant": variant, "expansions": ["export_warehouse", "event_cards"]}, 2
    )
    for n in range(4):
        played = check_game(
            GAME,
            options,
            2,
            seed_for(100 + n),
            100 + n,
            leak_samples=2,
            policy_seats={n % 2: "normal", 1 - n % 2: "easy"} if n < 2 else {0: "strong"},
        )
        check_rule_properties(played)
        assert GAME.result(played.final) is not None
