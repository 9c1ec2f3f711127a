"""Kontor's normal computer policy (policy/basic.py): CPU time per call, and a fingerprint
of its behaviour to prove that a speed-up changes no choice.

Run:  PYTHONPATH=. python bench/kontor_policy_speed.py [--save FILE | --check FILE]
          [--only basic,advanced,...] [--games N] [--strong-games N] [--strong-iterations N]

Plays seeded games in every Kontor form basic.py plays (basic, advanced, team at 4 seats),
each scenario, special rule and expansion alone at 2 seats, the 4-seat scenarios and
special rules in the team game, and the first random combinations of
tests/conformance/test_kontor_combinations.py; also free for all at 3 and 4 seats,
whose sequential turns get free_wheel.py's policy (there: a check that nothing else
moved).  Seat 0 (and its team) plays "normal", the others "easy", through the steps of
domain.common.computer.computer_command, as the service does.  ``--strong-games`` more
games per base form put a strong seat (the search, ``--strong-iterations`` per move, 4
by default) against normal, so the policy's calls from rollouts and GAME.evaluate count
too.

The fingerprint, per case: every chosen command, and every 4th state the exact floats
(repr) of evaluate_board for each seat, placement_value of the placing card (or of each
card in the acting seat's hand) at every cell it may go, and GAME.evaluate for each seat.
``--save`` writes it as JSON, ``--check`` compares with a saved one and names the first
difference per case (exit 1 on any).  Printed per case: policy calls, CPU time per call
(median, mean, ms: time.process_time around GAME.policy on the re-dealt state, the
fingerprint's own sampling excluded), the strong seat's CPU time per move (the whole
search), and the total.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from domain.common.computer import computer_command  # noqa: E402
from domain.common.search import Budget  # noqa: E402
from domain.decider import Issued, OptionsError  # noqa: E402
from domain.kontor import GAME  # noqa: E402
from domain.kontor.core.board import occupancy  # noqa: E402
from domain.kontor.core.data import EXPANSION_SEATS, SCENARIO_SEATS, SPECIAL_RULE_SEATS  # noqa: E402
from domain.kontor.core.decide import placing_card  # noqa: E402
from domain.kontor.core.placement import placement_cells  # noqa: E402
from domain.kontor.policy import basic  # noqa: E402
from domain.rng import Rng  # noqa: E402

AT = "2026-01-01T00:00:00Z"
SAMPLE_EVERY = 4
STRONG_ITERATIONS = 4  # default of --strong-iterations: the fingerprint's


def cases() -> dict[str, tuple[dict, int]]:
    """name -> (raw options, seats)."""
    out: dict[str, tuple[dict, int]] = {
        "basic": ({"variant": "basic"}, 2),
        "advanced": ({"variant": "advanced"}, 2),
        "team": ({"variant": "team"}, 4),
        "free_for_all:3": ({"variant": "free_for_all"}, 3),
        "free_for_all:4": ({"variant": "free_for_all"}, 4),
    }
    for name, seats in SCENARIO_SEATS.items():
        for n in seats:
            out[f"scenario:{name}:{n}"] = (
                {"variant": "advanced" if n == 2 else "team", "scenario": name},
                n,
            )
    for name, seats in SPECIAL_RULE_SEATS.items():
        for n in seats:
            out[f"special:{name}:{n}"] = (
                {"variant": "advanced" if n == 2 else "team", "special_rules": [name]},
                n,
            )
    for name in EXPANSION_SEATS:
        for variant in ("basic", "advanced"):
            out[f"expansion:{name}:{variant}"] = ({"variant": variant, "expansions": [name]}, 2)
    from tests.conformance.test_kontor_combinations import CASES

    for i, (seats, raw) in enumerate(CASES[:6] + [c for c in CASES if c[0] == 4][:3]):
        out[f"combination:{i}:{seats}"] = (raw, seats)
    return {name: case for name, case in out.items() if _valid(*case)}


def _valid(raw: dict, seats: int) -> bool:
    try:
        GAME.parse_options(raw, seats)
    except OptionsError:
        return False  # e.g. flood_choice without flood cards: refused at creation
    return True


def sample(state, seats: int) -> list:
    """The floats the policy computes, for every seat, on this state."""
    out = []
    cells = occupancy(state)
    for seat in range(seats):
        out.append(repr(basic.evaluate_board(state, seat, cells, state.warehouses)))
        out.append(repr(GAME.evaluate(state, seat)))
    for seat in sorted(GAME.to_act(state)):
        if state.phase == "place" and state.order and state.order[0] == seat:
            cards = [placing_card(state)]
        elif state.phase == "choose":
            cards = sorted(set(state.hands[seat]))
        else:
            continue
        for card in cards:
            if card is None:
                continue
            for pos in placement_cells(state, cells, card, seat):
                out.append(repr(basic.placement_value(state, seat, card, pos, cells)))
    return out


def play(
    raw: dict,
    seats: int,
    seed: int,
    levels: list[str],
    times: list[float],
    strong: list[float],
    iterations: int = STRONG_ITERATIONS,
) -> list:
    """One game; the fingerprint; appends the policy's CPU time per call to ``times``, and
    the strong seat's (``iterations`` per move) per move to ``strong``."""
    options = GAME.parse_options(raw, seats)
    state = GAME.fold(GAME.start(options, seats, f"{seed:064x}"))
    chooser = Rng(f"{seed + 1_000_000:064x}")
    budget = Budget(iterations=iterations)
    trace: list = []
    moves = 0
    while not GAME.is_finished(state) and moves < 2000:
        seat = chooser.choice(sorted(GAME.to_act(state)))
        rng = chooser.fork(f"ai/{moves}")
        if levels[seat] == "strong":
            started = time.process_time()
            command = computer_command(GAME, state, seat, rng, "strong", budget)
            strong.append(time.process_time() - started)
        else:
            # computer_command's steps, to time the policy alone
            seen = GAME.redetermine(state, seat, rng.fork("seen"))
            started = time.process_time()
            command = GAME.policy(seen, seat, rng.fork("choice"), levels[seat])
            times.append(time.process_time() - started)
        trace.append(repr(command))
        if moves % SAMPLE_EVERY == 0:
            trace.append(sample(state, seats))
        state = GAME.fold(GAME.decide(state, Issued(seat, AT, command)), state)
        moves += 1
    trace.append(repr(GAME.result(state).winners))
    return trace


def levels_for(raw: dict, seats: int, first: str, others: str) -> list[str]:
    options = GAME.parse_options(raw, seats)
    team = [GAME.team_of(options, s) or f"seat{s}" for s in range(seats)]
    return [first if team[s] == team[0] else others for s in range(seats)]


def first_difference(a: list, b: list) -> str:
    for i, (x, y) in enumerate(zip(a, b, strict=False)):
        if x != y:
            return f"entry {i}: {str(x)[:200]} != {str(y)[:200]}"
    return f"lengths {len(a)} != {len(b)}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--save")
    parser.add_argument("--check")
    parser.add_argument("--only", help="comma-separated case names (default: all)")
    parser.add_argument("--games", type=int, default=2, help="normal-vs-easy games per case")
    parser.add_argument(
        "--strong-games", type=int, default=1, help="strong-vs-normal games per base form"
    )
    parser.add_argument(
        "--strong-iterations",
        type=int,
        default=STRONG_ITERATIONS,
        help="the strong seat's search budget (another value makes another fingerprint)",
    )
    args = parser.parse_args()
    known = cases()
    names = args.only.split(",") if args.only else list(known)
    saved = json.loads(Path(args.check).read_text()) if args.check else None
    prints: dict[str, list] = {}
    differing = []
    total: list[float] = []
    print(f"{'case':44} calls  ms/call median   mean  strong ms/move median   mean   (s)")
    for name in names:
        raw, seats = known[name]
        times: list[float] = []
        strong: list[float] = []
        started = time.process_time()
        traces = []
        for g in range(args.games):
            traces.append(
                play(
                    raw,
                    seats,
                    104729 * g + 31,
                    levels_for(raw, seats, "normal", "easy"),
                    times,
                    strong,
                )
            )
        if ":" not in name or name.startswith("free_for_all"):  # the base forms
            for g in range(args.strong_games):
                traces.append(
                    play(
                        raw,
                        seats,
                        15485863 * g + 7,
                        levels_for(raw, seats, "strong", "normal"),
                        times,
                        strong,
                        args.strong_iterations,
                    )
                )
        prints[name] = traces
        total += times
        verdict = ""
        if saved is not None:
            if name not in saved:
                verdict = "  (not in the saved fingerprint)"
            elif saved[name] != json.loads(json.dumps(traces)):
                verdict = "  DIFFERENT: " + first_difference(
                    [e for t in saved[name] for e in t], [e for t in traces for e in t]
                )
                differing.append(name)
            else:
                verdict = "  identical"
        strong_ms = (
            f"{statistics.median(strong) * 1000:20.1f} {statistics.mean(strong) * 1000:6.1f}"
            if strong
            else f"{'-':>20} {'-':>6}"
        )
        policy_ms = (
            f"{statistics.median(times) * 1000:13.2f} {statistics.mean(times) * 1000:6.2f}"
            if times
            else f"{'-':>13} {'-':>6}"
        )
        print(
            f"{name:44} {len(times):5} {policy_ms} {strong_ms} {time.process_time() - started:6.1f}{verdict}",
            flush=True,
        )
    if total:
        print(
            f"{'all':44} {len(total):5} {statistics.median(total) * 1000:13.2f} {statistics.mean(total) * 1000:6.2f}"
        )
    if args.save:
        Path(args.save).write_text(json.dumps(prints))
    if saved is not None:
        print(
            "fingerprint: "
            + ("identical" if not differing else f"DIFFERENT in {', '.join(differing)}")
        )
        sys.exit(1 if differing else 0)


if __name__ == "__main__":
    main()
