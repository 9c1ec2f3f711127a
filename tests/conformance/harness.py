"""Title-agnostic conformance checks: every title x variant x player count must pass them.

A random legal game is played to the end; along the way we check that
- every command legal_commands offers is accepted by decide, and only to_act seats act,
- replay is deterministic (the same start and commands give the same events),
- every event and command round-trips through JSON,
- a seat's view does not change when what it cannot see is re-dealt (redetermine),
- the game ends within a bound, with a result,
- every version (also one between the events of one decision) has a view.

The last check costs more than all the others together (a view and its JSON for every
event): it runs on every game that passes ``every_version=True`` (the default). Loops over
many games of one combination pass ``every_version=sampled(n)``: one game in
``EVERY_VERSION_ONE_IN`` (at least one per test of each combination), every other check
on every game.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from domain.common.envelope import decode_command, decode_event, encode_command, encode_event
from domain.decider import GameDefinition, Issued, NotYourTurn, RuleViolation
from domain.rng import Rng

AT = "2026-01-01T00:00:00Z"


@dataclass
class PlayedGame:
    events: list[Any]
    commands: list[tuple[int, Any]]
    states: list[Any] = field(repr=False)
    final: Any = None


#: Random games of one combination whose every version is viewed: one in this many.
EVERY_VERSION_ONE_IN = 4


def sampled(n: int) -> bool:
    """Whether game ``n`` of a loop over consecutive numbers checks every version's view
    (any ``EVERY_VERSION_ONE_IN`` consecutive games include one)."""
    return n % EVERY_VERSION_ONE_IN == 0


def seed_for(n: int) -> str:
    return f"{n:064x}"


def play_random_game(
    game: GameDefinition,
    options: Any,
    seat_count: int,
    seed: str,
    chooser: Rng,
    max_commands: int = 5000,
    policy_seats: dict[int, str] | None = None,
) -> PlayedGame:
    """Play to the end: random legal commands, or the title's policy for ``policy_seats``."""
    events = list(game.start(options, seat_count, seed))
    state = game.fold(events)
    states = [state]
    commands: list[tuple[int, Any]] = []
    for _ in range(max_commands):
        if game.is_finished(state):
            return PlayedGame(events, commands, states, state)
        acting = game.to_act(state)
        assert acting, "a game that is not finished must have a seat to act"
        seat = chooser.choice(sorted(acting))
        if policy_seats and seat in policy_seats:
            command = game.policy(state, seat, chooser.fork(f"ai/{len(commands)}"), policy_seats[seat])
        else:
            legal = game.legal_commands(state, seat)
            assert legal, f"seat {seat} is to act but has no legal command"
            command = chooser.choice(legal)
        new_events = game.decide(state, Issued(seat, AT, command))
        assert new_events, f"{command!r} was accepted but recorded nothing"
        for event in new_events:
            state = game.evolve(state, event)
        events.extend(new_events)
        commands.append((seat, command))
        states.append(state)
    raise AssertionError(f"the game did not end within {max_commands} commands")


def states_along(game: GameDefinition, events) -> Iterator[Any]:
    """Every state a fold of ``events`` passes through, the first event's first."""
    state = None
    for event in events:
        state = game.evolve(state, event)
        yield state


def replay(game: GameDefinition, options: Any, seat_count: int, seed: str, commands) -> list[Any]:
    events = list(game.start(options, seat_count, seed))
    state = game.fold(events)
    for seat, command in commands:
        new_events = game.decide(state, Issued(seat, AT, command))
        state = game.fold(new_events, state)
        events.extend(new_events)
    return events


def json_round_trip_event(game: GameDefinition, event: Any) -> Any:
    type_name, version, data = encode_event(event)
    text = json.dumps({"type": type_name, "v": version, "data": data}, sort_keys=True)
    loaded = json.loads(text)
    return decode_event(game, loaded["type"], loaded["v"], loaded["data"])


def check_game(
    game: GameDefinition,
    options: Any,
    seat_count: int,
    seed: str,
    chooser_seed: int,
    leak_samples: int = 12,
    policy_seats: dict[int, str] | None = None,
    every_version: bool = True,
) -> PlayedGame:
    played = play_random_game(
        game, options, seat_count, seed, Rng(seed_for(chooser_seed)), policy_seats=policy_seats
    )
    # deterministic replay, and the fold of the events is the final state
    assert replay(game, options, seat_count, seed, played.commands) == played.events
    assert game.fold(played.events) == played.final
    # JSON round trip of every event and command
    for event in played.events:
        assert json_round_trip_event(game, event) == event
        for viewer in [None, *range(seat_count)]:
            json.dumps(game.redact_event(event, viewer))
    for _, command in played.commands:
        assert decode_command(game, json.loads(json.dumps(encode_command(command)))) == command
    # the result
    result = game.result(played.final)
    assert result is not None and len(result.scores) == seat_count
    assert set(result.winners) <= set(range(seat_count))
    json.dumps(game.view(played.final, None))
    # no leak: views are unchanged when hidden information is re-dealt
    check_no_leak(game, played.states, seat_count, Rng(seed_for(chooser_seed + 1)), leak_samples)
    check_turn_enforcement(game, played.states)
    if every_version:
        check_every_version_has_a_view(game, played.events)
    return played


def check_every_version_has_a_view(game, events) -> None:
    """`GET /state?at=V` answers for every V: a fold that stops between the events of one
    decision (an automatic consequence not yet recorded) still has a view and seats to act."""
    state = None
    for event in events:
        state = game.fold([event], state)
        game.to_act(state)
        json.dumps(game.view(state, None))


def check_no_leak(game, states, seat_count, rng: Rng, samples: int) -> None:
    live = [s for s in states if not game.is_finished(s)]
    if not live:
        return
    for _ in range(samples):
        state = rng.choice(live)
        for observer in [None, *range(seat_count)]:
            before = game.view(state, observer)
            json.dumps(before)
            for attempt in range(2):
                other = game.redetermine(state, observer, rng.fork(f"re/{attempt}/{rng.counter}"))
                after = game.view(other, observer)
                assert before == after, f"view of {observer} changed under redetermine"
                if observer is not None:
                    assert sorted(map(repr, game.legal_commands(state, observer))) == sorted(
                        map(repr, game.legal_commands(other, observer))
                    ), "legal commands depend on hidden information"


def check_turn_enforcement(game, states) -> None:
    """A seat that is not to act is refused with NotYourTurn."""
    for state in states[:: max(1, len(states) // 10)]:
        if game.is_finished(state):
            continue
        acting = set(game.to_act(state))
        for seat in acting:
            for command in game.legal_commands(state, seat)[:1]:
                idle = [s for s in range(state.seat_count) if s not in acting]
                for other in idle[:1]:
                    try:
                        game.decide(state, Issued(other, AT, command))
                    except NotYourTurn:
                        pass
                    except RuleViolation as err:  # pragma: no cover - shows the wrong code
                        raise AssertionError(f"expected not_your_turn, got {err.code}") from err
                    else:
                        raise AssertionError("an idle seat was allowed to act")

