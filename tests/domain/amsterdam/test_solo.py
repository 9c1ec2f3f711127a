"""The solo game against TOM (L886-972)."""

from __future__ import annotations

import pytest

from domain.amsterdam import GAME, data, tom
from domain.amsterdam.commands import DiscardForTom, EndTurn
from domain.amsterdam.state import ACTIONS, CARDS
from domain.amsterdam.tx import Tx
from domain.common.frozen import replace
from domain.decider import OptionsError
from tests.domain.amsterdam.helpers import at_phase, play, started, with_seat

TOM = data.TOM
Y, X = 1, 6  # the default faces (D12, options.solo_amstel_face / solo_block_face)


def test_solo_setup():
    """L888-895: no expansion; one docker of each colour; TOM has no florin; his Amstel
    pawn is drawn with yours; the 2-player offer (L903)."""
    with pytest.raises(OptionsError) as refused:
        GAME.parse_options({"expansions": ["tasks"], "tasks": "open1"}, 1)
    assert "L888" in refused.value.errors["expansions"][0]
    state = started(1)
    assert sorted(d for p in state.pontoons for d in p) == sorted(data.DOCKER_COLOURS)
    assert all(own not in p for p, own in zip(state.pontoons, data.PONTOONS.values()))
    assert state.tom.florins == 0 and state.tom.stamp in (1, 2)
    assert len(state.offer) == 3 and len(state.districts_scored) == 1


def test_tom_discards_the_haarlemmerbuurt_plan():
    """L919: "TOM est en tête ... deux cartes qui ont un coût de 2 ressources, c'est la carte
    Plan Haarlemmerbuurt qui est défaussée"."""
    state = replace(at_phase(CARDS, 1), offer=("113", "025", "103", "097"), tom_discard=())
    assert tom.discard_candidates(state) == ("113",)
    state = replace(state, offer=("113", "109", "103", "097"))
    assert tom.discard_candidates(state) == ("113", "109")      # two plans: you choose
    state = replace(state, tom_discard=("113", "109"))
    assert GAME.legal_commands(state, 0) == [DiscardForTom("113"), DiscardForTom("109")]
    state = play(state, DiscardForTom("109"), 0)
    assert "109" in state.discard and "109" not in state.offer and not state.tom_discard


def _tom_round(state, rolled):
    tx = Tx(state)
    tom.play_round(tx, rolled)
    return tx.state


def test_tom_advances_for_each_amstel_face_and_scores_the_bridge():
    """L925, L960: "Comme il y a un résultat de [Y], TOM avance d'une case ... Il passe sous
    un pont et gagne donc 2 points"."""
    bridge = next(k for k, v in data.AMSTEL["bridges"].items() if v == 2)
    state = at_phase(ACTIONS, 1)
    state = replace(state, tom=replace(state.tom, amstel=bridge, points=0, florins=9),
                    market_tile=None)
    rolled = (Y, 2, 3, 4, 5, 2)
    after = _tom_round(state, rolled)
    assert after.tom.amstel == bridge + 1 and after.tom.points == 2


def test_tom_takes_the_cheapest_blocks_sells_or_delivers():
    """L964: black: the cheapest block (2), its lace already sold -> the lace warehouse, 5
    points; violet: three tied at the cheapest -> the one next to a TOM block; its beer is
    sold on the black market for 2 florins."""
    state = replace(at_phase(ACTIONS, 1), round=9, market_tile=None)
    goods = list(state.block_goods)
    black = min((b for b in data.BLOCKS.values() if b.colour == "black"), key=lambda b: (b.cost, b.x, b.y))
    goods[data.BLOCK_IDS.index(black.id)] = "lace"
    violet = [b for b in data.BLOCKS.values() if b.colour == "violet" and b.cost == 2]
    assert len(violet) >= 3
    owners = [None] * 36
    outside = ("violet", "black")
    target = next(b for b in violet if any(data.BLOCKS[n].colour not in outside for n in data.BRIDGES[b.id]))
    neighbour = next(n for n in data.BRIDGES[target.id] if data.BLOCKS[n].colour not in outside)
    owners[data.BLOCK_IDS.index(neighbour)] = TOM
    goods[data.BLOCK_IDS.index(target.id)] = "beer"
    roofs = list(state.roofs)
    roofs[data.GOODS.index("lace")] = 2                       # the lace roof of 5 is next
    state = replace(state, block_goods=tuple(goods), block_owner=tuple(owners),
                    black_market=("lace",), roofs=tuple(roofs),
                    tom=replace(state.tom, points=0, florins=0))
    others = iter((2, 3, 4, 5))
    rolled = tuple(X if c in ("black", "violet") else next(others) for c in data.COLOURS)
    after = _tom_round(state, rolled)
    assert after.block_owner[data.BLOCK_IDS.index(black.id)] == TOM
    assert after.block_owner[data.BLOCK_IDS.index(target.id)] == TOM
    assert after.tom.points == 5 and "beer" in after.black_market
    assert after.tom.florins == 2 + 1                          # the sale, then no market tile


def test_tom_buys_the_market_tile_without_its_resource():
    """L967: "TOM ... paye donc 2 Florins et gagne 2 points de prestige. Il ne prend pas la
    ressource" (tile A4); without enough florins he gains 1 florin (L944)."""
    state = replace(at_phase(ACTIONS, 1), market_tile="A4")
    state = replace(state, tom=replace(state.tom, points=0, florins=2))
    after = _tom_round(state, (2, 3, 4, 5, 2, 3))
    assert (after.tom.florins, after.tom.points) == (0, 2)
    assert _tom_round(after, (2, 3, 4, 5, 2, 3)).tom.florins == 1


def test_tom_fetches_a_docker_on_a_new_triple_only():
    """L927-932: three equal dice: TOM delivers the docker standing on that face's pontoon
    (« prenez le docker sur le ponton suivant »), scores the top free space and gains 1
    florin; the same triple later does nothing. (The docker on an empty pontoon, and games
    of amsterdam-1: test_rules_version_2.py.)"""
    state = replace(at_phase(ACTIONS, 1), market_tile=None, docker_building=())
    state = replace(state, tom=replace(state.tom, points=0, florins=0, triples=()))
    after = _tom_round(state, (4, 4, 4, 2, 3, 5))
    pontoon = tuple(data.PONTOONS.values()).index(data.SOLO["triple_pontoons"][4])
    (standing,) = state.pontoons[pontoon]
    assert standing != data.SOLO["triple_pontoons"][4]            # never on its own (L251)
    assert after.docker_building == ((standing, TOM),) and after.pontoons[pontoon] == ()
    assert after.tom.points == data.DOCKER_BUILDING["values"][0] and after.tom.florins == 1 + 1
    again = _tom_round(after, (4, 4, 4, 2, 3, 5))
    assert again.docker_building == after.docker_building


def _end_solo(tom_points: int):
    state = replace(at_phase(ACTIONS, 1), round=12, districts_scored=("Burgwallen",))
    brown = [b for b in data.BLOCK_IDS if data.BLOCKS[b].colour == "brown"]
    owners = [None] * 36
    for b in brown[:3]:                    # a group of 3, 3 coats of arms in brown
        owners[data.BLOCK_IDS.index(b)] = 0
    for b in brown[3:5] + ["violet1", "violet2"]:   # two groups of 2, 2 in brown
        owners[data.BLOCK_IDS.index(b)] = TOM
    state = replace(state, block_owner=tuple(owners),
                    tom=replace(state.tom, points=tom_points, florins=5))
    state = with_seat(state, 0, points=0, inactive=(), active=(), penalties=0, florins=0,
                      reserve=(0,) * 6, house=None, provisional=(), cargo=(), dockers=())
    return play(state, EndTurn(None), 0)


def test_tom_final_score_and_you_must_beat_him_strictly():
    """L950-956, L971: TOM scores his largest group (3 per coat of arms), the districts with
    the 2-player table ("Dans le quartier marron, TOM possède 2 Armoiries tandis que vous en
    avez 3: vous gagnez 5 points et TOM ne gagne rien"), 1 point per 2 florins; "Si vous avez
    plus de points que TOM ... vous remportez la partie"."""
    state = _end_solo(tom_points=6)
    assert state.scores[0].districts == 5 and state.tom_score.districts == 0
    assert state.scores[0].city == 9 and state.tom_score.city == 6
    assert state.tom_score.surplus == 2
    assert state.scores[0].total == state.tom_score.total == 14 and state.winners == ()
    assert _end_solo(tom_points=5).winners == (0,)
    assert GAME.result(state).detail["tom"]["total"] == 14


def test_the_lost_faces_are_options():
    """D12: the die icons of L925 and L936 are lost; both faces are options."""
    options = GAME.parse_options({"solo_amstel_face": 2, "solo_block_face": 5}, 1)
    state = replace(at_phase(ACTIONS, 1), options=options, market_tile=None)
    state = replace(state, tom=replace(state.tom, amstel=0))
    assert _tom_round(state, (2, 3, 4, 1, 6, 6)).tom.amstel == 1
    with pytest.raises(OptionsError) as refused:
        GAME.parse_options({"solo_amstel_face": 3, "solo_block_face": 3}, 1)
    assert set(refused.value.errors) == {"solo_block_face"}


def test_tom_counts_on_the_score_track_and_the_river():
    """L895: TOM has a score marker and an Amstel pawn, so 097 ("seul en tête") and 017 ("pas
    en tête sur la rivière") compare with him."""
    from domain.amsterdam.commands import UseCard

    state = at_phase(ACTIONS, 1)
    state = with_seat(state, 0, active=("097", "017"), points=5, amstel=3, used=())
    state = replace(state, tom=replace(state.tom, points=9, amstel=6, mouth_slot=None))
    legal = GAME.legal_commands(state, 0)
    assert UseCard("097") not in legal and UseCard("017") in legal
    state = replace(state, tom=replace(state.tom, points=4))
    assert UseCard("097") in GAME.legal_commands(state, 0)
