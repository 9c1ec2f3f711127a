"""The hand rule of the free wheel games judged by the card a draw brings (issue 25).

kontor.fr.txt, « Roue libre » : « 3. On met les cartes spéciales dans le paquet des
canaux » ; « 5. On applique la règle spéciale de libre choix de la pioche : les joueurs
peuvent compléter leurs mains depuis une pioche ou l'autre » ; « Libre choix » : « Vous
pouvez choisir librement la pile dont vous tirez la carte. Vous devez cependant toujours
avoir au moins un dock et un canal en main » ; « Le pont est considéré comme un dock » ; the
customs house is played as a dock without goods (RULES-NOTES.md). The piles are face up
(« La pile est ensuite retournée face ouverte, de telle sorte que la première carte soit
toujours visible »), so the card each draw brings is known when the seat chooses.

The cases are the issue's reproductions, on the set-ups of their seeds (free for all, 3
seats): seed 9827... seat 2 holds three canals, the dock pile shows a dock, the canal pile
a bridge; seed 2b2e... holds three docks, the canal pile shows a customs house.
"""

from __future__ import annotations

import pytest

from domain.common.frozen import replace
from domain.decider import RuleViolation
from domain.kontor import GAME
from domain.kontor.core import events as ev
from domain.kontor.core.commands import ChooseCard, DrawCard, PlaceCard
from domain.kontor.core.data import CARDS, special_cards
from domain.kontor.core.options import parse_options
from domain.kontor.core.state import part, replace_in
from domain.kontor.forms.free_wheel.events import StepStarted
from domain.kontor.forms.free_wheel.state import FreeWheelState

from .helpers import then, when

FFA3 = parse_options({"variant": "free_for_all"}, 3)
FW2 = parse_options({"variant": "free_wheel"}, 2)
SEED_BRIDGE = "982795dd90a32e5ff8340e4a2bc2b51f251a942b9981cb2b6651a683ad809f9e"
SEED_CUSTOMS = "2b2e39908c0596fc5296b38b7ee78391f22b9f3d31056a3c83d7776e25b19e1c"


def _special(kind: str) -> int:
    return next(c for c in special_cards() if CARDS[c].kind == kind)


def _at_draw(options, seats: int, seed: str, seat: int, hand_kinds, play_kind: str, water_top: str,
             rules_version: str | None = None):
    """The seed's set-up; ``seat`` to play, holding a card of ``play_kind`` and cards of
    ``hand_kinds`` (dock/water, taken from the set-up's own cards); the canal pile shows a
    card of ``water_top`` kind, the dock pile a dock. It plays the card next to the anchor:
    the draw step opens (both piles have cards)."""
    state = GAME.fold(GAME.start(options, seats, seed))
    if rules_version is not None:
        state = replace(state, rules_version=rules_version)
    docks_key = "common_docks" if options.shared_dock_pile else "dock_piles"
    docks = list(part(state, FreeWheelState).common_docks if options.shared_dock_pile else state.dock_piles[seat])
    everything = [c for h in state.hands for c in h] + list(state.water_pile) + docks
    plain_docks = [c for c in everything if CARDS[c].kind == "dock" and CARDS[c].goods
                   and not CARDS[c].crane and not CARDS[c].tavern and not CARDS[c].florin
                   and (options.shared_dock_pile or CARDS[c].owner == seat % 2)]
    canals = [c for c in everything if CARDS[c].kind == "water" and not CARDS[c].florin
              and not CARDS[c].ship]
    played = (plain_docks if play_kind == "dock" else canals).pop(0)
    hand = [played] + [(plain_docks if k == "dock" else canals).pop(0) for k in hand_kinds]
    top = _special(water_top) if water_top in ("bridge", "customs", "flood") else canals.pop(0)
    dock_top = plain_docks.pop(0)
    water = [top] + [c for c in state.water_pile if c not in hand and c not in (top, dock_top)]
    pile = [dock_top] + [c for c in docks if c not in hand and c not in (top, dock_top)]
    hands = tuple(tuple(hand) if s == seat else tuple(c for c in h if c not in hand + [top, dock_top])
                  for s, h in enumerate(state.hands))
    piles = pile if options.shared_dock_pile else tuple(
        tuple(pile) if s == seat else p for s, p in enumerate(state.dock_piles))
    state = replace_in(state, FreeWheelState, hands=hands, water_pile=tuple(water), current=seat,
                       **{docks_key: tuple(piles)})
    _, state = then(state, seat, ChooseCard(played))
    events, state = then(state, seat, PlaceCard(1, 0))
    assert [e.step for e in events if isinstance(e, StepStarted)] == ["draw"]
    return state, top, dock_top


def _draws(state, seat):
    return [c.pile for c in GAME.legal_commands(state, seat) if isinstance(c, DrawCard)]


def test_three_canals_may_draw_the_bridge_from_the_canal_pile():
    """Seed 9827..., seat 2: three canals in hand, a dock on the dock pile, a bridge on
    the canal pile: « Le pont est considéré comme un dock », so either draw keeps a dock
    and a canal in hand; the canal pile's bridge may be drawn."""
    state, bridge, dock_top = _at_draw(FFA3, 3, SEED_BRIDGE, 2, ("water",) * 3, "dock", "bridge")
    assert CARDS[bridge].kind == "bridge"
    assert _draws(state, 2) == ["dock", "water"]
    assert GAME.view(state, 2)["you"]["draw_piles"] == ["dock", "water"]   # in the view too
    assert "draw_piles" not in GAME.view(state, None).get("you", {})
    events, state = then(state, 2, DrawCard("water"))
    assert [e.card for e in events if isinstance(e, ev.CardDrawn)] == [bridge]
    assert bridge in state.hands[2]


def test_three_docks_and_a_customs_house_on_top_draw_from_either_pile():
    """Seed 2b2e...: three docks in hand, a customs house on the canal pile: the customs
    house is a dock (RULES-NOTES), so no draw brings a canal. The rule's freedom stands
    (« Vous pouvez choisir librement la pile » ; « cependant » binds only a draw that can
    keep a canal in hand): either pile."""
    state, customs, dock_top = _at_draw(FFA3, 3, SEED_CUSTOMS, 0, ("dock",) * 3, "water", "customs")
    assert CARDS[customs].kind == "customs"
    assert _draws(state, 0) == ["dock", "water"]
    events, _ = then(state, 0, DrawCard("dock"))
    assert [e.card for e in events if isinstance(e, ev.CardDrawn)] == [dock_top]


@pytest.mark.parametrize(
    ("hand", "played", "top", "open_piles"),
    [
        (("dock",) * 3, "water", "water", ["water"]),     # a canal on top: forced
        (("dock",) * 3, "water", "flood", ["water"]),     # a flood is water
        (("dock",) * 3, "water", "bridge", ["dock", "water"]),  # neither brings a canal
        (("water",) * 3, "dock", "flood", ["dock"]),      # the flood brings no dock
        (("water",) * 3, "dock", "customs", ["dock", "water"]),  # customs is a dock
        (("water", "dock", "dock"), "dock", "bridge", ["dock", "water"]),  # nothing lacking
    ],
)
@pytest.mark.parametrize("form", ["free_wheel", "free_for_all"])
def test_a_draw_is_judged_by_the_card_it_brings(form, hand, played, top, open_piles):
    """« Vous devez cependant toujours avoir au moins un dock et un canal en main », the
    top cards face up: a pile is open when its top card gives the hand what it lacks;
    when no top card can, both are (free wheel at 2 and free for all at 3)."""
    options, seats, seat = (FW2, 2, 1) if form == "free_wheel" else (FFA3, 3, 2)
    state, _, _ = _at_draw(options, seats, SEED_BRIDGE, seat, hand, played, top)
    assert _draws(state, seat) == open_piles
    for pile in {"dock", "water"} - set(open_piles):
        with pytest.raises(RuleViolation) as err:
            when(state, seat, DrawCard(pile))
        assert err.value.code == "kontor.draw_pile"


@pytest.mark.parametrize(
    ("options", "seats", "old"),
    [(FFA3, 3, "kontor-free-for-all-2"), (FFA3, 3, "kontor-free-for-all-1"),
     (FW2, 2, "kontor-free-wheel-1")],
)
def test_games_of_the_earlier_versions_still_judge_a_draw_by_its_pile(options, seats, old):
    """Games recorded before this reading (issue 25) are decided as they were played: the
    canal pile brought a canal, the dock pile a dock (core/versions.py). New games record
    kontor-free-wheel-2 / kontor-free-for-all-3."""
    assert GAME.rules_version_for(options) == (
        "kontor-free-for-all-3" if options.shared_dock_pile else "kontor-free-wheel-2")
    assert GAME.decides_version(old) and GAME.plays_version(options, old)
    seat = seats - 1
    state, _, _ = _at_draw(options, seats, SEED_BRIDGE, seat, ("water",) * 3, "dock", "bridge", old)
    assert _draws(state, seat) == ["dock"]
    state, _, _ = _at_draw(options, seats, SEED_CUSTOMS, seat, ("dock",) * 3, "water", "customs", old)
    assert _draws(state, seat) == ["water"]
