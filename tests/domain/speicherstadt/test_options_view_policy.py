"""Options, commands' JSON form, views without leaks, component data, the policy."""

from __future__ import annotations

import json

import pytest

from domain.common.envelope import decode_command, encode_command
from domain.decider import Issued, OptionsError
from domain.rng import Rng
from domain.speicherstadt import GAME
from domain.speicherstadt.commands import MarketConvert, PlaceWorker
from domain.speicherstadt.events import DeckBuilt
from domain.speicherstadt.options import Options

from .helpers import new_game, seed


def test_options_accept_empty_and_reject_unknown():
    """« 2 joueurs ... 5 joueurs »: 2 to 5 seats, no optional rule in the rulebook."""
    assert GAME.parse_options({}, 2) == Options()
    assert GAME.parse_options({"variant": "standard"}, 5) == Options()
    with pytest.raises(OptionsError) as err:
        GAME.parse_options({"expansion": True}, 3)
    assert "expansion" in err.value.errors
    for bad in (1, 6):
        with pytest.raises(OptionsError) as err:
            GAME.parse_options({}, bad)
        assert "seat_count" in err.value.errors
    schema = GAME.options_schema()
    assert schema["additionalProperties"] is False and GAME.variants == ("standard",)


def test_commands_are_flat_json():
    assert encode_command(PlaceWorker(column=2)) == {"type": "PlaceWorker", "column": 2}
    c = MarketConvert(first="tea", second="tea", third="rubber", take="coffee")
    assert decode_command(GAME, json.loads(json.dumps(encode_command(c)))) == c


def test_view_hides_the_stack_order_and_the_seed():
    """« Toutes les cartes sont face cachée »: the stack shows its size per season only."""
    events = GAME.start(GAME.parse_options({}, 3), 3, seed(9))
    state = GAME.fold(events)
    text = json.dumps(GAME.view(state, 1))
    assert seed(9) not in text
    for card in state.deck[:5]:
        assert card not in text
    assert GAME.view(state, 1)["stack"] == {"A": 8, "B": 13, "C": 13, "D": 13, "E": 1}
    deck_event = next(e for e in events if isinstance(e, DeckBuilt))
    assert GAME.redact_event(deck_event, 0)["deck"] is None
    assert GAME.redact_event(events[0], None)["seed"] is None


def test_redetermine_keeps_seasons_and_changes_the_future():
    state = new_game(4, 3)
    other = GAME.redetermine(state, 0, Rng(seed(77)))
    assert other.seed != state.seed
    assert sorted(other.deck) == sorted(state.deck)
    assert [c[0] for c in other.deck] == [c[0] for c in state.deck]
    assert GAME.view(other, 0) == GAME.view(state, 0)


def test_component_data_is_json_with_provenance():
    data = GAME.component_data()
    json.dumps(data)
    assert len(data["cards"]) == 54
    assert data["counting_office_points"]["table"] == [0, 2, 5, 9, 14]
    assert data["provenance"]["contracts"].startswith("reconstructed")
    assert data["provenance"]["firemen"].startswith("reconstructed")


@pytest.mark.parametrize("level", ["easy", "normal", "strong"])
def test_policy_plays_legal_moves_to_the_end(level):
    """Speed is measured by bench/ai_levels.py, not here."""
    state = new_game(3, 4)
    rng = Rng(seed(5))
    while not GAME.is_finished(state):
        seat = GAME.to_act(state)[0]
        command = GAME.policy(state, seat, rng, level)
        assert command in GAME.legal_commands(state, seat)
        state = GAME.fold(GAME.decide(state, Issued(seat, "t", command)), state)


@pytest.mark.parametrize("seats", [2, 5])
def test_every_listed_command_is_accepted(seats):
    """legal_commands is exact: each command it lists is accepted by decide."""
    from domain.decider import Issued
    from tests.conformance.harness import play_random_game, seed_for

    played = play_random_game(GAME, GAME.parse_options({}, seats), seats, seed_for(31 + seats),
                              Rng(seed_for(3)), policy_seats={0: "normal"})
    for state in played.states[::3]:
        for seat in GAME.to_act(state):
            for command in GAME.legal_commands(state, seat):
                assert GAME.decide(state, Issued(seat, "t", command))
