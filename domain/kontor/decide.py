"""Kontor rules: to_act, legal_commands, decide. The round's structure lives here; each
concern has its module: setup.py (layouts, deal), placement.py (where a card may go),
ship.py (the patrol ship), taxes.py, scoring.py (sectors, final selection, winners),
sides.py (colours, teams, tax pairs)."""

from __future__ import annotations

from domain.decider import GameOver, Issued, NotYourTurn, RuleViolation
from domain.kontor import events as ev
from domain.kontor import scenarios
from domain.kontor.board import occupancy
from domain.kontor.commands import ChooseCard, MoveShip, Pass, PlaceCard
from domain.kontor.data import CARDS, SETUP
from domain.kontor.evolve import evolve
from domain.kontor.placement import placement_cells, placement_error
from domain.kontor.scoring import final_points, score_closed_sectors, select_final
from domain.kontor.scoring import winners as _winners
from domain.kontor.setup import RULES_VERSION, cross_positions, start
from domain.kontor.ship import any_removal, may_move_ship, pile_seats, removable, ship_commands
from domain.kontor.ship import targets as ship_targets
from domain.kontor.state import KontorState
from domain.kontor.taxes import collect_taxes

__all__ = [
    "RULES_VERSION",
    "cross_positions",
    "decide",
    "legal_commands",
    "placing_card",
    "start",
    "to_act",
    "winners",
]


# ---------------------------------------------------------------------------------------
# Who acts, what they may send


def to_act(state: KontorState) -> tuple[int, ...]:
    pending = scenarios.pending_seat(state)  # scenarios: a decision after a placement
    if pending is not None:
        return (pending,)
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
    if scenarios.pending_seat(state) is not None:
        return scenarios.pending_commands(state, seat)
    if state.phase == "choose":
        return (
            [ChooseCard(c) for c in sorted(state.hands[seat])]
            + [Pass()]
            + scenarios.extra_commands(state, seat)  # scenarios: bribes
        )
    card = placing_card(state)
    cells = legal_cells_now(state, seat, card)
    return [PlaceCard(x, y) for x, y in cells] + ship_commands(state, seat)


# ---------------------------------------------------------------------------------------
# decide


class _Log:
    """Events recorded so far in this decide call, and the state they lead to."""

    def __init__(self, state: KontorState):
        self.state = state
        self.events: list = []

    def emit(self, event) -> None:
        self.events.append(event)
        self.state = evolve(self.state, event)


def decide(state: KontorState, issued: Issued) -> list:
    if state.phase == "over":
        raise GameOver()
    seat = issued.seat
    if seat is None or seat not in to_act(state):
        raise NotYourTurn()
    command = issued.command
    log = _Log(state)
    # --- scenarios: bribes, second canal, raised warehouses ---
    if scenarios.pending_seat(state) is not None and not isinstance(
        command, scenarios.SCENARIO_COMMANDS
    ):
        raise RuleViolation(
            "kontor.decision_pending",
            "Finish the pending decision first (second canal or raised warehouse).",
        )
    if scenarios.decide_command(log, seat, command, _end_game, _advance):
        return log.events
    if isinstance(command, ChooseCard):
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
        florins = min(SETUP["pass_income"], state.treasury)
        log.emit(ev.Passed(seat, florins))
        _after_choice(log)
    elif isinstance(command, PlaceCard):
        if state.phase != "place":
            raise RuleViolation("kontor.not_placing", "Cards are placed only after the reveal.")
        _place(log, seat, command.x, command.y)
    elif isinstance(command, MoveShip):
        _move_ship(log, seat, command)
    else:
        raise RuleViolation("kontor.unknown_command", f"Unknown command {command!r}.")
    return log.events


def _after_choice(log: _Log) -> None:
    st = log.state
    if any(st.chosen[s] is None and not st.passed[s] for s in range(st.seat_count)):
        return
    log.emit(ev.CardsRevealed(tuple(st.chosen)))
    collect_taxes(log)
    st = log.state
    playing = [
        s for s in range(st.seat_count) if st.revealed[s] is not None and not _returned(st, s)
    ]
    order = tuple(sorted(playing, key=lambda s: -st.revealed[s]))
    log.emit(ev.TurnOrderSet(order))
    _advance(log)


def _returned(st: KontorState, seat: int) -> bool:
    return any(r[0] == seat for r in st.returned)


def _advance(log: _Log) -> None:
    """Skip placers whose card has no legal cell (unless the ship could free one); end
    the round when nobody is left."""
    while True:
        st = log.state
        if st.phase == "over" or scenarios.pending_seat(st) is not None:
            return
        if st.order:
            seat = st.order[0]
            card = st.revealed[seat]
            if legal_cells_now(st, seat, card):
                return
            if may_move_ship(st, seat) and any_removal(st):
                return  # moving the ship and removing a dock may free a cell
            log.emit(ev.CardReturned(seat, card, "no_legal_cell"))
            continue
        _end_round(log)
        return


def _end_round(log: _Log) -> None:
    st = log.state
    idle = 0 if st.placed_this_round else st.idle_rounds + 1
    if idle >= st.options.idle_round_limit:
        _end_game(log, "idle")
        return
    if not any(_can_place_any(st, s) for s in range(st.seat_count)):
        _end_game(log, "stalled")
        return
    log.emit(ev.RoundStarted(st.round + 1, idle))


def _can_place_any(st: KontorState, seat: int) -> bool:
    """Does the seat hold a card with a legal cell? (Cards of the same kind share their
    legal cells, so one card of each kind is enough to try.)"""
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
    return False


def _end_game(log: _Log, reason: str) -> None:
    st = log.state
    points = st.points
    if st.options.final_selection != "all":
        counted, eliminated, sizes, dists = select_final(st, occupancy(st))
        points = final_points(st, counted)
        log.emit(ev.FinalSectorsCounted(counted, eliminated, sizes, dists, points))
        st = log.state
    log.emit(ev.GameEnded(reason, points, st.money, _winners(st, points, st.money)))


def winners(points: tuple[int, ...], money: tuple[int, ...]) -> tuple[int, ...]:
    """Most points; tie: most money; still tied: shared win ("ex æquo") -- one seat per
    side (the basic game)."""
    best = max(zip(points, money))
    return tuple(s for s in range(len(points)) if (points[s], money[s]) == best)


def _move_ship(log: _Log, seat: int, cmd: MoveShip) -> None:
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
                "The removed dock goes under the pile of a player of its colour "
                f"(seats {list(choices)}: « il peut choisir lequel de ses adversaires mettra "
                "la carte sous sa pile »).",
            )
    elif cmd.to_seat is not None:
        raise RuleViolation("kontor.removal_pile", "to_seat is given only with a removal.")
    log.emit(ev.ShipMoved(seat, cmd.x, cmd.y))
    if removal is not None:
        card = cells[removal]
        log.emit(ev.DockRemoved(seat, card, removal[0], removal[1], to_seat))
    _advance(log)


def _place(log: _Log, seat: int, x: int, y: int) -> None:
    st = log.state
    card = st.revealed[seat]
    cells = occupancy(st)
    if (x, y) not in placement_cells(st, cells, card, seat):
        raise placement_error(st, cells, card, seat, (x, y))
    log.emit(ev.CardPlaced(seat, card, x, y, cells.get((x, y))))
    c = CARDS[card]
    goods = scenarios.take_goods(log, seat, card) if c.is_dock else ()  # scenarios: supplies
    if c.is_dock and goods:
        log.emit(ev.WarehousesAdded(seat, card, goods))
    score_closed_sectors(log)
    if scenarios.after_scoring(log, _end_game):  # scenarios: early ends
        return
    st = log.state
    if len(occupancy(st)) >= st.options.board_cells:
        # "La partie s'arrête immédiatement quand les 36 cases du plateau 6x6 sont remplies."
        _end_game(log, "board_full")
        return
    if c.is_special:
        pass  # « Quand un joueur place une carte spéciale, il ne tire pas de carte »
    elif c.is_dock:
        pile = st.dock_piles[seat]
        if pile:
            log.emit(ev.CardDrawn(seat, pile[0], "dock"))
    elif st.water_pile:
        log.emit(ev.CardDrawn(seat, st.water_pile[0], "water"))
    if c.kind == "water":
        # a flood is water but « on ne touche cependant aucun florin en les plaçant »
        amount = min(SETUP["canal_income"], log.state.treasury)
        if amount:
            log.emit(ev.IncomePaid(seat, amount))
    scenarios.after_turn(log, seat, card)  # scenarios: raised warehouses, second canal
    _advance(log)
