"""A title's evolve dispatches by event type through one dict (replay folds every event of
a game: bench/replay.py), filled by a decorator on each recording function."""

from __future__ import annotations

from collections.abc import Callable


class EventTable(dict):
    """Event type -> the function that records it; an unknown type is a TypeError."""

    def records(self, *event_types: type) -> Callable[[Callable], Callable]:
        def register(function: Callable) -> Callable:
            for event_type in event_types:
                self[event_type] = function
            return function
        return register

    def __missing__(self, event_type: type):
        raise TypeError(f"unknown event {event_type.__name__}")
