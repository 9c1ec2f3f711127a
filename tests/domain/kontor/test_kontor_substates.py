"""The core holds no extension's data: what only a variant, a special rule, a scenario or
an expansion reads lives in that extension's own frozen sub-state (``KontorState.ext``),
and the core's code never names it."""

from __future__ import annotations

import dataclasses
import io
import re
import tokenize
from pathlib import Path

import pytest

from domain.kontor import GAME
from domain.kontor.core import events as ev
from domain.kontor.core.options import Options
from domain.kontor.core.state import KontorState, change_part, part, replace_in, with_part
from domain.kontor.expansions.event_cards import EventCardsState
from domain.kontor.expansions.warehouse_goods import WarehouseGoodsState
from domain.kontor.forms.free_wheel.state import FreeWheelState
from domain.kontor.rules.bribery import BriberyState
from domain.kontor.rules.buy_special_cards import SpecialsState
from domain.kontor.rules.choice_of_goods import GoodsChoiceState
from domain.kontor.rules.final_point import FinalPointState
from domain.kontor.rules.final_sprint import FinalSprintState
from domain.kontor.rules.flood_choice import FloodState
from domain.kontor.rules.justice import JusticeState
from domain.kontor.rules.old_grudges import GrudgesState
from domain.kontor.rules.pending_step import PendingStepState
from domain.kontor.rules.smuggling import SmugglingState
from domain.kontor.rules.water_fill import WaterPlacedForFlood
from domain.kontor.scenarios.baksheesh import BaksheeshState
from domain.kontor.scenarios.decisions import DecisionsState
from domain.kontor.scenarios.euphrates import EuphratesState
from domain.rng import Rng
from tests.conformance.harness import play_random_game, seed_for, states_along
from tests.domain.kontor.helpers import given, started

CORE = Path(__file__).resolve().parents[3] / "domain" / "kontor" / "core"

SUB_STATES = (
    BriberyState,
    SmugglingState,
    FinalPointState,
    GrudgesState,
    JusticeState,
    SpecialsState,
    FloodState,
    EventCardsState,
    WarehouseGoodsState,
    FreeWheelState,
    BaksheeshState,
    EuphratesState,
    DecisionsState,
    PendingStepState,
    GoodsChoiceState,
    FinalSprintState,
)


def _names(cls) -> set[str]:
    return {f.name for f in dataclasses.fields(cls)}


def _code_names(path: Path) -> set[str]:
    """The identifiers of a module's code (not its comments nor its strings)."""
    tokens = tokenize.generate_tokens(io.StringIO(path.read_text()).readline)
    return {t.string for t in tokens if t.type == tokenize.NAME}


def _payload_and_option_names() -> set[str]:
    """Names the core may say for another reason: an event's payload field (events are
    forever: the core's and the extensions' own, all the title lists) or an option."""
    out = _names(Options)
    for event_type in GAME.event_types:
        out |= _names(event_type)
    return out


def test_the_core_state_holds_no_sub_state_field():
    core = _names(KontorState)
    for cls in SUB_STATES:
        assert not core & _names(cls), cls.__name__


@pytest.mark.parametrize("path", sorted(CORE.glob("*.py")), ids=lambda p: p.name)
def test_core_code_never_names_an_extensions_field(path):
    owned = set().union(*(_names(cls) for cls in SUB_STATES)) - _payload_and_option_names()
    assert not _code_names(path) & owned
    classes = {cls.__name__ for cls in SUB_STATES}
    assert not _code_names(path) & classes


def test_a_payload_name_the_core_says_is_never_read_from_the_state():
    """The names shared with a payload or an option are never a state's attribute in the
    core (``state.face_down``: only ``event.face_down`` and ``options.alliances``)."""
    owned = set().union(*(_names(cls) for cls in SUB_STATES)) & _payload_and_option_names()
    for path in CORE.glob("*.py"):
        text = path.read_text()
        for name in owned:
            read = re.search(rf"\b(state|st|new|old)\.{name}\b", text)
            assert read is None, (path.name, read.group(0))


def _state() -> KontorState:
    return given(started())


def test_part_is_empty_until_the_extension_records_and_with_part_replaces_in_place():
    state = _state()
    assert part(state, BriberyState) == BriberyState() and state.ext == ()
    one = change_part(state, BriberyState, bribe=(0, 1, 2, 3, ()))
    two = change_part(one, FloodState, discarded=(5,))
    three = with_part(two, BriberyState())
    assert part(three, BriberyState) == BriberyState() and part(three, FloodState).discarded == (5,)
    assert [type(s) for s in three.ext] == [BriberyState, FloodState]  # replaced in place
    assert state.ext == () and part(one, FloodState) == FloodState()  # nothing shared


def test_replace_in_splits_core_and_own_fields():
    state = _state()
    new = replace_in(state, FreeWheelState, round=4, current=1)
    assert new.round == 4 and part(new, FreeWheelState).current == 1
    with pytest.raises(TypeError):
        replace_in(state, FreeWheelState, no_such_field=1)


def _events_and_states(raw: dict, seats: int, n: int):
    options = GAME.parse_options(raw, seats)
    played = play_random_game(GAME, options, seats, seed_for(n), Rng(seed_for(n + 1)))
    return list(zip(played.events, states_along(GAME, played.events)))


@pytest.mark.parametrize("variant", ["basic", "advanced"])
def test_a_game_without_extensions_never_holds_a_sub_state(variant):
    """The extensions record only in their own games: a plain game's state has no part."""
    along = _events_and_states({"variant": variant}, 2, 11)
    assert along[-1][1].is_over()
    assert all(state.ext == () for _, state in along)


def test_final_sprint_records_the_cards_of_the_round_itself():
    """Sprint final's round cards (once the core's ``round_cards``): every card placed since
    the round started, in order; nothing recorded outside its games."""
    along = _events_and_states({"variant": "advanced", "special_rules": ["final_sprint"]}, 2, 12)
    expected: tuple = ()
    placed = 0
    for event, state in along:
        if isinstance(event, ev.RoundStarted):
            expected = ()
        elif isinstance(event, ev.CardPlaced | WaterPlacedForFlood):
            expected += (event.card,)
            placed += 1
        assert part(state, FinalSprintState).round_cards == expected
    assert placed > 10
