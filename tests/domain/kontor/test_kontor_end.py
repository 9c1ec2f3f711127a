"""End of the game, victory, tie-breaks, stalled games."""

from __future__ import annotations

from domain.kontor import GAME
from domain.kontor.core import events as ev
from domain.kontor.core.commands import ChooseCard, Pass, PlaceCard
from domain.kontor.core.data import CARDS
from domain.kontor.core.decide import winners
from domain.kontor.core.options import Options

from .helpers import (
    BLACK,
    RED,
    cards,
    choose,
    crane,
    dock,
    full_board,
    given,
    of_type,
    placing,
    started,
    then,
    types,
    water,
)


def _high_low():
    reds = [c for c in cards("dock", RED, None, False) if CARDS[c].goods]
    blacks = cards("dock", BLACK, None, False)
    red = max(reds)
    black = min(blacks)
    assert red > black
    return red, black


def test_game_ends_when_36_cells_filled_even_if_a_seat_has_not_placed():
    """« La partie s'arrête immédiatement quand les 36 cases du plateau 6x6 sont remplies. Il
    est possible qu'un joueur ne puisse poser la carte qu'il a jouée. Les derniers secteurs
    terminés sont comptabilisés. »"""
    red, black = _high_low()
    layout = full_board(holes={(3, 3)}, spare_water=4)
    _, state = placing(
        layout,
        red,
        black,
        extra=((water(n=0),), (water(n=1),)),
        dock_piles=((dock(RED, "wine"),), ()),
    )
    assert state.order == (RED, BLACK)
    events, state = then(state, RED, PlaceCard(3, 3))
    assert types(events)[-1] == "GameEnded"
    assert of_type(events, ev.GameEnded)[0].reason == "board_full"
    assert not of_type(events, ev.CardDrawn)  # the game stops at once
    scored = of_type(events, ev.SectorScored)
    assert scored and scored[0].cells == ((3, 3),) and scored[0].winner == RED
    assert of_type(events, ev.GameEnded)[0].points == (1, 0)
    assert GAME.is_finished(state) and GAME.to_act(state) == ()
    assert GAME.legal_commands(state, BLACK) == []
    assert len(state.board) == 36


def test_last_canal_gets_no_income():
    """« La partie s'arrête immédiatement » -- the canal that fills the port ends the game
    before phase 8 (no subsidy, which would matter for the money tie-break)."""
    layout = full_board(holes={(3, 3)}, spare_water=4)
    _, state = placing(layout, water(n=0), None, extra=((water(n=1),), (water(n=2),)))
    events, state = then(state, RED, PlaceCard(3, 3))
    assert not of_type(events, ev.IncomePaid)
    assert state.money == (4, 5)


def _ended(points, money):
    pre = []
    for seat, n in enumerate(points):
        for i in range(n):
            pre.append(
                ev.SectorScored(
                    ((20 + i, 20 + seat),), ((0, 0, 0), (0, 0, 0)), seat, "highest", None, 1, ()
                )
            )
    layout = full_board(holes={(3, 3)}, spare_water=4)
    state = given(
        started(
            layout, hands=((water(n=0),), (water(n=1),)), money=money, treasury=20 - sum(money)
        ),
        *pre,
    )
    _, state = choose(state, ChooseCard(water(n=0)), Pass())
    money_before = state.money
    _, state = then(state, RED, PlaceCard(3, 3))
    assert state.money == money_before
    return state


def test_most_points_wins():
    """« Chaque joueur compte un point par secteur où se trouve un gardien de sa couleur. Le
    joueur qui a le plus de points gagne la partie. »"""
    state = _ended((1, 2), (9, 0))
    assert state.winners == (BLACK,)
    result = GAME.result(state)
    assert result.winners == (BLACK,) and result.scores == (1.0, 2.0)


def test_tie_break_money():
    """« En cas d'égalité, le gagnant est le joueur qui a le plus d'argent. »"""
    state = _ended((2, 2), (3, 5))  # black passed: 5 -> 6
    assert state.money == (3, 6) and state.winners == (BLACK,)
    assert winners((2, 2), (7, 3)) == (RED,)


def test_shared_win():
    """« En cas de nouvelle égalité, les joueurs sont déclarés ex æquo. »"""
    state = _ended((1, 1), (4, 3))  # black passes: 3 -> 4
    assert state.money == (4, 4) and state.winners == (RED, BLACK)
    assert GAME.result(state).winners == (RED, BLACK)


def _crane_locked_board(extra=None) -> dict:
    """A full 6x6 port whose three free cells no dock may take (cranes of both colours
    beside them); canals still may."""
    overrides = {
        (2, 2): crane(BLACK),
        (1, 3): crane(RED),
        (3, 1): cards("dock", RED, (), None, crane=True)[1],
    }
    return full_board(
        holes={(2, 3), (3, 2), (3, 3)}, overrides=overrides | (extra or {}), spare_water=4
    )


def test_stalled_game_ends():
    """House rule (the rulebook is silent): when no seat holds a card that has a legal cell
    and none can be drawn, nobody can ever place again -- the game ends at once, scored as
    at the normal end."""
    layout = _crane_locked_board()
    red, black = dock(RED, "wine"), dock(BLACK, "wine")
    events, state = placing(layout, red, black, extra=((dock(RED, "tea"),), (dock(BLACK, "tea"),)))
    assert [e.reason for e in of_type(events, ev.CardReturned)] == [
        "no_legal_cell",
        "no_legal_cell",
    ]
    assert types(events)[-1] == "GameEnded"
    assert of_type(events, ev.GameEnded)[0].reason == "stalled"


def test_not_stalled_while_a_canal_can_go():
    layout = _crane_locked_board()
    red, black = dock(RED, "wine"), dock(BLACK, "wine")
    events, state = placing(layout, red, black, extra=((water(n=0),), ()))
    assert types(events)[-1] == "RoundStarted"


def test_not_stalled_while_the_ship_may_free_a_cell():
    """A ship card whose ship may still remove a dock (« un ou plusieurs docks adjacents à
    ce canal comportent un bateau et n'appartiennent pas à un secteur terminé, l'un de
    ces docks peut être enlevé ») is not stuck: it frees a cell first, so the game goes
    on."""
    ship_dock = next(c for c in cards("dock", BLACK, None, None) if CARDS[c].ship)
    layout = _crane_locked_board({(1, 0): ship_dock})
    red_ship = next(c for c in cards("dock", RED, None, None) if CARDS[c].ship)
    red, black = (
        next(c for c in cards("dock", seat, None, None) if not CARDS[c].ship and CARDS[c].goods)
        for seat in (RED, BLACK)
    )
    _, stuck = placing(layout, red, black, extra=((red_ship,), (dock(BLACK, "tea"),)))
    assert stuck.end_reason == "stalled"  # no ship on this board: nothing frees a cell
    events, state = placing(
        layout, red, black, extra=((red_ship,), (dock(BLACK, "tea"),)), options=Options(ship=True)
    )
    assert types(events)[-1] == "RoundStarted"


def test_idle_rounds_end_the_game():
    """House rule: after ``idle_round_limit`` (20) complete rounds in a row in which no card
    was placed, the game ends (so every game ends)."""
    state = given(started(hands=((water(n=0),), (water(n=1),)), treasury=12))
    for _ in range(Options().idle_round_limit):
        assert not GAME.is_finished(state)
        _, state = choose(state, Pass(), Pass())
    assert GAME.is_finished(state) and state.end_reason == "idle"
    assert state.money == (10, 10) and state.treasury == 0
