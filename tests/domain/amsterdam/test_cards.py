"""Every card effect of the supplement (L1107-1905) does what its text says: each "III"
card can be used when its condition holds and changes the seat; each laurel card scores;
each modifier, trigger and converter name is one the engine knows."""

from __future__ import annotations

import pytest

from domain.amsterdam import GAME, cards, data
from domain.amsterdam.commands import UseCard
from domain.amsterdam.state import ACTIONS
from domain.common.frozen import replace
from tests.domain.amsterdam.helpers import acting, at_phase, play, with_seat

USE_CARDS = [c for c, card in data.CARDS.items() if card.effect.kind in ("use", "plan")]
END_CARDS = [c for c, card in data.CARDS.items() if card.effect.kind == "end"]


def _rich(card: str):
    """A position where every condition of ``card`` holds: 3 active cards of each kind,
    plans used this turn, last on the score track and the river, 0 goods on the barge."""
    state = at_phase(ACTIONS, 2)
    seat = acting(state)
    other = 1 - seat
    effect = data.CARDS[card].effect
    active = ("013", "014", "015", "055", "056", "057", "110", "114", "118", "122", "126", "130",
              "044", "025", card)
    plans = tuple(data.PLAN_DISTRICT_ORDER)
    state = with_seat(state, seat, active=active, inactive=(), reserve=(3,) * 6, florins=3,
                      points=0, amstel=0, cargo=(), used=(), stamp=0,
                      turn=replace(state.seats[seat].turn, plans_used=plans))
    state = with_seat(state, other, points=10, amstel=5)
    state = replace(state, block_owner=tuple(seat if i < 3 else None for i in range(36)))
    if effect.name == "alone_first_on_score":
        state = with_seat(state, seat, points=20)
    return state, seat


@pytest.mark.parametrize("card", USE_CARDS)
def test_every_once_per_round_card_can_be_used_and_changes_the_seat(card):
    state, seat = _rich(card)
    legal = [c for c in GAME.legal_commands(state, seat) if isinstance(c, UseCard) and c.card == card]
    assert legal, f"{card} cannot be used"
    before = state.seats[seat]
    after = play(state, legal[0]).seats[seat]
    changed = (after.points, after.florins, after.reserve, after.pending_choices, after.amstel,
               after.turn.barge_credit, after.active)
    assert changed != (before.points, before.florins, before.reserve, before.pending_choices,
                       before.amstel, before.turn.barge_credit, before.active), card
    if data.CARDS[card].effect.kind == "use":
        assert not [c for c in GAME.legal_commands(play(state, legal[0]), seat)
                    if isinstance(c, UseCard) and c.card == card], f"{card} twice a round"


@pytest.mark.parametrize("card", [c for c in END_CARDS if c not in ("008", "009")])
def test_every_laurel_card_scores(card):
    """L686: "Appliquez les effets de toutes les cartes avec un symbole Fin de partie"."""
    state, seat = _rich(card)
    partners = {"Oude Kerk": ("070", "073")}.get(data.CARDS[card].group, ())
    owners = tuple(seat if i < 8 else None for i in range(36))
    state = replace(state, block_owner=owners, black_market=("beer",),
                    docker_building=(("pink", 1),))
    state = with_seat(state, seat, active=state.seats[seat].active + partners + ("020", "021", "109"),
                      cargo=("beer",), barge=data.START, bridges_passed=1)
    assert cards.end_points(state, seat) > 0, card
    without = with_seat(state, seat, active=tuple(c for c in state.seats[seat].active if c != card))
    assert cards.end_points(state, seat) > cards.end_points(without, seat), card


def test_every_effect_name_is_known_to_the_engine():
    for card in data.CARDS.values():
        assert card.effect.kind == "plan" or card.effect.name in cards.EFFECT_NAMES[card.effect.kind], card
    used = {(c.effect.kind, c.effect.name) for c in data.CARDS.values() if c.effect.kind != "plan"}
    assert {(k, n) for k, names in cards.EFFECT_NAMES.items() for n in names} == used
