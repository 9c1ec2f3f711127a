"""Kontor rules: start, decide, to_act, legal_commands. Every check and draw is here."""

from __future__ import annotations

from domain.decider import GameOver, Issued, NotYourTurn, RuleViolation
from domain.kontor import events as ev
from domain.kontor.board import (
    bounds,
    crane_blocks,
    is_closed,
    legal_cells,
    neighbours,
    occupancy,
    possible,
    sectors,
    supremacy,
    warehouse_counts,
)
from domain.kontor.commands import ChooseCard, Pass, PlaceCard
from domain.kontor.data import CARDS, SETUP, dock_deck, water_deck
from domain.kontor.evolve import evolve
from domain.kontor.options import Options
from domain.kontor.state import Cell, KontorState
from domain.rng import Rng

RULES_VERSION = "kontor-basic-1"


# ---------------------------------------------------------------------------------------
# Setup


def cross_positions(arm: int) -> list[tuple[int, int]]:
    """The starting cross around the anchor: "huit premières cartes ... une croix"."""
    out = []
    for d in range(1, arm + 1):
        out += [(0, -d), (-d, 0), (d, 0), (0, d)]
    return sorted(out, key=lambda p: (p[1], p[0]))


def start(options: Options, seat_count: int, seed_hex: str) -> list:
    rng = Rng(seed_hex, 0)
    water = list(rng.shuffle(water_deck()))
    positions = cross_positions(SETUP["cross_arm"])
    cross = [Cell(0, 0, 0)] + [Cell(x, y, water.pop(0)) for x, y in positions]
    hands: list[tuple[int, ...]] = []
    piles: list[tuple[int, ...]] = []
    water_hands: list[tuple[int, ...]] = []
    for _seat in range(seat_count):
        water_hands.append(tuple(water.pop(0) for _ in range(SETUP["hand_water"])))
    for seat in range(seat_count):
        deck = rng.shuffle(dock_deck(seat))
        k = SETUP["hand_docks"]
        hands.append(deck[:k] + water_hands[seat])
        piles.append(deck[k:])
    money = SETUP["starting_money"]
    return [
        ev.GameStarted(
            options=options,
            seat_count=seat_count,
            seed=seed_hex,
            rules_version=RULES_VERSION,
            rng_counter=rng.counter,
            cross=tuple(cross),
            hands=tuple(hands),
            dock_piles=tuple(piles),
            water_pile=tuple(water),
            money=(money,) * seat_count,
            treasury=SETUP["treasury_total"] - money * seat_count,
        )
    ]


# ---------------------------------------------------------------------------------------
# Who acts, what they may send


def to_act(state: KontorState) -> tuple[int, ...]:
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


def legal_commands(state: KontorState, seat: int) -> list:
    if seat not in to_act(state):
        return []
    if state.phase == "choose":
        return [ChooseCard(c) for c in sorted(state.hands[seat])] + [Pass()]
    card = placing_card(state)
    cells = legal_cells(occupancy(state), card, seat, state.options.board_size)
    return [PlaceCard(x, y) for x, y in cells]


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
    else:
        raise RuleViolation("kontor.unknown_command", f"Unknown command {command!r}.")
    return log.events


def _after_choice(log: _Log) -> None:
    st = log.state
    if any(st.chosen[s] is None and not st.passed[s] for s in range(st.seat_count)):
        return
    log.emit(ev.CardsRevealed(tuple(st.chosen)))
    _taxes(log)
    st = log.state
    playing = [
        s for s in range(st.seat_count) if st.revealed[s] is not None and not _returned(st, s)
    ]
    order = tuple(sorted(playing, key=lambda s: -st.revealed[s]))
    log.emit(ev.TurnOrderSet(order))
    _advance(log)


def _returned(st: KontorState, seat: int) -> bool:
    return any(r[0] == seat for r in st.returned)


def _taxes(log: _Log) -> None:
    """Impôts: a florin card makes each opponent that plays a card pay 1 to the treasury."""
    st = log.state
    n = st.seat_count
    cards = st.revealed
    florin = [c is not None and CARDS[c].florin for c in cards]
    # a seat that passed is spared all tax; otherwise it owes if an opponent shows a florin
    owes = [
        s for s in range(n) if cards[s] is not None and any(florin[o] for o in range(n) if o != s)
    ]
    if not owes:
        return
    tax = SETUP["tax"]
    unable = [s for s in owes if st.money[s] < tax]
    if len(unable) == len(owes) and len(owes) == n:
        # "ils en sont alors tous deux dispensés, et reçoivent au contraire un florin"
        treasury = st.treasury
        gifts = []
        for _s in owes:
            g = min(SETUP["exemption_income"], treasury)
            treasury -= g
            gifts.append(g)
        log.emit(ev.TaxWaived(tuple(owes), tuple(gifts)))
        return
    for s in unable:
        # "vous devez reprendre la carte que vous aviez jouée dans la main"
        log.emit(ev.CardReturned(s, cards[s], "tax_unpaid"))
    for s in owes:
        if s in unable:
            continue
        # "Si la carte que vous reprenez en main montrait un florin, votre adversaire n'a
        # plus à payer l'impôt."
        still_taxing = [o for o in range(n) if o != s and florin[o] and o not in unable]
        if still_taxing:
            log.emit(ev.TaxPaid(s, tax))
        else:
            log.emit(ev.TaxCancelled(s))


def _advance(log: _Log) -> None:
    """Skip placers whose card has no legal cell; end the round when nobody is left."""
    while True:
        st = log.state
        if st.phase == "over":
            return
        if st.order:
            seat = st.order[0]
            card = st.revealed[seat]
            if legal_cells(occupancy(st), card, seat, st.options.board_size):
                return
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
    """Does the seat hold a card with a legal cell? (All docks of a seat share their legal
    cells, and all canals theirs, so one card of each kind is enough to try.)"""
    cells = occupancy(st)
    size = st.options.board_size
    tried: set[bool] = set()
    for card in st.hands[seat]:
        is_dock = CARDS[card].is_dock
        if is_dock in tried:
            continue
        tried.add(is_dock)
        if legal_cells(cells, card, seat, size):
            return True
    return False


def _end_game(log: _Log, reason: str) -> None:
    st = log.state
    log.emit(ev.GameEnded(reason, st.points, st.money, winners(st.points, st.money)))


def winners(points: tuple[int, ...], money: tuple[int, ...]) -> tuple[int, ...]:
    """Most points; tie: most money; still tied: shared win ("ex æquo")."""
    best = max(zip(points, money))
    return tuple(s for s in range(len(points)) if (points[s], money[s]) == best)


def _place(log: _Log, seat: int, x: int, y: int) -> None:
    st = log.state
    card = st.revealed[seat]
    cells = occupancy(st)
    size = st.options.board_size
    if (x, y) not in legal_cells(cells, card, seat, size):
        raise _placement_error(cells, card, seat, size, (x, y))
    log.emit(ev.CardPlaced(seat, card, x, y))
    c = CARDS[card]
    if c.is_dock and c.goods:
        log.emit(ev.WarehousesAdded(seat, card, c.goods))
    _score_closed_sectors(log)
    st = log.state
    if len(st.board) >= size * size:
        # "La partie s'arrête immédiatement quand les 36 cases du plateau 6x6 sont remplies."
        _end_game(log, "board_full")
        return
    if c.is_dock:
        pile = st.dock_piles[seat]
        if pile:
            log.emit(ev.CardDrawn(seat, pile[0], "dock"))
    elif st.water_pile:
        log.emit(ev.CardDrawn(seat, st.water_pile[0], "water"))
    if c.is_water:
        amount = min(SETUP["canal_income"], log.state.treasury)
        if amount:
            log.emit(ev.IncomePaid(seat, amount))
    _advance(log)


def _placement_error(cells, card, seat, size, pos) -> RuleViolation:
    if pos in cells:
        return RuleViolation("kontor.cell_occupied", "Cards may not be covered ('ni recouvertes').")
    if not any(n in cells for n in neighbours(pos)):
        return RuleViolation(
            "kontor.not_adjacent",
            "The card must touch a card on the table by a side ('doit toucher par un côté').",
        )
    if not possible(pos, bounds(cells), size):
        return RuleViolation(
            "kontor.board_limit",
            "The port is 6x6: once the layout is 6 wide or high it may not grow that way.",
        )
    if CARDS[card].is_dock and crane_blocks(cells, pos, seat):
        return RuleViolation(
            "kontor.crane_blocks_dock",
            "A dock may not be placed next to an opponent's crane (canals may).",
        )
    return RuleViolation("kontor.illegal_cell", "This card may not be placed there.")


def _score_closed_sectors(log: _Log) -> None:
    """ "Quand un secteur est entièrement terminé, on détermine immédiatement le joueur qui
    l'emporte." Every closed sector not yet scored is scored now."""
    st = log.state
    cells = occupancy(st)
    size = st.options.board_size
    done = {frozenset(s.cells) for s in st.scored}
    for sector in sectors(cells):
        if sector in done or not is_closed(cells, sector, size):
            continue
        st = log.state
        counts = warehouse_counts(cells, sector, st.warehouses, st.seat_count)
        winner, rule = supremacy(counts)
        guardian = None
        if winner is not None:
            guardian = _distribution_centre(st, sector, winner)
        ordered = tuple(sorted(sector, key=lambda p: (p[1], p[0])))
        returned = tuple(sorted(cells[p] for p in sector if cells[p] in st.warehouses))
        log.emit(
            ev.SectorScored(
                cells=ordered,
                warehouses=counts,
                winner=winner,
                rule=rule,
                guardian=guardian,
                points=SETUP["guardian_points"] if winner is not None else 0,
                warehouses_returned=returned,
            )
        )


def _distribution_centre(st: KontorState, sector, seat: int) -> tuple[int, int] | None:
    """The first goods dock the seat placed in the sector (where its warehouses are shown)."""
    for cell in st.board:
        if (
            (cell.x, cell.y) in sector
            and cell.card in st.warehouses
            and CARDS[cell.card].owner == seat
        ):
            return (cell.x, cell.y)
    return None
