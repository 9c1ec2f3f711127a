"""Special rules A (« Règles spéciales », « Variantes avec les cartes spéciales »):
poverty, justice, drunken_sailors, free_choice, choice_of_goods, first_choice,
flood_choice, buy_special_cards, bridge_and_flood, great_flood, final_sprint."""

from __future__ import annotations

from dataclasses import replace

import pytest

from domain.decider import OptionsError
from domain.kontor import GAME
from domain.kontor.core import events as ev
from domain.kontor.core.board import occupancy, warehouse_counts
from domain.kontor.core.commands import ChooseCard, DrawCard, Pass, PlaceCard
from domain.kontor.core.data import CARDS
from domain.kontor.core.scoring import goods_of
from domain.kontor.core.state import part
from domain.kontor.rules.buy_special_cards import (
    BuyingClosed,
    BuyingOpened,
    BuySpecialCard,
    SpecialCardBought,
    SpecialsState,
)
from domain.kontor.rules.choice_of_goods import ChooseGood
from domain.kontor.rules.first_choice import PilePickPaid, TakeFromPile
from domain.kontor.rules.flood_choice import FloodDiscarded, FloodState, PlaceWater
from domain.kontor.rules.justice import ChooseStartingDock, DockPilesFormed
from domain.kontor.rules.pending_step import StepOpened
from domain.kontor.rules.water_fill import WaterFilled
from tests.domain.kontor.helpers import (
    BLACK,
    RED,
    SEED,
    cards,
    choose,
    cross_layout,
    dock,
    given,
    of_type,
    started,
    then,
    water,
    waters,
    when,
)
from tests.refusals import refused


def opts(*rules, variant="basic", seats=2):
    return GAME.parse_options({"variant": variant, "special_rules": list(rules)}, seats)


def test_identifiers_available_with_their_player_counts():
    """« Certaines règles spéciales peuvent être combinées avec les scénarios. Elles peuvent
    aussi se jouer avec les règles de base ou avancées. » Headings « pour 2 joueurs » /
    « pour 2 et 4 joueurs »."""
    for rule in ("poverty", "drunken_sailors", "free_choice", "choice_of_goods",
                 "first_choice", "final_sprint"):
        for variant, seats in (("basic", 2), ("advanced", 2), ("team", 4)):
            assert rule in opts(rule, variant=variant, seats=seats).special_rules
    for rule in ("justice", "buy_special_cards", "bridge_and_flood", "great_flood"):
        assert opts(rule, variant="advanced").special_rules == (rule,)
        with pytest.raises(OptionsError, match="for 2 players"):
            opts(rule, variant="team", seats=4)


def test_flood_choice_needs_flood_cards():
    """« La carte d'inondation peut être employée de deux façons »: only in a game that has
    flood cards (team game, bridge_and_flood, great_flood, buy_special_cards)."""
    with pytest.raises(OptionsError, match="flood_choice"):
        opts("flood_choice")
    assert opts("flood_choice", "great_flood").flood_as_water == 2
    assert opts("flood_choice", variant="team", seats=4).flood_as_water == 2


# --- Misère ---------------------------------------------------------------------------


def test_poverty_setup_three_florins_rest_removed_7x7():
    """« Disposition initiale normale. Plateau : 7x7 cases. Chaque joueur ne reçoit que
    trois florins ; le reste est enlevé du jeu. Il n'y a donc que six florins dans le jeu
    à 2, et 12 dans celui à 4. »"""
    o = opts("poverty")
    s = GAME.fold(GAME.start(o, 2, SEED))
    assert s.money == (3, 3) and s.treasury == 0 and o.board_size == 7
    o4 = opts("poverty", variant="team", seats=4)
    s4 = GAME.fold(GAME.start(o4, 4, SEED))
    assert sum(s4.money) == 12 and s4.treasury == 0 and o4.board_size == 8


def test_poverty_broke_player_with_empty_treasury_ends_the_game():
    """« Si un joueur n'a plus d'argent, et qu'il n'y en a pas dans la trésorerie, la
    partie se termine prématurément et l'adversaire gagne. »"""
    o = opts("poverty")
    canal = water(n=0)
    red_dock = dock(RED, "tea")
    state = given(
        started(
            hands=((red_dock, water(n=1)), (canal, water(n=2))),
            water_pile=tuple(waters(3, skip=3)),
            money=(0, 6),
            treasury=1,
            options=o,
        )
    )
    _, state = choose(state, ChooseCard(red_dock), ChooseCard(canal))
    first = state.order[0]
    assert first == BLACK  # canals are numbered above the docks
    events, state = then(state, BLACK, PlaceCard(0, -3))
    assert of_type(events, ev.IncomePaid)[0].amount == 1
    ended = of_type(events, ev.GameEnded)[0]
    assert ended.reason == "poverty" and ended.winners == (BLACK,)
    assert GAME.result(state).winners == (BLACK,)


# --- Justice ---------------------------------------------------------------------------


def test_justice_choose_three_docks_then_four_set_aside():
    """« Chaque joueur choisit ses trois premiers docks, avant de commencer la partie. On
    bat ensuite les cartes restantes. Les canaux restent tirés au hasard. De plus, quatre
    docks sont retirés cachés de chaque pile avant de commencer à jouer. »"""
    o = opts("justice", variant="advanced")
    events = GAME.start(o, 2, SEED)
    state = GAME.fold(events)
    assert state.phase == "starting_docks" and GAME.to_act(state) == (0, 1)
    assert all(len(h) == 2 and all(CARDS[c].kind == "water" for c in h) for h in state.hands)
    assert len(GAME.legal_commands(state, RED)) == 22
    red_view = GAME.view(state, RED)
    assert red_view["players"][1]["dock_pile"]["top"] is None
    assert sorted(red_view["you"]["deck"]) == sorted(state.dock_piles[RED])
    assert GAME.redact_event(events[0], RED)["dock_piles"][0]["top"] is None
    picks = {RED: sorted(state.dock_piles[RED])[:3], BLACK: sorted(state.dock_piles[BLACK])[-3:]}
    for i in range(3):
        for seat in (RED, BLACK):
            out, state = then(state, seat, ChooseStartingDock(picks[seat][i]))
            redacted = GAME.redact_event(out[0], 1 - seat)
            assert redacted["card"] is None
    formed = of_type(out, DockPilesFormed)[0]
    assert [len(a) for a in formed.aside] == [4, 4]
    assert state.phase == "choose"
    for seat in (RED, BLACK):
        assert set(picks[seat]) <= set(state.hands[seat]) and len(state.hands[seat]) == 5
        assert len(state.dock_piles[seat]) == 22 - 3 - 4
    assert GAME.view(state, RED)["docks_aside"] == [4, 4]
    with refused("kontor.not_starting"):
        when(state, RED, ChooseStartingDock(picks[RED][0]))


# --- Marins ivres morts ----------------------------------------------------------------


def test_drunken_sailors_pass_is_secret_and_revealed_with_the_cards():
    """« Pour passer, on ne le dit plus. A la place, on prépare en secret la taverne qui
    signifie "je passe". Après avoir retourné la carte, le joueur passe, prend le florin,
    puis reprend la taverne en main. »"""
    o = opts("drunken_sailors")
    red_dock, black_dock = dock(RED, "tea"), dock(BLACK, "wine")
    state = given(
        started(hands=((red_dock, water(n=1)), (black_dock, water(n=2))), options=o)
    )
    events, state = then(state, RED, Pass())
    assert types_of(events) == ["CardChosen"]
    assert events[0].passing and GAME.redact_event(events[0], BLACK) == {
        "seat": RED, "card": None, "passing": False}
    black_view = GAME.view(state, BLACK)
    assert black_view["players"][RED]["passed"] is False
    assert black_view["players"][RED]["chosen"] is True
    assert black_view["players"][RED]["hand_size"] == 2  # the pass card is laid
    assert GAME.view(state, RED)["you"]["passing"] is True
    events, state = then(state, BLACK, ChooseCard(black_dock))
    revealed = of_type(events, ev.CardsRevealed)[0]
    assert revealed.cards == (None, black_dock)
    passed = of_type(events, ev.Passed)[0]
    assert passed.seat == RED and passed.florins == 1
    assert state.money[RED] == 5 and state.order == (BLACK,)


def types_of(events):
    return [type(e).__name__ for e in events]


# --- Libre choix -------------------------------------------------------------------------


def test_free_choice_draw_from_either_pile_keeping_a_dock_and_a_canal():
    """« Vous pouvez choisir librement la pile dont vous tirez la carte. Vous devez
    cependant toujours avoir au moins un dock et un canal en main. »"""
    o = opts("free_choice")
    d1, d2 = dock(RED, "tea"), dock(RED, "wine")
    pile = (dock(RED, "spice"),)
    state = given(
        started(
            hands=((d1, d2, water(n=1)), (water(n=2),)),
            dock_piles=(pile, ()),
            water_pile=(water(n=3),),
            options=o,
        )
    )
    _, state = choose(state, ChooseCard(d1), Pass())
    events, state = then(state, RED, PlaceCard(0, -3))
    assert of_type(events, StepOpened)[0].step == "draw"
    assert GAME.legal_commands(state, RED) == [DrawCard("dock"), DrawCard("water")]
    events, state = then(state, RED, DrawCard("water"))
    assert of_type(events, ev.CardDrawn)[0].pile == "water"
    # a hand without canal after placing: only the water pile is open
    state = given(
        started(
            hands=((d1, d2, water(n=1)), ()),
            dock_piles=(pile, ()),
            water_pile=(water(n=3),),
            options=o,
        )
    )
    _, state = choose(state, ChooseCard(water(n=1)), Pass())
    events, state = then(state, RED, PlaceCard(0, -3))
    assert of_type(events, ev.CardDrawn)[0].pile == "water"  # only choice: drawn at once
    assert not of_type(events, StepOpened)


@pytest.mark.parametrize("special", ["bridge", "customs", "flood"])
def test_free_choice_judges_a_card_by_what_it_is(special):
    """« Vous devez cependant toujours avoir au moins un dock et un canal en main » ; « Le
    pont est considéré comme un dock », the customs house is played as a dock
    (RULES-NOTES.md), a flood is water (« On considère ... comme des canaux »): a hand of
    that special card and a plain card of the other kind keeps a dock and a canal whatever
    pile it draws from."""
    o = opts("free_choice", "bridge_and_flood")
    card = next(c for c in CARDS.values() if c.kind == special).id
    other = water(n=1) if CARDS[card].is_dock else dock(RED, "wine")
    d1 = dock(RED, "tea")
    state = given(
        started(
            hands=((d1, card, other), (water(n=2),)),
            dock_piles=((dock(RED, "spice"),), ()),
            water_pile=(water(n=3),),
            options=o,
        )
    )
    _, state = choose(state, ChooseCard(d1), Pass())
    events, state = then(state, RED, PlaceCard(0, -3))
    assert [e.step for e in of_type(events, StepOpened)] == ["draw"]
    assert GAME.legal_commands(state, RED) == [DrawCard("dock"), DrawCard("water")]


def test_free_choice_in_a_game_of_the_first_versions_counts_printed_kinds():
    """Games recorded under ``kontor-basic-1`` (and ``-advanced-1``, ``-team-1``) are still
    decided as they were played: there Libre choix counted only plain docks and canals, so
    a hand of a bridge and a canal had to draw a dock. New games record ``-2``."""
    o = opts("free_choice", "bridge_and_flood")
    bridge = next(c for c in CARDS.values() if c.kind == "bridge").id
    d1, top = dock(RED, "tea"), dock(RED, "spice")
    state = given(
        started(
            hands=((d1, bridge, water(n=1)), (water(n=2),)),
            dock_piles=((top,), ()),
            water_pile=(water(n=3),),
            options=o,
        )
    )
    assert state.rules_version == GAME.rules_version_for(o) == "kontor-basic-2"
    state = replace(state, rules_version="kontor-basic-1")
    _, state = choose(state, ChooseCard(d1), Pass())
    events, state = then(state, RED, PlaceCard(0, -3))
    assert not of_type(events, StepOpened)
    assert [(e.card, e.pile) for e in of_type(events, ev.CardDrawn)] == [(top, "dock")]


# --- Choix de la marchandise -------------------------------------------------------------


def test_choice_of_goods_one_warehouse_of_the_chosen_good():
    """« Lorsqu'on pose un dock qui montre 2 ou 3 marchandises, il faut décider laquelle de
    ces 2 ou 3 marchandises on choisit. Seul l'entrepôt correspondant sera posé sur la
    carte. »"""
    o = opts("choice_of_goods")
    three = dock(RED, "tea", "wine", "spice")
    state = given(started(hands=((three, water(n=1)), (water(n=2),)), options=o))
    _, state = choose(state, ChooseCard(three), Pass())
    events, state = then(state, RED, PlaceCard(0, -3))
    assert not of_type(events, ev.WarehousesAdded)
    assert GAME.to_act(state) == (RED,)
    assert GAME.legal_commands(state, RED) == [ChooseGood(g) for g in ("tea", "wine", "spice")]
    with refused("kontor.step_pending"):
        when(state, RED, PlaceCard(1, -3))
    events, state = then(state, RED, ChooseGood("wine"))
    assert of_type(events, ev.WarehousesAdded)[0].goods == ("wine",)
    cells = occupancy(state)
    counts = warehouse_counts(cells, [(0, -3)], state.warehouses, 2, goods_of(state))
    assert counts[RED] == (0, 1, 0)
    w = GAME.view(state, None)["board"]["warehouses"]
    assert w == [{"x": 0, "y": -3, "card": three, "owner": "red", "goods": ["wine"]}]


def test_choice_of_goods_two_identical_goods_one_warehouse():
    """« Seul l'entrepôt correspondant sera posé sur la carte »: a tea+tea dock gets one
    tea warehouse, without a choice to make."""
    o = opts("choice_of_goods")
    twin = dock(RED, "tea", "tea")
    state = given(started(hands=((twin, water(n=1)), (water(n=2),)), options=o))
    _, state = choose(state, ChooseCard(twin), Pass())
    events, state = then(state, RED, PlaceCard(0, -3))
    assert of_type(events, ev.WarehousesAdded)[0].goods == ("tea",)
    assert not of_type(events, StepOpened)


# --- Premier choix -----------------------------------------------------------------------


def test_first_choice_pay_two_and_pick_within_the_pile_order_kept():
    """« En payant 2 pièces de monnaie, on peut choisir un dock dans la pile. Il est
    interdit de changer à cette occasion l'ordre des cartes. »"""
    o = opts("first_choice")
    d1 = dock(RED, "tea")
    pile = (dock(RED, "wine"), dock(RED, "spice"), dock(RED, "tea", "wine", "spice"))
    state = given(
        started(hands=((d1, water(n=1)), (water(n=2),)), dock_piles=(pile, ()), options=o)
    )
    _, state = choose(state, ChooseCard(d1), Pass())
    _, state = then(state, RED, PlaceCard(0, -3))
    assert GAME.legal_commands(state, RED) == [DrawCard("dock"), DrawCard("dock_pick")]
    events, state = then(state, RED, DrawCard("dock_pick"))
    assert of_type(events, PilePickPaid)[0].amount == 2
    assert state.money[RED] == 2
    assert GAME.view(state, RED)["you"]["dock_pile"] == list(pile)
    assert "dock_pile" not in GAME.view(state, BLACK).get("you", {})
    events, state = then(state, RED, TakeFromPile(pile[2]))
    assert of_type(events, ev.CardDrawn)[0].card == pile[2]
    assert state.dock_piles[RED] == pile[:2]
    assert pile[2] in state.hands[RED] and state.money[RED] == 2
    assert state.treasury == 12 + 2 - 1  # black's pass took one


def test_first_choice_needs_two_florins():
    """« En payant 2 pièces de monnaie »: with one florin only the top card is drawn."""
    o = opts("first_choice")
    d1 = dock(RED, "tea")
    pile = (dock(RED, "wine"), dock(RED, "spice"))
    state = given(
        started(
            hands=((d1, water(n=1)), (water(n=2),)),
            dock_piles=(pile, ()),
            money=(1, 4),
            treasury=15,
            options=o,
        )
    )
    _, state = choose(state, ChooseCard(d1), Pass())
    events, state = then(state, RED, PlaceCard(0, -3))
    assert of_type(events, ev.CardDrawn)[0].card == pile[0]


# --- Choix d'inondation ------------------------------------------------------------------


def test_flood_choice_two_water_cards_then_flood_discarded_and_two_drawn():
    """« on peut choisir de l'utiliser pour jouer deux cartes d'eau. Après quoi, elle est
    défaussée et le joueur tire deux nouvelles cartes d'eau. »"""
    o = opts("bridge_and_flood", "flood_choice")
    flood = next(c for c in o.hand_specials[RED] if CARDS[c].kind == "flood")
    c1, c2 = water(n=1), water(n=2)
    state = given(
        started(
            hands=((flood, c1, c2), (water(n=3),)),
            water_pile=(water(n=4), water(n=5), water(n=6)),
            options=o,
        )
    )
    _, state = choose(state, ChooseCard(flood), Pass())
    legal = GAME.legal_commands(state, RED)
    assert PlaceWater(c1, 0, -3) in legal
    events, state = then(state, RED, PlaceWater(c1, 0, -3))
    assert of_type(events, StepOpened)[0].step == "flood_water"
    assert all(isinstance(c, PlaceWater) and c.card == c2 for c in GAME.legal_commands(state, RED))
    events, state = then(state, RED, PlaceWater(c2, 0, 3))
    assert of_type(events, FloodDiscarded)[0].card == flood
    drawn = of_type(events, ev.CardDrawn)
    assert [d.card for d in drawn] == [water(n=4), water(n=5)]
    assert of_type(events, ev.IncomePaid)[0].amount == 2
    assert flood in part(state, FloodState).discarded and flood not in state.hands[RED]
    assert state.phase == "choose"


# --- Achat de cartes spéciales -----------------------------------------------------------


def test_buy_special_cards_pile_and_buying_before_each_round():
    """« Les 6 cartes spéciales sont brouillées et placées faces cachées en une pile. Avant
    chaque tour, un joueur peut acheter des cartes spéciales pour un coût de deux pièces de
    monnaie. »"""
    o = opts("buy_special_cards")
    events = GAME.start(o, 2, SEED)
    state = GAME.fold(events)
    assert len(part(state, SpecialsState).specials_pile) == 6 and state.phase == "buy"
    assert GAME.redact_event(events[0], RED)["specials_pile"] == {"size": 6}
    assert GAME.legal_commands(state, RED) == [BuySpecialCard(True), BuySpecialCard(False)]
    out, state = then(state, RED, BuySpecialCard(True))
    assert GAME.redact_event(out[0], BLACK)["buy"] is None
    out, state = then(state, BLACK, BuySpecialCard(False))
    bought = of_type(out, SpecialCardBought)[0]
    assert bought.seat == RED and GAME.redact_event(bought, BLACK)["card"] is None
    assert state.money == (2, 4) and state.treasury == 14 and state.phase == "choose"
    assert CARDS[bought.card].is_special and bought.card in state.hands[RED]
    assert GAME.view(state, BLACK)["specials_pile"] == 5


def test_buy_special_cards_higher_number_buys_first_when_not_enough():
    """« Si les deux joueurs veulent acheter et qu'il ne reste pas assez de cartes
    spéciales, le joueur qui montre la carte de numéro le plus élevé achète en premier »:
    the wishes are secret until both have said; the higher top of the dock piles wins."""
    o = opts("buy_special_cards")
    low, high = sorted(cards("dock", RED, None, None))[0], sorted(cards("dock", BLACK, None, None))[-1]
    start = replace(
        started(dock_piles=((low,), (high,)), options=o), specials_pile=(CARDS[1].id,)
    )
    state = given(start, BuyingOpened((RED, BLACK)))
    _, state = then(state, RED, BuySpecialCard(True))
    out, state = then(state, BLACK, BuySpecialCard(True))
    bought = of_type(out, SpecialCardBought)
    assert [b.seat for b in bought] == [BLACK]
    assert of_type(out, BuyingClosed)[0].wanted == (RED, BLACK)
    assert state.money == (4, 2)


# --- Pont et inondation, Crue exceptionnelle ---------------------------------------------


def test_bridge_and_flood_hands_and_7x7():
    """« Plateau de jeu : 7x7 cases. Chaque joueur prend en main au début de la partie 1
    pont et 1 inondation, en plus de ses cartes. Rouge prend l'inondation 90 et le pont 92.
    Noir prend le pont 91 et l'inondation 93. »"""
    o = opts("bridge_and_flood")
    state = GAME.fold(GAME.start(o, 2, SEED))
    assert o.board_size == 7
    assert {90, 92} <= set(state.hands[RED]) and {91, 93} <= set(state.hands[BLACK])
    assert len(state.hands[RED]) == 7


def test_great_flood_fills_free_neighbours_with_water_from_the_pile():
    """« Chaque joueur reçoit une carte d'inondation en plus des cartes normales en main au
    début de la partie. Lorsqu'il la joue, les cases libres avoisinant cette inondation,
    horizontalement et verticalement, sont remplies avec des cartes d'eau, prises dans la
    pile de pioche. »"""
    o = opts("great_flood")
    assert o.hand_specials == ((90,), (93,))
    layout = cross_layout()
    target = dock(BLACK, "tea")
    layout[(1, -1)] = target
    pile = tuple(waters(3, skip=2))
    state = given(
        started(layout, hands=((90, water(n=1)), (water(n=0),)), water_pile=pile, options=o)
    )
    _, state = choose(state, ChooseCard(90), Pass())
    events, state = then(state, RED, PlaceCard(1, -1))
    filled = of_type(events, WaterFilled)[0]
    # neighbours of (1, -1): (1, -2) and (2, -1) are free; (0, -1) and (1, 0) are canals
    assert [(x, y) for x, y, _ in filled.cells] == [(1, -2), (2, -1)]
    assert [c for _, _, c in filled.cells] == list(pile[:2])
    assert state.water_pile == pile[2:]
    assert not of_type(events, ev.IncomePaid)


# --- Sprint final ------------------------------------------------------------------------


def test_final_sprint_ends_when_a_dock_pile_is_empty():
    """« Si un joueur ne peut plus tirer que des cartes d'eau, la partie finit
    immédiatement. Les cases encore libres sont remplies avec des cartes d'eau. » (at the
    end of that round: reading R-A11)"""
    o = opts("final_sprint")
    d1, last = dock(RED, "tea"), dock(RED, "wine")
    state = given(
        started(
            hands=((d1, water(n=1)), (water(n=2), dock(BLACK, "spice"))),
            dock_piles=((last,), (dock(BLACK, "tea"),)),
            water_pile=tuple(waters(30, skip=3)),
            options=o,
        )
    )
    _, state = choose(state, ChooseCard(d1), Pass())
    events, state = then(state, RED, PlaceCard(0, -3))
    assert of_type(events, ev.CardDrawn)[0].card == last
    filled = of_type(events, WaterFilled)[0]
    assert filled.reason == "final_sprint" and len(filled.cells) > 4
    scored = of_type(events, ev.SectorScored)
    assert scored and scored[-1].winner == RED
    ended = of_type(events, ev.GameEnded)[0]
    assert ended.reason == "final_sprint" and ended.winners == (RED,)


def test_final_sprint_customs_of_the_last_round_not_counted():
    """« Si la carte spéciale "douane" a été jouée lors du dernier tour, elle n'est pas
    prise en compte. »"""
    o = opts("final_sprint", "buy_special_cards")
    customs = next(c for c in CARDS.values() if c.kind == "customs").id
    d_black, last = dock(BLACK, "tea"), dock(BLACK, "wine")
    layout = cross_layout()
    layout[(1, -1)] = dock(RED, "spice")
    start = replace(
        started(
            layout,
            hands=((customs, water(n=1)), (d_black, water(n=2))),
            dock_piles=((dock(RED, "tea"),), (last,)),
            water_pile=tuple(waters(30, skip=3)),
            options=o,
        ),
        specials_pile=(),
    )
    state = given(start, ev.WarehousesAdded(RED, layout[(1, -1)], ("spice",)))
    _, state = choose(state, ChooseCard(customs), ChooseCard(d_black))
    assert state.order == (BLACK, RED)
    _, state = then(state, BLACK, PlaceCard(-3, 0))
    assert not state.is_over() and state.dock_piles[BLACK] == ()
    events, state = then(state, RED, PlaceCard(1, -2))
    # black's pile emptied in this round: the sprint ends with the round
    assert of_type(events, ev.GameEnded)[0].reason == "final_sprint"
    scored = [s for s in of_type(events, ev.SectorScored) if (1, -1) in s.cells]
    assert scored[0].winner == RED and scored[0].points == 1  # 1 + customs bonus ignored
