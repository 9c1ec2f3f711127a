"""The team game for 4 players, « L'Affrontement à Quatre », and its special cards."""

from __future__ import annotations

import pytest

from domain.decider import RuleViolation
from domain.kontor import GAME, team_of
from domain.kontor.core import events as ev
from domain.kontor.core.commands import ChooseCard, MoveShip, Pass, PlaceCard
from domain.kontor.core.data import CARDS
from domain.kontor.core.options import parse_options

from .helpers import SEED, given, of_type, started, then, when
from .test_kontor_advanced import cross, plain_dock, plain_water, ship_dock, ship_water

TEAM = parse_options({"variant": "team"}, 4)
RED_A, RED_B, BLACK_A, BLACK_B = 0, 1, 2, 3
FLOOD, BRIDGE, CUSTOMS = (
    next(c.id for c in CARDS.values() if c.kind == k) for k in ("flood", "bridge", "customs")
)
BRIDGE2 = [c.id for c in CARDS.values() if c.kind == "bridge"][1]
CUSTOMS2 = [c.id for c in CARDS.values() if c.kind == "customs"][1]


def florin_dock(owner: int) -> int:
    return next(
        c.id
        for c in CARDS.values()
        if c.kind == "dock" and c.owner == owner and c.florin and c.goods
    )


def round_of(layout, cards, pre=(), money=(4, 4, 4, 4), piles=((), (), (), ()), **kw):
    """After the reveal: seat i chose ``cards[i]`` (None: passed); each keeps a canal."""
    hands = tuple(
        ((c,) if c is not None else ()) + (plain_water(20 + i),) for i, c in enumerate(cards)
    )
    state = given(
        started(
            layout,
            hands=hands,
            options=TEAM,
            seat_count=4,
            money=money,
            treasury=20 - sum(money),
            dock_piles=piles,
            **kw,
        ),
        *pre,
    )
    events = []
    for seat, c in enumerate(cards):
        new, state = then(state, seat, ChooseCard(c) if c is not None else Pass())
        events += new
    return events, state


def test_team_setup():
    """« Le plateau de jeu pour quatre joueurs est de 8x8 cases » ; « Les joueurs de chaque
    équipe divisent les cartes de dock entre eux ... coupées en deux piles égales. Chaque
    joueur tire alors ... trois docks de sa propre pile et deux canaux » ; « Chaque joueur
    prend quatre florins » ; « Les six cartes spéciales neutres sont brouillées et chaque
    joueur en prend une cachée dans la main. Le reste est enlevé du jeu et gardé caché »."""
    state = GAME.fold(GAME.start(TEAM, 4, SEED))
    assert state.options.board_size == 8 and state.ship == (0, 0)
    assert state.rules_version == "kontor-team-2"
    assert state.money == (4, 4, 4, 4) and state.treasury == 4  # 20 florins in the box
    specials = []
    for seat in range(4):
        hand = [CARDS[c] for c in state.hands[seat]]
        team = 0 if seat < 2 else 1
        assert sum(c.kind == "dock" and c.owner == team for c in hand) == 3
        assert sum(c.kind == "water" for c in hand) == 2
        assert sum(c.is_special for c in hand) == 1
        specials += [c.id for c in hand if c.is_special]
        assert len(state.dock_piles[seat]) == 11 - 3
        assert all(CARDS[c].owner == team for c in state.dock_piles[seat])
    assert len(state.specials_aside) == 2
    assert sorted(specials + list(state.specials_aside)) == [1, 2, 90, 91, 92, 93]
    assert [team_of(TEAM, s) for s in range(4)] == ["red", "red", "black", "black"]
    assert team_of(parse_options({}, 2), 0) is None


def test_special_cards_stay_secret():
    """« chaque joueur en prend une cachée dans la main. Le reste est enlevé du jeu et gardé
    caché » ; « Les joueurs ne sont pas autorisés à se montrer leurs cartes »."""
    events = GAME.start(TEAM, 4, SEED)
    data = GAME.redact_event(events[0], RED_A)
    assert data["hands"][RED_B] is None and data["hands"][RED_A] is not None
    assert data["specials_aside"] == {"size": 2}
    view = GAME.view(GAME.fold(events), RED_A)
    assert "specials_aside" in view and view["specials_aside"] == 2
    assert view["you"]["partners"] == [RED_B] and view["you"]["team"] == "red"
    assert view["teams"][0]["seats"] == [0, 1]


def test_turn_order_by_the_four_numbers():
    """« Les quatre joueurs jouent une carte de leur choix et les nombres de ces cartes
    déterminent l'ordre du tour »."""
    cards = (plain_water(1), plain_water(3), plain_water(0), plain_water(2))
    events, state = round_of(cross(), cards)
    order = of_type(events, ev.TurnOrderSet)[0].order
    assert order == tuple(sorted(range(4), key=lambda s: -cards[s]))


def test_taxes_between_facing_opponents_only():
    """« Les joueurs assis directement en face l'un de l'autre forment une paire
    d'adversaires. C'est dans chacune de ces paires d'adversaires qu'on détermine si des
    impôts sont dus » (seats 0-2 and 1-3 face each other)."""
    cards = (florin_dock(0), plain_water(1), plain_water(2), plain_water(3))
    events, state = round_of(cross(), cards)
    assert of_type(events, ev.TaxPaid) == [ev.TaxPaid(BLACK_A, 1)]
    assert state.money == (4, 4, 3, 4)


def test_partner_cannot_pay_for_a_broke_player():
    """« Les joueurs d'une équipe tiennent leurs comptes séparés. Si un joueur est à court
    d'argent, son associé ne peut pas lui en donner »."""
    cards = (florin_dock(0), plain_water(1), plain_water(2), plain_water(3))
    events, state = round_of(cross(), cards, money=(4, 4, 0, 4))
    assert of_type(events, ev.CardReturned) == [
        ev.CardReturned(BLACK_A, plain_water(2), "tax_unpaid")
    ]
    assert state.money == (4, 4, 0, 4)


def test_shared_distribution_centre_and_team_points():
    """« Les deux joueurs d'une équipe utilisent le même centre de distribution dans chaque
    secteur » ; a won sector scores for the team (both partners)."""
    a, b = plain_dock(0, good="wine"), plain_dock(0, good="tea")
    black = plain_dock(1, good="wine")
    layout = cross() | {(1, 1): a, (1, 2): b, (2, 1): black, (3, 1): plain_water(5)}
    pre = [
        ev.WarehousesAdded(RED_A, a, ("wine",)),
        ev.WarehousesAdded(RED_B, b, ("tea",)),
        ev.WarehousesAdded(BLACK_A, black, ("wine",)),
    ]
    state = given(
        started(
            layout,
            options=TEAM,
            seat_count=4,
            hands=((),) * 4,
            dock_piles=((),) * 4,
            money=(4,) * 4,
            treasury=4,
        ),
        *pre,
    )
    sector = next(s for s in GAME.view(state, None)["board"]["sectors"] if len(s["cells"]) == 3)
    assert sector["warehouses"]["red"] == {"tea": 1, "wine": 1, "spice": 0}
    assert sector["distribution_centres"]["red"] == {"x": 1, "y": 1}
    closing = [(1, 3), (2, 2)]  # the last free cells around the sector
    cards = (None, None, plain_water(0), plain_water(1))  # black closes it
    _, state = round_of(layout, cards, pre=pre)
    events = []
    for pos in closing:
        seat = state.order[0]
        new, state = then(state, seat, PlaceCard(*pos))
        events += new
    scored = of_type(events, ev.SectorScored)
    assert scored and scored[0].winner == 0 and scored[0].warehouses[0] == (1, 1, 0)
    assert state.points == (1, 1, 0, 0)


def test_partner_crane_does_not_block():
    """« Avec les grues, les joueurs peuvent interdire à l'adversaire de poser des docks »:
    a partner is no opponent."""
    crane = next(c.id for c in CARDS.values() if c.crane and c.owner == 0)
    layout = cross() | {(1, 1): crane}
    cards = (None, plain_dock(0), plain_dock(1), None)
    _, state = round_of(layout, cards)
    for seat in state.order:
        cells = {(c.x, c.y) for c in GAME.legal_commands(state, seat)}
        assert ((2, 1) in cells) == (seat == RED_B)
        _, state = then(state, seat, PlaceCard(-1, -1) if seat == RED_B else PlaceCard(-1, 1))


def test_draw_only_from_own_pile():
    """« Les docks ne peuvent être tirés que de sa propre pile. Les canaux sont tirés de la
    pile commune »."""
    piles = ((plain_dock(0, 3),), (plain_dock(0, 1),), (), ())
    _, state = round_of(cross(), (None, plain_dock(0, 2), None, None), piles=piles)
    events, state = then(state, RED_B, PlaceCard(1, 1))
    assert of_type(events, ev.CardDrawn) == [ev.CardDrawn(RED_B, plain_dock(0, 1), "dock")]


def test_flood_covers_a_bridge_or_a_dock_with_at_most_one_good():
    """« Une carte d'inondation peut recouvrir une carte déjà posée : soit un pont, soit un
    dock ne montrant au maximum qu'une marchandise ... On considère les cartes
    d'inondation comme des canaux, mais on ne touche cependant aucun florin » ; « Quand un
    joueur place une carte spéciale, il ne tire pas de carte de remplacement »."""
    one = plain_dock(1, good="tea")
    two = next(c.id for c in CARDS.values() if c.owner == 1 and len(c.goods) == 2)
    layout = cross() | {(1, 1): one, (-1, 1): two}
    pre = [
        ev.WarehousesAdded(BLACK_A, one, ("tea",)),
        ev.WarehousesAdded(BLACK_A, two, CARDS[two].goods),
    ]
    _, state = round_of(layout, (FLOOD, None, None, None), pre=pre)
    legal = {(c.x, c.y) for c in GAME.legal_commands(state, RED_A) if isinstance(c, PlaceCard)}
    assert legal == {(1, 1)}
    with pytest.raises(RuleViolation) as err:
        when(state, RED_A, PlaceCard(-1, 1))
    assert err.value.code == "kontor.flood_cover"
    events, state = then(state, RED_A, PlaceCard(1, 1))
    assert of_type(events, ev.CardPlaced)[0].covers == one
    assert not of_type(events, ev.CardDrawn) and not of_type(events, ev.IncomePaid)
    assert one not in state.warehouses
    view = GAME.view(state, None)
    assert view["board"]["covered"][0]["card"]["id"] == one
    top = {(c["x"], c["y"]): c["card"]["kind"] for c in view["board"]["cells"]}
    assert top[(1, 1)] == "flood"


def test_bridge_covers_a_canal_and_joins_open_sectors():
    """« Un pont peut recouvrir un canal déjà placé, ou une inondation ... un joueur peut
    raccorder deux secteurs, à condition qu'ils ne soient pas encore terminés ... Le pont
    est considéré comme un dock »."""
    left, right = plain_dock(0), plain_dock(1)
    layout = cross() | {(1, 1): left, (1, -1): right}
    _, state = round_of(layout, (None, None, BRIDGE, None))
    legal = {(c.x, c.y) for c in GAME.legal_commands(state, BLACK_A) if isinstance(c, PlaceCard)}
    assert (1, 0) in legal and (0, 0) not in legal  # not the anchor (the ship is there too)
    assert (-1, 1) not in legal  # an empty cell: a bridge only covers
    events, state = then(state, BLACK_A, PlaceCard(1, 0))
    assert not of_type(events, ev.CardDrawn)
    sectors = GAME.view(state, None)["board"]["sectors"]
    assert any(len(s["cells"]) == 3 for s in sectors)


def test_no_special_card_on_or_in_a_finished_sector():
    """« Des cartes spéciales ne peuvent pas être jouées sur ou dans des secteurs
    terminés »."""
    from dataclasses import replace

    from domain.kontor.core.state import ScoredSector

    one = plain_dock(0, good="tea")
    layout = cross() | {(1, 1): one}
    _, state = round_of(layout, (FLOOD, None, BRIDGE, None))
    state = replace(state, scored=(ScoredSector(((1, 1),), None, "empty", None, 0),))
    assert not [
        c
        for c in GAME.legal_commands(state, state.order[0])
        if isinstance(c, PlaceCard) and (c.x, c.y) in ((1, 1), (1, 0), (0, 1))
    ]


def test_customs_may_not_close_a_sector_and_adds_a_point():
    """« Il est toutefois interdit de terminer un secteur en plaçant une douane. Un secteur
    qui comporte une carte de douane rapporte un point de victoire de bonus »."""
    wine = plain_dock(0, good="wine")
    # (1,1) red wine; (1,2) free: water all around it except (1,1)
    layout = cross() | {
        (1, 1): wine,
        (2, 1): plain_water(5),
        (0, 2): cross()[(0, 2)],
        (2, 2): plain_water(6),
        (1, 3): plain_water(7),
    }
    pre = [ev.WarehousesAdded(RED_A, wine, ("wine",))]
    _, state = round_of(layout, (CUSTOMS, None, None, None), pre=pre)
    with pytest.raises(RuleViolation) as err:
        when(state, RED_A, PlaceCard(1, 2))
    assert err.value.code == "kontor.customs_closes_sector"
    # in an open sector it is a dock; closing that sector later scores 1 + 1
    layout = cross() | {(1, 1): wine, (2, 1): plain_water(5), (2, 2): plain_water(6)}
    _, state = round_of(layout, (CUSTOMS, None, None, None), pre=pre)
    _, state = then(state, RED_A, PlaceCard(1, 2))
    _, state = round_of(layout | {(1, 2): CUSTOMS}, (plain_water(1), None, None, None), pre=pre)
    events, state = then(state, RED_A, PlaceCard(1, 3))
    scored = of_type(events, ev.SectorScored)
    assert scored[0].winner == 0 and scored[0].points == 2


def test_ship_remover_chooses_which_opponent_pile():
    """« Si un joueur enlève un dock adverse grâce au bateau, il peut choisir lequel de ses
    adversaires mettra la carte sous sa pile »."""
    target = ship_dock(1, goods=1)
    layout = cross() | {(1, 1): target}
    _, state = round_of(layout, (ship_water(0), None, None, None))
    legal = [
        c
        for c in GAME.legal_commands(state, RED_A)
        if isinstance(c, MoveShip) and c.remove_x is not None
    ]
    assert {c.to_seat for c in legal if (c.x, c.y) == (1, 0)} == {BLACK_A, BLACK_B}
    with pytest.raises(RuleViolation) as err:
        when(state, RED_A, MoveShip(1, 0, 1, 1))
    assert err.value.code == "kontor.removal_pile"
    _, state = then(state, RED_A, MoveShip(1, 0, 1, 1, BLACK_B))
    assert state.dock_piles[BLACK_B] == (target,)


def test_five_largest_sectors_of_two_docks_and_partners_win_together():
    """« Seuls les cinq plus grands secteurs rapporteront des points ; chacun d'entre
    ceux-ci doit comporter au moins deux docks, sans quoi ils ne rapportent aucun point »;
    each seat's score is its team's, and partners win together."""
    from dataclasses import replace

    from domain.kontor.core.scoring import final_points, select_final
    from domain.kontor.core.state import ScoredSector

    state = GAME.fold(GAME.start(TEAM, 4, SEED))
    scored = (
        ScoredSector(((5, 5),), 1, "highest", None, 1),  # one dock: never counts
        ScoredSector(((5, 7), (6, 7)), 0, "highest", None, 2),
    )
    state = replace(state, scored=scored)
    counted, _, _, _ = select_final(state, {(0, 0): 0})
    assert counted == (1,)
    points = final_points(state, counted)
    assert points == (2, 2, 0, 0)
    from domain.kontor.core.scoring import winners

    assert winners(state, points, state.money) == (0, 1)
