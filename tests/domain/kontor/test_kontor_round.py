"""Choice, pass, reveal, order of play."""

from __future__ import annotations

import pytest

from domain.decider import GameOver, NotYourTurn
from domain.kontor import GAME
from domain.kontor.core import events as ev
from domain.kontor.core.commands import ChooseCard, Pass, PlaceCard

from .helpers import BLACK, RED, choose, dock, given, of_type, started, then, types, water, when


def _base(money=(4, 4), treasury=12):
    hands = (
        (dock(RED, "wine"), dock(RED, "tea"), water(n=0)),
        (dock(BLACK, "wine"), dock(BLACK, "tea"), water(n=1)),
    )
    return given(
        started(hands=hands, money=money, treasury=treasury, water_pile=(water(n=2), water(n=3)))
    )


def test_simultaneous_secret_choice():
    """« les joueurs choisissent une de leurs cinq cartes en main et la préparent à
    l'envers devant eux » -- both choose at once; the choice stays hidden."""
    state = _base()
    assert GAME.to_act(state) == (RED, BLACK)
    card = dock(RED, "wine")
    events, state = then(state, RED, ChooseCard(card))
    assert types(events) == ["CardChosen"]
    assert GAME.to_act(state) == (BLACK,)
    assert GAME.redact_event(events[0], BLACK)["card"] is None
    assert GAME.redact_event(events[0], None)["card"] is None
    assert GAME.redact_event(events[0], RED)["card"] == card
    black_view = GAME.view(state, BLACK)
    assert black_view["you"]["chosen"] is None and black_view["players"][RED]["hand_size"] == 2
    assert black_view["players"][RED]["chosen"] is True
    assert black_view["players"][RED]["revealed"] is None
    assert GAME.view(state, RED)["you"]["chosen"] == card
    with pytest.raises(NotYourTurn):
        when(state, RED, Pass())


def test_reveal_and_highest_number_plays_first():
    """« Révéler les cartes : les cartes sont retournées en même temps » ; « Déterminer le
    premier joueur : c'est celui dont la carte montre le numéro le plus élevé »."""
    state = _base()
    red_card, black_card = dock(RED, "wine"), dock(BLACK, "tea")
    events, state = choose(state, ChooseCard(red_card), ChooseCard(black_card))
    revealed = of_type(events, ev.CardsRevealed)[0]
    assert revealed.cards == (red_card, black_card)
    first = RED if red_card > black_card else BLACK
    assert of_type(events, ev.TurnOrderSet)[0].order == (first, 1 - first)
    assert GAME.to_act(state) == (first,)
    assert GAME.view(state, None)["players"][RED]["revealed"] == red_card


def test_card_must_be_in_hand():
    """« choisissent une de leurs cinq cartes en main »."""
    state = _base()
    from domain.decider import RuleViolation

    with pytest.raises(RuleViolation) as err:
        when(state, RED, ChooseCard(dock(BLACK, "wine")))
    assert err.value.code == "kontor.card_not_in_hand"


def test_pass_gives_a_florin_and_is_public():
    """« Un joueur peut, avant que les cartes ne soient jouées au début d'un tour, renoncer à
    jouer ce tour ; il reçoit alors un florin de la trésorerie. L'autre joueur peut alors
    finir le tour tout seul. »"""
    state = _base()
    events, state = then(state, RED, Pass())
    assert events == [ev.Passed(RED, 1)]
    assert state.money == (5, 4) and state.treasury == 11
    assert GAME.view(state, BLACK)["players"][RED]["passed"] is True
    assert GAME.to_act(state) == (BLACK,)
    events, state = then(state, BLACK, ChooseCard(dock(BLACK, "wine")))
    assert of_type(events, ev.TurnOrderSet)[0].order == (BLACK,)
    assert GAME.to_act(state) == (BLACK,)


def test_pass_with_empty_treasury_gives_nothing():
    """« il reçoit alors un florin de la trésorerie » -- nothing when it is empty: « Il n'y a
    jamais de crédit ! »"""
    state = _base(money=(10, 10), treasury=0)
    events, state = then(state, RED, Pass())
    assert events == [ev.Passed(RED, 0)]
    assert state.money == (10, 10) and state.treasury == 0


def test_both_pass_starts_next_round():
    """Both seats renounce: nobody places, the next round begins."""
    state = _base()
    events, state = choose(state, Pass(), Pass())
    assert types(events)[-1] == "RoundStarted"
    assert state.round == 2 and state.money == (5, 5) and state.treasury == 10
    assert GAME.to_act(state) == (RED, BLACK)


def test_second_placer_then_new_round():
    """« Joueur suivant : le joueur suivant prend son tour ... Lorsque chaque joueur a
    terminé ses actions, le tour est terminé »."""
    state = _base()
    _, state = choose(state, ChooseCard(dock(RED, "wine")), ChooseCard(dock(BLACK, "wine")))
    first = state.order[0]
    legal = GAME.legal_commands(state, first)
    _, state = then(state, first, legal[0])
    assert GAME.to_act(state) == (1 - first,)
    assert GAME.legal_commands(state, first) == []
    events, state = then(state, 1 - first, GAME.legal_commands(state, 1 - first)[0])
    assert types(events)[-1] == "RoundStarted"
    assert state.round == 2


def test_game_over_refuses_commands():
    state = _base()
    state = GAME.fold([ev.GameEnded("board_full", (0, 0), (4, 4), (0, 1))], state)
    with pytest.raises(GameOver):
        when(state, RED, Pass())
    assert GAME.to_act(state) == ()


def test_place_only_after_reveal():
    state = _base()
    with pytest.raises(Exception) as err:
        when(state, RED, PlaceCard(3, 0))
    assert getattr(err.value, "code", "") == "kontor.not_placing"


def test_placer_may_not_choose_or_pass():
    """« Un joueur peut, avant que les cartes ne soient jouées ... renoncer » -- not after."""
    from domain.decider import RuleViolation

    state = _base()
    _, state = choose(state, ChooseCard(dock(RED, "wine")), ChooseCard(dock(BLACK, "wine")))
    first = state.order[0]
    for command, code in (
        (Pass(), "kontor.pass_too_late"),
        (ChooseCard(state.hands[first][0]), "kontor.not_choosing"),
    ):
        with pytest.raises(RuleViolation) as err:
            when(state, first, command)
        assert err.value.code == code
