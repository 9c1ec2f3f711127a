"""View contract, redaction, redetermination and the computer player."""

from __future__ import annotations

from domain.kontor import GAME
from domain.kontor.core.options import Options
from domain.rng import Rng
from tests.conformance.harness import play_random_game, seed_for

SEED = "12" * 32
CARD_KEYS = {"number", "kind", "owner", "goods", "florin", "ship", "crane", "tavern"}


def _state():
    return GAME.fold(GAME.start(Options(), 2, SEED))


def test_view_board_cells_contract():
    """API.md: view.board.cells = [{x, y, card: {number, kind, owner, goods, florin, ship,
    crane, tavern}}]; players with color, points, money, hand_size; own hand under you."""
    state = _state()
    v = GAME.view(state, 0)
    cells = v["board"]["cells"]
    assert len(cells) == 9
    anchor = next(c for c in cells if (c["x"], c["y"]) == (0, 0))
    assert anchor["card"]["number"] is None and anchor["card"]["kind"] == "anchor"
    for c in cells:
        assert CARD_KEYS <= set(c["card"])
    assert [p["color"] for p in v["players"]] == ["red", "black"]
    assert v["players"][1]["hand_size"] == 5 and v["players"][0]["money"] == 4
    assert sorted(c["id"] for c in v["you"]["hand"]) == sorted(state.hands[0])
    assert v["treasury"] == 12 and v["phase"] == "choose"


def test_views_hide_hands_piles_and_seed():
    """« chaque joueur prend deux canaux faces cachées en main »: other hands, the piles
    below their top card and the seed are not shown."""
    state = _state()
    spectator = GAME.view(state, None)
    text = str(spectator)
    assert SEED not in text and "you" not in spectator and "hidden" not in spectator
    red = GAME.view(state, 0)
    black_hand = set(state.hands[1])
    assert not black_hand & {c["id"] for c in red["you"]["hand"]}
    started = GAME.redact_event(GAME.start(Options(), 2, SEED)[0], 0)
    assert started["seed"] is None and started["hands"][1] is None
    assert started["hands"][0] == list(state.hands[0])
    assert started["water_pile"]["size"] == len(state.water_pile)


def test_redetermine_keeps_views_and_counts():
    state = _state()
    for observer in (None, 0, 1):
        other = GAME.redetermine(state, observer, Rng("34" * 32))
        assert GAME.view(other, observer) == GAME.view(state, observer)
        assert sorted(map(len, other.hands)) == sorted(map(len, state.hands))
        if observer is not None:
            assert other.hands[observer] == state.hands[observer]


def test_policy_uses_only_what_the_seat_knows():
    played = play_random_game(GAME, Options(), 2, seed_for(5), Rng(seed_for(5)))
    for state in played.states[:-1:7]:
        for seat in GAME.to_act(state):
            command = GAME.policy(state, seat, Rng("56" * 32), "normal")
            assert command in GAME.legal_commands(state, seat)
            other = GAME.redetermine(state, seat, Rng("78" * 32))
            assert GAME.policy(other, seat, Rng("56" * 32), "normal") == command
