"""The rulebook's examples (rules/amsterdam.fr.txt), each as a test citing its line."""

from __future__ import annotations

from domain.amsterdam import GAME, data
from domain.amsterdam.board import district_points
from domain.amsterdam.commands import (
    ActivateCard,
    AdvanceAmstel,
    BuyPrestige,
    ChooseDice,
    DeliverGood,
    EndTurn,
    MoveBarge,
    PickUpDocker,
    TakeBlock,
    UseCard,
)
from domain.amsterdam.state import ACTIONS, DICE, EMPTY
from domain.common.frozen import replace
from tests.domain.amsterdam.helpers import acting, at_phase, play, vector, with_seat


def test_anne_places_her_dice_on_their_faces():
    """L434: "Anne choisit le dé orange avec un résultat de 2 et le dé marron avec un résultat
    de 5 ... les 2 ressources orange sur la case "2" ... les 5 ressources marron sur la case "5"."""
    state = at_phase(DICE)
    faces = list(state.dice)
    faces[data.COLOURS.index("orange")], faces[data.COLOURS.index("brown")] = 2, 5
    state = replace(state, dice=tuple(faces))
    seat = acting(state)
    after = play(state, ChooseDice(("brown", "orange"), (5, 2)))
    rose = after.seats[seat].rose
    assert rose[1][data.COLOURS.index("orange")] - state.seats[seat].rose[1][data.COLOURS.index("orange")] == 2
    assert rose[4][data.COLOURS.index("brown")] == 5


def test_jan_activates_a_craftsman_and_a_plan_for_three_resources_then_uses_them():
    """L470: "Jan dépense 3 ressources afin d'activer deux cartes ... un artisan et un plan";
    L484-486: "Jan utilise sa carte tout juste activée: il possède au moins 1 carte rose. Il
    reçoit donc 1 ressource orange" (001 after using a Plantage plan, A10)."""
    state = at_phase(ACTIONS)
    jan = acting(state)
    state = with_seat(state, jan, inactive=("001", "109"), active=(),
                      reserve=vector("orange", "pink", "pink", "pink"))
    state = play(state, ActivateCard("001", ("orange",)))
    state = play(state, ActivateCard("109", ("pink", "pink")))
    assert state.seats[jan].active == ("001", "109") and state.seats[jan].reserve == vector("pink")
    points = state.seats[jan].points
    state = play(state, UseCard("109", ("pink",)))       # the pink plan: 1 pink -> 1 point
    assert state.seats[jan].points == points + 1
    state = play(state, UseCard("001"))                   # after a Plantage plan: 1 orange
    assert state.seats[jan].reserve == vector("orange")
    assert "001" in state.seats[jan].used


def test_mareike_buys_a_pink_block_for_two_pink_resources():
    """L504-506: "Mareike achète un bloc de maisons pour un coût de deux ressources roses ...
    pose la tuile Marchandise sur son entrepôt provisoire ... une de ses Armoiries"."""
    state = at_phase(ACTIONS)
    seat = acting(state)
    block = next(b for b in data.BLOCKS.values() if b.colour == "pink" and b.cost == 2)
    good = state.block_goods[data.BLOCK_IDS.index(block.id)]
    state = with_seat(state, seat, reserve=vector("pink", "pink"))
    state = play(state, TakeBlock(block.id, ("pink", "pink")))
    assert state.block_owner[data.BLOCK_IDS.index(block.id)] == seat
    assert state.seats[seat].provisional == (good,) and state.seats[seat].reserve == EMPTY


def test_anne_moves_her_barge_three_nodes_for_three_resources():
    """L555: "Anne remplace 3 ressources ... déplace sa barge jusqu'au ponton jaune en passant
    par le pont de l'entrepôt Tulipe et par une case Eau" (B35: each node entered costs 1)."""
    state = at_phase(ACTIONS)
    anne = acting(state)
    water = next(w for w in data.WATER if "tulip" in data.HARBOUR[w])
    state = with_seat(state, anne, barge=water, reserve=vector("black", "grey", "pink"))
    for node, colour in (("tulip", "black"), (water, "grey"), ("P:yellow", "pink")):
        state = play(state, MoveBarge(node, colour))
    assert state.seats[anne].barge == "P:yellow" and state.seats[anne].reserve == EMPTY


def test_anne_picks_up_a_docker_and_gains_a_florin():
    """L559-560: "Anne place le docker rose sur la case Barge ... Elle gagne ensuite 1 Florin"."""
    state = at_phase(ACTIONS)
    anne = acting(state)
    pontoon = next(p for p, dockers in zip(data.PONTOONS, state.pontoons) if "pink" in dockers)
    state = with_seat(state, anne, barge=pontoon)
    florins = state.seats[anne].florins
    state = play(state, PickUpDocker("pink"))
    assert state.seats[anne].dockers == ("pink",) and state.seats[anne].florins == florins + 1


def test_the_second_docker_delivered_scores_seven():
    """L564-565: "C'est la deuxième joueuse à déposer un docker ... la deuxième case la plus
    haute du bâtiment pour les dockers et gagne 7 points" (delivered on arrival, B8)."""
    state = at_phase(ACTIONS)
    anne = acting(state)
    water = next(w for w in data.WATER if "P:pink" in data.HARBOUR[w])
    state = replace(state, docker_building=(("white", 1 - anne),))
    state = with_seat(state, anne, barge=water, dockers=("pink",), reserve=vector("black"))
    points = state.seats[anne].points
    state = play(state, MoveBarge("P:pink", "black"))
    assert state.docker_building[-1] == ("pink", anne) and state.seats[anne].dockers == ()
    assert state.seats[anne].points == points + 7


def test_beer_on_the_rightmost_roof_scores_four():
    """L569-570: "La barge d'Anne est arrêtée au pont de l'entrepôt Bière ... recouvrir le toit
    de l'entrepôt le plus à droite. Elle gagne donc 4 points" (round 8: no fast bonus)."""
    state = replace(at_phase(ACTIONS), round=8)
    roofs = list(state.roofs)
    roofs[data.GOODS.index("beer")] = 2
    state = replace(state, roofs=tuple(roofs))
    anne = acting(state)
    state = with_seat(state, anne, barge="beer", cargo=("beer",))
    points = state.seats[anne].points
    state = play(state, DeliverGood("beer"))
    assert state.seats[anne].points == points + 4


def test_jan_delivers_cheese_in_round_four_for_ten():
    """L655-656: "Lors du 4ème tour ... l'entrepôt Fromage ... le second toit et gagne ainsi 6
    points ... Pour sa livraison rapide, il gagne 4 points supplémentaires, soit 10"."""
    state = replace(at_phase(ACTIONS), round=4)
    roofs = list(state.roofs)
    roofs[data.GOODS.index("cheese")] = 1
    state = replace(state, roofs=tuple(roofs))
    jan = acting(state)
    state = with_seat(state, jan, barge="cheese", cargo=("cheese",))
    points = state.seats[jan].points
    state = play(state, DeliverGood("cheese"))
    assert state.seats[jan].points == points + 10


def test_round_ten_turns_sixes_fives_and_fours_into_ones():
    """L660-661: "Lors du 10ème tour ... deux "6", un "5" et un "4". Ces quatre dés sont
    transformés en "1"" (L645: faces >= 14 - round)."""
    from domain.amsterdam.rounds import _begin_dice
    from domain.amsterdam.tx import Tx

    for seed in range(1, 30):
        state = replace(at_phase(ACTIONS, seed=seed), round=10)
        tx = Tx(state)
        _begin_dice(tx)
        rolled = tx.events[-1].rolled
        assert tx.state.dice == tuple(1 if f >= 4 else f for f in rolled)
        if sorted(rolled).count(6) == 2:
            break


def test_jan_advances_two_spaces_for_three_resources_under_a_bridge():
    """L600-601: "Jan replace 3 de ses ressources ... avance son pion de 2 cases ... Il gagne 4
    points de prestige pour être passé sous un pont"."""
    state = at_phase(ACTIONS)
    jan = acting(state)
    bridge = next(k for k, v in data.AMSTEL["bridges"].items() if v == 4)
    state = with_seat(state, jan, amstel=bridge - 1, reserve=vector("black", "pink", "grey"))
    points = state.seats[jan].points
    state = play(state, AdvanceAmstel(("black",)))
    state = play(state, AdvanceAmstel(("grey", "pink")))
    assert state.seats[jan].amstel == bridge + 1 and state.seats[jan].points == points + 4


def test_mareike_buys_prestige_on_tile_a1():
    """L617-618: "Mareike paye 1 Florin ... Elle gagne 1 point de prestige et avance de deux
    cases sur la rivière Amstel"."""
    state = replace(at_phase(ACTIONS), market_tile="A1")
    seat = acting(state)
    state = with_seat(state, seat, florins=1, amstel=0)
    points = state.seats[seat].points
    state = play(state, BuyPrestige())
    me = state.seats[seat]
    assert me.florins == 0 and me.amstel == 2 and me.points == points + 1


def _final(state, seat_changes: dict):
    """End the game: the last seat of round 12 passes."""
    state = replace(state, round=12, position=len(state.order) - 1)
    last = state.order[-1]
    for seat, changes in seat_changes.items():
        state = with_seat(state, seat, **changes)
    return play(state, EndTurn(None), last)


def test_final_scoring_mareike():
    """L677: 4 penalty tokens cost 22; L690-696: 007 (6), 011 (7 dockers), 086 (3 laurel
    cards: 6); L704-706: a group of 6 coats of arms scores 18; L735: 12 items (4 resources,
    2 goods, 1 docker, 5 florins) score 6."""
    state = at_phase(ACTIONS)
    mareike = 0
    group = ("pink1", "pink2", "pink3", "pink4", "pink5", "pink6")
    owners = tuple(mareike if b in group else None for b in data.BLOCK_IDS)
    state = replace(state, block_owner=owners, districts_scored=(),
                    docker_building=tuple((c, 1) for c in data.DOCKER_COLOURS) + (("white", 1),))
    active = ("007", "011", "086", "013", "019")  # craftsmen of 3 trades, 3 laurel cards
    state = _final(state, {mareike: dict(active=active, inactive=(), penalties=4, points=0,
                                           reserve=vector("black", "black", "pink", "grey"),
                                           house=None, provisional=("beer",), cargo=("lace",),
                                           dockers=("pink",), florins=5)})
    line = state.scores[mareike]
    assert line.penalties == -22
    assert line.laurel_cards == 2 * 3 + 7 + 2 * 3
    assert line.city == 18 and line.surplus == 6
    assert line.total == -22 + 19 + 18 + 6


def test_district_tie_is_shared_rounded_down():
    """L719-727: three players, pink: Anne and Jan tie for first: (5 + 2) / 2 = 3 each;
    orange: Jan 3 coats of arms (5 points), Anne 2 (2 points)."""
    table = data.MAJORITY_POINTS[3]
    assert district_points([2, 2, 0], table) == [3, 3, 0]
    assert district_points([2, 3, 0], table) == [2, 5, 0]
    assert district_points([0, 0, 0], table) == [0, 0, 0]      # B24: 1 coat of arms to rank


def test_a_tie_goes_to_the_seat_furthest_on_the_amstel():
    """L739: "En cas d'égalité, le joueur dont le pion est le plus avancé sur la rivière
    Amstel remporte la partie"."""
    state = at_phase(ACTIONS)
    state = replace(state, block_owner=(None,) * 36)
    same = dict(active=(), inactive=(), penalties=0, points=10, reserve=EMPTY, house=None,
                provisional=(), cargo=(), dockers=(), florins=0)
    state = _final(state, {0: dict(same, amstel=3), 1: dict(same, amstel=5)})
    assert state.scores[0].total == state.scores[1].total and state.winners == (1,)
    result = GAME.result(state)
    assert result.winners == (1,) and result.detail["breakdown"][1]["amstel_rank"] == 0
