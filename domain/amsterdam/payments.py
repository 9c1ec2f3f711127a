"""Payments as colour multisets: the distinct ways to pay from a reserve."""

from __future__ import annotations

from collections import Counter
from functools import cache

from domain.amsterdam.data import COLOURS


def colours_of(vector: tuple[int, ...]) -> tuple[str, ...]:
    """A resource vector as a sorted multiset of colours (COLOURS order)."""
    return tuple(c for c, n in zip(COLOURS, vector) for _ in range(n))


def normal(payment) -> tuple[str, ...]:
    order = {c: i for i, c in enumerate(COLOURS)}
    return tuple(sorted(payment, key=lambda c: order.get(c, 99)))


def affordable(vector: tuple[int, ...], payment) -> bool:
    need = Counter(payment)
    index = {c: i for i, c in enumerate(COLOURS)}
    return all(c in index and vector[index[c]] >= n for c, n in need.items())


@cache
def any_colours(vector: tuple[int, ...], size: int) -> tuple[tuple[str, ...], ...]:
    """Every distinct multiset of ``size`` cubes the reserve ``vector`` can pay."""
    out: list[tuple[str, ...]] = []

    def walk(i: int, left: int, chosen: tuple[str, ...]):
        if left == 0:
            out.append(chosen)
            return
        if i == len(COLOURS):
            return
        for take in range(min(left, vector[i]), -1, -1):
            walk(i + 1, left - take, chosen + (COLOURS[i],) * take)

    walk(0, size, ())
    return tuple(out)


def less_one(cost: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
    """The payments of ``cost`` with one cube of the payer's choice left out."""
    if not cost:
        return ((),)
    return tuple(normal(cost[:i] + cost[i + 1:]) for i, c in enumerate(cost)
                 if c not in cost[:i])
