"""« Roue libre pour 2 ou 4 joueurs »: the eleven modifications of the advanced rules."""

from __future__ import annotations

import pytest

from domain.decider import NotYourTurn, OptionsError, RuleViolation
from domain.kontor import GAME
from domain.kontor.core import events as ev
from domain.kontor.core.commands import ChooseCard, DrawCard, MoveShip, Pass, PlaceCard
from domain.kontor.core.data import CARDS, special_cards
from domain.kontor.core.options import parse_options
from domain.kontor.core.state import Cell, part
from domain.kontor.core.versions import rules_version_of
from domain.kontor.forms.free_wheel.commands import SetDrunkDock
from domain.kontor.forms.free_wheel.events import (
    DockSobered,
    DrunkDockSet,
    SectorCounted,
    StepStarted,
    TaxUnpaid,
    TurnStarted,
)
from domain.kontor.forms.free_wheel.state import FreeWheelState

from .helpers import SEED, cards, crane, dock, given, of_type, tavern, then, water, when

FW2 = parse_options({"variant": "free_wheel"}, 2)
FW4 = parse_options({"variant": "free_wheel"}, 4)
RED, BLACK = 0, 1


def fw_started(
    options=FW2,
    layout=None,
    hands=None,
    dock_piles=None,
    water_pile=(),
    money=None,
    treasury=None,
    common=(),
    first: int = 0,
    ship=(0, 0),
    seat_count: int = 2,
    pre=(),
):
    """The state after GameStarted on ``layout`` and TurnStarted(first), then ``pre``."""
    n = seat_count
    layout = {(0, 0): 0} if layout is None else layout
    hands = hands or tuple(() for _ in range(n))
    dock_piles = dock_piles or tuple(() for _ in range(n))
    money = money or (n,) * n
    treasury = 20 - sum(money) if treasury is None else treasury
    started = ev.GameStarted(
        options=options,
        seat_count=n,
        seed=SEED,
        rules_version=rules_version_of(options.variant),
        rng_counter=0,
        cross=tuple(Cell(x, y, c) for (x, y), c in layout.items()),
        hands=tuple(tuple(h) for h in hands),
        dock_piles=tuple(tuple(p) for p in dock_piles),
        water_pile=tuple(water_pile),
        money=tuple(money),
        treasury=treasury,
        ship=ship,
        common_docks=tuple(common),
    )
    return given(started, TurnStarted(first, 1, 0), *pre)


def plain(n: int) -> int:
    """The n-th canal without florin nor ship."""
    return [c for c in cards("water", None, (), False) if not CARDS[c].ship][n]


def play(state, seat, card, pos):
    """Play ``card`` and place it at ``pos``: (events, state)."""
    e1, state = then(state, seat, ChooseCard(card))
    e2, state = then(state, seat, PlaceCard(*pos))
    return e1 + e2, state


def row(*cells_cards, y=0, x0=1):
    """Layout: the anchor and the given cards in a row to its right."""
    layout = {(0, 0): 0}
    for i, c in enumerate(cells_cards):
        layout[(x0 + i, y)] = c
    return layout


# --- 1-4: set-up -----------------------------------------------------------------------


@pytest.mark.parametrize("seats", [2, 4])
def test_setup_anchor_ship_board_hands_money(seats):
    """« 1. On ne place au début que l'ancre. Le bateau est placé dessus. Le plateau de jeu
    est de 7x7 cases. 2. Chaque joueur reçoit un nombre de florins égal au nombre de
    joueurs. 4. Chacun reçoit 2 canaux et 2 docks. La main d'un joueur ne comporte que 4
    cartes. »"""
    options = parse_options({"variant": "free_wheel"}, seats)
    events = GAME.start(options, seats, SEED)
    state = GAME.fold(events)
    assert [(c.x, c.y, c.card) for c in state.board] == [(0, 0, 0)]
    assert state.ship == (0, 0) and options.board_size == 7
    assert state.money == (seats,) * seats and state.treasury == 20 - seats * seats
    for hand in state.hands:
        assert len(hand) == 4
        assert sum(CARDS[c].kind == "dock" for c in hand) == 2
    assert state.phase == "turn" and GAME.to_act(state) == (part(state, FreeWheelState).current,)
    assert isinstance(events[1], TurnStarted)
    if seats == 4:
        # the team rules at 4 (« L'Affrontement à Quatre »): red seats 0-1, black 2-3
        assert options.teams == ((0, 1), (2, 3))
        assert all(CARDS[c].owner == 0 for s in (0, 1) for c in state.dock_piles[s])


def test_specials_shuffled_into_the_canal_pile():
    """« 3. On met les cartes spéciales dans le paquet des canaux. Le tout est battu. »"""
    state = GAME.fold(GAME.start(FW2, 2, SEED))
    water_side = list(state.water_pile) + [
        c for h in state.hands for c in h if not CARDS[c].kind == "dock"
    ]
    assert set(special_cards()) <= set(water_side)
    assert not state.specials_aside


def test_options_player_counts_and_conflicts():
    """« Roue libre pour 2 ou 4 joueurs » ; special rules « peuvent aussi se jouer avec les
    règles de base ou avancées » (not with free wheel)."""
    for raw, seats in (({"variant": "free_wheel"}, 3), ({"variant": "free_for_all"}, 2)):
        with pytest.raises(OptionsError, match="seat_count"):
            parse_options(raw, seats)
    with pytest.raises(OptionsError) as err:
        parse_options({"variant": "free_wheel", "special_rules": ["poverty"]}, 2)
    assert "not played with the free_wheel variant" in err.value.errors["special_rules"][0]
    with pytest.raises(OptionsError) as err:
        parse_options({"variant": "free_wheel", "scenario": "giant"}, 2)
    assert "not with the free_wheel variant" in err.value.errors["scenario"][0]
    assert parse_options({"variant": "free_wheel"}, 2).teams == ()


# --- 5: libre choix --------------------------------------------------------------------


def test_free_choice_of_the_pile():
    """« 5. On applique la règle spéciale de libre choix de la pioche : les joueurs peuvent
    compléter leurs mains depuis une pioche ou l'autre. »"""
    d1, d2 = dock(RED, "tea"), dock(RED, "wine")
    state = fw_started(
        hands=((d1, d2, plain(0), plain(1)), (plain(2),)),
        dock_piles=((dock(RED, "spice"),), ()),
        water_pile=(plain(3),),
    )
    events, state = play(state, RED, d1, (1, 0))
    assert of_type(events, StepStarted)[0].step == "draw"
    assert GAME.legal_commands(state, RED) == [DrawCard("dock"), DrawCard("water")]
    events, state = then(state, RED, DrawCard("water"))
    assert of_type(events, ev.CardDrawn)[0].card == plain(3)
    assert part(state, FreeWheelState).current == BLACK


def test_free_choice_keeps_a_dock_and_a_canal():
    """« Vous devez cependant toujours avoir au moins un dock et un canal en main »."""
    d1 = dock(RED, "tea")
    state = fw_started(
        hands=((d1, plain(0), plain(1)), (plain(2),)),
        dock_piles=((dock(RED, "spice"),), ()),
        water_pile=(plain(3),),
    )
    _, state = play(state, RED, d1, (1, 0))
    assert GAME.legal_commands(state, RED) == [DrawCard("dock")]
    with pytest.raises(RuleViolation) as err:
        when(state, RED, DrawCard("water"))
    assert err.value.code == "kontor.draw_pile"


@pytest.mark.parametrize("special", ["bridge", "customs", "flood"])
def test_free_choice_judges_a_drawn_special_card_by_what_it_is(special):
    """« Vous devez cependant toujours avoir au moins un dock et un canal en main » ; the
    specials come from the canal pile, but « Le pont est considéré comme un dock », the
    customs house is played as a dock (RULES-NOTES.md) and a flood is water."""
    card = next(c for c in special_cards() if CARDS[c].kind == special)
    other = plain(1) if CARDS[card].is_dock else dock(RED, "wine")
    d1 = dock(RED, "tea")
    state = fw_started(
        hands=((d1, card, other), (plain(2),)),
        dock_piles=((dock(RED, "spice"),), ()),
        water_pile=(plain(3),),
    )
    _, state = play(state, RED, d1, (1, 0))
    assert GAME.legal_commands(state, RED) == [DrawCard("dock"), DrawCard("water")]


# --- 6: turns one after another --------------------------------------------------------


def test_each_plays_in_turn_clockwise():
    """« 6. On détermine le premier joueur, puis chacun joue à son tour et non
    simultanément. Un tour consiste pour un joueur à jouer une carte, à réaliser les
    actions qui y sont liées, puis à tirer une nouvelle carte. La partie se déroule dans le
    sens horaire. »"""
    hands = tuple((plain(i), dock(i % 2, "tea")) for i in range(4))
    state = fw_started(FW4, hands=hands, seat_count=4, first=2, money=(4, 4, 4, 4), treasury=4)
    assert GAME.to_act(state) == (2,)
    with pytest.raises(NotYourTurn):
        when(state, 0, ChooseCard(plain(0)))
    seen = []
    for seat in (2, 3, 0, 1):
        assert GAME.to_act(state) == (seat,)
        seen.append(seat)
        _, state = play(state, seat, hands[seat][0], _first_cell(state, seat, hands[seat][0]))
    assert seen == [2, 3, 0, 1] and GAME.to_act(state) == (2,)


def _first_cell(state, seat, card):
    from domain.kontor.core.board import occupancy
    from domain.kontor.core.placement import placement_cells

    return placement_cells(state, occupancy(state), card, seat)[0]


def test_pass_gives_a_florin_and_ends_the_turn():
    """« renoncer à jouer ce tour ; il reçoit alors un florin de la trésorerie »."""
    state = fw_started(hands=((plain(0),), (plain(1),)))
    events, state = then(state, RED, Pass())
    assert of_type(events, ev.Passed)[0].florins == 1
    assert state.money == (3, 2) and part(state, FreeWheelState).current == BLACK


# --- 7: florin taxes --------------------------------------------------------------------


def test_florin_makes_every_opponent_pay():
    """« 7. Quand un joueur pose une carte avec un florin, les adversaires doivent payer 1
    florin. » At 4 the opponents are the other team (not the partner)."""
    florin = water(florin=True)
    hands = ((florin,), (plain(1),), (plain(2),), (plain(3),))
    state = fw_started(FW4, hands=hands, seat_count=4, money=(4, 4, 4, 4), treasury=4)
    events, state = play(state, 0, florin, (1, 0))
    assert [(t.seat, t.amount) for t in of_type(events, ev.TaxPaid)] == [(2, 1), (3, 1)]
    assert state.money == (5, 4, 3, 3)  # + the canal's florin


def test_cannot_pay_passes_the_next_turn():
    """« Si un joueur ne peut pas payer, il doit passer à son prochain tour. Il pose son jeu
    sur la table et met un entrepôt inutilisé dessus pour s'en rappeler. »"""
    florin = water(florin=True)
    state = fw_started(hands=((florin, plain(0)), (plain(1),)), money=(2, 0), treasury=18)
    events, state = play(state, RED, florin, (1, 0))
    assert of_type(events, TaxUnpaid) == [TaxUnpaid(BLACK)]
    assert [type(e).__name__ for e in events[-3:]] == ["TurnStarted", "TurnSkipped", "TurnStarted"]
    assert part(state, FreeWheelState).current == RED and part(state, FreeWheelState).skip_next == (False, False)
    assert GAME.view(state, None)["players"][1]["skip_next_turn"] is False


def test_passer_is_spared_the_tax_until_his_next_turn():
    """« Un joueur qui passe de cette manière ne peut être soumis à aucun impôt »."""
    florin = water(florin=True)
    state = fw_started(hands=((florin,), (plain(1),)), first=BLACK)
    _, state = then(state, BLACK, Pass())
    events, _ = play(state, RED, florin, (1, 0))
    assert not of_type(events, ev.TaxPaid) and not of_type(events, TaxUnpaid)


# --- 8 and 11: scoring at the end -------------------------------------------------------


def test_no_sector_scored_before_the_end_and_all_sectors_of_two_docks_count():
    """« 8. ... aucun secteur n'est comptabilisé avant que la partie ne soit finie. » ;
    « 11. Tous les secteurs sont comptabilisés, à condition de comporter au moins 2
    docks. »"""
    t1, t2, s1 = dock(RED, "tea"), dock(RED, "tea", n=1), dock(BLACK, "spice")
    layout = {
        (0, 0): 0,
        (1, 0): t1,
        (2, 0): t2,
        (0, 1): plain(5),
        (1, 1): plain(6),
        (2, 1): plain(7),
        (3, 0): plain(8),
        (1, -1): plain(9),
        (2, -1): plain(10),
        (-1, 0): s1,
    }
    state = fw_started(
        layout=layout,
        hands=((plain(0), plain(1)), (plain(2),)),
        pre=[
            ev.WarehousesAdded(RED, t1, ("tea",)),
            ev.WarehousesAdded(RED, t2, ("tea",)),
            ev.WarehousesAdded(BLACK, s1, ("spice",)),
        ],
    )
    events, state = play(state, RED, plain(0), (0, -1))
    assert not of_type(events, ev.SectorScored) and not state.scored
    v = GAME.view(state, None)
    closed = [s for s in v["board"]["sectors"] if s["closed"]]
    assert closed and closed[0]["indicative_guardian"] and closed[0]["leader"] == ["red"]
    assert v["players"][0]["points"] == 1 and v["players"][0]["provisional"]
    # the end: the closed 2-dock sector scores, the 1-dock black sector does not
    from domain.kontor.core.decide import DecideContext
    from domain.kontor.forms.free_wheel.turns import _end_game

    log = DecideContext(state)
    _end_game(log, "stalled")
    counted = of_type(log.events, SectorCounted)
    assert len(counted) == 1 and counted[0].shares == (1, 0)
    assert log.state.points == (1, 0) and log.state.winners == (RED,)


def test_bridge_and_flood_may_affect_finished_sectors():
    """« 8. Un pont ou une inondation peuvent affecter des secteurs déjà terminés. »"""
    from domain.kontor.core.board import occupancy
    from domain.kontor.core.placement import placement_cells

    flood = next(c for c in special_cards() if CARDS[c].kind == "flood")
    bridge = next(c for c in special_cards() if CARDS[c].kind == "bridge")
    t1 = dock(RED, "tea")
    layout = {
        (0, 0): 0,
        (1, 0): t1,
        (2, 0): plain(5),
        (1, 1): plain(6),
        (1, -1): plain(7),
        (3, 0): dock(BLACK, "wine"),
    }
    state = fw_started(layout=layout)
    cells = occupancy(state)
    # t1 is a closed sector (water all round, the anchor on its left)
    assert (1, 0) in placement_cells(state, cells, flood, RED)
    assert (2, 0) in placement_cells(state, cells, bridge, RED)


def test_ship_still_may_not_remove_a_dock_of_a_finished_sector():
    """« Les docks sans bateau sont inamovibles, ainsi que tous les canaux et tous les docks
    d'un secteur terminé » (only the bridge and the flood get rule 8's exception)."""
    ship_dock = next(c for c in cards("dock", BLACK, ("wine",), False) if CARDS[c].ship)
    ship_canal = next(c for c in cards("water", None, (), False) if CARDS[c].ship)
    layout = {(0, 0): 0, (1, 0): ship_dock, (2, 0): plain(5), (1, 1): plain(6), (1, -1): plain(7)}
    state = fw_started(layout=layout, hands=((ship_canal,), ()))
    _, state = then(state, RED, ChooseCard(ship_canal))
    moves = [c for c in GAME.legal_commands(state, RED) if isinstance(c, MoveShip)]
    assert moves and all(c.remove_x is None for c in moves)
    # open the sector (remove a canal is impossible; a fresh board with a free side)
    del layout[(1, -1)]
    state = fw_started(layout=layout, hands=((ship_canal,), ()))
    _, state = then(state, RED, ChooseCard(ship_canal))
    assert MoveShip(2, 0, 1, 0, BLACK) in GAME.legal_commands(state, RED)


# --- 9: cranes ---------------------------------------------------------------------------


def test_crane_only_diagonally():
    """« 9. La grue ne peut pas être placée contre une carte déjà placée. Elle ne peut être
    jouée qu'en diagonale par rapport à une carte déjà placée. »"""
    c = crane(RED)
    state = fw_started(hands=((c, plain(0)), (plain(1),)))
    _, state = then(state, RED, ChooseCard(c))
    cells = sorted((p.x, p.y) for p in GAME.legal_commands(state, RED) if isinstance(p, PlaceCard))
    assert cells == [(-1, -1), (-1, 1), (1, -1), (1, 1)]
    with pytest.raises(RuleViolation) as err:
        when(state, RED, PlaceCard(1, 0))
    assert err.value.code == "kontor.crane_diagonal"


def test_crane_still_blocks_opponent_docks():
    """« Avec les grues, les joueurs peuvent interdire à l'adversaire de poser des docks »."""
    c = crane(RED)
    layout = {(0, 0): 0, (1, 1): c}
    d = dock(BLACK, "tea")
    state = fw_started(layout=layout, hands=((plain(0),), (d,)), first=BLACK)
    _, state = then(state, BLACK, ChooseCard(d))
    legal = GAME.legal_commands(state, BLACK)
    assert PlaceCard(1, 0) not in legal and PlaceCard(0, 1) not in legal
    assert PlaceCard(-1, 0) in legal
    with pytest.raises(RuleViolation) as err:
        when(state, BLACK, PlaceCard(1, 0))
    assert err.value.code == "kontor.crane_blocks_dock"


# --- 10: the tavern -----------------------------------------------------------------------


def _tavern_board():
    """Red tea (1,0) and black spice (2,0) in a sector; red's tavern goes to (1,1)."""
    t1, s1 = dock(RED, "tea"), dock(BLACK, "spice")
    layout = {(0, 0): 0, (1, 0): t1, (2, 0): s1}
    pre = [ev.WarehousesAdded(RED, t1, ("tea",)), ev.WarehousesAdded(BLACK, s1, ("spice",))]
    return layout, pre, t1, s1


def test_tavern_makes_a_dock_drunk():
    """« 10. La taverne permet de saouler les ouvriers d'un dock du secteur où elle se
    trouve. Après avoir placé une taverne, le joueur place une pièce sous n'importe quel
    dock du secteur concerné. Les ouvriers de ce dock étant ivres, le dock ne travaille plus
    et ne rentre donc pas en compte. »"""
    layout, pre, t1, s1 = _tavern_board()
    tv = tavern(RED)
    state = fw_started(layout=layout, hands=((tv, plain(0)), (plain(1),)), pre=pre)
    # before: black's spice (value) beats red's tea under the cyclic order
    assert GAME.view(state, None)["players"][BLACK]["points"] == 1
    events, state = play(state, RED, tv, (1, 1))
    assert of_type(events, StepStarted)[0].step == "drunk"
    assert set(GAME.legal_commands(state, RED)) == {
        SetDrunkDock(1, 1, 1, 0),
        SetDrunkDock(1, 1, 2, 0),
    }
    events, state = then(state, RED, SetDrunkDock(1, 1, 2, 0))
    assert of_type(events, DrunkDockSet)[0].card == s1
    v = GAME.view(state, None)
    assert v["players"][RED]["points"] == 1 and v["players"][BLACK]["points"] == 0
    assert v["taverns"][0]["drunk"] == {"x": 2, "y": 0}


def test_tavern_owner_moves_the_coin_at_the_start_of_his_turn():
    """« Le propriétaire de la taverne peut changer le dock affecté au début de son tour,
    avant de jouer une carte. »"""
    layout, pre, t1, s1 = _tavern_board()
    tv = tavern(RED)
    layout[(1, 1)] = tv
    pre = pre + [DrunkDockSet(RED, tv, s1, 2, 0)]
    state = given(*_events_with_tavern(layout, pre, tv))
    assert SetDrunkDock(1, 1, 1, 0) not in GAME.legal_commands(state, BLACK)
    _, state = then(state, BLACK, Pass())
    assert SetDrunkDock(1, 1, 1, 0) in GAME.legal_commands(state, RED)
    _, state = then(state, RED, SetDrunkDock(1, 1, 1, 0))
    assert SetDrunkDock(1, 1, 2, 0) not in GAME.legal_commands(state, RED)  # once a turn
    _, state = then(state, RED, ChooseCard(plain(0)))
    with pytest.raises(RuleViolation) as err:
        when(state, RED, SetDrunkDock(1, 1, 2, 0))
    assert err.value.code == "kontor.tavern_timing"


def _events_with_tavern(layout, pre, tv):
    """GameStarted without the tavern, then red placed it (so it is red's tavern)."""
    base = {p: c for p, c in layout.items() if c != tv}
    state_events = [
        ev.GameStarted(
            options=FW2,
            seat_count=2,
            seed=SEED,
            rules_version="kontor-free-wheel-1",
            rng_counter=0,
            cross=tuple(Cell(x, y, c) for (x, y), c in base.items()),
            hands=((plain(0),), (plain(1),)),
            dock_piles=((), ()),
            water_pile=(),
            money=(2, 2),
            treasury=16,
            ship=(0, 0),
        ),
        TurnStarted(RED, 1, 0),
        ev.CardPlaced(RED, tv, 1, 1),
        TurnStarted(BLACK, 2, 0),
    ]
    return state_events + list(pre)


def test_sober_again_when_the_dock_leaves_the_sector():
    """« Si le dock affecté est enlevé ou séparé du secteur où se trouve la taverne, les
    ouvriers redeviennent sobres et on enlève la pièce. »"""
    layout, pre, t1, s1 = _tavern_board()
    tv = tavern(RED)
    layout[(1, 1)] = tv
    flood = next(c for c in special_cards() if CARDS[c].kind == "flood")
    pre = pre + [DrunkDockSet(RED, tv, s1, 2, 0)]
    events = _events_with_tavern(layout, pre, tv)
    events[0] = ev.GameStarted(**{**events[0].__dict__, "hands": ((plain(0),), (flood,))})
    state = given(*events)
    # black floods red's tea dock (1,0): the spice dock (2,0) is cut off from the tavern
    out, state = play(state, BLACK, flood, (1, 0))
    assert of_type(out, DockSobered) == [DockSobered(tv, s1, "separated")]
    assert part(state, FreeWheelState).taverns == ((tv, RED, None),)


# --- 4 players -----------------------------------------------------------------------------


def test_four_players_partners_share_the_points():
    """« Les deux joueurs d'une équipe utilisent le même centre de distribution » (the team
    rules at 4): both partners hold their team's points."""
    t1, t2 = dock(RED, "tea"), dock(RED, "wine")
    layout = {(0, 0): 0, (1, 0): t1, (2, 0): t2}
    pre = [ev.WarehousesAdded(0, t1, ("tea",)), ev.WarehousesAdded(1, t2, ("wine",))]
    state = fw_started(FW4, layout=layout, seat_count=4, money=(4, 4, 4, 4), treasury=4, pre=pre)
    v = GAME.view(state, None)
    assert [p["points"] for p in v["players"]] == [1, 1, 0, 0]
    assert [t["points"] for t in v["teams"]] == [1, 0]
