"""Phase 5) Revenu, the end of the game and the final scoring."""

from __future__ import annotations

from dataclasses import replace

from domain.speicherstadt import GAME
from domain.speicherstadt.commands import BuyCard, RefuseCard
from domain.speicherstadt.data import CARD
from domain.speicherstadt.events import FireResolved, GameEnded, RoundEnded
from domain.speicherstadt.scoring import score_seat, winners
from domain.speicherstadt.state import PURCHASE, Column, SeatState

from .helpers import act, fresh_seats, new_game, types


def _last_purchase(seats=3, deck=None, buyer=0, card="A-office", first=0):
    state = new_game(seats)
    return replace(state, phase=PURCHASE, purchase_column=0, first_player=first,
                   seats=fresh_seats(seats),
                   offer=(Column(card, workers=(buyer,)),),
                   deck=deck if deck is not None else state.deck)


def test_income_one_plus_one_without_purchase_plus_bank():
    """« Chaque joueur reçoit 1 pièce. Les joueurs qui n'ont pas acheté de carte Commerce
    durant cette manche reçoivent 1 pièce supplémentaire » and Banque: « vous recevez 2
    pièces si vous avez au moins acheté une carte ... et 3 pièces si vous n'avez pas acheté
    de carte »."""
    state = _last_purchase(4, buyer=0)
    seats = list(state.seats)
    seats[0] = replace(seats[0], cards=("C-bank",))
    seats[1] = replace(seats[1], cards=("C-bank",))
    state = replace(state, seats=tuple(seats))
    state, events = act(state, 0, BuyCard())
    income = next(e for e in events if isinstance(e, RoundEnded)).income
    assert income == (2, 3, 2, 2)
    assert [s.coins for s in state.seats] == [5 - 1 + 2, 8, 7, 7]


def test_metal_coin_passes_left():
    """« Après cela, le Premier Joueur donne la pièce en métal au joueur à sa gauche »."""
    state = _last_purchase(3, first=2)
    state, events = act(state, 0, RefuseCard())
    assert next(e for e in events if isinstance(e, RoundEnded)).first_player == 0
    assert state.first_player == 0 and GAME.to_act(state) == (0,)


def test_last_round_when_only_the_4th_fire_remains():
    """« Dès qu'en phase 1) Approvisionnement, la seule carte restante dans la pile après
    le tirage des cartes Commerce est la carte 4ème Incendie (E), votre dernière manche a
    débuté. Procédez comme d'habitude. Après cela, traitez la dernière carte de la pile, le
    4ème Incendie ... Après cela, la partie est terminée »."""
    deck = ("D-office-1", "D-office-2", "D-port", "D-michaelis", "E-fire")
    state, _ = act(_last_purchase(3, deck=deck), 0, RefuseCard())
    assert state.last_round and state.deck == ("E-fire",)
    events = _play_round_refusing(state)
    names = types(events)
    assert names[-3:] == ["RoundEnded", "FireResolved", "GameEnded"]
    assert events[-2].card == "E-fire"
    assert GAME.is_finished(GAME.fold(events, state))


def test_third_fire_just_above_the_fourth():
    """« Parfois, il peut arriver que la carte 3ème Incendie (D) est la dernière carte de
    l'Automne et est juste au-dessus de la carte 4ème Incendie (E). Dans ce cas, la manche
    se termine après avoir révélé et traité le 3ème Incendie, mais traitez le 4ème Incendie
    immédiatement. Après cela, la partie se termine »."""
    deck = ("D-office-1", "D-office-2", "D-port", "D-michaelis", "D-fire", "E-fire")
    state = _last_purchase(3, deck=deck)
    seats = list(state.seats)
    seats[1] = replace(seats[1], cards=("D-fireman-5",))
    state = replace(state, seats=tuple(seats))
    state, _ = act(state, 0, RefuseCard())
    assert state.last_round and state.deck == ("D-fire", "E-fire")
    events = _play_round_refusing(state)
    assert types(events)[-4:] == ["RoundEnded", "FireResolved", "FireResolved", "GameEnded"]
    assert [e.card for e in events if isinstance(e, FireResolved)] == ["D-fire", "E-fire"]
    final = GAME.fold(events, state)
    assert final.seats[1].points == CARD["D-fire"].bonus + CARD["E-fire"].bonus


def _play_round_refusing(state):
    events = []
    while not GAME.is_finished(state):
        (seat, *_) = GAME.to_act(state)
        legal = GAME.legal_commands(state, seat)
        command = RefuseCard() if RefuseCard() in legal else legal[0]
        state, new = act(state, seat, command)
        events += new
    return events


def test_counting_office_table():
    """« 2 points si vous possédez 1 Comptoir, 5 points si vous possédez 2 Comptoirs, 9
    points si vous possédez 3 Comptoirs, 14 points si vous possédez les 4 Comptoirs »."""
    offices = ["A-office", "B-office", "D-office-1", "D-office-2"]
    assert [score_seat(SeatState(coins=0, cards=tuple(offices[:k]))).offices
            for k in range(5)] == [0, 2, 5, 9, 14]


def test_final_scoring_of_every_card():
    """Contrat: « seulement si tous les cubes Marchandise requis ont été placés dessus »;
    Chambre du Commerce: « 1 point pour chaque pièce »; Eglise des Bateliers « 3 points »;
    Saint Michel « 4 points »; Port « 1 point pour chaque navire »; Entrepôt « 1 point pour
    chaque cube »; chaque marchand « 1 point »."""
    seat = SeatState(
        coins=6, points=-2,
        cards=("A-contract-1", "A-contract-2", "C-contract-3", "D-chamber", "D-boatmen",
               "D-michaelis", "D-port", "B-ship-1", "C-ship-2", "A-warehouse", "A-tea-trader",
               "A-coffee-trader", "A-office"),
        contracts=(("A-contract-1", ("saffron", "carpet")), ("A-contract-2", ("coffee",)),
                   ("C-contract-3", ("coffee", "tea", "rubber", "carpet"))),
        warehouse=("tea", "tea", "rubber"), market=("coffee",))
    line = score_seat(seat)
    assert (line.fire, line.offices, line.contracts, line.chamber, line.churches, line.port,
            line.warehouse, line.traders) == (-2, 2, 5 + 11, 6, 7, 2, 3, 2)
    assert line.total == -2 + 2 + 16 + 6 + 7 + 2 + 3 + 2


def test_warehouse_cubes_score_only_for_its_owner_and_market_cube_nothing():
    """« A la fin de la partie, vous recevrez 1 point pour chaque cube Marchandise dans
    votre entrepôt » (the market keeps a cube « pour l'utiliser plus tard », no points)."""
    assert score_seat(SeatState(coins=0, market=("tea",))).total == 0


def test_most_points_wins_coins_break_ties():
    """« Le joueur avec le plus grand score gagne. En cas d'égalité, le joueur qui a le plus
    de pièces gagne »."""
    a = score_seat(SeatState(coins=3, points=4))
    b = score_seat(SeatState(coins=5, points=4))
    c = score_seat(SeatState(coins=9, points=3))
    assert winners((a, b, c)) == (1,)
    assert winners((a, a)) == (0, 1)


def test_game_ended_records_scores():
    """« Maintenant, décomptez tous les points que vous avez collecté »."""
    deck = ("D-office-1", "D-office-2", "D-port", "D-michaelis", "E-fire")
    state, _ = act(_last_purchase(3, deck=deck), 0, RefuseCard())
    events = _play_round_refusing(state)
    end = events[-1]
    assert isinstance(end, GameEnded) and len(end.scores) == 3
    result = GAME.result(GAME.fold(events, state))
    assert result.scores == tuple(float(line.total) for line in end.scores)


def test_last_round_has_its_income_before_the_final_count():
    """« votre dernière manche a débuté. Procédez comme d'habitude. Après cela, traitez la
    dernière carte de la pile, le 4ème Incendie »; Chambre du Commerce: « A la fin de la
    partie, vous recevrez 1 point pour chaque pièce que vous possédez. (Vous ne devez pas
    rendre les pièces.) »: the last income counts for the chamber and the tie-break."""
    deck = ("D-office-1", "D-office-2", "D-port", "D-michaelis", "E-fire")
    state, _ = act(_last_purchase(3, deck=deck), 0, RefuseCard())
    seats = list(state.seats)
    seats[1] = replace(seats[1], cards=("D-chamber",), coins=4)
    state = replace(state, seats=tuple(seats))
    events = _play_round_refusing(state)
    final = GAME.fold(events, state)
    assert final.seats[1].coins == 4 + 2  # nothing bought: 1 + 1
    assert final.scores[1].chamber == 6 and final.scores[1].coins == 6


def test_fire_penalty_may_take_a_score_below_zero():
    """« Le joueur avec la plus petite somme reçoit immédiatement autant de points
    négatifs » (reading: the track's 0 is no floor)."""
    deck = ("D-office-1", "D-office-2", "D-port", "D-michaelis", "E-fire")
    state, _ = act(_last_purchase(3, deck=deck), 0, RefuseCard())
    seats = list(state.seats)
    seats[0] = replace(seats[0], cards=("A-fireman-2",))
    seats[1] = replace(seats[1], cards=("A-fireman-1",))
    state = replace(state, seats=tuple(seats))
    final = GAME.fold(_play_round_refusing(state), state)
    assert final.scores[2].fire == -CARD["E-fire"].bonus < 0
    assert final.scores[2].total < 0


def test_equal_points_and_coins_share_the_win():
    """« En cas d'égalité, le joueur qui a le plus de pièces gagne » (reading: still tied,
    the win is shared)."""
    a = score_seat(SeatState(coins=2, points=5))
    b = score_seat(SeatState(coins=2, points=5))
    c = score_seat(SeatState(coins=9, points=4))
    assert winners((a, b, c)) == (0, 1)
