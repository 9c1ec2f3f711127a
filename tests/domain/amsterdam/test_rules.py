"""One test per rule of the base game (rules/amsterdam.fr.txt line numbers in each docstring)."""

from __future__ import annotations

import pytest

from domain.amsterdam import GAME, data
from domain.amsterdam.commands import (
    ActivateCard,
    AdvanceAmstel,
    BuyPrestige,
    ChooseDice,
    ChooseOpeningCard,
    ChooseResource,
    Convert,
    DeclineCard,
    EndTurn,
    LoadGood,
    MoveBarge,
    TakeBlock,
    TakeCard,
    UseCard,
)
from domain.amsterdam.state import ACTIONS, CARDS, DICE, EMPTY, OPENING_CARD
from domain.common.frozen import replace
from domain.decider import NotYourTurn
from tests.domain.amsterdam.helpers import acting, at_phase, play, started, vector, with_seat
from tests.refusals import refused


def _free_block(state, colour):
    return next(b for b in data.BLOCKS.values() if b.colour == colour
                and state.block_owner[data.BLOCK_IDS.index(b.id)] is None)


def test_setup_deals_the_board():
    """L249-252, L262, L272-273: goods on the 36 blocks, two different dockers per pontoon
    never of its own colour, players - 1 districts, 1 florin each, 6 A over 6 B tiles."""
    for seed in range(5):
        state = started(3, seed=seed)
        assert sorted(state.block_goods) == sorted(g for g in data.GOODS for _ in range(4))
        for (a, b), own in zip(state.pontoons, data.PONTOONS.values()):
            assert a != b and own not in (a, b)
        assert len(state.districts_scored) == 2 and all(s.florins == 1 for s in state.seats)
        tiles = (state.market_tile,) + state.market_stack
        assert [data.MARKET_TILES[t].half for t in tiles] == ["A"] * 6 + ["B"] * 6


def test_the_opening_offer_and_the_reverse_order():
    """L315-318 (A1, A2): players + 1 cards (craftsmen = players - 1, 2 buildings); the seat
    at the bottom of the Amstel stack chooses first."""
    state = started(4)
    assert state.phase == OPENING_CARD and len(state.offer) == 5
    assert [data.CARDS[c].kind for c in state.offer].count(data.BUILDING) == 2
    bottom = min(range(4), key=lambda s: state.seats[s].stamp)
    assert GAME.to_act(state) == (bottom,)
    with pytest.raises(NotYourTurn):
        GAME.decide(state, __import__("domain.decider").decider.Issued(
            (bottom + 1) % 4, "t", ChooseOpeningCard(state.offer[0])))


def test_the_short_game_starts_in_round_three_with_five_tiles_a_half():
    """L277-279: the round marker starts on 3; 3 tiles of each half are removed."""
    state = started(2, {"rounds": 10})
    assert state.round == 3 and len(state.market_stack) + 1 == 10 and len(state.market_removed) == 6


def test_round_offer_by_player_count_and_parity():
    """L387-390: 2 plans + 1 building + 1 craftsman (2 players); 3 players: odd rounds 2
    craftsmen, even rounds 2 buildings; 4 players 2 + 2 + 2."""
    for seats, expected in ((2, (2, 1, 1)), (4, (2, 2, 2)), (3, (2, 1, 2))):
        state = at_phase(CARDS, seats)
        kinds = [data.CARDS[c].kind for c in state.offer]
        assert (kinds.count(data.PLAN), kinds.count(data.BUILDING), kinds.count(data.CRAFTSMAN)) == expected


def test_a_sixth_card_costs_a_discard_and_a_penalty():
    """L398: "vous devez défausser une des six cartes et prendre un jeton Pénalité"."""
    state = at_phase(CARDS)
    seat = acting(state)
    state = with_seat(state, seat, inactive=("013", "014", "015", "016", "017"))
    legal = GAME.legal_commands(state, seat)
    assert all(c.discard is not None for c in legal if isinstance(c, TakeCard))
    with refused("amsterdam.take_card"):
        play(state, TakeCard(state.offer[0], None))
    after = play(state, TakeCard(state.offer[0], "013"))
    assert after.seats[seat].penalties == 1 and "013" in after.discard
    assert len(after.seats[seat].inactive) == 5


def test_card_049_may_decline():
    """Card 049 (L1431): you need not take a card in Phase I."""
    state = at_phase(CARDS)
    seat = acting(state)
    assert DeclineCard() not in GAME.legal_commands(state, seat)
    state = with_seat(state, seat, active=("049",))
    inactive = state.seats[seat].inactive
    state = play(state, DeclineCard())
    assert state.seats[seat].inactive == inactive


def test_two_different_dice():
    """L426-430: each player picks two different dice; several players may pick the same."""
    state = at_phase(DICE)
    seat = acting(state)
    legal = GAME.legal_commands(state, seat)
    assert len(legal) == 15 and all(c.dice[0] != c.dice[1] for c in legal)
    with refused("amsterdam.dice"):
        play(state, ChooseDice(("black", "black"), (state.dice[0], state.dice[0])))
    state = play(state, legal[0])
    assert legal[0] in GAME.legal_commands(state, acting(state))


def test_the_empty_arrow_costs_a_penalty():
    """L436-438: after turning the rose, an empty arrow slot gives 1 penalty token."""
    state = at_phase(DICE)
    last = state.order[-1]
    state = replace(state, position=len(state.order) - 1)
    state = with_seat(state, last, rose=(EMPTY,) * 6, house="black")
    face = {c: f for c, f in zip(data.COLOURS, state.dice)}
    pair = next(c for c in GAME.legal_commands(state, last) if face[c.dice[0]] > 1 and face[c.dice[1]] > 1)
    state = play(state, pair)
    assert state.phase == ACTIONS and state.seats[last].penalties == 1
    assert state.seats[last].reserve == vector("black")  # the house cube still arrives


def test_activation_pays_the_colours_on_the_card():
    """L460-466: pay the resources shown on the card, colours matter; the card moves above
    the board and is usable at once."""
    state = at_phase(ACTIONS)
    seat = acting(state)
    state = with_seat(state, seat, inactive=("024",), reserve=vector("pink"))
    with refused("amsterdam.activation_cost", match="colours"):
        play(state, ActivateCard("024", ("pink",)))
    state = with_seat(state, seat, reserve=vector("grey"))
    state = play(state, ActivateCard("024", ("grey",)))
    florins = state.seats[seat].florins
    state = play(state, UseCard("024"))
    assert state.seats[seat].florins == florins + 1
    with refused("amsterdam.card_use", match="once a round"):
        play(state, UseCard("024"))


def test_one_block_per_turn_and_028_allows_two():
    """L494: one block per turn; card 028: a second one."""
    state = at_phase(ACTIONS)
    seat = acting(state)
    state = with_seat(state, seat, reserve=(9,) * 6)
    first = _free_block(state, "pink")
    state = play(state, TakeBlock(first.id, ("pink",) * first.cost))
    second = _free_block(state, "grey")
    with refused("amsterdam.one_block_per_turn", match="One block per turn"):
        play(state, TakeBlock(second.id, ("grey",) * second.cost))
    state = with_seat(state, seat, active=("028",))
    state = play(state, TakeBlock(second.id, ("grey",) * second.cost))
    assert state.seats[seat].turn.blocks_taken == 2


def test_selling_on_the_black_market_once_per_good():
    """L578-580: sell the good at once if its space is free: 1 resource of your choice or
    2 florins; each good type once per game."""
    state = at_phase(ACTIONS)
    seat = acting(state)
    state = with_seat(state, seat, reserve=(9,) * 6, active=("028",))
    block = _free_block(state, "orange")
    good = state.block_goods[data.BLOCK_IDS.index(block.id)]
    state = play(state, TakeBlock(block.id, ("orange",) * block.cost, sale="resource"))
    assert state.black_market == (good,) and state.seats[seat].pending_choices == 1
    assert GAME.legal_commands(state, seat) == [ChooseResource(c) for c in data.COLOURS]
    with refused("amsterdam.choose_resource"):
        play(state, EndTurn(None))
    state = play(state, ChooseResource("violet"))
    twin = next(b for b, g, o in zip(data.BLOCK_IDS, state.block_goods, state.block_owner)
                if g == good and o is None)
    cost = (data.BLOCKS[twin].colour,) * data.BLOCKS[twin].cost
    with refused("amsterdam.block_cost"):
        play(state, TakeBlock(twin, cost, sale="florins"))
    # the sale was refused, not the block: taken without it, the same block is the seat's
    assert play(state, TakeBlock(twin, cost)).block_owner[data.BLOCK_IDS.index(twin)] == seat


def test_loading_only_at_the_start_or_a_pontoon():
    """L514: goods are loaded only on the start bridge or one of the six pontoons."""
    state = at_phase(ACTIONS)
    seat = acting(state)
    state = with_seat(state, seat, provisional=("beer",), barge="W1")
    with refused("amsterdam.load_at_start_or_pontoon", match="start bridge or a pontoon"):
        play(state, LoadGood("beer"))
    state = with_seat(state, seat, barge="P:white")
    assert play(state, LoadGood("beer")).seats[seat].cargo == ("beer",)


def test_barge_steps_cost_one_resource_and_040_halves_it():
    """L532: 1 resource of any colour per node; card 040: 1 resource pays for 2 spaces."""
    state = at_phase(ACTIONS)
    seat = acting(state)
    state = with_seat(state, seat, reserve=vector("black", "black"), barge="start")
    with refused("amsterdam.barge_move"):
        play(state, MoveBarge("W1", None))
    state = with_seat(state, seat, active=("040",))
    state = play(state, MoveBarge("W1", "black"))
    state = play(state, MoveBarge("W2", None))
    assert state.seats[seat].reserve == vector("black") and state.seats[seat].barge == "W2"


def test_amstel_once_per_turn_with_the_printed_cost():
    """L589-594: once per turn, 1 resource for the first space and 2 for each further."""
    state = at_phase(ACTIONS)
    seat = acting(state)
    state = with_seat(state, seat, reserve=(3,) * 6, amstel=0)
    with refused("amsterdam.amstel_cost", match="1 resource for the first space"):
        play(state, AdvanceAmstel(("black", "black")))
    state = play(state, AdvanceAmstel(("black",)))
    with refused("amsterdam.amstel_cost", match="1 resource for the first space"):
        play(state, AdvanceAmstel(("black",)))
    state = play(state, AdvanceAmstel(("black", "pink")))    # the second space costs 2
    assert state.seats[seat].amstel == 2
    state = with_seat(state, seat, active=("024",))
    state = play(state, UseCard("024"))                      # another action ends the move
    with refused("amsterdam.one_amstel_move_per_turn", match="once per turn"):
        play(state, AdvanceAmstel(("grey", "grey")))


def test_the_mouth_gives_ten_and_fixes_the_order():
    """L605: the first to reach the last space takes slot 1, gains 10 points; the order on
    the last space holds for the rest of the game."""
    state = at_phase(ACTIONS)
    seat = acting(state)
    state = with_seat(state, seat, reserve=(3,) * 6, amstel=18)
    points = state.seats[seat].points
    state = play(state, AdvanceAmstel(("black",)))
    me = state.seats[seat]
    assert me.mouth_slot == 1 and me.points == points + 10
    from domain.amsterdam.board import amstel_order
    assert amstel_order(state)[0] == seat


def test_market_once_per_turn_and_020_twice():
    """L611: once per turn; card 020: twice."""
    state = replace(at_phase(ACTIONS), market_tile="A2")
    seat = acting(state)
    state = with_seat(state, seat, florins=5)
    state = play(state, BuyPrestige())
    with refused("amsterdam.market"):
        play(state, BuyPrestige())
    state = with_seat(state, seat, active=("020",))
    assert play(state, BuyPrestige()).seats[seat].florins == 3


def test_the_house_keeps_one_resource():
    """L624: unused resources go back except one of your choice, stored in the house."""
    state = at_phase(ACTIONS)
    seat = acting(state)
    state = with_seat(state, seat, reserve=vector("pink", "grey"))
    state = play(state, EndTurn("grey"))
    assert state.seats[seat].house == "grey"


def test_the_last_round_has_no_phase_four():
    """L631: in round 12 Phase IV is skipped, so no cube goes to the house."""
    state = replace(at_phase(ACTIONS), round=12)
    seat = acting(state)
    assert GAME.legal_commands(state, seat)[-1] == EndTurn(None)
    assert [c for c in GAME.legal_commands(state, seat) if isinstance(c, EndTurn)] == [EndTurn(None)]


def test_converters_032_036_039():
    """Cards 032 (3 resources -> 1 florin), 036 (2 -> 1 of your choice), 039 (2 florins -> 2
    of your choice), "autant de fois que vous le souhaitez"."""
    state = at_phase(ACTIONS)
    seat = acting(state)
    state = with_seat(state, seat, active=("032", "036", "039"), reserve=vector(*["black"] * 5),
                      florins=2)
    state = play(state, Convert("032", ("black",) * 3))
    assert state.seats[seat].florins == 3
    state = play(state, Convert("036", ("black",) * 2))
    state = play(state, ChooseResource("pink"))
    state = play(state, Convert("039"))
    state = play(state, ChooseResource("grey"))
    state = play(state, ChooseResource("grey"))
    assert state.seats[seat].reserve == vector("pink", "grey", "grey") and state.seats[seat].florins == 1


def test_triggers_on_activation_and_block():
    """Cards 030 (+2 florins per building activated), 026 (+1 florin per block), 074
    (+1 Amstel space per block), 071 (+1 florin once a round on florins from a card)."""
    state = at_phase(ACTIONS)
    seat = acting(state)
    building = "091"
    state = with_seat(state, seat, active=("030", "026", "074", "071"), inactive=(building,),
                      reserve=(9,) * 6, florins=0, amstel=0)
    state = play(state, ActivateCard(building, data.CARDS[building].cost))
    assert state.seats[seat].florins == 3   # 2 from 030, 1 from 071
    block = _free_block(state, "black")
    state = play(state, TakeBlock(block.id, ("black",) * block.cost))
    assert state.seats[seat].florins == 4 and state.seats[seat].amstel == 1


def test_inactive_cards_cost_penalties_at_the_end_unless_008():
    """L667 and card 008: each card still inactive gives a penalty token at the end."""
    state = replace(at_phase(ACTIONS), round=12)
    state = replace(state, position=len(state.order) - 1)
    last = state.order[-1]
    first = state.order[0]
    state = with_seat(state, first, inactive=("013", "014"), active=(), penalties=0)
    state = with_seat(state, last, inactive=("015",), active=("008",), penalties=0)
    state = play(state, EndTurn(None))
    assert state.seats[first].penalties == 2 and state.seats[last].penalties == 0
    assert state.scores[first].penalties == -8


def test_one_docker_per_stop_or_both_as_an_option():
    """L536: "vous avez le droit de prendre un docker" (B7: one per stop; option "both")."""
    from domain.amsterdam.commands import PickUpDocker

    for option, expected in (("one", 1), ("both", 2)):
        state = at_phase(ACTIONS, 2, {"docker_pickup": option})
        seat = acting(state)
        pontoon = next(p for p in data.PONTOONS)
        state = with_seat(state, seat, barge=pontoon, dockers=())
        for _ in range(2):
            offered = [c for c in GAME.legal_commands(state, seat) if isinstance(c, PickUpDocker)]
            if offered:
                state = play(state, offered[0])
        assert len(state.seats[seat].dockers) == expected


def test_simultaneous_dice_choice_is_face_down_until_all_have_chosen():
    """L430: "Vous pouvez tous effectuer cette étape en même temps" (B2 option): every seat
    chooses at once; a choice stays hidden from the others until the last one is made."""
    from domain.rng import Rng

    state = at_phase(DICE, 3, {"dice_choice": "simultaneous"})
    assert GAME.to_act(state) == (0, 1, 2)
    first = GAME.legal_commands(state, 2)[-1]
    events = GAME.decide(state, __import__("domain.decider").decider.Issued(2, "t", first))
    state = GAME.fold(events, state)
    assert GAME.to_act(state) == (0, 1) and GAME.legal_commands(state, 2) == []
    assert GAME.redact_event(events[0], 0)["dice"] is None
    assert GAME.redact_event(events[0], 2)["dice"] == list(first.dice)
    view = GAME.view(state, 0)
    assert view["dice_chosen"] == [2] and view["you"]["dice_choice"] is None
    assert GAME.view(state, 2)["you"]["dice_choice"]["dice"] == list(first.dice)
    for k in range(5):
        assert GAME.view(GAME.redetermine(state, 0, Rng(f"{k:064x}")), 0) == view
    state = play(state, GAME.legal_commands(state, 0)[0], 0)
    state = play(state, GAME.legal_commands(state, 1)[0], 1)
    assert state.phase == ACTIONS and state.seats[2].dice == tuple(
        data.COLOURS.index(c) for c in first.dice)
