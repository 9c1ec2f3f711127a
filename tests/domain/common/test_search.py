"""The generic search on tiny games defined here, whose best moves are known (and one real game)."""

from __future__ import annotations

from dataclasses import dataclass, replace

import pytest

from domain.common.computer import computer_command
from domain.common.search import Budget, Tuning, search
from domain.decider import GameDefinition, Issued, Result
from domain.rng import Rng
from domain.speicherstadt import GAME as SPEICHERSTADT


def tiny_game(**functions) -> GameDefinition:
    """A GameDefinition with only what the search uses."""
    unused = lambda *args: None  # noqa: E731
    defaults = dict(
        id="tiny", name="tiny", rules_version="1", min_players=2, max_players=2, variants=(),
        options_type=dict, command_types=(), event_types=(), parse_options=unused,
        options_schema=unused, start=unused, view=unused, redact_event=unused,
        component_data=unused, redetermine=lambda state, seat, rng: state,
    )
    return GameDefinition(**{**defaults, **functions})


# --- Nim: take 1 to 3 stones, who takes the last one wins -------------------------------
@dataclass(frozen=True)
class Nim:
    stones: int
    mover: int = 0
    winner: int | None = None


def nim_decide(state: Nim, issued):
    return [issued.command]


def nim_evolve(state: Nim, take: int) -> Nim:
    left = state.stones - take
    return Nim(left, 1 - state.mover, state.mover if left == 0 else None)


NIM = tiny_game(
    decide=nim_decide,
    evolve=nim_evolve,
    to_act=lambda s: () if s.winner is not None else (s.mover,),
    legal_commands=lambda s, seat: [t for t in (1, 2, 3) if t <= s.stones] if seat == s.mover else [],
    is_finished=lambda s: s.winner is not None,
    result=lambda s: Result(scores=(0.0, 0.0), winners=(s.winner,)),
    policy=lambda s, seat, rng, level: rng.choice([t for t in (1, 2, 3) if t <= s.stones]),
)


@pytest.mark.parametrize("stones, best", [(5, 1), (6, 2), (7, 3)])
def test_nim_leaves_a_multiple_of_four(stones, best):
    """Leaving four wins against any reply; every other move can lose to the random one."""
    assert search(NIM, Nim(stones), 0, Rng(f"{stones:064x}"), Budget(iterations=600)) == best


def test_the_same_random_stream_gives_the_same_choice_and_statistics_matter():
    choices = {search(NIM, Nim(6), 0, Rng(f"{s:064x}"), Budget(iterations=600)) for s in range(3)}
    assert choices == {2}
    again = [search(NIM, Nim(11), 0, Rng("ab" * 32), Budget(iterations=40)) for _ in range(3)]
    assert len(set(again)) == 1


def test_a_time_budget_stops_at_the_deadline_with_the_clock_passed_in():
    ticks = iter(range(1000))
    budget = Budget(iterations=10_000, seconds=5, clock=lambda: next(ticks))
    search(NIM, Nim(21), 0, Rng("cd" * 32), budget)
    assert next(ticks) < 20  # started at 0, stopped once the clock read 5


# --- simultaneous moves over a hidden choice ---------------------------------------------
@dataclass(frozen=True)
class Guess:
    """Seat 1 hides a card (0, 1 or 2); seat 0 names one at the same time.  Seat 0 wins
    if it names the hidden card, or names 2 while the card is 1 ("2 covers 1")."""

    hidden: int | None = None
    named: int | None = None


def guess_evolve(state: Guess, event):
    seat, value = event
    return replace(state, hidden=value) if seat == 1 else replace(state, named=value)


def guess_result(state: Guess) -> Result:
    won = state.named == state.hidden or (state.named, state.hidden) == (2, 1)
    return Result(scores=(0.0, 0.0), winners=(0,) if won else (1,))


def guess_redetermine(state: Guess, seat, rng):
    """Seat 0 never sees the hidden card: re-deal it."""
    if seat == 0 and state.hidden is not None:
        return replace(state, hidden=rng.below(3))
    return state


def guess_to_act(state: Guess):
    return tuple(s for s, v in ((0, state.named), (1, state.hidden)) if v is None)


GUESS = tiny_game(
    decide=lambda s, issued: [(issued.seat, issued.command)],
    evolve=guess_evolve,
    to_act=guess_to_act,
    legal_commands=lambda s, seat: [0, 1, 2] if seat in guess_to_act(s) else [],
    is_finished=lambda s: not guess_to_act(s),
    result=guess_result,
    redetermine=guess_redetermine,
    policy=lambda s, seat, rng, level: rng.below(3),  # seat 1 hides uniformly
)


@pytest.mark.parametrize("hidden", [None, 0, 1, 2])
def test_a_hidden_or_pending_choice_is_sampled_not_read(hidden):
    """Naming 2 wins two times in three whatever seat 1 does; had the search read the
    hidden card it would name that card instead (0 when seat 1 hid a 0)."""
    seen = guess_redetermine(Guess(hidden=hidden), 0, Rng("01" * 32))
    assert search(GUESS, seen, 0, Rng("02" * 32), Budget(iterations=600)) == 2


def test_a_cut_off_asks_the_titles_evaluation():
    """Rollouts cut at depth 0: the evaluation alone tells which move is best."""
    calls = []

    def evaluate(state: Nim, seat: int) -> float:
        calls.append(state.stones)
        return 1.0 if state.stones % 4 == 0 else 0.0

    game = replace(NIM, evaluate=evaluate, rollout_depth=0)
    assert search(game, Nim(7), 0, Rng("03" * 32), Budget(iterations=60), Tuning(rollout_depth=0)) == 3
    assert calls


# --- many moves, few iterations: the root keeps what the evaluation rates best ------------
@dataclass(frozen=True)
class Pick:
    """Seat 0 picks a number from 0 to 19 and wins with 17; its policy always says 0."""

    chosen: int | None = None


PICK = tiny_game(
    decide=lambda s, issued: [issued.command],
    evolve=lambda s, n: Pick(n),
    to_act=lambda s: () if s.chosen is not None else (0,),
    legal_commands=lambda s, seat: list(range(20)) if s.chosen is None and seat == 0 else [],
    is_finished=lambda s: s.chosen is not None,
    result=lambda s: Result(scores=(0.0, 0.0), winners=(0,) if s.chosen == 17 else (1,)),
    policy=lambda s, seat, rng, level: 0,
    # a rough rating, not the truth: 17 is only among the five best rated
    evaluate=lambda s, seat: 0.5 if s.chosen is None else 0.02 * s.chosen,
    rollout_depth=2,
)


def test_with_few_iterations_the_root_searches_only_the_best_rated_moves():
    """15 iterations cannot even try all 20 moves, and a move tried once is too little
    to leave the policy's; over the policy's move and the 5 best rated, 17 is tried and
    then visited enough (Tuning.min_visits) to be played."""
    budget = Budget(iterations=15)
    assert search(PICK, Pick(), 0, Rng("05" * 32), budget, Tuning(rollout_depth=2)) == 17
    assert search(PICK, Pick(), 0, Rng("05" * 32), budget, Tuning(rollout_depth=2, root_width=None)) == 0


def test_a_strong_seat_never_takes_back_and_redoes_a_move_forever():
    """Speicherstadt lets a seat move a cube to its market (KeepCube) and back among its
    unloaded cubes (RetrieveCube) as often as it likes.  In this seeded 4-seat game (the
    bench's first) the search, asked one move at a time, alternated the two from the
    300th decision on and the game never ended; a move the seat can take back at once is
    now played only when the normal policy plays it."""
    state = SPEICHERSTADT.fold(SPEICHERSTADT.start(SPEICHERSTADT.parse_options({}, 4), 4, f"{17:064x}"))
    chooser = Rng(f"{1_000_017:064x}")
    for decision in range(1000):
        if SPEICHERSTADT.is_finished(state):
            break
        seat = chooser.choice(sorted(SPEICHERSTADT.to_act(state)))
        level = "strong" if seat == 0 else "normal"
        command = computer_command(SPEICHERSTADT, state, seat, chooser.fork(f"ai/{decision}"), level,
                                   Budget(iterations=60))
        state = SPEICHERSTADT.fold(SPEICHERSTADT.decide(state, Issued(seat, "2026-01-01T00:00:00Z", command)), state)
    assert SPEICHERSTADT.is_finished(state), "the game should end within 1000 decisions (it ends near 270)"


# --- teams: a team's win is a whole win to each partner -----------------------------------
@dataclass(frozen=True)
class Relay:
    """Four seats in two teams (0, 1) and (2, 3).  Seat 0 either ends the game at once
    with its team's win ("win") or plays on ("wait"): a position its evaluation rates
    0.7, one decision before the cut-off."""

    moves: tuple = ()


RELAY = tiny_game(
    min_players=4, max_players=4,
    decide=lambda s, issued: [issued.command],
    evolve=lambda s, command: Relay(s.moves + (command,)),
    to_act=lambda s: () if "win" in s.moves else (len(s.moves) % 4,),
    legal_commands=lambda s, seat: (["win", "wait"] if not s.moves else ["wait"])
    if "win" not in s.moves and seat == len(s.moves) % 4 else [],
    is_finished=lambda s: "win" in s.moves,
    result=lambda s: Result(scores=(1.0, 1.0, 0.0, 0.0), winners=(0, 1)),
    policy=lambda s, seat, rng, level: "wait",
    evaluate=lambda s, seat: 0.7,
    team_of=lambda options, seat: "red" if seat < 2 else "black",
    rollout_depth=1,
)


def test_a_teams_win_is_worth_more_to_a_partner_than_a_good_position():
    """Counted 1/2 per partner (a win shared by two seats), the won game would read worse
    than the evaluation's 0.7 and the search would play on."""
    budget = Budget(iterations=40)
    assert search(RELAY, Relay(), 0, Rng("06" * 32), budget, Tuning(rollout_depth=1)) == "win"
