"""Expansion « Kontor – cartes d'événements » (2 players)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from domain.decider import NotYourTurn, OptionsError, RuleViolation
from domain.kontor import GAME
from domain.kontor.core import events as ev
from domain.kontor.core.commands import ChooseCard, Pass
from domain.kontor.core.data import CARDS, EVENT_CARDS
from domain.kontor.core.options import parse_options
from domain.kontor.core.state import part
from domain.kontor.expansions.event_cards import (
    BonusPointAwarded,
    ChooseFromPile,
    CraneBurned,
    DocksPutUnder,
    EventCardsState,
    EventDeckShuffled,
    EventSkipped,
    EventTurned,
    MoneyLost,
    PileCardTaken,
    PutUnder,
    SkipEvent,
    StrikePaid,
    SwapWarehouse,
)
from domain.rng import Rng

from .helpers import BLACK, RED, SEED, cards, crane, of_type, take_turn, tavern, then, water, when
from .test_kontor_advanced import cross, plain_dock

EVENTS = parse_options({"expansions": ["event_cards"]}, 2)
TEA_R = plain_dock(RED, good="tea")
SPARE_R = plain_dock(RED, good="wine")
SPARE_B = plain_dock(BLACK, good="wine")
#: another red wine dock (it shows a ship, which the basic game ignores)
RED_W = next(c for c in cards("dock", RED, ("wine",), None) if c != SPARE_R)


def pile(owner: int, count: int) -> tuple[int, ...]:
    """Goods docks of ``owner`` not used elsewhere in these tests."""
    used = {
        TEA_R,
        SPARE_R,
        SPARE_B,
        plain_dock(BLACK, good="spice"),
        RED_W,
    }
    out = [c for c in cards("dock", owner, None, None) if CARDS[c].goods and c not in used]
    return tuple(out[:count])


def closing_round(deck, layout_extra=None, pre=(), extra=None, **kw):
    """Red's tea dock at (1, 1) is closed by red's canal at (1, 2) (black passes): the
    sector is scored, then the top event card of ``deck`` is turned."""
    layout = cross() | {(1, 1): TEA_R, (2, 1): water(n=5)} | dict(layout_extra or {})
    pre = [EventDeckShuffled(tuple(deck), 0), ev.WarehousesAdded(RED, TEA_R, ("tea",)), *pre]
    extra = extra or ((SPARE_R, water(n=9)), (SPARE_B, water(n=10)))
    return take_turn(layout, water(n=0), (1, 2), extra=extra, pre=pre, options=EVENTS, **kw)


def rest(deck_first: str) -> list[str]:
    return [deck_first] + [c for c in EVENT_CARDS if c != deck_first]


def test_two_players_only_and_not_with_free_wheel():
    """« Extension pour 2 joueurs » ; « on applique les règles habituelles pour 2 joueurs »;
    « Cette variante peut être combinée avec d'autres variantes » (not with Roue libre, which
    scores no sector before the end)."""
    assert parse_options({"variant": "advanced", "expansions": ["event_cards"]}, 2).event_cards
    with pytest.raises(OptionsError) as err:
        parse_options({"variant": "team", "expansions": ["event_cards"]}, 4)
    assert "for 2 players" in err.value.errors["expansions"][0]
    with pytest.raises(OptionsError) as err:
        parse_options({"variant": "free_wheel", "expansions": ["event_cards"]}, 2)
    assert any("Roue libre" in m for m in err.value.errors["expansions"])


def test_deck_shuffled_face_down_and_secret():
    """« Au début de la partie, les cartes d'événement sont mélangées et placées en une pile
    cachée »."""
    events = GAME.start(EVENTS, 2, SEED)
    shuffled = of_type(events, EventDeckShuffled)
    assert len(shuffled) == 1 and sorted(shuffled[0].deck) == sorted(EVENT_CARDS)
    for viewer in (None, RED, BLACK):
        assert GAME.redact_event(shuffled[0], viewer)["deck"] == {"size": 10}
    state = GAME.fold(events)
    view = GAME.view(state, RED)
    assert view["events"]["deck_size"] == 10 and view["events"]["turned"] == []
    other = GAME.redetermine(state, RED, Rng(SEED, 5))
    assert sorted(part(other, EventCardsState).event_deck) == sorted(part(state, EventCardsState).event_deck)


def test_card_turned_after_a_scored_sector_before_the_next_round():
    """« Lorsqu'un secteur est terminé, on procède comme d'habitude à son estimation. On
    retourne ensuite la carte d'événement supérieure de la pile, avant de commencer le tour
    suivant »."""
    events, state = closing_round(rest("blockade"))
    names = [type(e).__name__ for e in events]
    assert names.index("SectorScored") < names.index("EventTurned") < names.index("RoundStarted")
    assert part(state, EventCardsState).events_turned == ("blockade",) and len(part(state, EventCardsState).event_deck) == 9
    assert GAME.view(state, BLACK)["events"]["turned"] == ["blockade"]


def test_marriage_choose_from_pile_then_put_a_dock_under():
    """« Mariage : Chacun peut choisir une carte de sa pile de docks, sans en changer
    l'ordre. Rejeter ensuite un dock sous la pile. » Both choose at once."""
    red_pile = pile(RED, 3)
    black_pile = pile(BLACK, 2)
    _, state = closing_round(rest("marriage"), dock_piles=(red_pile, black_pile))
    assert state.phase == "event" and set(GAME.to_act(state)) == {RED, BLACK}
    assert GAME.view(state, RED)["you"]["dock_pile"] == list(red_pile)
    assert "dock_pile" not in GAME.view(state, BLACK)["you"] or GAME.view(state, BLACK)["you"][
        "dock_pile"
    ] == list(black_pile)
    assert ChooseFromPile(red_pile[1]) in GAME.legal_commands(state, RED)
    events, state = then(state, RED, ChooseFromPile(red_pile[1]))
    taken = of_type(events, PileCardTaken)[0]
    assert GAME.redact_event(taken, BLACK)["card"] is None  # from inside the pile: secret
    assert state.dock_piles[RED] == (red_pile[0], red_pile[2])  # order kept
    assert GAME.legal_commands(state, RED) == [
        PutUnder(c) for c in sorted(state.hands[RED]) if c in (SPARE_R, red_pile[1])
    ]
    with pytest.raises(RuleViolation) as err:
        when(state, RED, SkipEvent())
    assert err.value.code == "kontor.event_choice"
    _, state = then(state, RED, PutUnder(SPARE_R))
    assert state.dock_piles[RED][-1] == SPARE_R and RED not in GAME.to_act(state)
    _, state = then(state, BLACK, SkipEvent())
    assert state.phase == "choose" and state.round == 2


def test_disorder_docks_under_the_pile_and_three_new_ones():
    """« Désordres : Chacun remet tous ses docks sous la pile et tire trois nouveaux docks du
    dessus de cette pile »."""
    red_pile = pile(RED, 4)
    events, state = closing_round(rest("disorder"), dock_piles=(red_pile, ()))
    assert of_type(events, DocksPutUnder)[0] == DocksPutUnder(RED, (SPARE_R,))
    assert sorted(c for c in state.hands[RED] if c != water(n=9)) == sorted(red_pile[:3])
    assert state.dock_piles[RED] == (red_pile[3], SPARE_R)
    # black's spare dock went under an empty pile and came back
    assert SPARE_B in state.hands[BLACK] and state.dock_piles[BLACK] == ()
    assert GAME.redact_event(of_type(events, DocksPutUnder)[0], BLACK)["cards"] == {"size": 1}


def test_conspiracy_richest_passes_next_turn_tie_nobody():
    """« Conjuration : Le joueur le plus riche passe son prochain tour. En cas d'égalité,
    personne ne passe »."""
    # red's canal earns a florin (5), black's pass one (7)
    _, state = closing_round(rest("conspiracy"), money=(4, 6), treasury=10)
    assert state.passed == (False, True) and GAME.to_act(state) == (RED,)
    assert state.money[BLACK] == 7  # no florin for a forced pass
    _, state = closing_round(rest("conspiracy"), money=(4, 4), treasury=12)
    # 5 against 5: nobody passes
    assert state.passed == (False, False)


def test_hurricane_everyone_keeps_one_coin():
    """« Ouragan : Chacun perd tout son argent sauf une pièce »."""
    events, state = closing_round(rest("hurricane"), money=(4, 0), treasury=16)
    # red 4 + 1 (canal), black 0 + 1 (pass): red loses 4, black keeps his only coin
    assert of_type(events, MoneyLost) == [MoneyLost((4, 0))]
    assert state.money == (1, 1) and state.treasury == 18


def test_strike_pays_a_player_whose_tavern_is_placed():
    """« Grève : Un joueur qui a déjà posé sa taverne reçoit une pièce supplémentaire de la
    trésorerie »."""
    events, state = closing_round(rest("strike"), layout_extra={(-1, -1): tavern(BLACK)})
    assert of_type(events, StrikePaid) == [StrikePaid(BLACK, 1)]
    assert state.money == (5, 6)  # red: canal income; black: pass and strike


def test_fire_cranes_back_under_their_pile_except_in_finished_sectors():
    """« Incendie : Les grues posées retournent sous la pile de leur propriétaire, sauf si
    elles se trouvent dans un secteur terminé »."""
    events, state = closing_round(rest("fire"), layout_extra={(-1, -1): crane(BLACK)})
    assert of_type(events, CraneBurned) == [CraneBurned(crane(BLACK), -1, -1, BLACK)]
    assert state.dock_piles[BLACK][-1] == crane(BLACK)
    assert (-1, -1) not in {(c.x, c.y) for c in state.board}


def test_golden_days_richest_gets_a_victory_point():
    """« Jours dorés : Le joueur actuellement le plus riche reçoit un point de victoire
    supplémentaire »."""
    events, state = closing_round(rest("golden_days"), money=(4, 2), treasury=14)
    assert of_type(events, BonusPointAwarded) == [BonusPointAwarded(RED, 1)]
    view = GAME.view(state, None)
    assert view["players"][RED]["bonus_points"] == 1
    assert view["players"][RED]["points"] == 2  # the sector and the bonus


def test_power_struggle_hands_shown_stay_visible_until_played():
    """« Lutte d'influence : Chacun doit montrer les cartes qu'il a en main »."""
    _, state = closing_round(rest("power_struggle"))
    view = GAME.view(state, BLACK)
    assert view["players"][RED]["known_hand"] == sorted(state.hands[RED])
    other = GAME.redetermine(state, BLACK, Rng(SEED, 3))
    assert other.hands[RED] == state.hands[RED]
    _, state = then(state, RED, ChooseCard(SPARE_R))
    # which shown card was laid face down stays secret: the list still holds it
    assert GAME.view(state, BLACK)["players"][RED]["known_hand"] == sorted((SPARE_R, water(n=9)))


def test_blockade_changes_the_value_of_goods_from_now_on():
    """« Blocus maritime : A partir de maintenant, la valeur relative des marchandises est
    modifiée. (la carte reste visible) » (reading: the cycle reversed)."""
    _, state = closing_round(rest("blockade"))
    assert part(state, EventCardsState).goods_changed
    view = GAME.view(state, RED)
    assert view["events"]["goods_beats"] == {"spice": "wine", "tea": "spice", "wine": "tea"}
    # one wine against one spice: before, wine wins (« le vin vaut plus que les épices »)
    from domain.kontor.core.board import supremacy
    from domain.kontor.expansions.event_cards import goods_beats

    counts = ((0, 1, 0), (0, 0, 1))
    assert supremacy(counts) == (RED, "value")
    assert supremacy(counts, goods_beats(state)) == (BLACK, "value")


def test_flood_swap_in_turn_not_in_the_same_sector_nor_a_finished_one():
    """« Inondation : Chacun peut échanger un de ses entrepôts contre un des réserves d'une
    autre couleur, mais pas dans le même secteur, ni dans un secteur terminé »."""
    black_dock = plain_dock(BLACK, good="spice")
    red_dock = RED_W
    layout = {(-1, -1): red_dock, (-1, -2): black_dock}  # one open sector
    pre = [
        ev.WarehousesAdded(RED, red_dock, ("wine",)),
        ev.WarehousesAdded(BLACK, black_dock, ("spice",)),
    ]
    _, state = closing_round(rest("flood"), layout_extra=layout, pre=pre)
    # black is behind on points (0 against 1): black goes first
    assert state.phase == "event" and GAME.to_act(state) == (BLACK,)
    legal = GAME.legal_commands(state, BLACK)
    assert SwapWarehouse(-1, -2, "spice", "tea") in legal and SkipEvent() in legal
    assert not [c for c in legal if isinstance(c, SwapWarehouse) and (c.x, c.y) == (1, 1)]
    with pytest.raises(NotYourTurn):
        when(state, RED, SkipEvent())
    events, state = then(state, BLACK, SwapWarehouse(-1, -2, "spice", "wine"))
    # red's only warehouse is in the same sector: red cannot swap, the event ends
    assert of_type(events, EventSkipped) == [EventSkipped(RED)]
    assert state.phase == "choose"
    sector = next(
        s for s in GAME.view(state, None)["board"]["sectors"] if {"x": -1, "y": -1} in s["cells"]
    )
    assert sector["warehouses"]["black"] == {"tea": 0, "wine": 1, "spice": 0}


def test_an_impossible_event_does_nothing():
    """« L'événement décrit est accompli, à moins que ce ne soit impossible »: Mariage with
    empty piles asks nobody."""
    events, state = closing_round(rest("marriage"))
    assert of_type(events, EventTurned) == [EventTurned("marriage", ())]
    assert state.phase == "choose"


def test_no_card_left_nothing_turned():
    events, state = closing_round([])
    assert not of_type(events, EventTurned) and state.phase == "choose"


def test_pass_still_allowed_and_event_deck_in_hidden_at_the_end():
    state = GAME.fold(GAME.start(EVENTS, 2, SEED))
    assert Pass() in GAME.legal_commands(state, RED)
    over = replace(state, phase="over")
    assert sorted(GAME.view(over, None)["events"]["deck"]) == sorted(EVENT_CARDS)
