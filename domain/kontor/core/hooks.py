"""The named hook points where a form, a scenario, a special rule or an expansion extends
the core game (basic and advanced).

Plain data: one list of plain functions per point. Each extension module has a
``register(hooks)`` that appends its functions to the points it needs; ``registry.py``
calls them, in a fixed order, when the package is imported. The core reads ``HOOKS`` and
never imports an extension. Every function receives the state (or the decide context)
and decides for itself whether its rule is active (by the options).

Combination rules, per point:
- ``answer``: the first function returning something other than None wins;
- ``filtered``: each function gets the previous one's result and returns a new one.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

Hook = Callable[..., Any]


@dataclass
class Hooks:
    # --- setup, who acts, what they may send, decide (setup.py, decide.py) -------------
    #: (options, seat_count, seed_hex) -> [Event] | None: a form with its own set-up
    start: list[Hook] = field(default_factory=list)
    #: (state) -> (seat, ...) | None: who acts in a rule's own phase or step
    to_act: list[Hook] = field(default_factory=list)
    #: (state, seat) -> [Command] | None: what a seat may send in that phase or step
    legal_commands: list[Hook] = field(default_factory=list)
    #: (context, seat, command) -> bool: a form that decides its own turns did
    decide: list[Hook] = field(default_factory=list)
    # --- options -------------------------------------------------------------------
    #: (settings, scenario, special_rules, seat_count) -> [message]: why options conflict
    option_conflicts: list[Hook] = field(default_factory=list)
    # --- placement (placement.py) --------------------------------------------------
    #: (state, cells, card, seat) -> [Pos] | None: a form that places by its own rules
    placement_cells: list[Hook] = field(default_factory=list)
    #: (state, cells, card, seat, pos) -> RuleViolation | None: why a rule forbids pos
    placement_error: list[Hook] = field(default_factory=list)
    #: (state, cells, card, seat, cells_found) -> [Pos]: cells a rule takes away (filter)
    cell_filters: list[Hook] = field(default_factory=list)
    #: (state, cells, card, pos) -> RuleViolation | None: that rule's reason
    placement_violation: list[Hook] = field(default_factory=list)
    # --- the ship (ship.py) --------------------------------------------------------
    #: (state, cells) -> frozenset[Pos]: more cells the ship may not touch
    ship_closed_cells: list[Hook] = field(default_factory=list)
    #: (state, cells, pos) -> bool: the ship may not remove the dock at pos
    ship_protected: list[Hook] = field(default_factory=list)
    # --- scoring (scoring.py) ------------------------------------------------------
    #: (cells, sector) -> bool: a closed sector that waits for the end to be scored
    sector_held: list[Hook] = field(default_factory=list)
    #: (context, first_new) -> None: after closed sectors were scored (first new index)
    after_scoring: list[Hook] = field(default_factory=list)
    #: (context) -> bool: a rule ends the game now (after a placement and its scoring)
    early_end: list[Hook] = field(default_factory=list)
    #: (options, sector, base, customs) -> int | None: what a won sector is worth
    sector_worth: list[Hook] = field(default_factory=list)
    #: (state, sizes, distances) -> (counted, eliminated) | None: an own final selection
    final_selection: list[Hook] = field(default_factory=list)
    #: (state, winner, returned) -> the warehouses that go back to their owners (filter)
    returned_warehouses: list[Hook] = field(default_factory=list)
    #: (state) -> adjust function | None: warehouse counts adjusted (export warehouse)
    count_adjust: list[Hook] = field(default_factory=list)
    #: (state) -> {good: beaten good} | None: another order of the goods
    goods_beats: list[Hook] = field(default_factory=list)

    # --- view (view.py) --------------------------------------------------------------
    #: (state, out, cells, viewer) -> None: public keys a rule adds to the view
    view: list[Hook] = field(default_factory=list)


HOOKS = Hooks()


def answer(point: list[Hook], *args) -> Any:
    """The first answer that is not None (None when no function answers)."""
    for hook in point:
        found = hook(*args)
        if found is not None:
            return found
    return None


def filtered(point: list[Hook], value, *args) -> Any:
    """``value`` passed through every function of the point, in order."""
    for hook in point:
        value = hook(*args, value)
    return value
