"""Permanent cards and Phase II cards (supplement L1107-1905), one test each."""

from __future__ import annotations

from domain.amsterdam import GAME, data
from domain.amsterdam.board import amstel_order
from domain.amsterdam.commands import (
    ActivateCard,
    AdvanceAmstel,
    BuyPrestige,
    ChooseDice,
    DeliverGood,
    MoveBarge,
    TakeBlock,
    UseCard,
)
from domain.amsterdam.state import ACTIONS, DICE
from domain.common.frozen import replace
from tests.domain.amsterdam.helpers import acting, at_phase, play, vector, with_seat


def _me(active=(), **changes):
    state = at_phase(ACTIONS, 2)
    seat = acting(state)
    return with_seat(state, seat, active=active, **changes), seat


def _block(state, colour="grey"):
    return next(b for b in data.BLOCKS.values() if b.colour == colour and b.cost == 2
                and state.block_owner[data.BLOCK_IDS.index(b.id)] is None)


def test_025_and_027_change_what_a_block_costs():
    """025: "1 ressource de moins"; 027: "2 Florins au lieu des ressources"."""
    state, me = _me(("025", "027"), reserve=vector("grey"), florins=2)
    block = _block(state)
    payments = {(c.payment, c.by_florins) for c in GAME.legal_commands(state, me)
                if isinstance(c, TakeBlock) and c.block == block.id}
    assert payments == {(("grey",), False), ((), True)}


def test_029_one_plan_three_times_a_turn():
    """029: "utiliser une carte Plan jusqu'à trois fois par tour" (B15: one plan card)."""
    state, me = _me(("029", "110", "111"), reserve=vector("pink", "pink", "pink", "pink"))
    for _ in range(3):
        state = play(state, UseCard("110", ("pink",)))
    assert UseCard("110", ("pink",)) not in GAME.legal_commands(state, me)
    assert UseCard("111", ("pink",)) in GAME.legal_commands(state, me)


def test_031_042_and_038_reduce_or_replace_activation_costs():
    """031: building -1 any; 042: the first craftsman of a trade -1 any; 038: 3 florins."""
    state, me = _me(("031", "042", "038"), inactive=("061", "001"), reserve=(5,) * 6, florins=3)
    legal = [c for c in GAME.legal_commands(state, me) if isinstance(c, ActivateCard)]
    building = {c.payment for c in legal if c.card == "061" and not c.by_florins}
    assert building == {("pink", "orange"), ("pink", "pink")}
    assert {c.payment for c in legal if c.card == "001" and not c.by_florins} == {()}
    assert ActivateCard("061", (), True) in legal
    after = play(state, ActivateCard("061", (), True))
    assert after.seats[me].florins == 0


def test_033_041_and_035_trigger_on_activation():
    """033: +1 florin per craftsman activated, itself included; 041: +1 per plan; 035: the
    activated plan's reward once, free."""
    state, me = _me(("041", "035"), inactive=("033", "112"), reserve=(5,) * 6, florins=0, points=0)
    state = play(state, ActivateCard("033", data.CARDS["033"].cost))
    assert state.seats[me].florins == 1
    state = play(state, ActivateCard("112", ("pink", "pink")))
    assert state.seats[me].florins == 1 + 1 + 1 and state.seats[me].points == 1  # 033, 041, 035


def test_034_keeps_its_owner_on_top():
    """034: "placez toujours le vôtre sur le dessus"."""
    state, me = _me(("034",), amstel=4, stamp=0)
    other = 1 - me
    state = with_seat(state, other, amstel=4, stamp=99, mouth_slot=None)
    assert amstel_order(state)[0] == me


def test_037_sells_for_both_rewards():
    """037: "+2 Florins et 1 ressource de votre choix" for a sale (B12)."""
    state, me = _me(("037",), reserve=(5,) * 6, florins=0)
    block = _block(state)
    sales = {c.sale for c in GAME.legal_commands(state, me)
             if isinstance(c, TakeBlock) and c.block == block.id}
    assert sales == {None, "both"}
    state = play(state, TakeBlock(block.id, ("grey", "grey"), sale="both"))
    assert state.seats[me].florins == 2 and state.seats[me].pending_choices == 1


def test_050_doubles_docker_points_and_016_scores_two_steps():
    """050: dockers delivered score double; 016: +1 point once a turn when the barge moves
    at least 2 spaces."""
    state, me = _me(("050", "016"), dockers=("pink",), reserve=(5,) * 6, points=0)
    water = next(w for w in data.WATER if "P:pink" in data.HARBOUR[w])
    state = with_seat(state, me, barge=next(n for n in data.HARBOUR[water] if n != "P:pink"))
    state = replace(state, docker_building=())
    state = play(state, MoveBarge(water, "black"))
    state = play(state, MoveBarge("P:pink", "black"))
    assert state.seats[me].points == 2 * data.DOCKER_BUILDING["values"][0] + 1


def test_delivery_triggers_073_075_and_the_goods_cards():
    """073: +1 point per good delivered; 075: +1 florin; 079: +4 points per beer; 071 and
    072 add 1 once a round to gains through other cards."""
    state, me = _me(("073", "075", "079", "071", "072"), barge="beer", cargo=("beer",),
                    points=0, florins=0)
    state = replace(state, round=9)
    state = play(state, DeliverGood("beer"))
    assert state.seats[me].points == data.ROOFS["beer"][0] + 1 + 4 + 1
    assert state.seats[me].florins == 1 + 1


def test_014_one_point_when_advancing_once_a_turn():
    """014: "Lorsque vous avancez d'au moins une case ... Gagnez 1 point" (once a turn)."""
    state, me = _me(("014",), reserve=(5,) * 6, points=0, amstel=0)
    state = play(state, AdvanceAmstel(("black",)))
    state = play(state, AdvanceAmstel(("black", "black")))
    assert state.seats[me].points == 1


def test_045_a_resource_when_the_market_gives_points():
    """045: +1 resource of your choice when you gain points from the market."""
    state, me = _me(("045",), florins=5)
    state = replace(state, market_tile="A2")
    assert play(state, BuyPrestige()).seats[me].pending_choices == 1


def test_022_and_047_uses():
    """022: 1 florin, 3 barge spaces without resources; 047: discard an active plan for 3
    florins."""
    state, me = _me(("022", "047", "110"), florins=1, reserve=vector(), barge=data.START)
    state = play(state, UseCard("022"))
    for node in ("W1", "W2", "W3"):
        state = play(state, MoveBarge(node, None))
    state = play(state, UseCard("047", (), "110"))
    assert state.seats[me].florins == 3 and "110" in state.discard


def test_phase_two_cards_051_052_053_054():
    """051: +2 florins per chosen 1; 052: +2 resources on slot 1 per chosen 1; 053: a
    neighbouring slot; 054: +1 resource per die."""
    state = at_phase(DICE, 2)
    seat = acting(state)
    state = with_seat(state, seat, active=("051", "052", "053", "054"), florins=0,
                      rose=((0,) * 6,) * 6)
    state = replace(state, dice=(1, 4, 2, 3, 5, 6))
    legal = GAME.legal_commands(state, seat)
    assert ChooseDice(("black", "brown"), (1, 5)) in legal and ChooseDice(("black", "brown"), (1, 3)) in legal
    state = play(state, ChooseDice(("black", "brown"), (1, 5)))
    rose = state.seats[seat].rose
    assert rose[0][0] == 1 + 1 + 2 and rose[4][1] == 4 + 1 and state.seats[seat].florins == 2
