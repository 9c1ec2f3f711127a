"""The hosted titles, looked up by id for the rest of the service."""

from __future__ import annotations

from functools import cache

from domain.common.table import TableGame, seat_table
from domain.registry import titles
from service.errors import Invalid


@cache
def all_titles() -> dict[str, TableGame]:
    """Every title with the table of correspondence play around it (domain/common/table.py)."""
    return {title_id: seat_table(game) for title_id, game in titles().items()}


def title(title_id: str) -> TableGame:
    found = all_titles().get(title_id)
    if found is None:
        known = ", ".join(sorted(all_titles()))
        raise Invalid(f"unknown title {title_id!r}", {"title": [f"must be one of {known}"]})
    return found
