"""The named hook points where a form, a scenario, a special rule or an expansion extends
the core game (basic and advanced), and the tables the core dispatches through.

Plain data. Each extension module has a ``register(hooks)`` that adds what it needs, and
``registry.py`` says, for each, in which games it acts (``ACTIVE``: a predicate on the
options). A game reads its rule set, ``rules_for(options)``: a Hooks holding only the
extensions active under those options, built once per options value. The core never
imports an extension. ``CATALOGUE`` holds every extension: the commands' and the own
events' tables (dispatched by type: a command of a rule the game does not play is refused
by that rule, with its own reason), the order in which every step and view part is placed,
and the points asked before a game has options (the options' settings) or without a game
(an event's redaction).

- The round's steps and the set-up's (``add_step``; ``swap_step``: a rule's step instead
  of the core's of that name), the parts of a seat's legal commands (``add_commands``) and
  the view's parts (``add_view``): each placed next to the step or part it names, in the
  core's lists (core/setup.py, core/decide.py, core/view.py; ``in_order`` places them
  among every rule's, ``in_game_order`` keeps a game's). A reader finds the round in
  ``decide.round_order()`` (a game's: ``round_order(rules_for(options))``).
- The core's functions a form or a rule does its own way (``swap``: typed in ``Swaps``,
  one extension each), and what is asked by a name: tables (``layouts``,
  ``removed_cards``, ``rule_settings``, ``scenario_settings``).
- Commands by type (``on_commands``, ``EVERY_COMMAND`` for all of them, ``guard``:
  ``command_chain``); events by type
  (``on_events``, ``instead_of``, ``before_event``, ``after_event``: core/evolve.py).
- What remains are hook points, lists of functions, each typed below; a point with a
  single user says why (« one user: »). Their arguments come in one order: the subject (the state, the decide context, the options before a
  game has a state, the event for the redaction), then the seat, the card, the cells, the
  position, and a filter's value last. Combination rules, per point:
  ``answer``: the first function returning something other than None wins;
  ``filtered``: each function gets the previous one's result (its last argument) and
  returns a new one; otherwise every function runs (or, for a bool, the first True
  stops), in order.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple, TypeVar

from domain.decider import RuleViolation
from domain.rng import Rng

# The core's types, named and not imported (state.py and options.py import this module
# through options.py: an import here would make a cycle)
#: state.py's KontorState
KontorState = Any
#: options.py's Options
Options = Any
#: decide.py's DecideContext (decide.py imports this module: named here, not imported)
DecideContext = Any
#: the plain values the points pass (named here, as the core's types are)
Seat = int
Seats = tuple[int, ...]
Viewer = int | None
Card = int
Pos = tuple[int, int]
#: the cells' top cards: {(x, y): card} (board.occupancy)
Cells = Mapping[Pos, int]
Goods = tuple[str, ...]
Points = tuple[int, ...]
#: a seat's chosen card per seat (None: not chosen; PASS_CHOICE: a secret pass)
Chosen = tuple[int | None, ...]
Commands = list
Events = list
#: (context, turn) -> bool: a step of a step list (True: the list stops there)
Step = Callable[[DecideContext, Any], bool]
#: (context, seat, command) -> bool: the command was decided (False: not this rule's case)
CommandRule = Callable[[DecideContext, Seat, Any], bool]


class _EveryCommand:
    """The command types of ``on_commands(EVERY_COMMAND, rule)``: all of them, the core's
    and every extension's (which the core does not list: registry.py gathers them)."""

    def __contains__(self, t: object) -> bool:
        return True

    def __repr__(self) -> str:
        return "EVERY_COMMAND"


#: every command type (a form that decides every command of its games: the free wheel)
EVERY_COMMAND = _EveryCommand()
#: (state, command) -> None: raises RuleViolation when the command must wait
CommandGuard = Callable[[KontorState, Any], None]
#: (state, event) -> state: an event applied
EventRule = Callable[[KontorState, Any], KontorState]
#: (state, event) -> state | None: a core event applied another way (None: not active)
EventOverride = Callable[[KontorState, Any], KontorState | None]
#: (state before, event, state after) -> state after
EventAfter = Callable[[KontorState, Any, KontorState], KontorState]
#: (state, seat, places) -> [Command]: a part of a seat's legal commands
CommandPart = Callable[[KontorState, Seat, Commands | None], Commands]
#: (state, out, cells, viewer) -> None: keys a part of the view adds to ``out``
ViewPart = Callable[[KontorState, dict, Cells, Viewer], None]
#: (options) -> bool: the rule acts in games with these options
Active = Callable[[Options], bool]


class Counting(NamedTuple):
    """What a rule changes in the scoring's counts (None: nothing): how a sector's
    warehouses are counted, and the points besides the sectors; the answer at the point
    ``counting`` (read by core/scoring.py's accessors)."""

    #: ((dock card, goods), ...): docks whose warehouses hold fewer goods than printed, as
    #: the rule records them (Choix de la marchandise; scoring.goods_of, joined)
    goods: tuple[tuple[Card, Goods], ...] | None = None
    #: (dock card, ...): docks counted with one warehouse more each, once per listing
    #: (Corruption's bribe warehouses; scoring.extra_warehouses, the first answer)
    extra: tuple[Card, ...] | None = None
    #: counts -> counts: a sector's counts adjusted (the warehouses' goods moved or
    #: exported; scoring.count_adjust, the first answer)
    adjust: Callable | None = None
    #: {good: beaten good}: another order of the goods (the event cards;
    #: scoring.goods_beats, the first answer)
    beats: dict[str, str] | None = None
    #: (points, ...): victory points per seat besides the sectors, counted now and at the
    #: end (« Jours dorés », kept in EventCardsState; scoring.bonus_points, the first
    #: answer: read by the core's current points and by the final bonuses)
    points: Points | None = None


@dataclass
class Swaps:
    """The core's functions a form, a scenario or a rule does its own way, each swapped by
    one extension at the most (``Hooks.swap``; None: the core's own). The core calls the
    one function, its own or the swap: nothing is asked in turn."""

    #: (state, cells, card, seat) -> [Pos], sorted (y, x): where a card may go
    #: (placement.placement_cells; the free wheel's diagonal cranes and open port)
    legal_cells: Callable[[KontorState, Cells, Card, Seat], list[Pos]] | None = None
    #: (state, card) -> seat | None: who owns a placed dock when docks have no colour
    #: (sides.owner_side, under shared_dock_pile; free for all records it in FreeWheelState)
    dock_owner: Callable[[KontorState, Card], Seat | None] | None = None
    #: (state, seat, card) -> "dock" | "water" | None: the pile of the replacement draw
    #: (decide's; the core's: data.replacement_pile; Contrebande: a face-down card's is
    #: the pile chosen with it)
    draw_pile: Callable[[KontorState, Seat, Card], str | None] | None = None
    #: (state, seat, card) -> goods: the warehouses a placed goods dock brings
    #: (placement.placed_goods, read by decide's "warehouses" step, Euphrate's and the
    #: policy; the core's: the printed goods; Embargo: those its owner's supply holds)
    placed_goods: Callable[[KontorState, Seat, Card], Goods] | None = None
    #: (state, winner, warehouses) -> warehouses: those of a scored sector that go back to
    #: their owners (scoring.score_closed_sectors; the core's: all; Embargo: the winner's stay)
    returned_warehouses: Callable[[KontorState, int | None, tuple[Card, ...]], tuple[Card, ...]] | None = None


class Seen(NamedTuple):
    """What a rule says was seen, which redetermination keeps in place (the answer at the
    point ``seen``; read by core/view.py's accessors)."""

    #: (seat, ...): the seats whose whole dock pile the observer has seen (Premier choix:
    #: the picking seat its own; « Mariage »: the observer's own; view.seen_piles, joined)
    piles: tuple[Seat, ...] = ()
    #: per seat, the cards of its hand shown to every seat, kept while held (« Lutte
    #: d'influence »; view.shown_in_hand, the first answer), None: none shown
    hands: tuple[frozenset[Card], ...] | None = None
    #: True: a rule may change the cards of a hand unseen, so no card seen going into a
    #: hand is known there any more (Contrebande; view._seen_in_hands, any)
    hands_unseen: bool = False


@dataclass
class Hooks:
    # --- setup, who acts, what they may send, decide (setup.py, decide.py) -------------
    #: (state) -> (seat, ...) | None: who acts in a rule's own phase or step
    to_act: list[Callable[[KontorState], Seats | None]] = field(default_factory=list)
    #: (state, seat) -> [Command] | None: what a seat may send in that phase or step
    legal_commands: list[Callable[[KontorState, Seat], Commands | None]] = field(default_factory=list)
    #: the commands' dispatch, in registration order (``on_commands``, ``guard``): each
    #: entry (command types, rule) or (None, guard). A command of type T goes through
    #: the guards and T's rules in that order (``command_chain``); the core's commands
    #: (no rule) through every guard, then the core; ``EVERY_COMMAND`` for all types
    commands: list[tuple[tuple[type, ...] | _EveryCommand | None, CommandRule | CommandGuard]] = field(default_factory=list)
    #: (state, command) -> None: raises while a rule's own decision waits (Corruption's
    #: bribe, Vieilles rancunes' tavern decision) and ``command`` is not one of its own;
    #: asked together (``refuse_while_waiting``) by the guard those rules register
    command_guard: list[CommandGuard] = field(default_factory=list)
    #: the parts rules add to a seat's legal commands (core/decide.py: CHOOSE_COMMANDS and
    #: PLACE_COMMANDS, the core's parts), each ("before" | "after", the part it goes next
    #: to, its name, part(state, seat, places) -> [Command]; ``places``: the PlaceCard
    #: commands while placing, None while choosing), in registration order (``add_commands``)
    command_parts: list[tuple[str, str, str, CommandPart]] = field(default_factory=list)
    # --- the round's steps (decide.py), in their order ------------------------------------
    #: (state, shown) -> shown: what the reveal shows of each seat's choice (filter)
    revealed_cards: list[Callable[[KontorState, Chosen], Chosen]] = field(default_factory=list)
    #: (state, seat, card, piles) -> piles: the replacement draws open to the seat, each a
    #: pile name (filter; the first value: the pile of the card's kind, if not empty).
    #: Asked by the draw step the special rules A share (rules/draw_step.py)
    draw_choices: list[Callable[[KontorState, Seat, Card, list[str]], list[str]]] = field(default_factory=list)
    #: the steps rules insert into the round's step lists (core/decide.py: AFTER_CHOICE,
    #: after every seat chose; TURN_STEPS, a placer's turn; ROUND_END, the round's end):
    #: each ("before" | "after", the step it goes next to (the core's or another rule's),
    #: its name, step(context, turn) -> bool: True stops the list there; ``turn`` is the
    #: placer's Turn, the choices before the reveal after the choice, None at the round's
    #: end), in registration order (``add_step``)
    steps: list[tuple[str, str, str, Step]] = field(
        default_factory=list
    )
    # --- setup (setup.py) -------------------------------------------------------------
    #: a layout's name (``Options.layout``) -> its starting canals, in dealing order: the
    #: layouts the core does not know (the scenarios' « selon le dessin »; a table by name)
    layouts: dict[str, list[Pos]] = field(default_factory=dict)
    #: a name of ``Options.removed_cards`` -> (card) -> bool: the cards it takes out of the
    #: dock decks before shuffling (the scenarios' cranes, taverns; a table by name)
    removed_cards: dict[str, Callable[[Card], bool]] = field(default_factory=dict)
    #: (options, seat_count, rng, dock_hands, piles, specials) -> (fields, [Event]):
    #: GameStarted fields and following events (may change the lists it is given)
    deal: list[Callable[[Options, int, Rng, list, list, list], tuple[dict, Events]]] = field(default_factory=list)
    #: (options, rng, cross, water) -> fields: GameStarted fields (may take from water)
    start_fields: list[Callable[[Options, Rng, Any, Any], dict]] = field(default_factory=list)
    # --- evolve (evolve.py): tables by event type, filled by ``on_events`` & co. -----
    #: an extension's own event type -> how it applies (one owner per type)
    events: dict[type, EventRule] = field(default_factory=dict)
    #: a core event type -> rules that apply it their own way when active (None: not
    #: active, the core applies it); asked before ``before`` and the core
    instead: dict[type, list[tuple[EventOverride, Active | None]]] = field(default_factory=dict)
    #: a core event type -> what a rule records before the core applies it, in order
    before: dict[type, list[tuple[EventRule, Active | None]]] = field(default_factory=dict)
    #: an event type -> what it also does under a rule, after it was applied, in order
    #: (GameStarted's: the rules' state at the start)
    after: dict[type, list[tuple[EventAfter, Active | None]]] = field(default_factory=dict)
    #: the core's functions swapped by an extension (``swap``), typed one by one
    swaps: Swaps = field(default_factory=Swaps)
    #: what the core derives from the tables above (the step lists, the view's parts, the
    #: command chains, evolve's table), cached here; emptied by every registration
    derived: dict = field(default_factory=dict)

    def add_step(
        self, name: str, step: Step, *, before: str = "", after: str = ""
    ) -> None:
        """A rule's step, just before or after the step of that name (the core's, or
        another rule's: Euphrate's sunken warehouses after Choix des marchandises' step)."""
        self.steps.append(("before", before, name, step) if before else ("after", after, name, step))
        self.derived.clear()

    def swap_step(self, name: str, step: Step) -> None:
        """A rule's step instead of the core's step of that name (a form or a rule doing
        that step its own way: the free wheel's deal, Contrebande's order). The step keeps
        its name and place; at most one rule swaps a step."""
        self.steps.append(("instead", name, name, step))
        self.derived.clear()

    def swap(self, name: str, fn: Callable) -> None:
        """``fn`` does the core's function ``name`` (a field of Swaps) its own way."""
        if getattr(self.swaps, name) is not None:
            raise ValueError(f"{name} is swapped twice")
        setattr(self.swaps, name, fn)

    def add_view(self, part: ViewPart, *, before: str = "", after: str = "", name: str = "") -> None:
        """A rule's part of the view, just before or after the part of that name (the
        core's, or another rule's); ``name``: by default the module's."""
        name = name or part.__module__.rpartition(".")[2]
        self.view_parts.append(("before", before, name, part) if before else ("after", after, name, part))
        self.derived.clear()

    def add_commands(self, name: str, part: CommandPart, *, before: str = "", after: str = "") -> None:
        """A rule's part of the legal commands, just before or after the part of that name
        (the core's, or another rule's)."""
        self.command_parts.append(("before", before, name, part) if before else ("after", after, name, part))
        self.derived.clear()

    def redraw_first(self, redraw: Callable[[KontorState, Viewer, Rng, Any, KontorState], KontorState]) -> None:
        """A rule's secret order drawn again (``redetermine``) before every other rule's
        hidden things (the event deck: its draws follow the core's re-deal, as always)."""
        self.redetermine.insert(0, redraw)

    def on_commands(self, types: Iterable[type], rule: CommandRule) -> None:
        """``rule`` decides these command types (True: decided; False: not its case);
        ``EVERY_COMMAND``: all of them."""
        self.commands.append((types if types is EVERY_COMMAND else tuple(types), rule))
        self.derived.clear()

    def guard(self, guard: CommandGuard) -> None:
        """``guard`` may refuse any command whose rule is registered after it, and the
        core's (registering the same guard again adds nothing)."""
        if (None, guard) not in self.commands:
            self.commands.append((None, guard))
            self.derived.clear()

    def refuse_while_waiting(self, state, command) -> None:
        """The guard of the rules whose own decision waits (``command_guard``)."""
        for refuse in self.command_guard:
            refuse(state, command)

    def command_chain(self, t: type) -> tuple[tuple[bool, Any], ...]:
        """What a command of type ``t`` goes through, in order: (is a guard, function)."""
        return tuple(
            (types is None, fn) for types, fn in self.commands if types is None or t in types
        )

    def on_events(self, types: Iterable[type], rule: EventRule) -> None:
        """``rule`` applies these (its own) event types. Two rules sharing one helper
        (water_fill.record) may register the same function."""
        for t in types:
            if self.events.get(t, rule) is not rule:
                raise ValueError(f"event {t.__name__} already has an owner")
            self.events[t] = rule
        self.derived.clear()

    # ``when(options) -> bool``: the games the rule acts in (None: every game). A game's
    # evolve table holds only the rules of its options; the rule must leave the state
    # unchanged (``instead``: answer None) in every game where ``when`` is False.
    def instead_of(self, t: type, rule: EventOverride, when: Active | None = None) -> None:
        self.instead.setdefault(t, []).append((rule, when))
        self.derived.clear()

    def before_event(self, t: type, rule: EventRule, when: Active | None = None) -> None:
        self.before.setdefault(t, []).append((rule, when))
        self.derived.clear()

    def after_event(self, types: Iterable[type], rule: EventAfter, when: Active | None = None) -> None:
        for t in types:
            self.after.setdefault(t, []).append((rule, when))
        self.derived.clear()

    # --- options (asked of CATALOGUE while options are built, before any game) ----------
    #: a special rule's name -> (the game's special rules, seat_count, the settings so
    #: far, variant) -> (switches, [message]): its switches and why it cannot be played
    #: so; asked for the game's rules in the table's order (a table by name)
    rule_settings: dict[str, Callable[[Any, int, dict, str | None], tuple[dict, list[str]]]] = field(default_factory=dict)
    #: a scenario's name -> (seat_count) -> its switches, after the variant's (a table by name)
    scenario_settings: dict[str, Callable[[int], dict]] = field(default_factory=dict)
    #: (settings, scenario, special_rules, seat_count) -> [message]: why options conflict
    option_conflicts: list[Callable[[dict, str | None, Any, int], list[str]]] = field(default_factory=list)
    # --- placement (placement.py) --------------------------------------------------
    #: (state, cells, card, seat, pos) -> RuleViolation | None: why a rule forbids pos
    placement_error: list[Callable[[KontorState, Cells, Card, Seat, Pos], RuleViolation | None]] = field(default_factory=list)
    #: (state, cells, card, seat, cells_found) -> [Pos]: cells a rule takes away (filter)
    cell_filters: list[Callable[[KontorState, Cells, Card, Seat, list[Pos]], list[Pos]]] = field(default_factory=list)
    #: (state, cells, card, pos) -> RuleViolation | None: that rule's reason
    placement_violation: list[Callable[[KontorState, Cells, Card, Pos], RuleViolation | None]] = field(default_factory=list)
    # --- the ship (ship.py) --------------------------------------------------------
    #: (state, cells, pos) -> bool: the ship may not remove the dock at pos (Protection's
    #: taverns; the free wheel's finished sectors, not scored before the end)
    ship_protected: list[Callable[[KontorState, Cells, Pos], bool]] = field(default_factory=list)
    # --- scoring (scoring.py) ------------------------------------------------------
    #: (context) -> bool: a rule ends the game now (after a placement and its scoring)
    early_end: list[Callable[[DecideContext], bool]] = field(default_factory=list)
    #: (options, sector, base, customs) -> int | None: what a won sector is worth
    sector_worth: list[Callable[[Options, frozenset[Pos], int, Any], int | None]] = field(default_factory=list)
    #: (state, sizes, distances) -> (counted, eliminated) | None: an own final selection
    final_selection: list[Callable[[KontorState, tuple[int, ...], tuple], tuple[tuple, tuple] | None]] = field(default_factory=list)
    #: (state) -> Counting | None: what a rule changes in the scoring's counts (a sector's
    #: warehouses: their goods, extra warehouses, adjusted counts, the goods' order; the
    #: points besides the sectors)
    counting: list[Callable[[KontorState], Counting | None]] = field(default_factory=list)

    # --- view (view.py) --------------------------------------------------------------
    #: the parts rules add to the view (core/view.py: VIEW_PARTS, the core's parts), each
    #: ("before" | "after", the part it goes next to, its name, part(state, out, cells,
    #: viewer) -> None), in registration order (``add_view``)
    view_parts: list[tuple[str, str, str, ViewPart]] = field(default_factory=list)
    #: (state, detail) -> None: keys a form adds to the result's detail
    result: list[Callable[[KontorState, dict], None]] = field(default_factory=list)
    #: (state, hidden) -> None: what the end reveals of a rule's hidden things
    view_hidden: list[Callable[[KontorState, dict], None]] = field(default_factory=list)
    #: (event, viewer, data) -> data: an event as that viewer may see it (filter)
    redact: list[Callable[[Any, Viewer, dict], dict]] = field(default_factory=list)
    # --- redetermine (view.py) ----------------------------------------------------------
    #: (state, slot) -> slot: the kind of a hidden card's slot (filter)
    slot: list[Callable[[KontorState, Any], Any]] = field(default_factory=list)
    #: (state, observer) -> Seen | None: what every seat, or the observer, has seen, kept
    #: in place by redetermination (the piles seen whole, the cards shown from a hand) or
    #: no longer known (the cards seen going into a hand a rule may change unseen)
    seen: list[Callable[[KontorState, Viewer], Seen | None]] = field(default_factory=list)
    #: (state, observer) -> (cards, put_back) | None: a rule's own stock hidden from the
    #: observer (free for all's dock pile, Bakchich's canals aside): ``cards`` are re-dealt
    #: with the other hidden cards of their kind, after the core's (in order), then
    #: ``put_back(state, dealt)`` puts the dealt cards in their place
    hidden_stock: list[Callable[[KontorState, Viewer], tuple[tuple[Card, ...], Callable] | None]] = field(default_factory=list)
    #: (original, observer, rng, slot, state) -> state: a rule's hidden things re-dealt
    #: (filter), after the core's hidden cards, in order: a secret order drawn again first
    #: (the event deck: ``redraw_first``), then the rules' in registration order
    redetermine: list[Callable[[KontorState, Viewer, Rng, Any, KontorState], KontorState]] = field(default_factory=list)
    # --- what an extension records in its own sub-state and the core asks of it --------
    #: (state) -> bool: the placer must finish a step of a rule, or a seat a scenario's
    #: decision, before anything else (the special rules A's pending step, Décisions' second
    #: canal or raised warehouse; placement.step_waits: decide refuses the core's commands,
    #: the round does not advance)
    step_waits: list[Callable[[KontorState], bool]] = field(default_factory=list)


#: every extension, registered once (registry.py): see the module's docstring
CATALOGUE = Hooks()

#: options -> that game's rule set (registry.rule_set, installed by ``use_rule_sets``)
_build_rule_set: Callable[[Options], Hooks] | None = None
#: id(options) -> (options, rule set): the options objects seen last (one per game, its
#: states share it), found without hashing the options' many fields
_BY_ID: dict[int, tuple[Options, Hooks]] = {}
#: options value -> rule set: one per distinct options (games replay many times)
_BY_VALUE: dict[Options, Hooks] = {}


def use_rule_sets(build: Callable[[Options], Hooks]) -> None:
    """``build(options)``: the Hooks of the extensions active under these options."""
    global _build_rule_set
    _build_rule_set = build
    _BY_ID.clear()
    _BY_VALUE.clear()


def rules_for(options: Options) -> Hooks:
    """The rule set of a game with these options (built once per options value)."""
    known = _BY_ID.get(id(options))
    if known is not None and known[0] is options:
        return known[1]
    try:
        rules = _BY_VALUE.get(options)
    except TypeError:  # options that cannot be hashed: built for the game
        rules = None
    if rules is None:
        assert _build_rule_set is not None, "domain.kontor.registry installs the rule sets"
        rules = _build_rule_set(options)
        if len(_BY_VALUE) > 256:  # options seen by this process: a bounded cache
            _BY_VALUE.clear()
        try:
            _BY_VALUE[options] = rules
        except TypeError:
            pass
    if len(_BY_ID) > 1024:
        _BY_ID.clear()
    _BY_ID[id(options)] = (options, rules)  # the options kept: their id is not reused
    return rules


R = TypeVar("R")
V = TypeVar("V")


def answer(point: Sequence[Callable[..., R | None]], *args: Any) -> R | None:
    """The first answer that is not None (None when no function answers)."""
    for hook in point:
        found = hook(*args)
        if found is not None:
            return found
    return None


def filtered(point: Sequence[Callable[..., V]], value: V, *args: Any) -> V:
    """``value`` passed through every function of the point, in order (each gets the
    point's arguments, then the value: the filtered value is always the last argument)."""
    for hook in point:
        value = hook(*args, value)
    return value


def in_order(core: Iterable[tuple[str, Any]], rule_parts: Iterable[tuple[str, str, str, Any]]) -> tuple[tuple[str, Any], ...]:
    """A core list of (name, step) with the rules' (("before" | "after", the name it goes
    next to, its name, step)), each right next to the one it names (the core's or another
    rule's): those before it, then it, then those after it, each group in registration
    order; a core step a rule swaps (("instead", its name, its name, step)) keeps its name
    and place with the rule's function. Rule parts anchored to a name not in the list are
    left out."""
    next_to: dict[tuple[str, str], list] = {}
    swaps: dict[str, Any] = {}
    for at, to, name, fn in rule_parts:
        if at == "instead":
            if to in swaps:
                raise ValueError(f"two rules swap the step {to!r}")
            swaps[to] = fn
        else:
            next_to.setdefault((at, to), []).append((name, fn))
    out: list = []

    def put(name: str, fn) -> None:
        for own in next_to.get(("before", name), ()):
            put(*own)
        out.append((name, fn))
        for own in next_to.get(("after", name), ()):
            put(*own)

    for name, fn in core:
        put(name, swaps.get(name, fn))
    return tuple(out)


def in_game_order(
    core: Iterable[tuple[str, Any]],
    every_part: Iterable[tuple[str, str, str, Any]],
    game_parts: Iterable[tuple[str, str, str, Any]],
) -> tuple[tuple[str, Any], ...]:
    """``in_order(core, every_part)`` keeping the core's and the game's parts, each with the
    game's function: a rule's part keeps the place it has among every rule's (next to a
    part of a rule the game does not play, too), a core step the game's rules swap has
    their function. Parts are known by name."""
    own: dict[str, list] = {}
    swaps: dict[str, Any] = {}
    for at, _, name, fn in game_parts:
        if at == "instead":
            swaps[name] = fn
        else:
            own.setdefault(name, []).append(fn)
    taken = {name: 0 for name in own}
    core_fns = dict(core)
    out: list = []
    for name, _ in in_order(core_fns.items(), every_part):
        if name in core_fns:
            out.append((name, swaps.get(name, core_fns[name])))
        elif name in own:
            out.append((name, own[name][taken[name]]))
            taken[name] += 1
    return tuple(out)


def step_list(rules: Hooks, which: str, core: Sequence[tuple[str, Any]]) -> tuple:
    """(the core's step list ``core`` with the steps of a game with these rules, each
    placed as among every rule's (CATALOGUE): a step anchored to a rule the game does not
    play keeps its place; {name: index}), kept in the rule set under ``which``."""
    built = rules.derived.get(which)
    if built is None:
        steps = in_game_order(core, CATALOGUE.steps, rules.steps)
        built = rules.derived[which] = (steps, {n: i for i, (n, _) in enumerate(steps)})
    return built
