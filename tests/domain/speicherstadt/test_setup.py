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


# « Les chiffres sous les illustrations indiquent le nombre de fois qu'apparaît la carte en
# tout et combien de fois durant les 4 saisons (A/B/C/D) »: every line of the card list.
CARD_LIST = [
    ("bank", 1, (0, 0, 1, 0)),  # Banque « 1: 0/0/1/0 »
    ("counting_office", 4, (1, 1, 0, 2)),  # Comptoir « 4: 1/1/0/2 »
    ("contract", 10, (3, 3, 4, 0)),  # Contrat « 10: 3/3/4/0 »
    ("chamber_of_commerce", 1, (0, 0, 0, 1)),  # Chambre du Commerce « 1: 0/0/0/1 »
    ("boatmen_church", 1, (0, 0, 0, 1)),  # Eglise des bateliers « 1: 0/0/0/1 »
    ("warehouse", 1, (1, 0, 0, 0)),  # Entrepôt « 1: 1/0/0/0 »
    ("fire", 3, (0, 1, 1, 1)),  # Incendie « 4: 0/1/1/1/ fin du jeu » (+ the 4th fire, E)
    ("ship", 15, (0, 5, 5, 5)),  # Navire « 15: 0/5/5/5 »
    ("fireman", 10, (2, 3, 2, 3)),  # Pompier « 10: 2/3/2/3 »
    ("port", 1, (0, 0, 0, 1)),  # Port « 1: 0/0/0/1 »
    ("st_michaelis", 1, (0, 0, 0, 1)),  # Saint Michel « 1: 0/0/0/1 »
]
TRADER_LIST = {"coffee": "Coffee Roaster", "tea": "Tea Taster", "saffron": "Spice Trader",
               "rubber": "Vulcanizer", "carpet": "Carpet Trader"}  # each « 1: 1/0/0/0 »


@pytest.mark.parametrize("kind,total,per_season", CARD_LIST)
def test_card_list_counts_per_season(kind, total, per_season):
    """The card list of « CARTES COMMERCE »: « Banque 1: 0/0/1/0 », « Comptoir 4: 1/1/0/2 »,
    « Contrat 10: 3/3/4/0 », « Navire 15: 0/5/5/5 », « Pompier 10: 2/3/2/3 », ..."""
    cards = [c for c in CARDS if c.kind == kind and c.season != "E"]
    assert len(cards) == total
    assert tuple(sum(1 for c in cards if c.season == s) for s in "ABCD") == per_season


def test_the_five_traders_are_winter_cards_and_the_4th_fire_is_e():
    """« Torréfacteur de café », « Dégustateur de thé », « Marchand d'épice », « Marchand de
    tissu », « Vulcaniseur »: each « 1: 1/0/0/0 »; « 1 x 4ème Incendie (E) »."""
    traders = {c.goods[0]: c for c in CARDS if c.kind == "trader"}
    assert {g: c.name for g, c in traders.items()} == TRADER_LIST
    assert all(c.season == "A" for c in traders.values())
    assert [c.id for c in CARDS if c.season == "E"] == ["E-fire"]
    assert CARD["E-fire"].kind == "fire"


def test_reconstructed_tables_satisfy_the_known_facts():
    """RULES-NOTES: « 10 firemen of values 1-5 (seasons A2 B3 C2 D3; exactly one D fireman of
    value 3) »; « 4 fire cards ... with points that grow with the season »; « 10 contracts
    (A3 B3 C4) of 2, 3 or 4 goods among coffee, tea, saffron, rubber, carpet »; Pompier:
    « Chaque pompier a une valeur entre 1 et 5 »."""
    firemen = [c for c in CARDS if c.kind == "fireman"]
    assert all(1 <= c.value <= 5 for c in firemen)
    assert {c.value for c in firemen} == {1, 2, 3, 4, 5}
    assert [c.id for c in firemen if c.season == "D" and c.value == 3] == ["D-fireman-3"]
    fires = [CARD[f"{s}-fire"].bonus for s in "BCDE"]
    assert fires == sorted(fires) and fires[0] > 0
    for c in CARDS:
        if c.kind == "contract":
            assert 2 <= len(c.goods) <= 4 and set(c.goods) <= set(GOODS)
    sizes = sorted(len(c.goods) for c in CARDS if c.kind == "contract")
    assert set(sizes) == {2, 3, 4}
    provenance = GAME.component_data()["provenance"]
    assert all(provenance[k].startswith("reconstructed") for k in ("firemen", "fires", "contracts"))


@pytest.mark.parametrize("seats,rounds", [(2, 16), (3, 12), (4, 10), (5, 8)])
def test_the_stack_lasts_whole_rounds_for_every_player_count(seats, rounds):
    """« Dès qu'en phase 1) Approvisionnement, la seule carte restante dans la pile après le
    tirage des cartes Commerce est la carte 4ème Incendie (E), votre dernière manche a
    débuté »: with the Autumn cards removed by player count, the cards other than fires
    (48, 48, 50, 48) fill exactly 16, 12, 10 and 8 supplies of players + 1 cards."""
    from domain.rng import Rng
    from tests.conformance.harness import play_random_game, seed_for

    for n in range(3):
        played = play_random_game(GAME, GAME.parse_options({}, seats), seats,
                                  seed_for(500 + 10 * seats + n), Rng(seed_for(n)))
        assert played.final.round == rounds
        revealed = [e for e in played.events if isinstance(e, CardRevealed)]
        assert len(revealed) == rounds * (seats + 1)
        assert played.final.deck == ()
        assert sorted(set(played.final.discard) & {"B-fire", "C-fire", "D-fire", "E-fire"}) == [
            "B-fire", "C-fire", "D-fire", "E-fire"]
