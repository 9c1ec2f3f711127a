"""entrepot-rng-v1 is fixed forever: these known answers must never change."""

from __future__ import annotations

import hashlib
from collections import Counter

import pytest

from domain.rng import Rng, seed_commitment


def test_u64_is_the_first_8_bytes_of_sha256_of_name_seed_counter():
    block = hashlib.sha256(b"entrepot-rng-v1" + bytes(32) + (0).to_bytes(8, "big")).digest()
    assert Rng("00" * 32).u64() == int.from_bytes(block[:8], "big")


def test_known_answers():
    r = Rng("00" * 32)
    assert [r.u64() for _ in range(3)] == [18088824351883154563, 11214768463822858728, 6704895422136931438]
    r = Rng("ab" * 32, 5)
    assert [r.below(6) for _ in range(10)] == [4, 0, 4, 1, 1, 3, 3, 3, 4, 2]
    assert r.counter == 15
    r = Rng("01" * 32)
    assert r.shuffle(range(10)) == (4, 3, 6, 8, 7, 9, 0, 5, 1, 2)
    assert r.counter == 9  # Fisher-Yates draws len-1 times


def test_same_seed_and_counter_same_stream_and_counters_resume():
    a = Rng("cd" * 32)
    first = [a.below(100) for _ in range(5)]
    b = Rng("cd" * 32, 2)
    assert [b.below(100) for _ in range(3)] == first[2:]


def test_below_is_unbiased_enough_and_in_range():
    r = Rng("12" * 32)
    counts = Counter(r.below(3) for _ in range(30_000))
    assert set(counts) == {0, 1, 2}
    assert all(abs(c - 10_000) < 500 for c in counts.values())
    assert all(1 <= r.roll(6) <= 6 for _ in range(100))


def test_bad_seeds_and_arguments_are_refused():
    with pytest.raises(ValueError):
        Rng("00" * 16)
    with pytest.raises(ValueError):
        Rng("00" * 32).below(0)
    with pytest.raises(ValueError):
        Rng("00" * 32).choice([])


def test_the_commitment_is_sha256_of_the_seed_bytes():
    assert seed_commitment("00" * 32) == hashlib.sha256(bytes(32)).hexdigest()


def test_forks_are_independent_of_the_game_stream():
    r = Rng("34" * 32)
    fork = r.fork("ai")
    assert r.counter == 0 and fork.u64() != Rng("34" * 32).u64()
