"""Setup (« MISE EN PLACE »)."""

from __future__ import annotations

import pytest

from domain.speicherstadt import GAME
from domain.speicherstadt.data import CARD, CARDS, GOODS
from domain.speicherstadt.events import CardRevealed, DeckBuilt, GameStarted

from .helpers import new_game, seed


def _deck(seats: int, n: int = 1) -> tuple[str, ...]:
    events = GAME.start(GAME.parse_options({}, seats), seats, seed(n))
    return next(e for e in events if isinstance(e, DeckBuilt)).deck


def test_card_mix_per_season():
    """« 54 cartes Commerce - 12 x Hiver (A) - 13 x Printemps (B) - 13 x Eté (C) - 15 x
    Automne (D) - 1 x 4ème Incendie (E) »."""
    seasons = [c.season for c in CARDS]
    assert len(CARDS) == 54
    assert [seasons.count(s) for s in "ABCDE"] == [12, 13, 13, 15, 1]
    kinds = [c.kind for c in CARDS]
    assert kinds.count("ship") == 15 and kinds.count("fireman") == 10
    assert kinds.count("contract") == 10 and kinds.count("fire") == 4
    assert kinds.count("counting_office") == 4 and kinds.count("trader") == 5


@pytest.mark.parametrize("n", range(1, 8))
def test_deck_built_season_by_season(n):
    """« d'abord placez la carte 4ème Incendie (E). Sur celle-ci placez les cartes Automne
    (D), sur celles-ci placez les cartes Été (C), puis les cartes Printemps (B) et enfin
    les cartes Hiver (A) » and « mélangez-les séparément »."""
    deck = _deck(4, n)
    seasons = [CARD[c].season for c in deck]
    assert seasons == sorted(seasons)
    assert deck[-1] == "E-fire"


def test_each_season_shuffled_alone():
    """« Prenez les 4 piles de cartes Commerce (1 par saison) et mélangez-les séparément »:
    different seeds give different orders inside a season."""
    orders = {tuple(c for c in _deck(4, n) if c.startswith("A-")) for n in range(1, 6)}
    assert len(orders) > 1


@pytest.mark.parametrize("seats,removed", [
    (2, {"D-port", "D-fireman-3"}), (3, {"D-boatmen", "D-fireman-3"}), (4, set()),
    (5, {"D-boatmen", "D-fireman-3"}),
])
def test_autumn_cards_removed_by_player_count(seats, removed):
    """« 2 joueurs: port / pompier de valeur 3 - 3 joueurs: église des bateliers / pompier
    de valeur 3 - 4 joueurs: aucune - 5 joueurs: église des bateliers / pompier de valeur 3 »."""
    events = GAME.start(GAME.parse_options({}, seats), seats, seed(3))
    started = events[0]
    assert isinstance(started, GameStarted) and set(started.removed) == removed
    deck = _deck(seats, 3)
    assert not removed & set(deck)
    assert len(deck) == 54 - len(removed)
    assert CARD["D-fireman-3"].value == 3


def test_five_coins_each_and_score_zero():
    """« Chaque joueur reçoit 5 pièces » and « place 1 ouvrier ... sur la case 0 de la piste
    des scores »."""
    state = new_game(5)
    assert [s.coins for s in state.seats] == [5] * 5
    assert [s.points for s in state.seats] == [0] * 5


def test_bag_of_45_cubes():
    """« Placez les 45 cubes Marchandise dans le sac » (9 of each of the five goods)."""
    events = GAME.start(GAME.parse_options({}, 3), 3, seed(2))
    state = GAME.fold(events)
    drawn = [g for e in events if isinstance(e, CardRevealed) for g in e.cubes]
    assert sum(state.bag) + len(drawn) == 45
    assert sum(state.bag) == 45  # the first round shows Winter cards: no ship yet
    assert len(GOODS) == 5


def test_first_player_holds_the_metal_coin_and_starts():
    """« Le joueur qui a visité récemment Hamburg devient le premier joueur et reçoit la
    pièce en métal » (drawn at random) and « Le joueur avec la pièce en métal est le premier
    joueur et commence »."""
    firsts = set()
    for n in range(1, 12):
        state = new_game(4, n)
        firsts.add(state.first_player)
        assert GAME.to_act(state) == (state.first_player,)
    assert len(firsts) > 1
