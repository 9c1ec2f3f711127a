"""Expansion 4, the extra market tiles, mode b (L866-884, L2176-2255)."""

from __future__ import annotations

from collections import Counter

from domain.amsterdam import GAME, data
from domain.amsterdam.commands import ActivateCard, BuyPrestige, MoveBarge, TakeBlock
from domain.amsterdam.state import ACTIONS
from domain.common.frozen import replace
from tests.domain.amsterdam.helpers import acting, at_phase, play, started, vector, with_seat

EXT4 = {"expansions": ["market_tiles"]}


def test_mode_b_mixes_three_c_tiles_into_each_half():
    """L876-884 (b): one C_A removed unseen, the other 3 shuffled with 3 A tiles; the same
    for B; in the short game 2 C tiles of each half are removed."""
    for rounds, c_kept in ((12, 3), (10, 2)):
        state = started(2, {**EXT4, "rounds": rounds})
        tiles = (state.market_tile,) + state.market_stack
        per_half = Counter((data.MARKET_TILES[t].half, data.MARKET_TILES[t].expansion) for t in tiles)
        assert per_half == {("A", False): 3, ("A", True): c_kept, ("B", False): 3, ("B", True): c_kept}
        assert [data.MARKET_TILES[t].half for t in tiles] == sorted(data.MARKET_TILES[t].half for t in tiles)
        assert len(tiles) + len(state.market_removed) == 24


def _with_tile(tile, **seat):
    state = replace(at_phase(ACTIONS, 2, EXT4), market_tile=tile)
    me = acting(state)
    return with_seat(state, me, florins=9, **seat), me


def test_ca17_moves_the_barge_three_spaces_without_resources():
    """CA 17 (L2176-2178): "déplacez votre barge de 3 cases" (B31: up to 3, split at will)."""
    state, me = _with_tile("CA17", reserve=vector(), barge=data.START)
    state = play(state, BuyPrestige())
    for node in ("W1", "W2", "cheese"):
        state = play(state, MoveBarge(node, None))
    assert state.seats[me].barge == "cheese" and state.seats[me].florins == 8
    assert not [c for c in GAME.legal_commands(state, me) if isinstance(c, MoveBarge)]


def test_ca18_exchanges_an_inactive_card_for_a_discarded_one():
    """CA 18 (L2223-2226, B30): an inactive card for one of the discard pile."""
    state, me = _with_tile("CA18", inactive=("013",))
    state = replace(state, discard=("099",))
    assert GAME.legal_commands(state, me).count(BuyPrestige(give="013", take="099")) == 1
    state = play(state, BuyPrestige(give="013", take="099"))
    assert state.seats[me].inactive == ("099",) and state.discard == ("013",)


def test_ca20_activates_a_card_for_free():
    """CA 20 (L2232-2233): activate one of your inactive cards without paying."""
    state, me = _with_tile("CA20", inactive=("103",), reserve=vector())
    state = play(state, BuyPrestige())
    state = play(state, ActivateCard("103", (), False, True))
    assert state.seats[me].active[-1] == "103" and state.seats[me].florins == 6


def test_cb21_sends_the_barge_anywhere_and_delivers_its_docker():
    """CB 21 (L2236-2238): "déplacez votre barge sur une case de votre choix"; a docker of that
    pontoon's colour is delivered on arrival (B8)."""
    state, me = _with_tile("CB21", dockers=("pink",), barge=data.START)
    state = play(state, BuyPrestige(node="P:pink"))
    assert state.seats[me].barge == "P:pink" and state.docker_building == (("pink", me),)


def test_cb22_takes_a_free_block_beside_the_limit():
    """CB 22 (L2240-2244): "prenez possession d'un bloc de maisons gratuitement"; B13: it is not
    the turn's block action."""
    state, me = _with_tile("CB22", reserve=(5,) * 6)
    block = next(b for b, o in zip(data.BLOCK_IDS, state.block_owner) if o is None)
    state = play(state, BuyPrestige(block=block))
    assert state.block_owner[data.BLOCK_IDS.index(block)] == me
    assert any(isinstance(c, TakeBlock) for c in GAME.legal_commands(state, me))


def test_cb23_gives_one_resource_of_each_colour():
    """CB 23 (L2246-2249): 6 resources, one of each colour."""
    state, me = _with_tile("CB23", reserve=vector())
    assert play(state, BuyPrestige()).seats[me].reserve == (1,) * 6
