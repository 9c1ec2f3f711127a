"""Kontor's policy memoizes the state it is evaluating (policy/basic.py ``_Memo``); a
process running policies in several threads at once must get each call's own answer."""

from __future__ import annotations

import sys
import threading

from domain.kontor import GAME
from domain.rng import Rng
from tests.conformance.harness import play_random_game, seed_for


def _positions() -> list[tuple]:
    """(state, seat to act) along two games."""
    out = []
    for n, variant in enumerate(("basic", "advanced")):
        options = GAME.parse_options({"variant": variant}, 2)
        played = play_random_game(GAME, options, 2, seed_for(n), Rng(seed_for(n + 50)), policy_seats={0: "normal"})
        out += [(state, min(GAME.to_act(state))) for state in played.states
                if not GAME.is_finished(state) and GAME.to_act(state)]
    return out


def _answers(positions, order) -> dict[int, tuple]:
    return {i: (GAME.policy(positions[i][0], positions[i][1], Rng(seed_for(i)), "normal"),
                GAME.evaluate(positions[i][0], positions[i][1])) for i in order}


def test_policies_running_in_threads_at_once_answer_as_alone():
    positions = _positions()
    alone = _answers(positions, range(len(positions)))
    results: list[dict] = [{} for _ in range(4)]

    def work(k: int) -> None:
        # each thread walks the positions in its own order, so they evaluate different states at once
        order = list(range(len(positions)))
        order = order[k:] + order[:k]
        for _ in range(5):
            results[k].update(_answers(positions, order[::-1] if k % 2 else order))

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads as often as the interpreter can
    try:
        threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(interval)
    for result in results:
        assert result == {i: alone[i] for i in result}
    assert sum(map(len, results)) >= len(positions)
