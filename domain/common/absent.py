"""Seats that left the game: the one notion of correspondence play a title may know.

A seat is *out* when it resigned or forfeited on time. In a game of more than two seats
it keeps playing (the computer plays it to the end) but ranks after every seat still in.
Nothing here knows about clocks: the service decides who is out and when.
"""

from __future__ import annotations

from collections.abc import Set

from domain.decider import Result


def rank_out_last(result: Result, out: Set[int]) -> Result:
    """The title's result with every out seat ranked after the seats still in.

    Scores stay as the title counted them; ``winners`` are the title's winners still in,
    or else the best-scoring seats still in; ``detail.ranking`` lists the seats best
    first (by score among the seats in, then the out seats by score); ``detail.out``
    names the out seats.
    """
    if not out:
        return result
    seats = range(len(result.scores))
    still_in = [s for s in seats if s not in out]
    winners = tuple(s for s in result.winners if s not in out)
    if not winners and still_in:
        best = max(result.scores[s] for s in still_in)
        winners = tuple(s for s in still_in if result.scores[s] == best)

    def by_score(group):
        return sorted(group, key=lambda s: (s not in winners, -result.scores[s], s))

    ranking = by_score(still_in) + by_score([s for s in seats if s in out])
    detail = {**result.detail, "out": sorted(out), "ranking": ranking}
    return Result(result.scores, winners, detail)


def won_by_default(seat_count: int, out: Set[int], ended_by: str = "forfeit") -> Result:
    """The result of a game ended because at most one seat is still in: that seat wins
    (1 point, the others 0); nothing of the title's unfinished score is claimed.
    ``ended_by`` says how the last seat left: "timeout" or "resigned" ("forfeit" in
    records made before the two were told apart)."""
    winners = tuple(s for s in range(seat_count) if s not in out)
    scores = tuple(1.0 if s in winners else 0.0 for s in range(seat_count))
    ranking = list(winners) + sorted(out)
    return Result(scores, winners, {"out": sorted(out), "ranking": ranking, "ended_by": ended_by})
