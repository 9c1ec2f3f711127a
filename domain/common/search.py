"""A title-agnostic search for computer seats: information-set Monte Carlo tree search.

Built only on a title's ``GameDefinition``: ``redetermine``, ``legal_commands``,
``decide``, ``evolve``, ``to_act``, ``is_finished``, ``result``, ``policy`` and, when the
title offers one, ``evaluate`` (a cut-off estimate for long games).

How one iteration runs (single-observer ISMCTS, Cowling, Powley & Whitehouse 2012):

1. Determinize: ``redetermine(seen, seat, rng)`` re-deals everything the searching seat
   cannot see.  ``seen`` is itself such a re-deal, never the real state (see
   computer.py), so the search cannot read hidden information by construction.
2. Walk the tree, which branches only on the searching seat's own decisions: at each of
   them the commands legal in this determinization are "available"; an untried one is
   expanded, else UCB1 over the available children (visits counted against
   availability, which keeps the statistics sound when the legal set varies between
   determinizations).  Every other seat's decision is sampled from the title's normal
   policy on the determinized state, i.e. with the knowledge that seat has in that
   world.  Simultaneous moves (several seats in ``to_act``): the searching seat commits
   its own choice first, then the others' pending choices are sampled, so its choice
   never depends on theirs.
3. Roll out: every seat plays the normal policy, with ``epsilon`` random mistakes, to
   the end, or for ``rollout_depth`` decisions when the title has an ``evaluate``.
4. Back up the outcome for the searching seat: a win shared by k sides counts 1/k (a
   team's win counts whole for each partner), else the title's ``evaluate(state, seat)``
   in [0, 1] at the cut-off.

With an ``evaluate`` and more root moves than ``Tuning.root_width``, the root searches
only the normal policy's move and the moves ``evaluate`` rates best one move ahead on the
seat's own re-deal (progressive pruning: a small budget is not spread over every cell of
a board).

The move played is the root child with the most visits, summed over all the
determinizations the iterations used; the normal policy's move instead when that child
does not clearly beat it, or when the seat could take it back at once (a pure
rearrangement: searched one move at a time, such moves could alternate forever).

Determinism: with an iteration budget the choice is a function of (seen state, seat,
random stream).  A time budget stops at whichever of the deadline or the iteration cap
comes first, so it trades that determinism for a bounded move time.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from domain.decider import GameDefinition, Issued, Result

#: The time stamped on simulated commands (the search never commits anything).
SIMULATED_AT = "2000-01-01T00:00:00Z"


@dataclass(frozen=True)
class Budget:
    """How long a search may think.

    ``iterations`` always caps the search.  ``seconds`` with a ``clock`` (a monotonic
    time source passed in by the shell: the domain reads no clock itself) stops it
    earlier; without a clock the search is deterministic.
    """

    iterations: int = 2000
    seconds: float | None = None
    clock: Callable[[], float] | None = None

    def deadline(self) -> Callable[[int], bool]:
        """A predicate ``done(iterations_run)``; ``done(0)`` alone asks only the clock
        (an iteration under way stops there: see ``_iterate``)."""
        if self.seconds is None or self.clock is None:
            return lambda n: n >= self.iterations
        clock, end = self.clock, self.clock() + self.seconds
        return lambda n: n >= self.iterations or clock() >= end


@dataclass(frozen=True)
class Tuning:
    #: UCB1 exploration constant (rewards are in [0, 1])
    exploration: float = 0.7
    #: share of rollout decisions played at random instead of by the normal policy
    epsilon: float = 0.1
    #: rollout decisions before ``evaluate`` is asked; None plays to the end (also when
    #: the title has no ``evaluate``)
    rollout_depth: int | None = None
    #: the search plays another move than the normal policy's only if that move's mean
    #: outcome beats the policy's by ``margin`` plus ``z`` standard errors of the
    #: difference, over at least ``min_visits`` visits: with few iterations noise would
    #: otherwise make it play worse than normal.  z = 1 was measured weaker at two seats
    #: (Speicherstadt, 30 iterations: 5 of the same 8 games won instead of 8), so 0
    margin: float = 0.03
    z: float = 0.0
    min_visits: int = 6
    #: with an ``evaluate``, the root considers only the normal policy's move and the
    #: ``root_width - 1`` others that ``evaluate`` rates best one move ahead (on the
    #: seat's own re-deal): a budget of a few dozen iterations spread over 20-30
    #: placements leaves every move too few visits to beat the policy's.  Moves
    #: ``evaluate`` cannot tell apart (all rated the same) are all kept.  None: no cut
    root_width: int | None = 6


class _Node:
    __slots__ = ("children", "visits", "value", "available")

    def __init__(self) -> None:
        self.children: dict[Any, _Node] = {}
        self.visits = 0
        self.value = 0.0
        self.available = 0


def reward(result: Result, seat: int, side_of: Callable[[int], Any] = lambda seat: seat) -> float:
    """The searching seat's share of the outcome: 1/k of a win shared by k sides.  A side
    is a seat, or a team (``side_of``): partners win together, so a team's win is worth a
    whole win to each of them, on the same scale as ``evaluate``'s chances (counted 1/2
    per partner, a won team game read as a tie to the search)."""
    if seat not in result.winners:
        return 0.0
    return 1.0 / len({side_of(winner) for winner in result.winners})


def sides(game: GameDefinition, state: Any) -> Callable[[int], Any]:
    """seat -> its side: its team where the title has teams (``team_of``; every title's
    state records its options), else the seat itself."""
    options = getattr(state, "options", None)
    return lambda seat: game.team_of(options, seat) or seat


def search(
    game: GameDefinition,
    seen: Any,
    seat: int,
    rng: Any,
    budget: Budget,
    tuning: Tuning = Tuning(),
) -> Any:
    """The command ``seat`` should send in ``seen`` (a state already re-dealt from its
    point of view)."""
    legal = game.legal_commands(seen, seat)
    if not legal:
        raise ValueError("this seat may not act now")
    if len(legal) == 1:
        return legal[0]
    depth = tuning.rollout_depth if game.evaluate is not None else None
    done = budget.deadline()
    hint = game.policy(seen, seat, rng, "normal")
    allowed = _root_candidates(game, seen, seat, legal, hint, tuning.root_width)
    root = _Node()
    runs = 0
    while not done(runs):
        _iterate(game, seen, seat, rng, root, tuning, depth, hint if runs == 0 else None,
                 expired=lambda: done(0), allowed=allowed)
        runs += 1
    choice = _pick(root, [c for c in legal if allowed is None or c in allowed], hint, tuning)
    if choice != hint and _undoable(game, seen, seat, choice):
        # a rearrangement the seat can take back at once (Speicherstadt's KeepCube /
        # RetrieveCube): searched move by move, two of them can alternate forever
        return hint
    return choice


def _undoable(game, seen, seat: int, command) -> bool:
    """Whether ``seat``, still to act after ``command``, has a command that restores
    ``seen`` exactly."""
    after = game.fold(game.decide(seen, Issued(seat, SIMULATED_AT, command)), seen)
    if seat not in game.to_act(after):
        return False
    for back in game.legal_commands(after, seat):
        try:
            again = game.fold(game.decide(after, Issued(seat, SIMULATED_AT, back)), after)
        except Exception:  # noqa: BLE001 - a title's refusal: not a way back
            continue
        if again == seen:
            return True
    return False


def _root_candidates(game, seen, seat: int, legal: list, hint: Any, width: int | None):
    """The root moves worth searching (see ``Tuning.root_width``), or None for all."""
    if game.evaluate is None or width is None or len(legal) <= width:
        return None
    rated = []
    for i, command in enumerate(legal):
        try:
            after = game.fold(game.decide(seen, Issued(seat, SIMULATED_AT, command)), seen)
        except Exception:  # noqa: BLE001 - a title's refusal: the move is simply not rated
            continue
        rated.append((game.evaluate(after, seat), -i, command))
    if not rated or max(r[0] for r in rated) == min(r[0] for r in rated):
        return None
    rated.sort(reverse=True)
    return frozenset([hint, *(command for _, _, command in rated[: width - 1])])


def _pick(root: _Node, legal: list, hint: Any, tuning: Tuning) -> Any:
    """The most visited move, unless it does not clearly beat the normal policy's."""
    order = {command: i for i, command in enumerate(legal)}

    def rank(command: Any) -> tuple:
        node = root.children.get(command)
        if node is None or node.visits == 0:
            return (0, 0.0, -order[command])
        return (node.visits, node.value / node.visits, -order[command])

    best = max(legal, key=rank)
    mine, theirs = root.children.get(best), root.children.get(hint)
    if best == hint or hint not in order or mine is None:
        return best
    if theirs is None or theirs.visits == 0:
        return best if mine.visits >= tuning.min_visits else hint
    a, b = mine.value / mine.visits, theirs.value / theirs.visits
    pooled = (mine.value + theirs.value) / (mine.visits + theirs.visits)
    error = math.sqrt(max(pooled * (1 - pooled), 0.0) * (1 / mine.visits + 1 / theirs.visits))
    clear = a > b + tuning.margin + tuning.z * error
    return best if clear and mine.visits >= tuning.min_visits else hint


def _iterate(game, seen, seat, rng, root: _Node, tuning: Tuning, depth: int | None, first=None,
             expired: Callable[[], bool] = lambda: False, allowed=None) -> None:
    """One determinization, walk, rollout and back-up; ``first`` is expanded first at the
    root (the normal policy's move, so it is always measured).  An iteration still
    running at the deadline is dropped unrecorded (long rollouts of a title without
    ``evaluate`` must not stretch a move): with none recorded, the normal move stands."""
    state = game.redetermine(seen, seat, rng)
    node, path, in_tree, rolled = root, [root], True, 0
    while not game.is_finished(state):
        if expired():
            return
        if not in_tree and depth is not None and rolled >= depth:
            break
        actors = game.to_act(state)
        if not actors:
            break
        actor = seat if seat in actors else min(actors)
        if actor == seat and in_tree:
            command, node, expanded = _select(game, state, seat, rng, node, tuning.exploration, first,
                                              allowed if node is root else None)
            first = None
            path.append(node)
            in_tree = not expanded
        else:
            command = _rollout_choice(game, state, actor, rng, tuning.epsilon if not in_tree else 0.0)
            if not in_tree:
                rolled += 1
        state = game.fold(game.decide(state, Issued(actor, SIMULATED_AT, command)), state)
    if game.is_finished(state):
        value = reward(game.result(state), seat, sides(game, state))
    else:
        value = game.evaluate(state, seat)
    for visited in path:
        visited.visits += 1
        visited.value += value


def _select(game, state, seat: int, rng, node: _Node, exploration: float, first=None, allowed=None):
    """(command, child node, whether the child was just expanded); ``allowed``: the
    root's candidates (the legal ones among them; all legal if none is)."""
    legal = game.legal_commands(state, seat)
    if allowed is not None:
        legal = [c for c in legal if c in allowed] or legal
    untried = [c for c in legal if c not in node.children]
    if untried:
        command = first if first in untried else untried[rng.below(len(untried))]
        child = node.children[command] = _Node()
        for c in legal:
            if c in node.children:
                node.children[c].available += 1
        return command, child, True
    best, best_score = None, -math.inf
    for c in legal:
        child = node.children[c]
        child.available += 1
        score = child.value / child.visits + exploration * math.sqrt(
            math.log(child.available) / child.visits
        )
        if score > best_score:
            best, best_score = c, score
    return best, node.children[best], False


def _rollout_choice(game, state, actor: int, rng, epsilon: float):
    if epsilon and rng.below(1000) < epsilon * 1000:
        return rng.choice(game.legal_commands(state, actor))
    return game.policy(state, actor, rng, "normal")
