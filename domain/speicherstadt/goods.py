"""Small helpers over multisets of goods kept as sorted tuples of good names."""

from __future__ import annotations

from domain.speicherstadt.data import GOODS

INDEX = {g: i for i, g in enumerate(GOODS)}


def key(good: str) -> int:
    return INDEX[good]


def add(cubes: tuple[str, ...], *goods: str) -> tuple[str, ...]:
    return tuple(sorted(cubes + goods, key=INDEX.__getitem__))  # key(), without a call in Python


def remove(cubes: tuple[str, ...], good: str) -> tuple[str, ...]:
    items = list(cubes)
    items.remove(good)
    return tuple(items)


def counts(cubes: tuple[str, ...]) -> tuple[int, ...]:
    out = [0] * len(GOODS)
    for g in cubes:
        out[INDEX[g]] += 1
    return tuple(out)


def bump(vector: tuple[int, ...], goods: tuple[str, ...], sign: int) -> tuple[int, ...]:
    out = list(vector)
    for g in goods:
        out[INDEX[g]] += sign
    return tuple(out)
