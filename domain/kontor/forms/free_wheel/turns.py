"""« Roue libre » (2 or 4 players) and « Roue libre individuelle » (3 or 4 players).

« On joue avec les règles originales du jeu avancé, en tenant compte des modifications
suivantes » — set-up (1-4), the free choice of the pile to draw from (5), turns one after
another (6), taxes on every opponent (7), scoring only at the end (8, 11), diagonal cranes
(9, fw_placement.py), drunk dock workers (10).  Free for all adds one dock pile with
ownership by who plays a dock, the goods order spice > tea > wine and alliances
(alliances.py); scoring with N parties is in fw_scoring.py.

A turn (phase ``turn``): the seat may first move its taverns' coins (SetDrunkDock) and,
in free for all, propose or leave alliances; then it plays a card (ChooseCard: public at
once, CardPlayed) or passes (Pass: +1 florin).  Phase ``place``: MoveShip / PlaceCard as in
the advanced game.  Then the taxes of a florin card, the canal's income, the tavern's
coin (phase ``drunk``) and the draw (phase ``draw`` when there is a real choice; automatic
otherwise).  Then the next seat clockwise (seat + 1).
"""

from __future__ import annotations

from collections.abc import Mapping

from domain.decider import RuleViolation
from domain.kontor.core import events as ev
from domain.kontor.core.board import Pos, is_closed, occupancy, sector_of, sectors
from domain.kontor.core.commands import ChooseCard, DrawCard, MoveShip, Pass, PlaceCard
from domain.kontor.core.data import CARDS, SETUP, dock_deck, special_cards, water_deck
from domain.kontor.core.free_draw import free_draw_piles
from domain.kontor.core.hooks import EVERY_COMMAND
from domain.kontor.core.options import Options
from domain.kontor.core.placement import box_of, placement_cells, placement_error
from domain.kontor.core.scoring import winners
from domain.kontor.core.setup import step_deal
from domain.kontor.core.ship import any_removal, may_move_ship, ship_commands
from domain.kontor.core.sides import seats_of, side_count, side_of
from domain.kontor.core.state import Cell, KontorState
from domain.kontor.core.versions import FREE_WHEEL_DRAW_BY_PILE, rules_version_of
from domain.kontor.forms.free_wheel import alliances
from domain.kontor.forms.free_wheel.commands import (
    AcceptAlliance,
    DeclineAlliance,
    LeaveAlliance,
    ProposeAlliance,
    SetDrunkDock,
)
from domain.kontor.forms.free_wheel.events import (
    CardPlayed,
    DockSobered,
    DrunkDockSet,
    SectorCounted,
    StepStarted,
    TaxUnpaid,
    TurnSkipped,
    TurnStarted,
)
from domain.kontor.forms.free_wheel.scoring import counted_sectors, sector_result
from domain.kontor.forms.free_wheel.state import fw
from domain.rng import Rng

# ---------------------------------------------------------------------------------------
# Set-up


def start(options: Options, seat_count: int, seed_hex: str) -> list:
    """« 1. On ne place au début que l'ancre. Le bateau est placé dessus » ; « 2. un nombre
    de florins égal au nombre de joueurs » ; « 3. On met les cartes spéciales dans le paquet
    des canaux. Le tout est battu » ; « 4. Chacun reçoit 2 canaux et 2 docks » ; free for
    all: « On mélange ensemble les deux paquets de docks pour former une pile unique » ;
    « 6. On détermine le premier joueur »."""
    rng = Rng(seed_hex, 0)
    water_cards = water_deck() + (special_cards() if options.specials_in_water else ())
    water = list(rng.shuffle(water_cards))
    water_hands = [
        tuple(water.pop(0) for _ in range(options.hand_water)) for _ in range(seat_count)
    ]
    k = options.hand_docks
    dock_hands: list[tuple[int, ...]] = [() for _ in range(seat_count)]
    piles: list[tuple[int, ...]] = [() for _ in range(seat_count)]
    common: tuple[int, ...] = ()
    if options.shared_dock_pile:
        deck = list(rng.shuffle(dock_deck(0) + dock_deck(1)))
        for seat in range(seat_count):
            dock_hands[seat] = tuple(deck.pop(0) for _ in range(k))
        common = tuple(deck)
    else:
        for side in range(side_count(options, seat_count)):
            # team game at 4: « coupées en deux piles égales »
            deck = rng.shuffle(dock_deck(side))
            members = seats_of(options, side, seat_count)
            share = len(deck) // len(members)
            for i, seat in enumerate(members):
                mine = deck[i * share : (i + 1) * share]
                dock_hands[seat] = mine[:k]
                piles[seat] = mine[k:]
    first = rng.below(seat_count)
    money = options.starting_money
    return [
        ev.GameStarted(
            options=options,
            seat_count=seat_count,
            seed=seed_hex,
            rules_version=rules_version_of(options.variant),
            rng_counter=rng.counter,
            cross=(Cell(0, 0, 0),),
            hands=tuple(dock_hands[s] + water_hands[s] for s in range(seat_count)),
            dock_piles=tuple(piles),
            water_pile=tuple(water),
            money=(money,) * seat_count,
            treasury=options.treasury_total - money * seat_count,
            ship=(0, 0) if options.ship else None,
            common_docks=common,
        ),
        TurnStarted(first, 1, 0),
    ]


# ---------------------------------------------------------------------------------------
# Who acts, what they may send


def to_act(state: KontorState) -> tuple[int, ...]:
    if state.phase == "over" or fw(state).current is None:
        return ()
    if state.phase == "alliance" and fw(state).proposal is not None:
        return (fw(state).proposal[1],)
    return (fw(state).current,)


def finished_cells(state: KontorState, cells: Mapping[Pos, int]) -> frozenset[Pos]:
    """Docks of finished (closed) sectors: the ship may not remove them, though nothing is
    scored before the end (« tous les docks d'un secteur terminé » are « inamovibles »)."""
    size = state.options.board_size
    box = box_of(state, cells)
    out: set[Pos] = set()
    for sector in sectors(cells):
        if is_closed(cells, sector, size, box):
            out |= sector
    return frozenset(out)


def playable(state: KontorState, seat: int, card: int, cells=None) -> bool:
    """A card may be played if it has a cell, or shows a ship that may free one."""
    cells = occupancy(state) if cells is None else cells
    if placement_cells(state, cells, card, seat):
        return True
    return bool(state.options.ship and CARDS[card].ship and any_removal(state))


def _tavern_cell(cells: Mapping[Pos, int], tavern: int) -> Pos | None:
    return next((p for p, c in cells.items() if c == tavern), None)


def drunk_targets(state: KontorState, cells: Mapping[Pos, int], tavern: int) -> list[Pos]:
    """« une pièce sous n'importe quel dock du secteur concerné »: the goods docks of the
    tavern's sector (a dock without goods has no workers that count), not one another
    tavern already made drunk."""
    pos = _tavern_cell(cells, tavern)
    if pos is None:
        return []
    others = {d for t, _, d in fw(state).taverns if t != tavern and d is not None}
    out = [
        p
        for p in sector_of(cells, pos)
        if CARDS[cells[p]].kind == "dock" and CARDS[cells[p]].goods and cells[p] not in others
    ]
    return sorted(out, key=lambda p: (p[1], p[0]))


def _tavern_moves(state: KontorState, seat: int, cells: Mapping[Pos, int]) -> list[SetDrunkDock]:
    """« Le propriétaire de la taverne peut changer le dock affecté au début de son tour,
    avant de jouer une carte. »"""
    out = []
    for tavern, owner, drunk in fw(state).taverns:
        if owner != seat or tavern in fw(state).tavern_moved:
            continue
        pos = _tavern_cell(cells, tavern)
        if pos is None:
            continue
        for x, y in drunk_targets(state, cells, tavern):
            if cells[(x, y)] != drunk:
                out.append(SetDrunkDock(pos[0], pos[1], x, y))
    return out


def draw_piles(state: KontorState, seat: int) -> list[str]:
    """« les joueurs peuvent compléter leurs mains depuis une pioche ou l'autre » ;
    « Vous devez cependant toujours avoir au moins un dock et un canal en main »: a draw
    is judged by the card it brings, each pile's top being face up (« la première carte
    soit toujours visible »): a bridge or a customs house on the canal pile brings a dock
    (« Le pont est considéré comme un dock »; RULES-NOTES), a flood a canal. When no top
    card gives the hand what it lacks, either pile (core/free_draw.py). Games of the
    earlier versions judged a draw by its pile (versions.FREE_WHEEL_DRAW_BY_PILE)."""
    docks = fw(state).common_docks if state.options.shared_dock_pile else state.dock_piles[seat]
    piles = (("dock", docks), ("water", state.water_pile))
    avail = [p for p, cards in piles if cards]
    if state.rules_version in FREE_WHEEL_DRAW_BY_PILE:
        return free_draw_piles(state.hands[seat], avail)
    return free_draw_piles(state.hands[seat], avail, tops={p: cards[0] for p, cards in piles if cards})


def legal_commands(state: KontorState, seat: int) -> list:
    if seat not in to_act(state):
        return []
    cells = occupancy(state)
    if state.phase == "alliance":
        return [AcceptAlliance(), DeclineAlliance()]
    if state.phase == "turn":
        out: list = [
            ChooseCard(c) for c in sorted(state.hands[seat]) if playable(state, seat, c, cells)
        ]
        out.append(Pass())
        out += _tavern_moves(state, seat, cells)
        out += alliances.alliance_commands(state, seat, cells)
        return out
    if state.phase == "place":
        card = state.revealed[seat]
        cells_ok = placement_cells(state, cells, card, seat)
        return [PlaceCard(x, y) for x, y in cells_ok] + ship_commands(state, seat)
    if state.phase == "drunk":
        tavern = state.revealed[seat]
        pos = _tavern_cell(cells, tavern)
        return [SetDrunkDock(pos[0], pos[1], x, y) for x, y in drunk_targets(state, cells, tavern)]
    if state.phase == "draw":
        return [DrawCard(p) for p in draw_piles(state, seat)]
    return []


# ---------------------------------------------------------------------------------------
# decide


def _violation(code: str, message: str) -> RuleViolation:
    return RuleViolation(code, message)


def decide_turn(log, seat: int, command) -> None:
    st = log.state
    cells = occupancy(st)
    phase = st.phase
    if isinstance(command, ChooseCard):
        if phase != "turn":
            raise _violation(
                "kontor.not_choosing", "A card is played once, at the start of one's turn."
            )
        if command.card not in st.hands[seat]:
            raise _violation("kontor.card_not_in_hand", "Play one of the cards in your hand.")
        if not playable(st, seat, command.card, cells):
            raise _violation(
                "kontor.no_legal_cell",
                "This card has no cell on the board now (play another card or pass).",
            )
        log.emit(CardPlayed(seat, command.card))
        _check_cell(log, seat)
    elif isinstance(command, Pass):
        if phase != "turn":
            raise _violation("kontor.pass_too_late", "One passes instead of playing a card.")
        # « renoncer à jouer ce tour ; il reçoit alors un florin de la trésorerie »
        log.emit(ev.Passed(seat, min(SETUP["pass_income"], st.treasury)))
        _end_turn(log, placed=False)
    elif isinstance(command, PlaceCard):
        if phase != "place":
            raise _violation("kontor.not_placing", "Play a card before placing it.")
        _place(log, seat, command.x, command.y)
    elif isinstance(command, MoveShip):
        log.move_ship(seat, command)
        _after_ship(log, seat)
    elif isinstance(command, SetDrunkDock):
        _set_drunk(log, seat, command, cells)
    elif isinstance(command, DrawCard):
        if phase != "draw" or command.pile not in draw_piles(st, seat):
            raise _violation(
                "kontor.draw_pile",
                "Draw from a pile that has cards, keeping at least one dock and one canal in "
                "hand (« Vous devez cependant toujours avoir au moins un dock et un canal en "
                "main »).",
            )
        _draw(log, seat, command.pile)
        _end_turn(log, placed=True)
    elif isinstance(command, ProposeAlliance):
        alliances.propose(log, seat, command, cells)
    elif isinstance(command, (AcceptAlliance, DeclineAlliance)):
        alliances.answer(log, seat, command, cells)
    elif isinstance(command, LeaveAlliance):
        alliances.leave(log, seat, command, cells)
    else:
        raise _violation("kontor.unknown_command", f"Unknown command {command!r}.")


def _check_cell(log, seat: int) -> None:
    """The played card goes back to the hand when it has no cell (RULES-NOTES)."""
    st = log.state
    card = st.revealed[seat]
    if placement_cells(st, occupancy(st), card, seat):
        return

    if may_move_ship(st, seat) and any_removal(st):
        return
    log.emit(ev.CardReturned(seat, card, "no_legal_cell"))
    _end_turn(log, placed=False)


def _after_ship(log, seat: int) -> None:
    _board_changed(log)
    _check_cell(log, seat)


def _board_changed(log) -> None:
    """Sober docks (« Si le dock affecté est enlevé ou séparé du secteur où se trouve la
    taverne, les ouvriers redeviennent sobres ... Il en est de même si le bateau enlève la
    taverne ») and broken alliances."""
    st = log.state
    cells = occupancy(st)
    for tavern, _, dock in fw(st).taverns:
        if dock is None:
            continue
        tpos = _tavern_cell(cells, tavern)
        dpos = _tavern_cell(cells, dock)
        if tpos is None:
            log.emit(DockSobered(tavern, dock, "tavern_removed"))
        elif dpos is None:
            log.emit(DockSobered(tavern, dock, "removed"))
        elif dpos not in sector_of(cells, tpos):
            log.emit(DockSobered(tavern, dock, "separated"))
    if log.state.options.alliances:
        alliances.check_alliances(log, cells)


def _place(log, seat: int, x: int, y: int) -> None:
    st = log.state
    card = st.revealed[seat]
    cells = occupancy(st)
    size = st.options.board_size
    if (x, y) not in placement_cells(st, cells, card, seat):
        raise placement_error(st, cells, card, seat, (x, y))
    log.emit(ev.CardPlaced(seat, card, x, y, cells.get((x, y))))
    c = CARDS[card]
    if c.is_dock and c.goods:
        log.emit(ev.WarehousesAdded(seat, card, c.goods))
    _board_changed(log)
    if len(occupancy(log.state)) >= size * size:
        _end_game(log, "board_full")
        return
    if c.florin:
        _taxes(log, seat)
    if c.kind == "water":
        amount = min(SETUP["canal_income"], log.state.treasury)
        if amount:
            log.emit(ev.IncomePaid(seat, amount))
    if (
        c.tavern
        and st.options.tavern_drunk
        and drunk_targets(log.state, occupancy(log.state), card)
    ):
        # « Après avoir placé une taverne, le joueur place une pièce sous n'importe quel
        # dock du secteur concerné »
        log.emit(StepStarted(seat, "drunk"))
        return
    _to_draw(log, seat)


def _taxes(log, seat: int) -> None:
    """« 7. Quand un joueur pose une carte avec un florin, les adversaires doivent payer 1
    florin. Si un joueur ne peut pas payer, il doit passer à son prochain tour. »  A seat
    that passed since its last turn is spared (« Un joueur qui passe de cette manière ne
    peut être soumis à aucun impôt »)."""
    st = log.state
    side = side_of(st.options, seat)
    tax = SETUP["tax"]
    for other in range(st.seat_count):
        if side_of(st.options, other) == side or log.state.passed[other]:
            continue
        if log.state.money[other] >= tax:
            log.emit(ev.TaxPaid(other, tax))
        elif not fw(log.state).skip_next[other]:
            log.emit(TaxUnpaid(other))


def _set_drunk(log, seat: int, cmd: SetDrunkDock, cells) -> None:
    st = log.state
    tavern = cells.get((cmd.tavern_x, cmd.tavern_y))
    ok = False
    if st.phase == "drunk":
        ok = tavern == st.revealed[seat]
    elif st.phase == "turn":
        ok = (
            any(t == tavern and o == seat for t, o, _ in fw(st).taverns)
            and tavern not in fw(st).tavern_moved
        )
    if not ok or tavern is None:
        raise _violation(
            "kontor.tavern_timing",
            "A tavern's coin is placed right after the tavern, or moved by its owner at the "
            "start of his turn before playing (« Le propriétaire de la taverne peut changer "
            "le dock affecté au début de son tour, avant de jouer une carte »).",
        )
    current = next((d for t, _, d in fw(st).taverns if t == tavern), None)
    if (cmd.x, cmd.y) not in drunk_targets(st, cells, tavern) or cells[(cmd.x, cmd.y)] == current:
        raise _violation(
            "kontor.drunk_target",
            "The coin goes under another goods dock of the tavern's sector (« n'importe quel "
            "dock du secteur concerné »).",
        )
    log.emit(DrunkDockSet(seat, tavern, cells[(cmd.x, cmd.y)], cmd.x, cmd.y))
    if st.phase == "drunk":
        _to_draw(log, seat)


def _both_piles(state: KontorState, seat: int) -> bool:
    docks = fw(state).common_docks if state.options.shared_dock_pile else state.dock_piles[seat]
    return bool(docks) and bool(state.water_pile)


def _to_draw(log, seat: int) -> None:
    """The draw step opens whenever both piles have cards (a public fact), even if the
    hand forces one of them, so the step does not tell the hand's make-up."""
    st = log.state
    if _both_piles(st, seat):
        log.emit(StepStarted(seat, "draw"))
        return
    piles = draw_piles(st, seat)
    if piles:
        _draw(log, seat, piles[0])
    _end_turn(log, placed=True)


def _draw(log, seat: int, pile: str) -> None:
    st = log.state
    if pile == "water":
        log.emit(ev.CardDrawn(seat, st.water_pile[0], "water"))
    elif st.options.shared_dock_pile:
        log.emit(ev.CardDrawn(seat, fw(st).common_docks[0], "common"))
    else:
        log.emit(ev.CardDrawn(seat, st.dock_piles[seat][0], "dock"))


def _end_turn(log, placed: bool) -> None:
    """The next seat clockwise; a seat marked by an unpaid tax passes that turn."""
    st = log.state
    if st.phase == "over":
        return
    n = st.seat_count
    idle = 0 if placed else st.idle_rounds + 1
    seat = fw(st).current
    for _ in range(2 * n + 1):
        if idle >= st.options.idle_round_limit * n:
            _end_game(log, "idle")
            return
        if not any(log.can_place_any(s) for s in range(n)):
            _end_game(log, "stalled")
            return
        seat = (seat + 1) % n
        log.emit(TurnStarted(seat, log.state.round + 1, idle))
        if not fw(log.state).skip_next[seat]:
            return
        log.emit(TurnSkipped(seat))
        idle += 1


def _end_game(log, reason: str) -> None:
    """« aucun secteur n'est comptabilisé avant que la partie ne soit finie » ; « Tous les
    secteurs sont comptabilisés, à condition de comporter au moins 2 docks »."""
    st = log.state
    cells = occupancy(st)
    for sector in counted_sectors(st, cells):
        r = sector_result(log.state, cells, sector)
        log.emit(
            SectorCounted(
                cells=tuple(sorted(sector, key=lambda p: (p[1], p[0]))),
                parties=r["parties"],
                warehouses=r["warehouses"],
                winner=r["winner"],
                rule=r["rule"],
                points=r["points"],
                shares=r["shares"],
                lost=r["lost"],
            )
        )
    st = log.state
    log.emit(ev.GameEnded(reason, st.points, st.money, winners(st, st.points, st.money)))


def _ship_protected(state: KontorState, cells: Mapping[Pos, int], pos: Pos) -> bool:
    """Nothing is scored during play, but a finished sector stays untouchable by the ship
    (only « Un pont ou une inondation » may affect it)."""
    return state.options.score_at_end and pos in finished_cells(state, cells)


def _own_deal(setup, _: None) -> bool:
    """The set-up's "deal" swapped: the free wheel's whole set-up (``start``), which ends
    the list (True)."""
    if not setup.options.sequential_turns:
        return step_deal(setup, None)
    setup.events += start(setup.options, setup.seat_count, setup.seed_hex)
    return True


def _own_to_act(state: KontorState) -> tuple[int, ...] | None:
    return to_act(state) if state.options.sequential_turns else None


def _own_legal(state: KontorState, seat: int) -> list | None:
    return legal_commands(state, seat) if state.options.sequential_turns else None


def _own_decide(log, seat: int, command) -> bool:
    if not log.state.options.sequential_turns:
        return False
    decide_turn(log, seat, command)
    return True


def register(hooks) -> None:
    hooks.swap_step("deal", _own_deal)
    hooks.to_act.append(_own_to_act)
    hooks.legal_commands.append(_own_legal)
    hooks.on_commands(EVERY_COMMAND, _own_decide)  # first in every command's chain
    hooks.ship_protected.append(_ship_protected)
