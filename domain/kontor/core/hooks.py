"""The named hook points where a form, a scenario, a special rule or an expansion extends
the core game (basic and advanced).

Plain data: one list of plain functions per point. Each extension module has a
``register(hooks)`` that appends its functions to the points it needs; ``registry.py``
calls them, in a fixed order, when the package is imported. The core reads ``HOOKS`` and
never imports an extension. Every function receives the state (or the decide context)
and decides for itself whether its rule is active (by the options).

Combination rules, per point:
- ``answer``: the first function returning something other than None wins;
- ``filtered``: each function gets the previous one's result (its last argument) and
  returns a new one;
- otherwise every function runs (or, for a bool, the first True stops), in order.
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
    #: (context, seat, command) -> bool: a rule's own command was decided (after the
    #: forms'); the function runs ``context.after_command()`` itself when it wants it
    command: list[Hook] = field(default_factory=list)
    #: (state, command) -> None: raises while a rule's own decision waits (Corruption's
    #: bribe, Vieilles rancunes' tavern decision) and ``command`` is not one of its own.
    #: A rule's ``command`` function asks them all first
    #: (``context.refuse_while_waiting(command)``), so every such refusal comes before any
    #: of those rules decides a command of its own
    command_guard: list[Hook] = field(default_factory=list)
    #: (state, seat) -> [Command]: more commands while choosing (joined in order)
    choose_commands: list[Hook] = field(default_factory=list)
    #: (state, seat, places) -> [Command]: more commands while placing, listed before the
    #: ship's (joined in order)
    place_commands: list[Hook] = field(default_factory=list)
    #: (state, seat) -> [Command]: more commands while placing, after the ship's
    after_ship_commands: list[Hook] = field(default_factory=list)
    #: (context) -> None: after every command of the round (early ends between moves)
    after_command: list[Hook] = field(default_factory=list)
    #: (state) -> bool: a seat must finish a rule's pending decision before anyone places
    decision_pending: list[Hook] = field(default_factory=list)
    # --- the round's steps (decide.py), in their order ------------------------------------
    #: (context, seat) -> bool: a rule recorded the seat's pass its own way
    pass_turn: list[Hook] = field(default_factory=list)
    #: (state, shown) -> shown: what the reveal shows of each seat's choice (filter)
    revealed_cards: list[Hook] = field(default_factory=list)
    #: (context, chosen_before) -> None: right after the reveal, before the taxes
    after_reveal: list[Hook] = field(default_factory=list)
    #: (state, seat) -> sort key | None: the order of placement (default: highest first)
    order_key: list[Hook] = field(default_factory=list)
    #: (state, seat) -> bool: a card without a cell may still be played another way
    alternative_play: list[Hook] = field(default_factory=list)
    #: (state) -> bool: moving the ship may free a cell even without a removable dock
    ship_may_unblock: list[Hook] = field(default_factory=list)
    #: (state, seat, card) -> str | None: why a card without a cell goes back to the hand
    no_cell_reason: list[Hook] = field(default_factory=list)
    #: (context, seat, card, x, y) -> None: right after a card is placed
    after_card_placed: list[Hook] = field(default_factory=list)
    #: (seat, card, export) -> [Event] | None: a placed dock's warehouses, another way
    export_warehouses: list[Hook] = field(default_factory=list)
    #: (context, seat, card) -> "step" | "added" | None: a step opened for the warehouses
    #: ("step": the turn waits) or they were laid ("added")
    good_step: list[Hook] = field(default_factory=list)
    #: (context, seat, card) -> goods | None: which warehouses a placed dock brings, when
    #: taking them records something (Euphrate's sunken warehouses)
    take_goods: list[Hook] = field(default_factory=list)
    #: (state, seat, card) -> goods | None: which warehouses a placed dock would bring
    #: (Embargo's supply; read by the core's decide and by the policy: decide.placed_goods)
    placed_goods: list[Hook] = field(default_factory=list)
    #: (state, seat, card, draw) -> draw: the pile of the replacement draw (filter)
    draw_pile: list[Hook] = field(default_factory=list)
    #: (context, seat, card, at) -> bool: the turn waits for a rule's step after scoring
    after_warehouses: list[Hook] = field(default_factory=list)
    #: (context, seat, card) -> bool: the draw waits for a step (or a rule drew)
    draw_step: list[Hook] = field(default_factory=list)
    #: (state, seat, card, piles) -> piles: the replacement draws open to the seat, each a
    #: pile name (filter; the first value: the pile of the card's kind, if not empty).
    #: Asked by the draw step the special rules A share (rules/draw_step.py)
    draw_choices: list[Hook] = field(default_factory=list)
    #: (context, seat, card) -> None: after the income, before the next placer
    after_turn: list[Hook] = field(default_factory=list)
    #: (state, card) -> [Event]: recorded before the ship's removal of a dock
    before_dock_removed: list[Hook] = field(default_factory=list)
    #: (context) -> bool: the round's end is taken over (a rule's step or its own end)
    end_of_round: list[Hook] = field(default_factory=list)
    #: (state) -> reason | None: the game ends at the end of this round
    game_ends: list[Hook] = field(default_factory=list)
    #: (context) -> None: a new round started
    round_started: list[Hook] = field(default_factory=list)
    #: (context) -> None: a rule's own set-up phase is over (Justice's starting docks),
    #: before the first round's choice (``context.setup_done()``)
    setup_done: list[Hook] = field(default_factory=list)
    #: (context, reason) -> bool: the game's end waits for a rule's step
    before_end: list[Hook] = field(default_factory=list)
    #: (context, points) -> points: the final points (filter)
    final_points: list[Hook] = field(default_factory=list)
    # --- setup (setup.py) -------------------------------------------------------------
    #: (options) -> [Pos] | None: the starting canals of a layout the core does not know
    layout: list[Hook] = field(default_factory=list)
    #: (options, deck) -> deck: a colour's dock deck before shuffling (filter)
    dock_deck: list[Hook] = field(default_factory=list)
    #: (options, seat_count, rng, dock_hands, piles, specials) -> (fields, [Event]):
    #: GameStarted fields and following events (may change the lists it is given)
    deal: list[Hook] = field(default_factory=list)
    #: (options, rng, cross, water) -> fields: GameStarted fields (may take from water)
    start_fields: list[Hook] = field(default_factory=list)
    #: (options, seat_count, seed_hex, rng_counter) -> [Event]: after everything else
    start_events: list[Hook] = field(default_factory=list)
    # --- evolve (evolve.py) -----------------------------------------------------------
    #: (state, event) -> state | None: a rule's own event (before the core's evolve)
    evolve_own: list[Hook] = field(default_factory=list)
    #: (old, event, new) -> new: what a core event also does under a rule (filter)
    evolved: list[Hook] = field(default_factory=list)
    #: (event, state) -> state: GameStarted's state under a rule (filter)
    started: list[Hook] = field(default_factory=list)
    #: (state, event) -> state | None: an event a rule applies instead of the core
    evolve_event: list[Hook] = field(default_factory=list)
    #: (state, event) -> state | None: an event the core does not know (asked last)
    evolve_unknown: list[Hook] = field(default_factory=list)
    #: (event, state) -> state: before the core applies CardPlaced (filter)
    card_placed: list[Hook] = field(default_factory=list)
    #: (event, state) -> state: before the core applies DockRemoved (filter)
    dock_removed: list[Hook] = field(default_factory=list)
    #: (event, state) -> state: before the core applies WarehousesAdded (filter)
    warehouses_added: list[Hook] = field(default_factory=list)
    # --- options -------------------------------------------------------------------
    #: (rules, seat_count, settings, variant) -> (settings, [message]) | None: the
    #: special rules' switches and their impossible combinations
    rule_settings: list[Hook] = field(default_factory=list)
    #: (scenario, seat_count) -> settings | None: a scenario's switches
    scenario_settings: list[Hook] = field(default_factory=list)
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
    #: (state, out) -> None: the sides' keys (the team game's teams), before a form's
    team_view: list[Hook] = field(default_factory=list)
    #: (state, detail) -> None: keys a form adds to the result's detail
    result: list[Hook] = field(default_factory=list)
    #: (state, out, cells, viewer) -> None: a form's keys, before the seat's own ("you")
    form_view: list[Hook] = field(default_factory=list)
    #: (state, out, viewer) -> None: keys a rule adds after the others (expansions)
    view_last: list[Hook] = field(default_factory=list)
    #: (state, out) -> None: keys of the variants' part of the view (scenarios)
    variant_view: list[Hook] = field(default_factory=list)
    #: (state, hidden) -> None: what the end reveals of a rule's hidden things
    view_hidden: list[Hook] = field(default_factory=list)
    #: (event, viewer, data) -> data: an event as that viewer may see it (filter)
    redact: list[Hook] = field(default_factory=list)
    # --- redetermine (view.py) ----------------------------------------------------------
    #: (state, slot) -> slot: the kind of a hidden card's slot (filter)
    slot: list[Hook] = field(default_factory=list)
    #: (state, observer) -> (cards, piles) | None: cards all saw and piles open to all
    hidden_kept: list[Hook] = field(default_factory=list)
    #: (state, observer) -> seats: the seats whose whole dock pile the observer has seen
    #: (Premier choix: the picking seat its own); their order is kept (union of all)
    piles_seen: list[Hook] = field(default_factory=list)
    #: (state, observer) -> (cards, put_back) | None: a rule's own stock hidden from the
    #: observer (free for all's dock pile, Bakchich's canals aside): ``cards`` are re-dealt
    #: with the other hidden cards of their kind, after the core's (in order), then
    #: ``put_back(state, dealt)`` puts the dealt cards in their place
    hidden_stock: list[Hook] = field(default_factory=list)
    #: (observer, rng, state) -> state: a rule's secret order drawn again (the event deck),
    #: after the hidden cards are re-dealt and before ``redetermine`` (filter)
    reshuffled: list[Hook] = field(default_factory=list)
    #: (original, observer, rng, slot, state) -> state: a rule's hidden things re-dealt
    #: (filter)
    redetermine: list[Hook] = field(default_factory=list)


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
