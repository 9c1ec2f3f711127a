"""Phase 1) Approvisionnement, and the fires."""

from __future__ import annotations

from dataclasses import replace

import pytest

from domain.speicherstadt import GAME
from domain.speicherstadt.commands import RefuseCard
from domain.speicherstadt.data import CARD, GOODS
from domain.speicherstadt.events import CardRevealed, FireResolved
from domain.speicherstadt.rules import fire_changes
from domain.speicherstadt.state import PURCHASE, Column

from .helpers import act, fresh_seats, new_game, with_seat


@pytest.mark.parametrize("seats,cards", [(2, 3), (3, 4), (4, 5), (5, 6)])
def test_reveal_players_plus_one(seats, cards):
    """« 2 joueurs: 3 cartes - 3 joueurs: 4 cartes - 4 joueurs: 5 cartes - 5 joueurs: 6
    cartes », « de la gauche vers la droite sur les cases Eau »."""
    state = new_game(seats)
    assert len(state.offer) == cards
    assert all(c.card.startswith("A-") for c in state.offer)


def _end_of_round(seats: int, deck: tuple[str, ...]):
    """A state whose last purchase is pending; refusing it starts the next round."""
    state = new_game(seats)
    state = replace(state, phase=PURCHASE, offer=(Column("A-office", workers=(0,)),),
                    purchase_column=0, deck=deck, seats=fresh_seats(seats))
    return state


def test_ship_gets_three_random_cubes():
    """« Si vous révélez un ou plusieurs navires, pour chacun d'eux, tirez au hasard du sac,
    3 cubes Marchandise et placez-les sur le navire »."""
    deck = ("B-ship-1", "B-ship-2", "B-office", "B-fireman-1", "C-ship-1", "E-fire")
    state, events = act(_end_of_round(3, deck), 0, RefuseCard())
    ships = [c for c in state.offer if CARD[c.card].kind == "ship"]
    assert len(ships) == 2 and all(len(c.cubes) == 3 for c in ships)
    assert sum(state.bag) == 45 - 6
    assert all(g in GOODS for c in ships for g in c.cubes)
    revealed = [e for e in events if isinstance(e, CardRevealed)]
    assert revealed[-1].rng_counter == state.rng_counter > 0


def test_fire_resolved_at_once_and_replaced():
    """« Aussitôt que vous révélez un incendie durant la phase 1) Approvisionnement, arrêtez
    immédiatement le jeu » ... « Après avoir traité la carte Incendie, défaussez-la. Révélez
    une nouvelle carte Commerce pour remplacer l'Incendie »."""
    deck = ("B-office", "B-fire", "B-ship-1", "B-ship-2", "B-fireman-1", "C-bank", "E-fire")
    state = _end_of_round(3, deck)
    state = with_seat(state, 1, cards=("A-fireman-2",))
    state = with_seat(state, 2, cards=("A-fireman-1",))
    state, events = act(state, 0, RefuseCard())
    fire = next(e for e in events if isinstance(e, FireResolved))
    assert fire.card == "B-fire" and fire.sums == (0, 2, 1)
    bonus = CARD["B-fire"].bonus
    assert fire.changes == (-bonus, bonus, 0)
    assert [s.points for s in state.seats] == [-bonus, bonus, 0]
    assert [c.card for c in state.offer] == ["B-office", "B-ship-1", "B-ship-2", "B-fireman-1"]
    assert "B-fire" in state.discard


def _sums(values):
    state = new_game(len(values))
    cards = {1: "A-fireman-1", 2: "A-fireman-2", 3: "B-fireman-3", 4: "C-fireman-4",
             5: "D-fireman-5"}
    seats = list(fresh_seats(len(values)))
    for i, v in enumerate(values):
        seats[i] = replace(seats[i], cards=(cards[v],) if v else ())
    return replace(state, seats=tuple(seats))


def test_fire_highest_gains_lowest_loses():
    """« Le joueur avec la plus grande somme reçoit immédiatement autant de points de bonus
    qu'indiqué sur la carte Incendie. Le joueur avec la plus petite somme reçoit
    immédiatement autant de points négatifs »."""
    b = CARD["C-fire"].bonus
    assert fire_changes(_sums([5, 3, 1]), "C-fire") == ((5, 3, 1), (b, 0, -b))


def test_fire_ties_all_receive():
    """« En cas d'égalité, chaque joueur reçoit les points positifs ou négatifs »."""
    b = CARD["D-fire"].bonus
    assert fire_changes(_sums([4, 4, 1, 1, 2]), "D-fire")[1] == (b, b, -b, -b, 0)
    assert fire_changes(_sums([0, 3, 3]), "B-fire")[1] == (-CARD["B-fire"].bonus,
                                                         CARD["B-fire"].bonus,
                                                         CARD["B-fire"].bonus)


def test_fire_everyone_equal_nobody_scores():
    """« Dans les rares cas où tous les joueurs ont la même somme, personne ne reçoit de
    point (positif ou négatif) »."""
    assert fire_changes(_sums([2, 2, 2, 2]), "E-fire")[1] == (0, 0, 0, 0)
    assert fire_changes(_sums([0, 0]), "B-fire")[1] == (0, 0)


def test_fire_points_grow_with_the_season():
    """Reconstructed table (RULES-NOTES): bonus/penalty points grow with the season."""
    bonuses = [CARD[f"{s}-fire"].bonus for s in "BCDE"]
    assert bonuses == sorted(bonuses) and len(set(bonuses)) == 4
    assert GAME.component_data()["provenance"]["fires"].startswith("reconstructed")


def test_fire_adds_every_fireman_of_a_seat():
    """« Chaque joueur additionne la valeur de ses pompiers »: a seat with firemen 1 and 2
    (sum 3) beats a seat with one fireman of 2; a seat without firemen has the sum 0."""
    state = _sums([0, 0, 0])
    state = with_seat(state, 0, cards=("A-fireman-1", "A-fireman-2", "A-office"))
    state = with_seat(state, 1, cards=("B-fireman-2",))
    b = CARD["B-fire"].bonus
    assert fire_changes(state, "B-fire") == ((3, 2, 0), (b, 0, -b))


def test_fire_counts_the_firemen_held_when_it_is_revealed():
    """« Aussitôt que vous révélez un incendie durant la phase 1) Approvisionnement,
    arrêtez immédiatement le jeu ... Le joueur avec la plus grande somme reçoit
    immédiatement ... »: a fireman revealed in the same supply does not count yet."""
    deck = ("B-fireman-3", "B-fire", "B-ship-1", "B-ship-2", "B-office", "C-bank", "E-fire")
    state = _end_of_round(3, deck)
    state = with_seat(state, 2, cards=("A-fireman-1",))
    state, events = act(state, 0, RefuseCard())
    fire = next(e for e in events if isinstance(e, FireResolved))
    assert fire.sums == (0, 0, 1)
    assert "B-fireman-3" in [c.card for c in state.offer]
    assert [s.points for s in state.seats] == [-CARD["B-fire"].bonus] * 2 + [CARD["B-fire"].bonus]


def test_revealed_cards_fill_the_water_spaces_left_to_right_in_stack_order():
    """« prenez les cartes du dessus de la pile ... et placez-les en ligne face visible, de
    la gauche vers la droite sur les cases Eau »."""
    state = new_game(4, 6)
    deck_before = GAME.fold(GAME.start(GAME.parse_options({}, 4), 4, f"{6:064x}")[:2]).deck
    assert [c.card for c in state.offer] == list(deck_before[:5])
    assert state.deck == deck_before[5:]
