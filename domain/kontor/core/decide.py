"""Kontor rules: to_act, legal_commands, decide. The round's structure lives here; each
concern has its module: setup.py (layouts, deal), placement.py (where a card may go),
ship.py (the patrol ship), taxes.py, scoring.py (sectors, final selection, winners),
sides.py (colours, teams, tax pairs)."""

from __future__ import annotations

from domain.decider import GameOver, Issued, NotYourTurn, RuleViolation
from domain.kontor.core import events as ev
from domain.kontor.core.board import occupancy
from domain.kontor.core.commands import ChooseCard, MoveShip, Pass, PlaceCard
from domain.kontor.core.data import CARDS, SETUP, replacement_pile
from domain.kontor.core.evolve import evolve
from domain.kontor.core.hooks import (
    CATALOGUE,
    Hooks,
    answer,
    filtered,
    in_game_order,
    rules_for,
    step_list,
)
from domain.kontor.core.placement import placed_goods, placement_cells, placement_error, step_waits
from domain.kontor.core.scoring import final_points, score_closed_sectors, select_final
from domain.kontor.core.scoring import winners as _winners
from domain.kontor.core.setup import START_STEPS, cross_positions, start
from domain.kontor.core.ship import any_removal, may_move_ship, pile_seats, removable, ship_commands
from domain.kontor.core.ship import targets as ship_targets
from domain.kontor.core.state import KontorState
from domain.kontor.core.taxes import collect_taxes

__all__ = [
    "cross_positions",
    "decide",
    "legal_commands",
    "placed_goods",
    "placing_card",
    "start",
    "to_act",
    "winners",
]


# ---------------------------------------------------------------------------------------
# Who acts, what they may send


def to_act(state: KontorState) -> tuple[int, ...]:
    # a form's turns, a scenario's pending decision, the special rules' phases and steps,
    # the expansions' event cards
    own = answer(rules_for(state.options).to_act, state)
    if own is not None:
        return own
    if state.phase == "choose":
        return tuple(
            s for s in range(state.seat_count) if state.chosen[s] is None and not state.passed[s]
        )
    if state.phase == "place" and state.order:
        return (state.order[0],)
    return ()


def placing_card(state: KontorState) -> int | None:
    if state.phase == "place" and state.order:
        return state.revealed[state.order[0]]
    return None


def legal_cells_now(state: KontorState, seat: int, card: int) -> list[tuple[int, int]]:
    return placement_cells(state, occupancy(state), card, seat)


def legal_commands(state: KontorState, seat: int) -> list:
    if seat not in to_act(state):
        return []
    rules = rules_for(state.options)
    own = answer(rules.legal_commands, state, seat)  # the phases and steps of to_act's hooks
    if own is not None:
        return own
    if state.phase == "choose":
        return [c for _, part in command_parts(rules, "choose") for c in part(state, seat, None)]
    card = placing_card(state)
    places = [PlaceCard(x, y) for x, y in legal_cells_now(state, seat, card)]
    return [c for _, part in command_parts(rules, "place") for c in part(state, seat, places)]


#: a choosing seat's commands, in order (name, part(state, seat, None) -> [Command]); the
#: rules add theirs after "pass" (Bakchich's bribes, Contrebande's face-down choices)
CHOOSE_COMMANDS: tuple[tuple[str, object], ...] = (
    ("cards", lambda state, seat, places: [ChooseCard(c) for c in sorted(state.hands[seat])]),
    ("pass", lambda state, seat, places: [Pass()]),
)
#: a placing seat's commands, in order (name, part(state, seat, places) -> [Command]): the
#: cells, the ship's moves; the rules add theirs next to them (the export warehouse's
#: after "cells", Inondation au choix's canals after "ship")
PLACE_COMMANDS: tuple[tuple[str, object], ...] = (
    ("cells", lambda state, seat, places: places),
    ("ship", lambda state, seat, places: ship_commands(state, seat)),
)


def command_parts(rules: Hooks, phase: str) -> tuple[tuple[str, object], ...]:
    """The parts of a seat's legal commands while choosing ("choose") or placing ("place")
    in a game with these rules (by default every rule's), in order; kept in the rule set."""
    key = f"{phase}_commands"
    parts = rules.derived.get(key)
    if parts is None:
        core = CHOOSE_COMMANDS if phase == "choose" else PLACE_COMMANDS
        parts = rules.derived[key] = in_game_order(core, CATALOGUE.command_parts, rules.command_parts)
    return parts


# ---------------------------------------------------------------------------------------
# decide


class DecideContext:
    """What a decide call hands to the forms, scenarios, special rules and expansions it
    asks: the events recorded so far and the state they lead to (``emit`` records one),
    and the steps of the round an extension may ask the core to carry on with. Extensions
    receive it as an argument and never import this module."""

    def __init__(self, state: KontorState):
        self.state = state
        self.events: list = []
        #: the game's rule set (core/hooks.py)
        self.rules: Hooks = rules_for(state.options)

    def emit(self, event) -> None:
        self.events.append(event)
        self.state = evolve(self.state, event)

    # --- the round's steps, in their order ---------------------------------------------
    def after_choice(self) -> None:
        """Reveal once every seat has chosen or passed; taxes; the order of placement."""
        _after_choice(self)

    def set_order(self, key) -> None:
        """The order of placement: the seats that placed a card this round (not returned),
        sorted by ``key(state, seat)``."""
        st = self.state
        playing = [
            s for s in range(st.seat_count) if st.revealed[s] is not None and not _returned(st, s)
        ]
        self.emit(ev.TurnOrderSet(tuple(sorted(playing, key=lambda s: key(st, s)))))

    def place(self, seat: int, x: int, y: int, export: str | None = None) -> None:
        """Place the seat's revealed card at (x, y) and carry on with the turn."""
        _place(self, seat, x, y, export)

    def move_ship(self, seat: int, command: MoveShip) -> None:
        """Move the ship (and remove a dock); the caller carries on with its turn."""
        _move_ship(self, seat, command)

    def after_warehouses(self, seat: int, card: int) -> None:
        """Sectors scored, early ends, then the rest of the turn (draw, income, next)."""
        _after_warehouses(self, seat, card)

    def finish_place(self, seat: int, card: int, draw: str | None) -> None:
        """Board full, the draw from ``draw`` ("dock" | "water" | None), income, next."""
        _finish_place(self, seat, card, draw)

    def income_and_advance(self, seat: int, card: int) -> None:
        """A canal's income, then the next placer."""
        _income_and_advance(self, seat, card)

    def advance(self) -> None:
        """The next placer with a legal cell, or the end of the round."""
        _advance(self)

    def end_round(self) -> None:
        _end_round(self)

    def end_game(self, reason: str, winners: tuple[int, ...] | None = None) -> None:
        _end_game(self, reason, winners)

    def setup_done(self) -> None:
        """A rule's own set-up phase is over: the steps of SETUP_DONE."""
        _run(self, None, "setup", None)

    def after_command(self) -> None:
        """The checks after every command: the steps of AFTER_COMMAND (a rule's early end
        between two moves)."""
        _run(self, None, "command", None)

    def sectors_scored(self, first_new: int) -> None:
        """Closed sectors were scored (``first_new``: the index of the first new one in
        ``state.scored``): the steps of SECTORS_SCORED."""
        _run(self, first_new, "scored", None)

    def ends_early(self) -> bool:
        """Does a rule end the game now (scenarios' early ends)? True if it ended."""
        return any(end(self) for end in self.rules.early_end)

    def can_place_any(self, seat: int) -> bool:
        """Does the seat hold a card it could place now (or a ship card to free a cell)?"""
        return _can_place_any(self.state, seat)


def decide(state: KontorState, issued: Issued) -> list:
    if state.phase == "over":
        raise GameOver()
    seat = issued.seat
    if seat is None or seat not in to_act(state):
        raise NotYourTurn()
    command = issued.command
    log = DecideContext(state)
    # the guards, a rule's commands (the free wheel's own turns: every command)
    for is_guard, rule in _command_chain(log.rules, type(command)):
        if is_guard:
            rule(state, command)
        elif rule(log, seat, command):
            return log.events
    if step_waits(state) or state.phase not in ("choose", "place"):
        raise RuleViolation("kontor.step_pending", "Finish the current step first.")
    elif isinstance(command, ChooseCard):
        if state.phase != "choose":
            raise RuleViolation(
                "kontor.not_choosing", "Cards are chosen only at the start of a round."
            )
        if command.card not in state.hands[seat]:
            raise RuleViolation(
                "kontor.card_not_in_hand",
                "Jouer une carte face cachée: choose one of the cards in your hand.",
            )
        log.emit(ev.CardChosen(seat, command.card))
        _after_choice(log)
    elif isinstance(command, Pass):
        if state.phase != "choose":
            raise RuleViolation(
                "kontor.pass_too_late",
                "A seat may pass only before it has chosen its card ('avant que les cartes ne soient jouées').",
            )
        _run(log, seat, "pass", None)
        _after_choice(log)
    elif isinstance(command, PlaceCard):
        if state.phase != "place":
            raise RuleViolation("kontor.not_placing", "Cards are placed only after the reveal.")
        _place(log, seat, command.x, command.y)
    elif isinstance(command, MoveShip):
        _move_ship(log, seat, command)
        _advance(log)
    else:
        raise RuleViolation("kontor.unknown_command", f"Unknown command {command!r}.")
    log.after_command()
    return log.events


def _command_chain(rules: Hooks, t: type) -> tuple:
    """{command type: rules.command_chain(type)}, kept in the rule set."""
    chains = rules.derived.get("chains")
    if chains is None:
        chains = rules.derived["chains"] = {}
    chain = chains.get(t)
    if chain is None:
        chain = chains[t] = rules.command_chain(t)
    return chain


def _after_choice(log: DecideContext) -> None:
    """Once every seat has chosen or passed: the steps of AFTER_CHOICE (and the rules'),
    each given the choices as they were before the reveal."""
    st = log.state
    if any(st.chosen[s] is None and not st.passed[s] for s in range(st.seat_count)):
        return
    _run(log, st.chosen, "choice", None)


def _step_reveal(log: DecideContext, chosen: tuple) -> bool:
    """The cards shown (what a rule shows of a choice: revealed_cards)."""
    st = log.state
    log.emit(ev.CardsRevealed(filtered(log.rules.revealed_cards, st.chosen, st)))
    return False


def _step_taxes(log: DecideContext, chosen: tuple) -> bool:
    collect_taxes(log)
    return False


def _step_order(log: DecideContext, chosen: tuple) -> bool:
    """The order of placement: « Le joueur qui a joué la carte avec le plus grand nombre
    commence » (a rule that orders another way swaps this step: Contrebande)."""
    log.set_order(lambda st, seat: (0, -st.revealed[seat]))
    return False


def _step_first_placer(log: DecideContext, chosen: tuple) -> bool:
    _advance(log)
    return False


#: after every seat chose or passed, in order (name, step(context, chosen before the
#: reveal) -> bool); the rules insert theirs (Marins ivres morts' passes after "reveal")
AFTER_CHOICE: tuple[tuple[str, object], ...] = (
    ("reveal", _step_reveal),
    ("taxes", _step_taxes),
    ("order", _step_order),
    ("first placer", _step_first_placer),
)


def _returned(st: KontorState, seat: int) -> bool:
    return any(r[0] == seat for r in st.returned)


def _advance(log: DecideContext) -> None:
    """Skip placers whose card has no legal cell (unless the ship could free one); end
    the round when nobody is left."""
    while True:
        st = log.state
        if st.phase == "over" or step_waits(st):  # e.g. Décisions' second canal
            return
        if st.order:
            seat = st.order[0]
            card = st.revealed[seat]
            if legal_cells_now(st, seat, card):
                return
            no_cell = NoCell(seat, card)
            _run(log, no_cell, "no_cell", None)  # the steps of NO_CELL
            if no_cell.returned:
                continue
            return  # the placer may still play (the ship, a rule's other play)
        _end_round(log)
        return


class NoCell:
    """A placer whose card has no legal cell: the steps of NO_CELL say whether the placer
    may still play (a step stops the list: the ship may free a cell, a rule's other play)
    or the card goes back to the hand (``reason``: a rule's, set by its step)."""

    __slots__ = ("seat", "card", "reason", "returned")

    def __init__(self, seat: int, card: int):
        self.seat, self.card, self.reason, self.returned = seat, card, "no_legal_cell", False


def _no_cell_ship(log: DecideContext, turn: NoCell) -> bool:
    """Moving the ship (somewhere) and removing a dock may free a cell: the placer plays."""
    st = log.state
    return bool(ship_commands(st, turn.seat)) and any_removal(st)


def _no_cell_returned(log: DecideContext, turn: NoCell) -> bool:
    """The card goes back to the hand, for its reason."""
    log.emit(ev.CardReturned(turn.seat, turn.card, turn.reason))
    turn.returned = True
    return True


#: a placer whose card has no legal cell, in order (name, step(context, NoCell) -> bool):
#: True stops the list (the placer plays, unless the card was returned); the rules insert
#: theirs (the blockade's ship and reason, a flood played as two water cards)
NO_CELL: tuple[tuple[str, object], ...] = (
    ("ship_may_free", _no_cell_ship),
    ("card_returned", _no_cell_returned),
)


def _end_round(log: DecideContext) -> None:
    """The round's end: the steps of ROUND_END (with the rules' own)."""
    _run(log, None, "end", None)


def _idle(st: KontorState) -> int:
    return 0 if st.placed_this_round else st.idle_rounds + 1


def _step_game_end(log: DecideContext, turn: None) -> bool:
    """The game ends here: idle rounds, or nobody can place (a rule's own end: its step
    before this one)."""
    st = log.state
    if _idle(st) >= st.options.idle_round_limit:
        _end_game(log, "idle")
        return True
    if not any(_can_place_any(st, s) for s in range(st.seat_count)):
        _end_game(log, "stalled")
        return True
    return False


def _step_new_round(log: DecideContext, turn: None) -> bool:
    """The next round starts (what it opens: the rules' steps after this one)."""
    st = log.state
    log.emit(ev.RoundStarted(st.round + 1, _idle(st)))
    return False


#: the round's end, in order (name, step); the rules insert theirs (a rule's own end
#: before "game_end"; what a new round opens after "new_round")
ROUND_END: tuple[tuple[str, object], ...] = (
    ("game_end", _step_game_end),
    ("new_round", _step_new_round),
)


def _can_place_any(st: KontorState, seat: int) -> bool:
    """Does the seat hold a card with a legal cell, or a ship card while the ship may
    free a cell by removing a dock? (Cards of the same kind share their legal cells, so
    one card of each kind is enough to try; a flood played as canals needs the canals in
    hand, which the canals' own cells already answer.)"""
    cells = occupancy(st)
    tried: set[tuple] = set()
    for card in st.hands[seat]:
        c = CARDS[card]
        key = (c.kind, c.is_dock, len(c.goods) <= 1)
        if key in tried:
            continue
        tried.add(key)
        if placement_cells(st, cells, card, seat):
            return True
    ship_card = any(CARDS[card].ship for card in st.hands[seat])
    return st.options.ship and st.ship is not None and ship_card and any_removal(st)


class GameEnd:
    """The game's end being carried out: why, the winners a rule named (None: by the
    points; special rules A: Misère names them), the final points as the steps count them."""

    __slots__ = ("reason", "winners", "points")

    def __init__(self, reason: str, winners: tuple[int, ...] | None):
        self.reason, self.winners, self.points = reason, winners, ()


def _end_game(log: DecideContext, reason: str, winners: tuple[int, ...] | None = None) -> None:
    _run(log, GameEnd(reason, winners), "game_end", None)  # the steps of GAME_END


def _step_final_selection(log: DecideContext, end: GameEnd) -> bool:
    """The points: every sector's, or those of the sectors the final count selects."""
    st = log.state
    end.points = st.points
    if st.options.final_selection != "all":
        counted, eliminated, sizes, dists = select_final(st, occupancy(st))
        end.points = final_points(st, counted)
        log.emit(ev.FinalSectorsCounted(counted, eliminated, sizes, dists, end.points))
    return False


def _step_game_ended(log: DecideContext, end: GameEnd) -> bool:
    st = log.state
    winners = end.winners if end.winners is not None else _winners(st, end.points, st.money)
    log.emit(ev.GameEnded(end.reason, end.points, st.money, winners))
    return False


#: the game's end, in order (name, step(context, GameEnd) -> bool): the rules' steps
#: before "final_selection" may make the end wait for them (True: a decision pending,
#: Vieilles rancunes); those after it add to ``end.points`` (the expansions' bonuses)
GAME_END: tuple[tuple[str, object], ...] = (
    ("final_selection", _step_final_selection),
    ("game_ended", _step_game_ended),
)


def winners(points: tuple[int, ...], money: tuple[int, ...]) -> tuple[int, ...]:
    """Most points; tie: most money; still tied: shared win ("ex æquo") -- one seat per
    side (the basic game)."""
    best = max(zip(points, money))
    return tuple(s for s in range(len(points)) if (points[s], money[s]) == best)


def _move_ship(log: DecideContext, seat: int, cmd: MoveShip) -> None:
    st = log.state
    if not may_move_ship(st, seat):
        raise RuleViolation(
            "kontor.no_ship_move",
            "The ship moves only before placing a card that shows a ship, once (« Quand un "
            "joueur joue une carte avec un bateau, il peut alors ... déplacer le bateau »).",
        )
    cells = occupancy(st)
    if (cmd.x, cmd.y) not in ship_targets(st, cells):
        raise RuleViolation(
            "kontor.ship_target",
            "The ship moves to any water card but the one it is on (« sur n'importe quel "
            "canal de son choix sur le plateau sauf celui sur lequel il se trouve »).",
        )
    removal = None
    if cmd.remove_x is not None or cmd.remove_y is not None:
        removal = (cmd.remove_x, cmd.remove_y)
        if removal not in removable(st, cells, (cmd.x, cmd.y)):
            raise RuleViolation(
                "kontor.not_removable",
                "Only a dock showing a ship, next to the ship's new water card and outside "
                "finished sectors, may be removed (« Les docks sans bateau sont inamovibles, "
                "ainsi que tous les canaux et tous les docks d'un secteur terminé »).",
            )
        choices = pile_seats(st, cells[removal])
        to_seat = cmd.to_seat
        if to_seat is None and len(choices) == 1:
            to_seat = choices[0]
        if to_seat not in choices:
            raise RuleViolation(
                "kontor.removal_pile",
                "The removed dock goes under its owner's pile "
                f"(seats {list(choices)}: « il peut choisir lequel de ses adversaires mettra "
                "la carte sous sa pile »).",
            )
    elif cmd.to_seat is not None:
        raise RuleViolation("kontor.removal_pile", "to_seat is given only with a removal.")
    if removal is None:
        move = ShipMove(seat, cmd.x, cmd.y, None, None, None)
    else:
        move = ShipMove(seat, cmd.x, cmd.y, removal, to_seat, cells[removal])
    _run(log, move, "ship", None)  # the steps of SHIP_MOVE


class ShipMove:
    """A ship's move being carried out: the mover, the new water card, the dock removed
    (its cell, the seat whose pile takes it, the card) or None."""

    __slots__ = ("seat", "x", "y", "removal", "to_seat", "card")

    def __init__(self, seat: int, x: int, y: int, removal, to_seat, card):
        self.seat, self.x, self.y = seat, x, y
        self.removal, self.to_seat, self.card = removal, to_seat, card


def _step_ship_moved(log: DecideContext, move: ShipMove) -> bool:
    log.emit(ev.ShipMoved(move.seat, move.x, move.y))
    return False


def _step_dock_removed(log: DecideContext, move: ShipMove) -> bool:
    if move.removal is not None:
        log.emit(ev.DockRemoved(move.seat, move.card, move.removal[0], move.removal[1], move.to_seat))
    return False


#: the ship's move, once checked, in order (name, step(context, ShipMove) -> bool); the
#: rules insert theirs (the export warehouse's before "dock_removed")
SHIP_MOVE: tuple[tuple[str, object], ...] = (
    ("ship_moved", _step_ship_moved),
    ("dock_removed", _step_dock_removed),
)


# ---------------------------------------------------------------------------------------
# A placer's turn: one list of steps. A step returns True when the turn stops there (a
# rule's step waits for a command, or the game ended); the rule's command resumes the
# turn from a later step (DecideContext.after_warehouses, finish_place,
# income_and_advance). The extensions' steps are asked at their place in this list.


class Turn:
    """The placer's turn being carried out: the card, its cell, the replacement pile
    ("auto": by the card's kind, known after scoring), an export (expansions), and
    whether a rule's step before "warehouses" took care of the dock's warehouses."""

    __slots__ = ("seat", "card", "at", "draw", "export", "warehoused")

    def __init__(self, seat: int, card: int, at=None, draw: str | None = "auto", export=None):
        self.seat, self.card, self.at, self.draw, self.export = seat, card, at, draw, export
        self.warehoused = False


def _step_place(log: DecideContext, turn: Turn) -> bool:
    """The card on its cell (legal cells: placement.py); rules' after_card_placed."""
    st = log.state
    seat, card, (x, y) = turn.seat, turn.card, turn.at
    cells = occupancy(st)
    if (x, y) not in placement_cells(st, cells, card, seat):
        raise placement_error(st, cells, card, seat, (x, y))
    turn.draw = _draw_pile(st, seat, card)
    log.emit(ev.CardPlaced(seat, card, x, y, cells.get((x, y))))
    return False


def _step_warehouses(log: DecideContext, turn: Turn) -> bool:
    """A goods dock's warehouses as printed (placed_goods), unless a rule's step before
    this one took care of them (``turn.warehoused``: exported, chosen, taken another way)."""
    seat, card = turn.seat, turn.card
    c = CARDS[card]
    if c.is_dock and c.goods and not turn.warehoused:
        goods = placed_goods(log.state, seat, card)
        if goods:
            log.emit(ev.WarehousesAdded(seat, card, goods))
    return False


def _step_score(log: DecideContext, turn: Turn) -> bool:
    """Closed sectors scored; the scenarios' early ends."""
    score_closed_sectors(log)
    return log.ends_early()


def _step_draw_pile(log: DecideContext, turn: Turn) -> bool:
    """The replacement pile, when a rule's step resumed the turn after scoring."""
    if turn.draw == "auto":
        turn.draw = _draw_pile(log.state, turn.seat, turn.card)
    return False


def _step_board_full(log: DecideContext, turn: Turn) -> bool:
    """The board is full: « La partie s'arrête immédiatement quand les 36 cases du
    plateau 6x6 sont remplies »."""
    st = log.state
    if len(occupancy(st)) >= st.options.board_cells:
        _end_game(log, "board_full")
        return True
    return False


def _step_draw(log: DecideContext, turn: Turn) -> bool:
    """The replacement draw (a rule's draw step, inserted before, may have taken it)."""
    st, seat, draw = log.state, turn.seat, turn.draw
    if draw is None:
        pass  # « Quand un joueur place une carte spéciale, il ne tire pas de carte »
    elif draw == "dock":
        pile = st.dock_piles[seat]
        if pile:
            log.emit(ev.CardDrawn(seat, pile[0], "dock"))
    elif st.water_pile:
        log.emit(ev.CardDrawn(seat, st.water_pile[0], "water"))
    return False


def _step_income(log: DecideContext, turn: Turn) -> bool:
    """A canal's income: a flood is water but « on ne touche cependant aucun florin en les
    plaçant »."""
    if CARDS[turn.card].kind == "water":
        amount = min(SETUP["canal_income"], log.state.treasury)
        if amount:
            log.emit(ev.IncomePaid(turn.seat, amount))
    return False


def _step_next(log: DecideContext, turn: Turn) -> bool:
    """The next placer with a legal cell, or the round's end."""
    _advance(log)
    return False


#: a placer's turn, in order (name, step(context, turn) -> bool): the core's steps. The
#: rules insert theirs (``hooks.add_step(name, step, before=... | after=...)``):
#: turn_steps() is the whole list of the game
TURN_STEPS: tuple[tuple[str, object], ...] = (
    ("place", _step_place),
    ("warehouses", _step_warehouses),
    ("score", _step_score),
    ("draw_pile", _step_draw_pile),
    ("board_full", _step_board_full),
    ("draw", _step_draw),
    ("income", _step_income),
    ("next", _step_next),
)

def _step_pass_income(log: DecideContext, seat: int) -> bool:
    """« le joueur passe, prend le florin »."""
    log.emit(ev.Passed(seat, min(SETUP["pass_income"], log.state.treasury)))
    return False


#: a seat's Pass, in order (name, step(context, seat) -> bool): a rule records the pass
#: its own way before "pass_income" and stops the list (Marins ivres morts' secret pass)
PASS_STEPS: tuple[tuple[str, object], ...] = (("pass_income", _step_pass_income),)


def _nothing_more(log: DecideContext, turn) -> bool:
    return False


# The three lists below have nothing of the core's to do: their one step is where the
# rules' steps are placed (after it), so that each reads like the other lists.
#: after a rule's own set-up phase (Justice's starting docks), before the first round's
#: choice (step(context, None)): e.g. the special cards' first buying
SETUP_DONE: tuple[tuple[str, object], ...] = (("setup_over", _nothing_more),)
#: after closed sectors were scored (step(context, index of the first new sector in
#: state.scored)), wherever they were scored (a turn's "score", a rule's own placement)
SECTORS_SCORED: tuple[tuple[str, object], ...] = (("sectors_scored", _nothing_more),)
#: after every command (step(context, None)): a rule's early end between two moves
AFTER_COMMAND: tuple[tuple[str, object], ...] = (("command_over", _nothing_more),)

#: the core's step lists: the set-up (setup.py), a Pass, after the choice, a placer's turn, the round's end, and
#: the moments the rules' steps follow (the set-up's end, sectors scored, any command)
CORE_STEPS = {
    "start": START_STEPS,
    "pass": PASS_STEPS,
    "setup": SETUP_DONE,
    "scored": SECTORS_SCORED,
    "command": AFTER_COMMAND,
    "game_end": GAME_END,
    "choice": AFTER_CHOICE,
    "no_cell": NO_CELL,
    "ship": SHIP_MOVE,
    "turn": TURN_STEPS,
    "end": ROUND_END,
}

def _steps(rules: Hooks, which: str) -> tuple:
    """(the steps of list ``which`` (a key of CORE_STEPS) in a game with these rules,
    {name: index}), kept in the rule set (hooks.step_list)."""
    return step_list(rules, which, CORE_STEPS[which])


def choice_steps(rules: Hooks = CATALOGUE) -> tuple[tuple[str, object], ...]:
    """After the choice, with the rules' steps (by default every rule's), in order."""
    return _steps(rules, "choice")[0]


def turn_steps(rules: Hooks = CATALOGUE) -> tuple[tuple[str, object], ...]:
    """A placer's turn with the rules' steps (by default every rule's), in order."""
    return _steps(rules, "turn")[0]


def round_end_steps(rules: Hooks = CATALOGUE) -> tuple[tuple[str, object], ...]:
    """The round's end with the rules' steps (by default every rule's), in order."""
    return _steps(rules, "end")[0]


def _run(log: DecideContext, turn, which: str, start: str | None) -> None:
    """Carry out the steps from ``start`` (None: the first, a rule's own) on, until a
    step stops."""
    steps, index = _steps(log.rules, which)
    for _, step in steps[index[start] if start is not None else 0 :]:
        if step(log, turn):
            return


def _turn(log: DecideContext, turn: Turn, start: str) -> None:
    """Carry out the turn from the step ``start`` on, until a step stops it."""
    _run(log, turn, "turn", start)


#: The round, in order, for a reader: round_order(). The seats choose (ChooseCard, Pass,
#: a rule's own choice command), then AFTER_CHOICE, then each placer's turn (TURN_STEPS
#: and the rules' steps; "next" hands on to the next placer: _advance), then the round's
#: end (ROUND_END and the rules' steps). A rule's own phase (Justice's starting docks,
#: the special cards' buying, a tavern decision) comes first while it lasts: to_act and
#: legal_commands ask the rules, decide sends their commands through the command chain.
def round_order(rules: Hooks = CATALOGUE) -> tuple[str, ...]:
    """The round, in order, the rules' steps included (by default every rule's; a game's:
    ``round_order(rules_for(options))``)."""
    return (
        *(f"start: {name}" for name, _ in _steps(rules, "start")[0]),
        *(f"setup: {name}" for name, _ in _steps(rules, "setup")[0]),
        "choose",
        *(f"pass: {name}" for name, _ in _steps(rules, "pass")[0]),
        *(name for name, _ in choice_steps(rules)),
        *(f"no cell: {name}" for name, _ in _steps(rules, "no_cell")[0]),
        *(f"ship: {name}" for name, _ in _steps(rules, "ship")[0]),
        *(f"turn: {name}" for name, _ in turn_steps(rules)),
        *(f"end: {name}" for name, _ in round_end_steps(rules)),
        *(f"game end: {name}" for name, _ in _steps(rules, "game_end")[0]),
        *(f"scored: {name}" for name, _ in _steps(rules, "scored")[0]),
        *(f"command: {name}" for name, _ in _steps(rules, "command")[0]),
    )


def _place(log: DecideContext, seat: int, x: int, y: int, export: str | None = None) -> None:
    _turn(log, Turn(seat, log.state.revealed[seat], (x, y), export=export), "place")


def _draw_pile(st: KontorState, seat: int, card: int) -> str | None:
    """The pile of the replacement draw: data.replacement_pile, unless a rule swaps it."""
    own = rules_for(st.options).swaps.draw_pile  # Contrebande: a face-down card's own pile
    return replacement_pile(card) if own is None else own(st, seat, card)


def _after_warehouses(
    log: DecideContext, seat: int, card: int, at: tuple[int, int] | None = None, draw: str | None = "auto"
) -> None:
    """The turn from the scoring on (a rule's step chose the warehouses)."""
    _turn(log, Turn(seat, card, at, draw), "score")


def _finish_place(log: DecideContext, seat: int, card: int, draw: str | None) -> None:
    """The turn from the board-full check on: draw from ``draw``, income, next."""
    _turn(log, Turn(seat, card, draw=draw), "board_full")


def _income_and_advance(log: DecideContext, seat: int, card: int) -> None:
    """The turn from the income on (a rule's draw step was done)."""
    _turn(log, Turn(seat, card), "income")
