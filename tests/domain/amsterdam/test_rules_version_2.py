"""The fixes of rules version amsterdam-2 (issue 25), each on the issue's reproduction (the
seed of POST /v1/games, the game advanced by its first legal commands to the round the
issue names, then the one fact it states set by hand), and games of amsterdam-1 still
decided as they were played (domain/amsterdam/versions.py).

amsterdam.fr.txt:
- L927-930 (solo): « En fonction du triple obtenu, prenez le docker sur le ponton
  suivant : Bleu clair Blanc Jaune Marron Rose Vert clair »; L894: « Ne mettez qu'un seul
  docker de chaque couleur dans le sac avant de les placer aléatoirement sur les
  différents pontons » (a docker never stands on its own colour's pontoon, L251).
- L942 (solo): « TOM gagne les points de prestige et avance sur la rivière Amstel le cas
  échéant »; L293: a pawn ending its move on an occupied space goes on top.
- L2238, tile CB 21: « Payez 3 Florins, déplacez votre barge sur une case de votre choix
  sur le port »; L536: « Lorsque votre barge est accostée à un ponton ... vous avez le
  droit de prendre un docker » (one per stop, B7).
"""

from __future__ import annotations

import pytest

from domain.amsterdam import GAME, data
from domain.amsterdam import events as ev
from domain.amsterdam.board import amstel_order
from domain.amsterdam.commands import BuyPrestige, PickUpDocker
from domain.amsterdam.state import ACTIONS
from domain.common.frozen import replace
from domain.decider import Issued, RuleViolation
from tests.domain.amsterdam.helpers import AT, play, with_seat

TOM = data.TOM


def _seed(tail: int) -> str:
    return f"{tail:064x}"


def _before_dice(seed: str, options: dict, seats: int, round_: int):
    """The game of ``seed`` played by first legal commands up to the command that rolls
    the dice of ``round_``: (state, seat, command)."""
    state = GAME.fold(GAME.start(GAME.parse_options(options, seats), seats, seed))
    while True:
        seat = GAME.to_act(state)[0]
        command = GAME.legal_commands(state, seat)[0]
        events = GAME.decide(state, Issued(seat, AT, command))
        if state.round == round_ and any(isinstance(e, ev.DiceRolled) for e in events):
            return state, seat, command
        state = GAME.fold(events, state)


def _decide(state, seat, command):
    events = GAME.decide(state, Issued(seat, AT, command))
    return events, GAME.fold(events, state)


def _old(state):
    return replace(state, rules_version="amsterdam-1")


# -- 1. TOM's triple takes the docker standing on the named pontoon ---------------------

def _round_three_of_seed_0460():
    """Solo, 12 rounds, seed ...0460: round 3 rolls [1, 2, 1, 1, 5, 2], a triple of 1s:
    the light blue pontoon (L929-930, the first named). The yellow docker stands there, the
    light blue docker on the light green pontoon."""
    state, seat, command = _before_dice(_seed(0x460), {"rounds": 12}, 1, 3)
    state = replace(state, tom=replace(state.tom, triples=()))
    pontoons = dict(zip(data.PONTOONS, state.pontoons))
    assert pontoons["P:light_blue"] == ("yellow",) and pontoons["P:light_green"] == ("light_blue",)
    return state, seat, command


def test_the_triple_takes_the_docker_standing_on_the_named_pontoon():
    """« prenez le docker sur le ponton suivant »: the docker on the light blue pontoon
    (yellow), not the light blue docker on another pontoon."""
    state, seat, command = _round_three_of_seed_0460()
    events, after = _decide(state, seat, command)
    assert [e.rolled for e in events if isinstance(e, ev.DiceRolled)] == [(1, 2, 1, 1, 5, 2)]
    assert [e for e in events if isinstance(e, ev.TomDockerDelivered)] == [
        ev.TomDockerDelivered(1, "yellow", 0)]
    assert after.docker_building == (("yellow", TOM),)
    pontoons = dict(zip(data.PONTOONS, after.pontoons))
    assert pontoons["P:light_blue"] == () and pontoons["P:light_green"] == ("light_blue",)
    assert ev.TomScored(data.DOCKER_BUILDING["values"][0], "docker_building") in events


def test_the_triple_on_an_empty_pontoon_does_nothing():
    """The issue's game: the player had taken the light blue pontoon's docker; the triple
    of 1s names an empty pontoon: nothing happens (B32), no docker, no points, no florin;
    the light blue docker stays on the light green pontoon."""
    state, seat, command = _round_three_of_seed_0460()
    state = replace(state, pontoons=((),) + state.pontoons[1:])
    state = with_seat(state, 0, dockers=("yellow",))
    events, after = _decide(state, seat, command)
    assert [e for e in events if isinstance(e, ev.TomDockerDelivered)] == [
        ev.TomDockerDelivered(1, None, 0)]
    assert not [e for e in events if isinstance(e, ev.TomScored) and e.source == "docker_building"]
    assert not [e for e in events if isinstance(e, ev.TomFlorins) and e.source == "docker"]
    assert after.docker_building == ()
    assert dict(zip(data.PONTOONS, after.pontoons))["P:light_green"] == ("light_blue",)
    assert after.tom.triples == (1,)


def test_amsterdam_1_games_still_take_the_docker_of_the_pontoons_colour():
    """Games recorded under amsterdam-1 are decided as they were played: the light blue
    docker, from the light green pontoon, +9 points and +1 florin (the issue's report)."""
    state, seat, command = _round_three_of_seed_0460()
    state = replace(_old(state), pontoons=((),) + state.pontoons[1:])
    events, after = _decide(state, seat, command)
    assert ev.TomDockerDelivered(1, "light_blue", 0) in events
    assert ev.TomScored(data.DOCKER_BUILDING["values"][0], "docker_building") in events
    assert dict(zip(data.PONTOONS, after.pontoons))["P:light_green"] == ()


# -- 2. TOM does not climb a stack without moving ---------------------------------------

def _round_eleven_of_seed_0461(old: bool = False):
    """Solo, 10 rounds, seed ...0461: in round 11 the market tile is B9 (3 florins, 5
    points, no Amstel move) and TOM can pay it. Your pawn is on TOM's space, on top."""
    state, seat, command = _before_dice(_seed(0x461), {"rounds": 10}, 1, 11)
    assert state.market_tile == "B9" and data.MARKET_TILES["B9"].amstel == 0
    state = replace(state, tom=replace(state.tom, florins=3), next_stamp=state.next_stamp + 1)
    state = with_seat(state, 0, amstel=state.tom.amstel, stamp=state.next_stamp - 1, mouth_slot=None)
    assert amstel_order(state)[0] == 0
    return (_old(state) if old else state), seat, command


def test_tom_buying_a_tile_without_an_amstel_move_stays_below_you():
    """« avance sur la rivière Amstel le cas échéant »: B9 moves nobody, so TOM stays
    where he is in the stack, you stay the leader (and he discards nothing in Phase I)."""
    state, seat, command = _round_eleven_of_seed_0461()
    space, stamp = state.tom.amstel, state.tom.stamp
    events, after = _decide(state, seat, command)
    assert ev.TomFlorins(-3, "market") in events and ev.TomScored(5, "market") in events
    assert not [e for e in events if isinstance(e, ev.TomAdvanced)]
    assert (after.tom.amstel, after.tom.stamp) == (space, stamp)
    assert amstel_order(after)[0] == 0


def test_amsterdam_1_games_still_put_tom_on_top():
    state, seat, command = _round_eleven_of_seed_0461(old=True)
    events, after = _decide(state, seat, command)
    assert [e.space for e in events if isinstance(e, ev.TomAdvanced)] == [state.tom.amstel]
    assert amstel_order(after)[0] == TOM


# -- 3. CB 21 moves the barge to another space ------------------------------------------

def _cb21_of_seed_0e24():
    """3 seats, 12 rounds, skilled workers, black market, market tiles, seed ...0e24: CB 21
    is the market tile of round 8. The acting seat's barge stops at a pontoon with two
    dockers; it takes one (+1 florin) and then has the tile's 3 florins."""
    options = {"rounds": 12, "expansions": ["skilled_workers", "black_market", "market_tiles"]}
    state = GAME.fold(GAME.start(GAME.parse_options(options, 3), 3, _seed(0xE24)))
    while not (state.round == 8 and state.phase == ACTIONS):
        state = play(state, GAME.legal_commands(state, GAME.to_act(state)[0])[0])
    seat = GAME.to_act(state)[0]
    assert state.market_tile == "CB21"
    here, pontoon = next((p, d) for p, d in zip(data.PONTOONS, state.pontoons) if len(d) == 2)
    state = with_seat(state, seat, florins=2, dockers=(), barge=here,
                      turn=replace(state.seats[seat].turn, docker_taken_here=False))
    state = play(state, PickUpDocker(pontoon[0]), seat)
    assert state.seats[seat].florins == 3
    assert not [c for c in GAME.legal_commands(state, seat) if isinstance(c, PickUpDocker)]
    return state, seat, here


def test_cb21_moves_the_barge_to_another_space():
    """« déplacez votre barge sur une case de votre choix »: a move, so to another space;
    a "move" to the same pontoon would reset the one-docker-per-stop limit (B7)."""
    state, seat, here = _cb21_of_seed_0e24()
    offered = [c.node for c in GAME.legal_commands(state, seat) if isinstance(c, BuyPrestige)]
    assert here not in offered
    assert sorted(offered) == sorted(n for n in data.HARBOUR_NODES if n != here)
    with pytest.raises(RuleViolation) as refused:
        GAME.decide(state, Issued(seat, AT, BuyPrestige(node=here)))
    assert refused.value.code == "amsterdam.market" and "L2238" in refused.value.message
    after = play(state, BuyPrestige(node="start"), seat)
    assert after.seats[seat].barge == "start"


def test_amsterdam_1_games_still_let_cb21_stay():
    state, seat, here = _cb21_of_seed_0e24()
    state = _old(state)
    assert BuyPrestige(node=here) in GAME.legal_commands(state, seat)
    after = play(state, BuyPrestige(node=here), seat)
    assert [c for c in GAME.legal_commands(after, seat) if isinstance(c, PickUpDocker)]


# -- the versions ----------------------------------------------------------------------

def test_new_games_record_amsterdam_2_and_amsterdam_1_is_still_decided():
    options = GAME.parse_options({}, 2)
    assert GAME.rules_version_for(options) == "amsterdam-2"
    assert GAME.fold(GAME.start(options, 2, _seed(1))).rules_version == "amsterdam-2"
    assert GAME.decides_version("amsterdam-1") and GAME.plays_version(options, "amsterdam-1")
    old = GAME.start_version(options, 2, _seed(1), "amsterdam-1")
    assert old[0].rules_version == "amsterdam-1" and old[1:] == GAME.start(options, 2, _seed(1))[1:]
