"""The hosted titles, looked up by id for the rest of the service."""

from __future__ import annotations

from functools import cache

from domain.decider import GameDefinition
from domain.registry import titles
from service.errors import Invalid


@cache
def all_titles() -> dict[str, GameDefinition]:
    return titles()


def title(title_id: str) -> GameDefinition:
    found = all_titles().get(title_id)
    if found is None:
        known = ", ".join(sorted(all_titles()))
        raise Invalid(f"unknown title {title_id!r}", {"title": [f"must be one of {known}"]})
    return found
