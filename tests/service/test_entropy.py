"""Tokens handed to players."""

from __future__ import annotations

from service.entropy import new_token


def test_no_token_starts_with_a_dash():
    """One token in 64 would otherwise start with "-", which the CLI's `--token <token>`
    reads as an option (a flaky CLI test found it)."""
    tokens = [new_token() for _ in range(3000)]
    assert not [t for t in tokens if t.startswith("-")]
    assert len(set(tokens)) == len(tokens) and all(len(t) == 43 for t in tokens)
