"""entrepot-rng-v1: a counter-based random generator anyone can re-implement.

Every shuffle, bag draw and die roll of a game comes from here, keyed by the game's seed
and a counter kept in the game state.  The algorithm is fixed forever under its name;
a different one would get a new name and be recorded in the game's first event.

Definition (all integers unsigned, big-endian):

  seed      the game seed, 32 bytes, written as 64 lowercase hex digits
  block(c)  = SHA-256( b"entrepot-rng-v1" || seed || c as 8 bytes )
  u64(c)    = the first 8 bytes of block(c) as an integer; each u64 consumes one counter
  below(n)  for n >= 1: draw x = u64(counter++) until x < 2**64 - (2**64 mod n),
            then return x mod n                         (rejection sampling: no bias)
  shuffle   Fisher-Yates from the end: for i = len-1 down to 1: swap items i and below(i+1)
  choice    items[below(len)]
  roll(k)   1 + below(k)

A decide function builds ``Rng(seed, state.rng_counter)``, draws, and records in the
event both the outcome and ``rng.counter``, which evolve stores back into the state.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import TypeVar

ALGORITHM = "entrepot-rng-v1"
_DOMAIN = ALGORITHM.encode("ascii")
_TWO64 = 1 << 64

T = TypeVar("T")


def seed_commitment(seed_hex: str) -> str:
    """The public commitment to a seed: SHA-256 of its 32 bytes, as hex."""
    return hashlib.sha256(bytes.fromhex(seed_hex)).hexdigest()


class Rng:
    """A deterministic stream of random numbers from (seed, counter)."""

    __slots__ = ("_seed", "counter")

    def __init__(self, seed_hex: str, counter: int = 0):
        seed = bytes.fromhex(seed_hex)
        if len(seed) != 32:
            raise ValueError("a seed is 32 bytes (64 hex digits)")
        self._seed = seed
        self.counter = counter

    def u64(self) -> int:
        block = hashlib.sha256(_DOMAIN + self._seed + self.counter.to_bytes(8, "big")).digest()
        self.counter += 1
        return int.from_bytes(block[:8], "big")

    def below(self, n: int) -> int:
        if n < 1:
            raise ValueError("below(n) needs n >= 1")
        limit = _TWO64 - (_TWO64 % n)
        while True:
            x = self.u64()
            if x < limit:
                return x % n

    def shuffle(self, items: Sequence[T]) -> tuple[T, ...]:
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return tuple(out)

    def choice(self, items: Sequence[T]) -> T:
        if not items:
            raise ValueError("choice from an empty sequence")
        return items[self.below(len(items))]

    def roll(self, sides: int) -> int:
        return 1 + self.below(sides)

    def fork(self, label: str) -> Rng:
        """An independent stream for non-game uses (AI sampling), keyed by a label."""
        derived = hashlib.sha256(_DOMAIN + b"/fork/" + self._seed + label.encode()).hexdigest()
        return Rng(derived, 0)
