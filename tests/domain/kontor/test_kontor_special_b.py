"""Kontor special rules B (« Règles spéciales »): one test per rule, quoting the passage.

« Certaines règles spéciales peuvent être combinées avec les scénarios. Elles peuvent aussi
se jouer avec les règles de base ou avancées. »
"""

from __future__ import annotations

import pytest

from domain.decider import Issued, NotYourTurn, OptionsError, RuleViolation
from domain.kontor import GAME
from domain.kontor.core import events as ev
from domain.kontor.core.board import occupancy, sector_of, warehouse_counts
from domain.kontor.core.commands import ChooseCard, MoveShip, Pass, PlaceCard
from domain.kontor.core.data import CARDS, FACE_DOWN_IDS
from domain.kontor.core.options import Options
from domain.kontor.core.placement import placement_cells
from domain.kontor.core.state import part
from domain.kontor.rules.bribery import (
    BribeOffered,
    BriberyState,
    EndBribe,
    PlaceBribeWarehouse,
    pending_bribe,
)
from domain.kontor.rules.final_point import FinalPointAwarded, LastSectorsClosed
from domain.kontor.rules.old_grudges import DecideTavernSector
from domain.kontor.rules.smuggling import ChooseFaceDown, FaceDownRevealed, SmugglingState
from tests.domain.kontor.helpers import (
    AT,
    BLACK,
    RED,
    cards,
    choose,
    cross_layout,
    full_board,
    given,
    of_type,
    placing,
    started,
    tavern,
    then,
    types,
    water,
    when,
    with_warehouses,
)
from tests.refusals import refused


def _dock(owner: int, goods: tuple[str, ...], ship: bool = False, n: int = 0) -> int:
    found = [
        c.id
        for c in CARDS.values()
        if c.kind == "dock"
        and c.owner == owner
        and tuple(sorted(c.goods)) == tuple(sorted(goods))
        and c.ship == ship
        and not c.florin
        and not c.crane
        and not c.tavern
    ]
    return found[n]


def _ship_water() -> int:
    return next(c.id for c in CARDS.values() if c.kind == "water" and c.ship and not c.florin)


# ---------------------------------------------------------------------------------------
# Options


@pytest.mark.parametrize(
    ("rule", "variant", "seats"),
    [
        ("old_grudges", "basic", 2),
        ("old_grudges", "team", 4),
        ("blockade", "advanced", 2),
        ("blockade", "team", 4),
        ("bribery_1", "basic", 2),
        ("bribery_2", "team", 4),
        ("final_point", "basic", 2),
        ("smuggling", "advanced", 2),
        ("protection", "advanced", 2),
        ("protection", "team", 4),
    ],
)
def test_rules_are_available(rule, variant, seats):
    """« Elles peuvent aussi se jouer avec les règles de base ou avancées. »"""
    options = GAME.parse_options({"variant": variant, "special_rules": [rule]}, seats)
    assert options.special_rules == (rule,)


def test_player_counts_ship_and_conflicts_are_refused_with_reasons():
    """« Point final pour 2 joueurs » ; « Contrebande pour 2 joueurs » ; « Le bateau reçoit
    une fonction supplémentaire » (Blocus) ; Corruption 1 and 2 are one rule."""
    cases = [
        ({"variant": "team", "special_rules": ["final_point"]}, 4, "for 2 players, not 4"),
        ({"variant": "team", "special_rules": ["smuggling"]}, 4, "for 2 players, not 4"),
        ({"variant": "basic", "special_rules": ["blockade"]}, 2, "has no ship"),
        ({"variant": "basic", "special_rules": ["protection"]}, 2, "has no ship"),
        (
            {"variant": "basic", "special_rules": ["bribery_1", "bribery_2"]},
            2,
            "cannot be combined",
        ),
        (
            {"variant": "basic", "special_rules": ["drunken_sailors", "old_grudges"]},
            2,
            "pass card",
        ),
    ]
    for raw, seats, text in cases:
        with pytest.raises(OptionsError) as err:
            GAME.parse_options(raw, seats)
        assert text in str(err.value.errors), (raw, err.value.errors)


def test_switches_and_basic_defaults():
    o = GAME.parse_options(
        {"variant": "advanced", "special_rules": ["bribery_2", "smuggling", "blockade"]}, 2
    )
    assert (o.bribery, o.smuggling, o.blockade, o.protection) == (2, True, True, False)
    basic = Options()
    assert (basic.old_grudges, basic.bribery, basic.final_point, basic.smuggling) == (
        False,
        0,
        False,
        False,
    )


# ---------------------------------------------------------------------------------------
# Blocus


BLOCKADE = Options(variant="advanced", board_size=7, ship=True, blockade=True)


def test_blockade_no_card_next_to_the_ship():
    """« Il est maintenant interdit de placer une carte qui avoisinerait directement le
    bateau, par un côté. »"""
    card = water(n=0)
    _, state = placing(cross_layout(), card, None, options=BLOCKADE, ship=(2, 0))
    cells = {(c.x, c.y) for c in GAME.legal_commands(state, RED) if isinstance(c, PlaceCard)}
    assert (3, 0) not in cells and (2, 1) not in cells and (2, -1) not in cells
    assert (-3, 0) in cells
    with pytest.raises(RuleViolation) as err:
        when(state, RED, PlaceCard(3, 0))
    assert err.value.code == "kontor.blockade"
    view = GAME.view(state, BLACK)
    assert {"x": 3, "y": 0} in view["board"]["blockaded_cells"]


def test_blockade_round_without_placement_ends_the_game():
    """« Si à cause du bateau, aucun joueur ne peut plus placer de carte lors d'un tour,
    la partie se termine prématurément. »"""
    layout = full_board(holes=[(1, 1)], spare_water=5)
    card = _dock(RED, ("tea",))
    options = Options(ship=True, blockade=True)
    _, state = placing(layout, card, None, options=options, ship=(1, 0), extra=((water(),), ()))
    returned = of_type(_, ev.CardReturned)
    assert returned and returned[0].reason == "blockade"
    end = of_type(_, ev.GameEnded)
    assert end and end[0].reason == "blockade" and state.phase == "over"


def test_blockade_moving_the_ship_may_free_a_cell():
    """The ship can be moved away with a ship card (« déplacer le bateau »), after which the
    cells next to its old place are free."""
    layout = full_board(holes=[(1, 1)], spare_water=5)
    ship_card = _ship_water()
    layout = {p: (c if c != ship_card else water(n=4)) for p, c in layout.items()}
    options = Options(ship=True, blockade=True)
    _, state = placing(layout, ship_card, None, options=options, ship=(1, 0))
    legal = GAME.legal_commands(state, RED)
    assert legal and all(isinstance(c, MoveShip) for c in legal)
    events, state = then(state, RED, MoveShip(-2, -2))
    assert PlaceCard(1, 1) in GAME.legal_commands(state, RED)


# ---------------------------------------------------------------------------------------
# Protection


def test_protection_tavern_shields_its_owners_ship_docks_only():
    """« La taverne protège du bateau, les docks du même secteur montrant un bateau. La
    protection n'agit que pour les docks du propriétaire de la taverne et du même
    secteur. »"""
    layout = cross_layout()
    red_ship_dock = _dock(RED, ("wine",), ship=True)
    black_ship_dock = _dock(BLACK, ("wine",), ship=True)
    layout[(1, 1)] = tavern(RED)
    layout[(2, 1)] = red_ship_dock
    layout[(1, 2)] = black_ship_dock
    options = Options(variant="advanced", board_size=7, ship=True, protection=True)
    _, state = placing(layout, _ship_water(), None, options=options, pre=with_warehouses(layout))
    legal = GAME.legal_commands(state, RED)
    assert MoveShip(2, 0, 2, 1, RED) not in legal  # red's own dock, red's tavern
    assert MoveShip(0, 2, 1, 2, BLACK) in legal  # black's dock is not protected
    with pytest.raises(RuleViolation) as err:
        when(state, RED, MoveShip(2, 0, 2, 1, RED))
    assert err.value.code == "kontor.not_removable"
    assert {"x": 2, "y": 1} in GAME.view(state, None)["board"]["protected_docks"]
    unprotected = Options(variant="advanced", board_size=7, ship=True)
    _, plain = placing(
        layout, _ship_water(), None, options=unprotected, pre=with_warehouses(layout)
    )
    assert MoveShip(2, 0, 2, 1, RED) in GAME.legal_commands(plain, RED)


# ---------------------------------------------------------------------------------------
# Corruption


def test_bribery_tavern_may_not_finish_a_sector():
    """« La taverne est une sorte de joker. On ne peut pas la placer pour terminer un
    secteur. »"""
    layout = full_board(holes=[(1, 1), (-2, -2)])
    options = Options(bribery=1)
    state = given(started(layout, hands=((tavern(RED),), ()), options=options))
    cells = occupancy(state)
    assert placement_cells(state, cells, tavern(RED), RED) == []
    assert placement_cells(state, cells, _dock(RED, ("tea",)), RED) == [(-2, -2), (1, 1)]
    plain = given(started(layout, hands=((tavern(RED),), ())))
    assert placement_cells(plain, occupancy(plain), tavern(RED), RED) == [(-2, -2), (1, 1)]
    from domain.kontor.core.placement import placement_error

    assert placement_error(state, cells, tavern(RED), RED, (1, 1)).code == (
        "kontor.tavern_closes_sector"
    )


def test_bribery_1_one_warehouse_on_a_single_good_dock_of_the_taverns_sector():
    """« Corruption 1 : le joueur peut ajouter, sur une carte ne montrant qu'une
    marchandise dans le secteur de la taverne, un entrepôt de même type. »"""
    layout = cross_layout()
    tea = _dock(RED, ("tea",))
    black_wine = _dock(BLACK, ("wine",))
    far = _dock(RED, ("spice",))
    layout[(1, 1)] = tea
    layout[(2, 1)] = black_wine
    layout[(-1, -1)] = far  # another sector: not a target with Corruption 1
    options = Options(bribery=1)
    _, state = placing(
        layout,
        tavern(RED),
        None,
        options=options,
        pre=with_warehouses(layout),
        extra=((water(),), ()),
        dock_piles=((_dock(RED, ("wine",)),), ()),
    )
    events, state = then(state, RED, PlaceCard(1, 2))
    assert types(events)[-1] == "BribeOffered"
    assert GAME.to_act(state) == (RED,)
    assert GAME.legal_commands(state, RED) == [PlaceBribeWarehouse(1, 1), EndBribe()]
    with pytest.raises(RuleViolation) as err:
        when(state, RED, PlaceBribeWarehouse(-1, -1))
    assert err.value.code == "kontor.bribe_target"
    with refused("kontor.bribe_pending"):
        when(state, RED, PlaceCard(3, 3))
    events, state = then(state, RED, PlaceBribeWarehouse(1, 1))
    assert types(events)[:3] == ["BribeWarehouseAdded", "BribeEnded", "CardDrawn"]
    cells = occupancy(state)
    counts = warehouse_counts(cells, sector_of(cells, (1, 1)), state.warehouses, 2, extra=part(state, BriberyState).bribes)
    assert counts[RED] == (2, 0, 0) and counts[BLACK] == (0, 1, 0)
    view = GAME.view(state, BLACK)
    sector = next(s for s in view["board"]["sectors"] if {"x": 1, "y": 1} in s["cells"])
    assert sector["warehouses"]["red"]["tea"] == 2
    assert view["board"]["bribe_warehouses"][0]["good"] == "tea"


def test_bribery_2_two_docks_and_the_tavern_in_three_sectors():
    """« Corruption 2 : le joueur peut ajouter, sur deux docks ne présentant qu'une seule
    marchandise, deux entrepôts du même type. Ces deux docks, ainsi que la taverne, ne
    doivent pas être dans le même secteur. »"""
    layout = cross_layout()
    a, b, c = _dock(RED, ("tea",)), _dock(RED, ("wine",)), _dock(RED, ("spice",))
    layout[(1, 1)] = a
    layout[(-1, -1)] = b
    layout[(2, -1)] = c  # next to the tavern's cell: the tavern's sector
    layout[(1, 2)] = _dock(RED, ("spice",), n=1)  # a's sector
    options = Options(bribery=2)
    _, state = placing(
        layout,
        tavern(RED),
        None,
        options=options,
        pre=with_warehouses(layout),
        extra=((water(),), ()),
    )
    events, state = then(state, RED, PlaceCard(1, -1))
    assert of_type(events, BribeOffered)[0].count == 2
    targets = {
        (cmd.x, cmd.y)
        for cmd in GAME.legal_commands(state, RED)
        if isinstance(cmd, PlaceBribeWarehouse)
    }
    assert targets == {(1, 1), (1, 2), (-1, -1)}
    events, state = then(state, RED, PlaceBribeWarehouse(1, 1))
    targets = {
        (cmd.x, cmd.y)
        for cmd in GAME.legal_commands(state, RED)
        if isinstance(cmd, PlaceBribeWarehouse)
    }
    assert targets == {(-1, -1)}  # not a second one in (1, 1)'s sector
    events, state = then(state, RED, PlaceBribeWarehouse(-1, -1))
    assert "BribeEnded" in types(events) and pending_bribe(state) is None
    assert sorted(part(state, BriberyState).bribes) == sorted((a, b))


def test_bribe_is_optional():
    """« le joueur peut ajouter » : he may add none."""
    layout = cross_layout()
    layout[(1, 1)] = _dock(RED, ("tea",))
    _, state = placing(
        layout,
        tavern(RED),
        None,
        options=Options(bribery=1),
        pre=with_warehouses(layout),
        extra=((water(),), ()),
    )
    _, state = then(state, RED, PlaceCard(1, 2))
    events, state = then(state, RED, EndBribe())
    assert types(events)[0] == "BribeEnded" and part(state, BriberyState).bribes == ()


# ---------------------------------------------------------------------------------------
# Point final


def test_final_point_last_finished_sector_scores_two():
    """« Point final pour 2 joueurs : Le dernier secteur terminé rapporte 2 points. »"""
    layout = full_board(holes=[(1, 1), (-2, -2)], spare_water=4)
    options = Options(final_point=True)
    first, last = _dock(RED, ("tea",)), _dock(RED, ("wine",))
    _, state = placing(layout, first, None, options=options, extra=((last,), ()))
    events, state = then(state, RED, PlaceCard(1, 1))
    assert of_type(events, LastSectorsClosed)[0].sectors == (0,)
    assert state.points == (1, 0)
    _, state = choose(state, ChooseCard(last), Pass())
    events, state = then(state, RED, PlaceCard(-2, -2))
    award = of_type(events, FinalPointAwarded)[0]
    assert award.sectors == (1,) and award.bonus == 1
    assert of_type(events, ev.GameEnded)[0].points == (3, 0)


# ---------------------------------------------------------------------------------------
# Vieilles rancunes


def _grudge_state(extra_layout):
    layout = full_board(holes=[(-2, -2)], overrides=extra_layout, spare_water=4)
    options = Options(old_grudges=True)
    _, state = placing(layout, water(), None, options=options, pre=with_warehouses(layout))
    return state


def test_old_grudges_tavern_owner_decides_at_the_end():
    """« Un joueur ou une équipe qui possède une taverne peut décider si le secteur où
    elle se trouve est comptabilisé ou non. » (decided at the end, before the count)"""
    state = _grudge_state({(1, 1): tavern(RED), (1, 2): _dock(BLACK, ("tea",))})
    events, state = then(state, RED, PlaceCard(-2, -2))
    scored = of_type(events, ev.SectorScored)
    assert scored[0].winner == BLACK and state.points == (0, 1)
    assert types(events)[-1] == "TavernSectorsAsked" and state.phase == "grudges"
    assert GAME.to_act(state) == (RED,)
    assert GAME.legal_commands(state, RED) == [
        DecideTavernSector(1, 1, True),
        DecideTavernSector(1, 1, False),
    ]
    with pytest.raises(NotYourTurn):
        GAME.decide(state, Issued(BLACK, "t", Pass()))
    assert GAME.view(state, BLACK)["old_grudges"]["pending"]["seat"] == RED
    events, state = then(state, RED, DecideTavernSector(1, 1, False))
    end = of_type(events, ev.GameEnded)[0]
    assert end.points == (0, 0) and state.phase == "over"


def test_old_grudges_counted_sector_keeps_its_point():
    state = _grudge_state({(1, 1): tavern(RED), (1, 2): _dock(BLACK, ("tea",))})
    _, state = then(state, RED, PlaceCard(-2, -2))
    events, state = then(state, RED, DecideTavernSector(1, 1, True))
    assert of_type(events, ev.GameEnded)[0].points == (0, 1)


def test_old_grudges_both_taverns_sector_must_count():
    """« Si les deux tavernes sont dans un même secteur, il est obligatoirement
    comptabilisé. »"""
    state = _grudge_state(
        {(1, 1): tavern(RED), (2, 1): tavern(BLACK), (1, 2): _dock(BLACK, ("tea",))}
    )
    events, state = then(state, RED, PlaceCard(-2, -2))
    assert "TavernSectorsAsked" not in types(events)
    assert of_type(events, ev.GameEnded)[0].points == (0, 1)


def test_old_grudges_dropped_sector_takes_no_slot_in_the_largest_count():
    """Advanced game: « seuls les cinq plus grands secteurs comptent » -- a sector not
    counted leaves its place to the next one."""
    from domain.kontor.core.scoring import select_final
    from domain.kontor.core.state import ScoredSector

    state = _grudge_state({})
    opts = Options(final_selection="largest", final_count=1, old_grudges=True)
    big = ScoredSector(((1, 1), (1, 2)), BLACK, "highest", (1, 1))
    small = ScoredSector(((3, 3),), RED, "highest", (3, 3))
    from dataclasses import replace

    st = replace(state, options=opts, scored=(big, small))
    assert select_final(st, occupancy(st))[0] == (0,)
    from domain.kontor.core.state import with_part
    from domain.kontor.rules.old_grudges import GrudgesState

    st = with_part(st, GrudgesState(grudges=((0, False),)))
    assert select_final(st, occupancy(st))[0] == (1,)


# ---------------------------------------------------------------------------------------
# Contrebande


SMUGGLING = Options(smuggling=True)


def test_smuggling_face_down_choice_is_secret_and_placed_last():
    """« Chaque joueur peut placer, une fois dans la partie, une carte cachée de sa main.
    Cette carte peut être un canal ou un dock avec marchandise. »"""
    high = max(cards("dock", RED, ("tea", "wine", "spice"), None))
    low_black = min(c for c in cards("water", None, (), False))
    state = given(
        started(
            hands=((high, water(n=3)), (low_black, water(n=4))),
            options=SMUGGLING,
            dock_piles=((_dock(RED, ("tea",)),), ()),
            water_pile=(water(n=5), water(n=6)),
        )
    )
    assert ChooseFaceDown(high, "water") in GAME.legal_commands(state, RED)
    assert ChooseFaceDown(tavern(RED), "dock") not in GAME.legal_commands(state, RED)
    events, state = then(state, RED, ChooseFaceDown(high, "water"))
    seen = GAME.redact_event(events[0], BLACK)
    assert seen["card"] is None and "face_down" not in seen and "draw" not in seen
    assert GAME.redact_event(events[0], RED)["face_down"] is True
    events, state = then(state, BLACK, ChooseCard(low_black))
    reveal = of_type(events, ev.CardsRevealed)[0]
    assert reveal.cards[RED] == FACE_DOWN_IDS[RED] and high not in reveal.cards
    assert of_type(events, ev.TurnOrderSet)[0].order == (BLACK, RED)  # face down: last
    _, state = then(state, BLACK, PlaceCard(-3, 0))
    events, state = then(state, RED, PlaceCard(1, 1))
    placed = of_type(events, ev.CardPlaced)[0]
    assert placed.card == FACE_DOWN_IDS[RED]
    assert of_type(events, ev.CardDrawn)[0].pile == "water"  # the pile chosen with it
    assert not of_type(events, ev.IncomePaid) and not of_type(events, ev.WarehousesAdded)
    for viewer in (None, BLACK):
        text = repr(GAME.view(state, viewer))
        cell = next(
            c for c in GAME.view(state, viewer)["board"]["cells"] if (c["x"], c["y"]) == (1, 1)
        )
        assert cell["card"]["kind"] == "face_down" and cell["card"]["number"] is None
        assert f"'card': {high}" not in text
    assert GAME.view(state, RED)["you"]["face_down"] == [{"x": 1, "y": 1, "card": high}]
    assert GAME.view(state, BLACK)["players"][RED]["smuggling_used"] is True
    _, state = choose(state, ChooseCard(water(n=3)), Pass())
    assert not any(isinstance(c, ChooseFaceDown) for c in GAME.legal_commands(state, RED))


def test_smuggling_sector_scored_only_at_the_end_after_the_reveal():
    """« Elle n'est révélée qu'à la fin de la partie. Un secteur qui contiendrait une telle
    carte ne sera comptabilisé qu'à la fin, après avoir retourné la carte. »"""
    layout = full_board(holes=[(1, 1), (-2, -2)], spare_water=4)
    tea = _dock(RED, ("tea",))
    state = given(started(layout, hands=((tea, water()), ()), options=SMUGGLING))
    _, state = choose(state, ChooseFaceDown(tea, "dock"), Pass())
    events, state = then(state, RED, PlaceCard(1, 1))
    assert not of_type(events, ev.SectorScored)  # closed, but held until the end
    view = GAME.view(state, BLACK)
    sector = next(s for s in view["board"]["sectors"] if {"x": 1, "y": 1} in s["cells"])
    assert sector["closed"] and not sector["scored"]
    _, state = choose(state, ChooseCard(water()), Pass())
    events, state = then(state, RED, PlaceCard(-2, -2))
    names = types(events)
    assert names.index("FaceDownRevealed") < names.index("SectorScored") < names.index("GameEnded")
    assert of_type(events, FaceDownRevealed)[0].card == tea
    assert of_type(events, ev.GameEnded)[0].points == (1, 0)
    assert occupancy(state)[(1, 1)] == tea


def test_smuggled_canal_splits_the_sector_at_the_reveal():
    """A face-down card counts as a dock until it is turned over; a canal then separates
    the docks around it, and each part is scored at the end."""
    layout = full_board(
        holes=[(1, 1), (-2, -2)],
        overrides={(1, 0): _dock(RED, ("tea",)), (1, 2): _dock(BLACK, ("wine",))},
        spare_water=4,
    )
    canal = water()
    state = given(
        started(layout, hands=((canal, water(n=1)), ()), options=SMUGGLING),
        *with_warehouses(layout),
    )
    _, state = choose(state, ChooseFaceDown(canal, "water"), Pass())
    events, state = then(state, RED, PlaceCard(1, 1))
    cells = occupancy(state)
    assert sector_of(cells, (1, 0)) == {(1, 0), (1, 1), (1, 2)}
    assert not of_type(events, ev.SectorScored)
    _, state = choose(state, ChooseCard(water(n=1)), Pass())
    events, state = then(state, RED, PlaceCard(-2, -2))
    winners = sorted(s.winner for s in of_type(events, ev.SectorScored))
    assert winners == [RED, BLACK]


def test_smuggling_redetermine_keeps_the_view_and_hides_the_card():
    """The face-down card stays secret under redetermine: the opponent's view is the same,
    the card may be another one."""
    from domain.rng import Rng

    layout = cross_layout()
    tea = _dock(RED, ("tea",))
    state = given(
        started(
            layout,
            hands=((tea, water(n=1), water(n=2)), (water(n=3),)),
            options=SMUGGLING,
            dock_piles=(tuple(cards("dock", RED, ("wine",), None)), ()),
            water_pile=tuple(cards("water", None, (), False)[10:20]),
        )
    )
    _, state = choose(state, ChooseFaceDown(tea, "dock"), Pass())
    _, state = then(state, RED, PlaceCard(1, 1))
    before = GAME.view(state, BLACK)
    seen = set()
    for k in range(30):
        other = GAME.redetermine(state, BLACK, Rng("cd" * 32, k))
        assert GAME.view(other, BLACK) == before
        seen.add(part(other, SmugglingState).smuggled[0][3])
    assert len(seen) > 1 and any(CARDS[c].kind == "water" for c in seen)


def test_blockade_is_refused_where_the_port_starts_from_the_anchor_alone():
    """« Il est maintenant interdit de placer une carte qui avoisinerait directement le
    bateau ... Si à cause du bateau, aucun joueur ne peut plus placer de carte lors d'un
    tour, la partie se termine prématurément. » With the anchor alone and the ship on it,
    no first card could ever be placed: such a game is refused at creation."""
    from domain.decider import OptionsError
    from domain.kontor.core.options import parse_options

    with pytest.raises(OptionsError) as err:
        parse_options({"variant": "advanced", "scenario": "speed", "special_rules": ["blockade"]}, 2)
    assert "anchor alone" in err.value.errors["special_rules"][0]


def test_a_pending_bribe_or_tavern_decision_refuses_every_other_command():
    """« Après avoir posé la taverne : ... le joueur peut ajouter ... un entrepôt »; « Un
    joueur ... qui possède une taverne peut décider si le secteur où elle se trouve est
    comptabilisé ou non »: while either waits, the other rules' commands are refused with
    its reason (hook point command_guard: every refusal before any rule's own command)."""
    layout = cross_layout()
    layout[(1, 1)] = _dock(RED, ("tea",))
    options = Options(bribery=1, smuggling=True, old_grudges=True)
    _, state = placing(
        layout,
        tavern(RED),
        None,
        options=options,
        pre=with_warehouses(layout),
        extra=((water(),), ()),
        dock_piles=((_dock(RED, ("wine",)),), ()),
    )
    _, state = then(state, RED, PlaceCard(1, 2))
    assert pending_bribe(state) is not None
    for command in (DecideTavernSector(1, 1, True), ChooseFaceDown(water(), "water")):
        with pytest.raises(RuleViolation) as err:
            when(state, RED, command)
        assert err.value.code == "kontor.bribe_pending", command

    layout = full_board(
        holes=[(-2, -2)],
        overrides={(1, 1): tavern(RED), (1, 2): _dock(BLACK, ("tea",))},
        spare_water=4,
    )
    _, state = placing(layout, water(), None, options=options, pre=with_warehouses(layout))
    _, state = then(state, RED, PlaceCard(-2, -2))
    assert state.phase == "grudges"
    for command in (PlaceBribeWarehouse(1, 1), EndBribe(), ChooseFaceDown(water(), "dock")):
        with pytest.raises(RuleViolation) as err:
            when(state, RED, command)
        assert err.value.code == "kontor.tavern_decision_pending", command


def test_smuggling_redetermines_a_seat_that_passed_in_secret_under_drunken_sailors():
    """Contrebande with Marins ivres morts: a seat may pass in secret in the choice phase
    (its choice is the pass, not a card); the computer's re-deal of what it cannot see
    lays no face-down card for a pass (it asked whether the pass could be smuggled and
    raised KeyError: -1, so a computer seat crashed there)."""
    from domain.kontor.core.state import PASS_CHOICE
    from domain.rng import Rng

    options = GAME.parse_options({"variant": "advanced", "special_rules": ["drunken_sailors", "smuggling"]}, 2)
    chooser = Rng(f"{7:064x}")
    checked = 0
    for game in range(6):
        state = GAME.fold(GAME.start(options, 2, f"{101 + game:064x}"))
        for _ in range(400):
            if GAME.is_finished(state):
                break
            if state.phase == "choose":
                for passer, other in ((0, 1), (1, 0)):
                    if state.chosen[passer] == PASS_CHOICE:
                        dealt = GAME.redetermine(state, other, chooser.fork(f"rd/{game}/{checked}"))
                        laid = (part(dealt, SmugglingState).face_down or (None, None))[passer]
                        # the pass is secret: the re-deal may give the seat a card, and only
                        # a card may be laid face down
                        if dealt.chosen[passer] == PASS_CHOICE:
                            assert laid is None
                        else:
                            assert laid is None or laid[0] == dealt.chosen[passer]
                        checked += 1
            seat = chooser.choice(sorted(GAME.to_act(state)))
            commands = GAME.legal_commands(state, seat)
            passes = [c for c in commands if isinstance(c, Pass)]
            command = passes[0] if passes and state.phase == "choose" else chooser.choice(commands)
            for event in GAME.decide(state, Issued(seat, AT, command)):
                state = GAME.evolve(state, event)
    assert checked, "no secret pass was met: the test did not look at its case"
