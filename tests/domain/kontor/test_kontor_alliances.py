"""« Roue libre individuelle pour 3 ou 4 joueurs »: one dock pile, docks owned by who
plays them, spice > tea > wine, N-party supremacy and alliances."""

from __future__ import annotations

import pytest

from domain.common.frozen import replace
from domain.decider import RuleViolation
from domain.kontor import GAME
from domain.kontor.core import events as ev
from domain.kontor.core.commands import ChooseCard, MoveShip, Pass
from domain.kontor.core.data import CARDS, dock_deck
from domain.kontor.core.options import parse_options
from domain.kontor.core.state import part
from domain.kontor.forms.free_wheel.commands import (
    AcceptAlliance,
    DeclineAlliance,
    LeaveAlliance,
    ProposeAlliance,
)
from domain.kontor.forms.free_wheel.events import (
    AllianceDeclared,
    AllianceDeclined,
    AllianceEnded,
    TurnStarted,
)
from domain.kontor.forms.free_wheel.scoring import supremacy_n
from domain.kontor.forms.free_wheel.state import FreeWheelState
from tests.refusals import refused

from .helpers import SEED, cards, crane, dock, of_type, then, when
from .test_kontor_free_wheel import fw_started, plain, play

FFA3 = parse_options({"variant": "free_for_all"}, 3)
FFA4 = parse_options({"variant": "free_for_all"}, 4)
A, B, C = 0, 1, 2


def ffa(layout=None, hands=((), (), ()), owners=(), pre=(), first=A, **kw):
    """A 3-player free-for-all state; ``owners``: (x, y, seat) of docks already placed."""
    layout = {(0, 0): 0} if layout is None else layout
    base = {p: c for p, c in layout.items() if not any((x, y) == p for x, y, _ in owners)}
    placed = []
    for x, y, seat in owners:
        card = layout[(x, y)]
        placed.append(ev.CardPlaced(seat, card, x, y))
        if CARDS[card].goods:
            placed.append(ev.WarehousesAdded(seat, card, CARDS[card].goods))
    return fw_started(
        FFA3,
        layout=base,
        hands=hands,
        seat_count=3,
        first=first,
        pre=[*placed, TurnStarted(first, 2, 0), *pre],
        **kw,
    )


def test_setup_one_dock_pile_and_three_seats():
    """« On mélange ensemble les deux paquets de docks pour former une pile unique. Les
    joueurs reçoivent leurs 2 docks initiaux de cette pile »."""
    state = GAME.fold(GAME.start(FFA3, 3, SEED))
    docks = set(part(state, FreeWheelState).common_docks) | {c for h in state.hands for c in h if CARDS[c].kind == "dock"}
    assert docks == set(dock_deck(0)) | set(dock_deck(1))
    assert state.dock_piles == ((), (), ()) and state.money == (3, 3, 3)
    assert GAME.min_players == 2 and GAME.max_players == 4
    v = GAME.view(state, 2)
    assert v["players"][2]["color"] == "blue" and v["dock_pile"]["size"] == len(part(state, FreeWheelState).common_docks)


def test_any_dock_is_yours_when_you_play_it():
    """« Chaque joueur peut jouer n'importe quel dock. Il place ensuite un marqueur à sa
    couleur sur le numéro pour marquer sa propriété. »"""
    d = dock(1, "tea")  # printed black
    state = ffa(hands=((), (), (d, plain(0))), first=C)
    _, state = play(state, C, d, (1, 0))
    assert part(state, FreeWheelState).dock_owners == ((d, C),)
    v = GAME.view(state, None)
    assert v["board"]["warehouses"][0]["owner"] == "blue"
    assert v["players"][C]["points"] == 0  # one dock: not counted yet


def test_ship_sends_a_removed_dock_under_the_common_pile_for_whoever_placed_it():
    """« Il est replacé sous la pile de son propriétaire » ; the owner is whoever placed it
    (« Chaque joueur peut jouer n'importe quel dock. Il place ensuite un marqueur à sa
    couleur »), not the dock's printed colour; there is one dock pile in this form."""
    printed_black = next(c for c in cards("dock", 1, ("wine",), False) if CARDS[c].ship)
    ship_canal = next(c for c in cards("water", None, (), False) if CARDS[c].ship)
    layout = {(0, 0): 0, (1, 0): printed_black, (2, 0): plain(5)}
    state = ffa(layout, hands=((ship_canal,), (), ()), owners=[(1, 0, C)], common=(dock(0, "tea"),))
    _, state = then(state, A, ChooseCard(ship_canal))
    removals = [
        c
        for c in GAME.legal_commands(state, A)
        if isinstance(c, MoveShip) and c.remove_x is not None
    ]
    assert removals and {c.to_seat for c in removals} == {C}
    with pytest.raises(RuleViolation) as err:
        when(state, A, MoveShip(2, 0, 1, 0, B))
    assert err.value.code == "kontor.removal_pile"
    events, state = then(state, A, MoveShip(2, 0, 1, 0, C))
    assert of_type(events, ev.DockRemoved)[0].to_seat == C
    assert part(state, FreeWheelState).common_docks[-1] == printed_black and part(state, FreeWheelState).dock_owners == ()


def test_a_game_of_the_first_free_for_all_version_keeps_the_printed_colour():
    """Games recorded under ``kontor-free-for-all-1`` are still decided as they were played
    (an audit re-derives them): there a removed dock went under the pile of a player of its
    printed colour. New games record ``kontor-free-for-all-3`` (core/versions.py)."""
    printed_black = next(c for c in cards("dock", 1, ("wine",), False) if CARDS[c].ship)
    ship_canal = next(c for c in cards("water", None, (), False) if CARDS[c].ship)
    layout = {(0, 0): 0, (1, 0): printed_black, (2, 0): plain(5)}
    state = ffa(layout, hands=((ship_canal,), (), ()), owners=[(1, 0, C)], common=(dock(0, "tea"),))
    assert state.rules_version == GAME.rules_version_for(FFA3) == "kontor-free-for-all-3"
    state = replace(state, rules_version="kontor-free-for-all-1")
    _, state = then(state, A, ChooseCard(ship_canal))
    removals = [
        c for c in GAME.legal_commands(state, A) if isinstance(c, MoveShip) and c.remove_x is not None
    ]
    assert removals and {c.to_seat for c in removals} == {CARDS[printed_black].owner}
    assert GAME.decides_version("kontor-free-for-all-1")
    assert GAME.plays_version(FFA3, "kontor-free-for-all-1")


def test_crane_blocks_every_other_player_by_marker():
    """A crane blocks the docks of the players who did not play it (« interdire à
    l'adversaire de poser des docks »), whatever its printed colour."""
    layout = {(0, 0): 0, (1, 1): crane(1)}
    d = dock(1, "tea")
    state = ffa(layout, hands=((d,), (), ()), owners=[(1, 1, B)])
    _, state = then(state, A, ChooseCard(d))
    cells = [(c.x, c.y) for c in GAME.legal_commands(state, A)]
    assert (1, 0) not in cells and (-1, 0) in cells


def test_goods_order_spice_tea_wine():
    """« l'épice est supérieure au thé et au vin, et le thé est supérieur au vin »."""
    # tea, wine, spice counts
    assert supremacy_n([(0, 1, 0), (1, 0, 0)], "spice_tea_wine") == (1, "value")
    assert supremacy_n([(0, 1, 0), (0, 0, 1)], "spice_tea_wine") == (1, "value")
    assert supremacy_n([(1, 0, 0), (0, 0, 1)], "spice_tea_wine") == (1, "value")
    # the basic game's cycle: tea beats wine, wine beats spice
    assert supremacy_n([(0, 1, 0), (0, 0, 1)], "cyclic") == (0, "value")


def test_supremacy_with_three_parties():
    """The basic rules for N parties: « Un joueur qui est seul à avoir, dans une
    marchandise, une suprématie supérieure aux autres, contrôle le secteur » (a party's
    supremacy: its count minus the best other count)."""
    # A: 3 tea (lead 2 over C's 1); B: 2 wine (lead 2); C: 1 spice (lead 1): A and B tie
    # at 2, one supremacy each; tea beats wine -> A
    assert supremacy_n([(3, 0, 0), (0, 2, 0), (1, 0, 1)], "spice_tea_wine") == (0, "value")
    # A leads tea by 3: highest
    assert supremacy_n([(4, 0, 0), (1, 2, 0), (1, 0, 1)], "spice_tea_wine") == (0, "highest")
    # B leads wine and spice by 1, A tea by 1: most
    assert supremacy_n([(1, 0, 0), (0, 1, 1), (0, 0, 0)], "spice_tea_wine") == (1, "most")
    # equal everywhere
    assert supremacy_n([(1, 0, 0), (1, 0, 0), (0, 0, 0)], "spice_tea_wine") == (None, "tie")


def _sector():
    """A 3-dock sector in a row: A's tea, B's wine, C's spice."""
    ta, wb, sc = dock(0, "tea"), dock(1, "wine"), dock(0, "spice")
    layout = {(0, 0): 0, (1, 0): ta, (2, 0): wb, (3, 0): sc}
    return layout, [(1, 0, A), (2, 0, B), (3, 0, C)]


def test_alliance_needs_the_partners_consent():
    """« Si deux joueurs sont d'accord, ils peuvent déclarer une alliance dans un secteur,
    regroupant alors leurs entrepôts dans un centre de distribution unique. Le centre de
    l'alliance est comparé aux autres centres de distribution comme il en serait pour un
    simple joueur. »"""
    layout, owners = _sector()
    state = ffa(layout, hands=((plain(0),), (plain(1),), (plain(2),)), owners=owners)
    # alone: C's spice beats A's tea and B's wine
    assert GAME.view(state, None)["players"][C]["points"] == 1
    assert ProposeAlliance(1, 0, B) in GAME.legal_commands(state, A)
    events, state = then(state, A, ProposeAlliance(2, 0, B))
    assert GAME.to_act(state) == (B,) and state.phase == "alliance"
    assert GAME.legal_commands(state, B) == [AcceptAlliance(), DeclineAlliance()]
    with refused("kontor.alliance_timing"):
        when(state, B, ProposeAlliance(2, 0, A))
    events, state = then(state, B, AcceptAlliance())
    assert of_type(events, AllianceDeclared)[0].seats == (A, B)
    assert GAME.to_act(state) == (A,) and state.phase == "turn"
    v = GAME.view(state, None)
    # A+B: tea 1, wine 1 (two supremacies) vs C spice 1 (one): the alliance wins 1 point,
    # indivisible, A and B placed one warehouse each: the point is lost
    assert v["board"]["sectors"][0]["leader"] == ["red", "black"]
    assert [p["points"] for p in v["players"]] == [0, 0, 0]
    # one proposal per turn
    assert not any(isinstance(c, ProposeAlliance) for c in GAME.legal_commands(state, A))


def test_declined_proposal_changes_nothing():
    layout, owners = _sector()
    state = ffa(layout, hands=((plain(0),), (plain(1),), (plain(2),)), owners=owners)
    _, state = then(state, A, ProposeAlliance(1, 0, C))
    events, state = then(state, C, DeclineAlliance())
    assert events == [AllianceDeclined(C)] and part(state, FreeWheelState).alliances == ()


def test_join_or_leave_only_before_playing_ones_card():
    """« Un joueur ne peut rejoindre ou quitter une alliance qu'avant de jouer sa carte à son
    tour de jeu. »"""
    layout, owners = _sector()
    state = ffa(
        layout,
        hands=((plain(0), plain(3)), (plain(1),), (plain(2),)),
        owners=owners,
        pre=[AllianceDeclared((A, B), ((1, 0), (2, 0), (3, 0)))],
    )
    assert LeaveAlliance(1, 0) in GAME.legal_commands(state, A)
    _, state = then(state, A, ChooseCard(plain(0)))
    with pytest.raises(RuleViolation) as err:
        when(state, A, LeaveAlliance(1, 0))
    assert err.value.code == "kontor.alliance_timing"
    with refused("kontor.alliance_timing"):
        when(state, A, ProposeAlliance(1, 0, C))


def test_leave_alliance():
    layout, owners = _sector()
    state = ffa(
        layout,
        hands=((plain(0),), (plain(1),), (plain(2),)),
        owners=owners,
        pre=[AllianceDeclared((A, B), ((1, 0), (2, 0), (3, 0)))],
    )
    events, state = then(state, A, LeaveAlliance(3, 0))
    assert of_type(events, AllianceEnded)[0].reason == "left" and part(state, FreeWheelState).alliances == ()


def test_only_two_players_per_alliance():
    """« Une alliance ne peut comporter que deux joueurs. »"""
    layout, owners = _sector()
    state = ffa(
        layout,
        hands=((plain(0),), (plain(1),), (plain(2),)),
        owners=owners,
        first=C,
        pre=[AllianceDeclared((A, B), ((1, 0), (2, 0), (3, 0)))],
    )
    assert not any(isinstance(c, ProposeAlliance) for c in GAME.legal_commands(state, C))
    with pytest.raises(RuleViolation) as err:
        when(state, C, ProposeAlliance(1, 0, A))
    assert err.value.code == "kontor.alliance_size"


def test_merging_sectors_breaks_a_double_alliance():
    """« Si deux secteurs ou plus se rejoignent, avec pour conséquence qu'un joueur se
    retrouve soudain allié à plus d'un autre joueur, toutes les alliances impliquant les
    joueurs concernés sont immédiatement rompues ... Les joueurs peuvent former de nouvelles
    alliances dès leur prochain tour de jeu. »"""
    ta, wb, sc, tb = dock(0, "tea"), dock(1, "wine"), dock(0, "spice"), dock(1, "tea")
    joiner = dock(0, "wine")
    # A-B allied in the upper sector, A-C in the lower one; C's dock at (1, 1) joins them
    layout2 = {(0, 0): 0, (1, 0): ta, (2, 0): wb, (1, 2): sc, (2, 2): tb}
    owners2 = [(1, 0, A), (2, 0, B), (1, 2, A), (2, 2, C)]
    state = ffa(
        layout2,
        hands=((plain(0),), (plain(1),), (joiner, plain(2))),
        owners=owners2,
        first=C,
        pre=[
            AllianceDeclared((A, B), ((1, 0), (2, 0))),
            AllianceDeclared((A, C), ((1, 2), (2, 2))),
        ],
    )
    events, state = play(state, C, joiner, (1, 1))
    ended = of_type(events, AllianceEnded)
    assert {e.seats for e in ended} == {(A, B), (A, C)} and all(e.reason == "merged" for e in ended)
    # new alliances from each player's next turn: A's turn has begun, B and C wait
    assert part(state, FreeWheelState).alliances == () and part(state, FreeWheelState).current == A and set(part(state, FreeWheelState).barred) == {B, C}
    assert not any(
        c.seat in (B, C) for c in GAME.legal_commands(state, A) if isinstance(c, ProposeAlliance)
    )


def test_alliance_shares_and_remainder():
    """« À la fin de la partie, les alliances qui remportent un secteur divisent les points
    gagnés en parts égales, sans oublier les points rapportés par les bureaux de douane. Si
    le gain n'est pas divisible, le reste va au joueur de l'alliance qui a placé le plus
    d'entrepôts. En cas d'égalité, le point supplémentaire est perdu. »"""
    from domain.kontor.core.board import occupancy
    from domain.kontor.forms.free_wheel.scoring import sector_result

    ta, ta2, wb, sc = dock(0, "tea"), dock(0, "tea", n=1), dock(1, "wine"), dock(0, "spice")
    customs = [c.id for c in CARDS.values() if c.kind == "customs"]
    layout = {(0, 0): 0, (1, 0): ta, (2, 0): wb, (3, 0): sc, (1, 1): ta2}
    owners = [(1, 0, A), (2, 0, B), (3, 0, C), (1, 1, A)]
    pre = [AllianceDeclared((A, B), ((1, 0), (2, 0), (3, 0)))]
    state = ffa(layout, owners=owners, pre=pre)
    cells = occupancy(state)
    from domain.kontor.core.board import sector_of

    r = sector_result(state, cells, sector_of(cells, (1, 0)))
    assert r["points"] == 1 and r["shares"] == (1, 0, 0) and r["lost"] == 0  # A placed more
    # with two customs houses the sector is worth 3: 1 each, the rest to A
    layout[(4, 0)], layout[(2, 1)] = customs
    state = ffa(layout, owners=owners, pre=pre)
    cells = occupancy(state)
    r = sector_result(state, cells, sector_of(cells, (1, 0)))
    assert r["points"] == 3 and r["shares"] == (2, 1, 0)


def test_pass_is_still_possible_with_alliances_pending():
    layout, owners = _sector()
    state = ffa(layout, hands=((plain(0),), (plain(1),), (plain(2),)), owners=owners)
    events, state = then(state, A, Pass())
    assert part(state, FreeWheelState).current == B
