"""Kontor scenarios (« Scénarios et variantes de règles pour 2 joueurs et 4 joueurs »).

Every rule reads a switch of ``Options`` (set from ``scenario_data.SCENARIO_SETTINGS``),
never a scenario name.  The shared modules call in here at small, marked hooks:

- setup.py: removed cards (``deck_filter``), reconstructed layouts (``layout_cells``),
  canals set aside and sunken warehouses (``extra_start``);
- placement.py: Watergames' docks next to water, Isola grande's island without canals,
  Tic Tac Toe's one sector per case (``filter_cells``, ``placement_violation``);
- scoring.py: sector worth (``sector_worth``), the final selection (``select_final``),
  Embargo's winner's warehouses staying on the sector (``kept_warehouses``);
- decide.py: the goods a dock brings (``placed_goods``), early ends (``after_scoring``),
  Grande marée's second canal and Euphrate's raised warehouses (``after_turn``), the new
  commands (``decide_command``), pending decisions (``pending_seat``, ``extra_commands``);
- view.py: ``view_keys``, the canals set aside in ``redetermine``; policy.py:
  ``policy_command``.
"""

from __future__ import annotations

from collections.abc import Mapping

from domain.decider import RuleViolation
from domain.kontor.core import events as ev
from domain.kontor.core.board import Pos, neighbours, occupancy, possible, sectors
from domain.kontor.core.commands import PlaceSunkenWarehouse, SecondCanal
from domain.kontor.core.data import CARDS, GOODS
from domain.kontor.core.options import Options
from domain.kontor.core.placement import box_of, placement_cells, placement_error
from domain.kontor.core.scoring import (
    distribution_centre,
    fill_slots,  # scoring imports this module
    score_closed_sectors,
)
from domain.kontor.core.sides import side_of
from domain.kontor.core.state import KontorState
from domain.kontor.scenarios.data import (
    ISLAND_CELLS,
    LAYOUTS,
    RULES_NEEDING_TAVERNS,
    RULES_WITH_OWN_PORT,
    RULES_WITH_SPECIAL_CARDS,
    SCENARIO_SEAT_SETTINGS,
    SCENARIO_SETTINGS,
    WAREHOUSES_PER_GOOD,
)

# ---------------------------------------------------------------------------------------
# Setup


def deck_filter(options: Options, deck: tuple[int, ...]) -> tuple[int, ...]:
    """« Les 2 grues sans bateau (n°29 et n°30) sont retirées » ; « On retire toutes les
    grues (n°29, 30, 31 et 32) » ; « les tavernes (n°88 et n°89) sont retirées ».  The
    cards are found by their symbols (crane without ship, crane, tavern), not numbers."""
    removed = set(options.removed_cards)
    if not removed:
        return deck
    out = []
    for card in deck:
        c = CARDS[card]
        if c.crane and "cranes" in removed:
            continue
        if c.crane and not c.ship and "cranes_without_ship" in removed:
            continue
        if c.tavern and "taverns" in removed:
            continue
        out.append(card)
    return tuple(out)


def layout_cells(options: Options) -> list[Pos] | None:
    """The canal cells of a reconstructed layout (« selon le dessin »), or None."""
    cells = LAYOUTS.get(options.layout)
    if cells is None:
        return None
    return sorted(cells, key=lambda p: (p[1], p[0]))


def extra_start(options: Options, rng, cross, water: list[int]) -> dict:
    """GameStarted fields of the scenarios, drawn after everything else (the basic game's
    draws are unchanged).  ``water`` is the canal pile after the deal (changed in place).

    « On place 1 entrepôt de type différent sur 3 canaux de la croix de départ » (Bakchich's
    canals set aside: scenarios/baksheesh.py)."""
    out: dict = {}
    if options.sunken_warehouses:
        canals = [c for c in cross if CARDS[c.card].kind == "water"]
        chosen = list(rng.shuffle(canals))[: options.sunken_warehouses]
        goods = list(rng.shuffle(GOODS))
        placed = [(c.x, c.y, goods[i % len(goods)]) for i, c in enumerate(chosen)]
        out["sunken"] = tuple(sorted(placed, key=lambda s: (s[1], s[0])))
    return out


def option_conflicts(settings: dict, scenario: str, special_rules, seat_count: int) -> list[str]:
    """Why a scenario cannot be played with these special rules (empty: it can).
    ``settings`` are the merged Options values of the variant and the scenario."""
    out = []
    rules = set(special_rules)
    size = settings.get("board_size", 6)
    square_cross = settings.get("layout", "cross") == "cross" and not settings.get("board_height")
    for rule in sorted(rules & RULES_WITH_OWN_PORT):
        if size != 7 or not square_cross:
            out.append(
                f"{rule} plays on the normal cross of a 7x7 port (« Disposition initiale "
                f"normale. Plateau : 7x7 cases »), {scenario} has its own port"
            )
    if "taverns" in settings.get("removed_cards", ()):
        for rule in sorted(rules & RULES_NEEDING_TAVERNS):
            out.append(f"{rule} gives the tavern a use, and {scenario} removes the taverns")
    if scenario == "isola_grande" and seat_count == 4:
        for rule in sorted(rules & RULES_WITH_SPECIAL_CARDS):
            out.append(
                f"{rule} uses special cards, and isola_grande at 4 players does not (« A 4 "
                "joueurs, on n'utilise pas les cartes spéciales »)"
            )
    return out


# ---------------------------------------------------------------------------------------
# Placement


def _is_water(card: int | None) -> bool:
    return card is not None and CARDS[card].is_water


def _water_next(cells: Mapping[Pos, int], pos: Pos) -> bool:
    return any(_is_water(cells.get(n)) for n in neighbours(pos))


def filter_cells(
    state: KontorState, cells: Mapping[Pos, int], card: int, found: list[Pos]
) -> list[Pos]:
    """Scenario limits on where a card may go (applied to the usual legal cells)."""
    opts = state.options
    c = CARDS[card]
    if opts.docks_touch_water and c.is_dock:
        # « Les cartes de dock doivent obligatoirement toucher au moins un canal. »
        found = [p for p in found if _water_next(cells, p)]
    if opts.island_points and c.is_water:
        # « aucun canal ne peut y être placé »
        found = [p for p in found if p not in ISLAND_CELLS]
    if opts.sunken_warehouses and c.kind == "bridge":
        # reading: a bridge does not cover a canal that still holds a sunken warehouse
        sunk = {(x, y) for x, y, _ in state.sunken}
        found = [p for p in found if p not in sunk]
    return found


def placement_violation(
    state: KontorState, cells: Mapping[Pos, int], card: int, pos: Pos
) -> RuleViolation | None:
    opts = state.options
    c = CARDS[card]
    if opts.docks_touch_water and c.is_dock and not _water_next(cells, pos):
        return RuleViolation(
            "kontor.dock_needs_water",
            "Watergames: a dock must touch a canal (« Les cartes de dock doivent "
            "obligatoirement toucher au moins un canal »).",
        )
    if opts.island_points and c.is_water and pos in ISLAND_CELLS:
        return RuleViolation(
            "kontor.no_canal_on_island",
            "Isola grande: no canal on the island (« aucun canal ne peut y être placé »).",
        )
    return None


# ---------------------------------------------------------------------------------------
# Scoring


def is_island(sector) -> bool:
    return bool(sector) and all(p in ISLAND_CELLS for p in sector)


def sector_worth(options: Options, sector, base: int, customs: int) -> int:
    """What a won sector is worth: « Le secteur intérieur vaut deux points de victoire » ;
    « Les secteurs de taille 1 rapportent 1 point ... taille 3 rapportent 3 points »."""
    if options.size_points:
        return len(tuple(sector)) + customs
    if options.island_points and is_island(sector):
        return options.island_points + customs
    return base + customs


def is_straight(sector) -> bool:
    """« tous les docks de ce secteur sont en ligne droite »: one row or one column."""
    xs = {p[0] for p in sector}
    ys = {p[1] for p in sector}
    return len(xs) == 1 or len(ys) == 1


def own_selection(options: Options) -> bool:
    return (
        options.final_selection in ("smallest", "every")
        or options.final_straight
        or options.final_max_docks > 0
    )


def select_final(state: KontorState, sizes, dists) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(counted, eliminated) for the scenarios' final counts.

    Eligible: at least ``final_min_docks`` docks, at most ``final_max_docks`` (« moins de 4
    docks »), in a straight line when ``final_straight``.  Then "every" counts them all;
    "largest" the N largest (ties: nearer the anchor first, the advanced rule);
    "smallest" the N smallest (« c'est le secteur le plus éloigné de l'ancre qui est
    considérée comme le plus petit ... Si l'égalité persiste, aucun des secteurs ex æquo
    n'est comptabilisé ; cela peut impliquer que d'autres secteurs soient comptabilisés à
    la place »)."""
    opts = state.options
    eligible = []
    for i, s in enumerate(state.scored):
        n = sizes[i]
        if n < opts.final_min_docks:
            continue
        if opts.final_max_docks and n > opts.final_max_docks:
            continue
        if opts.final_straight and not is_straight(s.cells):
            continue
        eligible.append(i)
    if opts.final_selection in ("every", "all") or len(eligible) <= opts.final_count:
        return tuple(sorted(eligible)), ()
    far = 10**6

    def dist(i: int) -> int:
        return dists[i] if dists[i] is not None else far

    if opts.final_selection == "smallest":

        def key(i: int) -> tuple[int, int]:
            return (sizes[i], -dist(i))
    else:

        def key(i: int) -> tuple[int, int]:
            return (-sizes[i], dist(i))


    return fill_slots(eligible, key, opts.final_count)


def kept_warehouses(state: KontorState, winner: int | None, returned: tuple[int, ...]):
    """Embargo: « le gagnant place normalement son gardien. Mais ses entrepôts restent sur
    le secteur ... Le perdant, par contre, reprend ses entrepôts » ; a tie: « les deux
    joueurs récupèrent leurs entrepôts »."""
    if not state.options.warehouse_supply or winner is None:
        return returned
    return tuple(c for c in returned if CARDS[c].owner != winner)


# ---------------------------------------------------------------------------------------
# Embargo's supply


def supply(state: KontorState, side: int) -> dict[str, int]:
    """Embargo: « 4 entrepôts de each colour ... ses réserves personnelles »: what is
    not on the board (warehouses kept on won sectors are no longer available)."""
    left = {g: state.options.warehouse_supply for g in GOODS}
    goods = state.goods_map()
    for card in state.warehouses:
        c = CARDS[card]
        if c.owner != side:
            continue
        for g in goods.get(card, c.goods):
            left[g] -= 1
    return left


def placed_goods(state: KontorState, seat: int, card: int) -> tuple[str, ...]:
    """The warehouses a goods dock brings: all its goods, or in Embargo those the owner's
    supply still holds (« il ne peut donc pas placer d'entrepôt »)."""
    goods = CARDS[card].goods
    if not state.options.warehouse_supply:
        return goods
    left = supply(state, CARDS[card].owner)
    out = []
    for g in goods:
        if left[g] > 0:
            left[g] -= 1
            out.append(g)
    return tuple(out)


def reserve(state: KontorState) -> dict[str, int]:
    """Euphrate: the common reserve (16 of each good) less the warehouses on the board and
    those still sunk in canals."""
    left = {g: WAREHOUSES_PER_GOOD for g in GOODS}
    goods = state.goods_map()
    for card in state.warehouses:
        for g in goods.get(card, CARDS[card].goods):
            left[g] -= 1
    for _x, _y, g in state.sunken:
        left[g] -= 1
    return left


def take_goods(log, seat: int, card: int) -> tuple[str, ...]:
    """The warehouses a placed dock brings (``placed_goods``); in Euphrate a good missing
    from the reserve is taken from a canal: « Si les entrepôts viennent à manquer dans les
    réserves, vers la fin de la partie, on peut prendre ceux qui sont encore dans le
    canal. »  With none there either, that warehouse is not placed."""
    st = log.state
    goods = placed_goods(st, seat, card)
    if not st.options.sunken_warehouses or not goods:
        return goods
    left = reserve(st)
    out = []
    for g in goods:
        if left[g] > 0:
            left[g] -= 1
            out.append(g)
            continue
        spot = next(((x, y) for x, y, s in log.state.sunken if s == g), None)
        if spot is not None:
            log.emit(ev.SunkenWarehouseUsed(spot[0], spot[1], g))
            out.append(g)
    return tuple(out)


def supplies_empty(state: KontorState) -> bool:
    return all(sum(supply(state, side).values()) == 0 for side in range(2))


# ---------------------------------------------------------------------------------------
# Early ends


def after_scoring(log) -> bool:
    """Early ends checked after each placement and its scoring; True if the game ended
    (Tic Tac Toe's is tic_tac_toe.py).

    « La partie est finie dès que le premier secteur est terminé » ;
    « Si les deux joueurs n'ont plus aucun entrepôt en réserve, la partie se termine
    prématurément »."""
    st = log.state
    opts = st.options
    if opts.end_at_first_sector and st.scored:
        log.end_game("first_sector")
        return True
    if opts.warehouse_supply and supplies_empty(st):
        log.end_game("supplies_empty")
        return True
    return False


# ---------------------------------------------------------------------------------------
# Grande marée and Euphrate: decisions after a placement


def surrounded(state: KontorState, cells: Mapping[Pos, int], pos: Pos) -> bool:
    """« entouré de tous côtés, horizontalement et verticalement »: each side holds a card
    or lies beyond the port's fixed edge (as a sector is closed by the edge)."""
    box = box_of(state, cells)
    dims = state.options.board_dims
    return all(n in cells or not possible(n, box, dims) for n in neighbours(pos))


def sunken_centres(state: KontorState, seat: int) -> list[Pos]:
    """The seat's (its colour's) distribution centres in unfinished sectors."""
    cells = occupancy(state)
    done = {frozenset(s.cells) for s in state.scored}
    side = side_of(state.options, seat)
    out = []
    for sector in sectors(cells):
        if sector in done:
            continue
        centre = distribution_centre(state, sector, side)
        if centre is not None:
            out.append(centre)
    return sorted(out, key=lambda p: (p[1], p[0]))


def raise_sunken(log, seat: int) -> None:
    """« le joueur qui a mis la dernière carte reçoit en plus l'entrepôt qui était noyé. Il
    peut placer l'entrepôt sur n'importe lequel de ses centres de distribution, mais dans
    un secteur qui n'est pas terminé. »  One centre: placed at once; several: the seat
    chooses (PlaceSunkenWarehouse); none: the warehouse goes to the reserve."""
    st = log.state
    cells = occupancy(st)
    for x, y, good in st.sunken:
        if not surrounded(st, cells, (x, y)):
            continue
        centres = sunken_centres(log.state, seat)
        log.emit(ev.SunkenWarehouseRaised(seat, x, y, good, len(centres) > 1))
        if len(centres) == 1:
            pos = centres[0]
            log.emit(ev.SunkenWarehousePlaced(seat, good, cells[pos], pos[0], pos[1]))


def _hand_water(state: KontorState, seat: int) -> list[int]:
    return sorted(c for c in state.hands[seat] if CARDS[c].kind == "water")


def second_canal_cells(state: KontorState, seat: int, card: int) -> list[Pos]:
    return placement_cells(state, occupancy(state), card, seat)


def after_turn(log, seat: int, card: int, second: bool = False) -> None:
    """After a placement (its draw and income): raised warehouses, then the offer of a
    second canal (« Lorsqu'on joue un canal, on peut placer immédiatement un deuxième
    canal, en payant un florin à la trésorerie »)."""
    st = log.state
    if st.phase == "over":
        return
    if st.options.sunken_warehouses and st.sunken:
        raise_sunken(log, seat)
    st = log.state
    cost = st.options.second_canal_cost
    if cost and not second and CARDS[card].kind == "water" and st.money[seat] >= cost:
        waters = _hand_water(st, seat)
        if waters and second_canal_cells(st, seat, waters[0]):
            log.emit(ev.SecondCanalOffered(seat))


def pending_seat(state: KontorState) -> int | None:
    if state.phase == "over":
        return None
    if state.sunken_pending:
        return state.sunken_pending[0][0]
    if state.second_canal is not None:
        return state.second_canal
    return None


# ---------------------------------------------------------------------------------------
# Commands

#: the commands of a pending decision (Grande marée, Euphrate)
SCENARIO_COMMANDS: tuple[type, ...] = (SecondCanal, PlaceSunkenWarehouse)


def pending_commands(state: KontorState, seat: int) -> list:
    if pending_seat(state) != seat:
        return []
    if state.sunken_pending:
        return [PlaceSunkenWarehouse(x, y) for x, y in sunken_centres(state, seat)]
    out: list = [SecondCanal()]
    for card in _hand_water(state, seat):
        for x, y in second_canal_cells(state, seat, card):
            out.append(SecondCanal(card, x, y))
    return out


def decide_command(log, seat: int, command) -> bool:
    """Scenario commands; False if ``command`` is not one of them."""
    st = log.state
    if isinstance(command, PlaceSunkenWarehouse):
        if not st.sunken_pending or st.sunken_pending[0][0] != seat:
            raise RuleViolation("kontor.no_sunken_warehouse", "No raised warehouse to place.")
        pos = (command.x, command.y)
        if pos not in sunken_centres(st, seat):
            raise RuleViolation(
                "kontor.sunken_centre",
                "Euphrate: the warehouse goes on one of your distribution centres in an "
                "unfinished sector (« mais dans un secteur qui n'est pas terminé »).",
            )
        good = st.sunken_pending[0][1]
        log.emit(ev.SunkenWarehousePlaced(seat, good, occupancy(st)[pos], pos[0], pos[1]))
        log.advance()
        return True
    if isinstance(command, SecondCanal):
        if st.second_canal != seat or st.sunken_pending:
            raise RuleViolation(
                "kontor.no_second_canal",
                "Grande marée: a second canal only right after placing a canal.",
            )
        if command.card is None:
            log.emit(ev.SecondCanalDeclined(seat))
            log.advance()
            return True
        card = command.card
        if card not in st.hands[seat] or CARDS[card].kind != "water":
            raise RuleViolation(
                "kontor.second_canal_card", "Grande marée: the second canal comes from your hand."
            )
        if (command.x, command.y) not in second_canal_cells(st, seat, card):
            raise placement_error(st, occupancy(st), card, seat, (command.x, command.y))
        place_second_canal(log, seat, card, (command.x, command.y))
        log.advance()
        return True
    return False


def place_second_canal(log, seat: int, card: int, pos: Pos) -> None:
    """« Le deuxième canal ne rapporte cependant aucun florin. »  It is placed like any
    canal (no ship move, no tax), may close sectors, and is replaced from the pile."""
    cost = log.state.options.second_canal_cost
    log.emit(ev.SecondCanalPlaced(seat, card, pos[0], pos[1], cost))
    score_closed_sectors(log)
    if log.ends_early():
        return
    st = log.state
    if len(occupancy(st)) >= st.options.board_cells:
        log.end_game("board_full")
        return
    if st.water_pile:
        log.emit(ev.CardDrawn(seat, st.water_pile[0], "water"))
    after_turn(log, seat, card, second=True)


# ---------------------------------------------------------------------------------------
# View


def view_keys(state: KontorState, out: dict) -> None:
    """Public scenario facts (only in games that have them)."""
    opts = state.options
    if opts.board_height:
        out["board"]["width_size"], out["board"]["height_size"] = opts.board_dims
    info: dict = {}
    if opts.warehouse_supply:
        info["supply"] = {["red", "black"][side]: supply(state, side) for side in range(2)}
    if opts.sunken_warehouses:
        info["sunken"] = [{"x": x, "y": y, "good": g} for x, y, g in state.sunken]
        info["sunken_pending"] = [{"seat": s, "good": g} for s, g in state.sunken_pending]
    if opts.second_canal_cost:
        info["second_canal"] = {"seat": state.second_canal, "cost": opts.second_canal_cost}
    if opts.island_points:
        info["island"] = [
            {"x": x, "y": y} for x, y in sorted(ISLAND_CELLS, key=lambda p: (p[1], p[0]))
        ]
        info["island_points"] = opts.island_points
    if info:
        out.setdefault("scenario", {}).update(info)
    pending = pending_seat(state)
    if pending is not None:
        out["pending"] = {
            "seat": pending,
            "kind": "sunken_warehouse" if state.sunken_pending else "second_canal",
        }


# ---------------------------------------------------------------------------------------
# Policy


def policy_command(state: KontorState, seat: int, rng, evaluate):
    """The policy's answer to a pending decision (raised warehouse, second canal), or
    None.  ``evaluate(cells, warehouses, goods)`` values a board for the seat."""
    legal = pending_commands(state, seat)
    if not legal:
        return None
    cells = occupancy(state)
    base = evaluate(cells, state.warehouses, state.goods_map())
    best, best_value = legal[0], None
    for cmd in legal:
        if isinstance(cmd, PlaceSunkenWarehouse):
            card = cells[(cmd.x, cmd.y)]
            goods = state.goods_map()
            goods[card] = (*goods.get(card, CARDS[card].goods), state.sunken_pending[0][1])
            v = evaluate(cells, state.warehouses, goods)
        elif cmd.card is None:
            v = base
        else:
            after = dict(cells)
            after[(cmd.x, cmd.y)] = cmd.card
            v = (
                evaluate(after, state.warehouses, state.goods_map())
                - 0.6 * (state.options.second_canal_cost)
                - 0.3
            )
        v += rng.below(1000) / 1e5
        if best_value is None or v > best_value:
            best, best_value = cmd, v
    return best


def sector_weight(options: Options, sector, closed: bool) -> float:
    """The policy's weight of a sector under the scenario's final count (1: as usual)."""
    n = len(sector)
    if options.size_points:
        if options.final_max_docks and n > options.final_max_docks:
            return 0.0 if closed else 0.2
        return float(n)
    if options.final_straight and not is_straight(sector):
        return 0.0 if closed else 0.5
    if closed and n < options.final_min_docks and options.final_selection != "largest":
        return 0.0  # ("largest" games leave small sectors out in choose_largest)
    if options.island_points and is_island(sector):
        return float(options.island_points)
    return 1.0


def _final_selection(state: KontorState, sizes, dists):
    return select_final(state, sizes, dists) if own_selection(state.options) else None


def _pending_to_act(state: KontorState) -> tuple[int, ...] | None:
    pending = pending_seat(state)
    return None if pending is None else (pending,)


def _pending_legal(state: KontorState, seat: int) -> list | None:
    return None if pending_seat(state) is None else pending_commands(state, seat)


def register(hooks) -> None:
    hooks.to_act.append(_pending_to_act)
    hooks.legal_commands.append(_pending_legal)
    hooks.option_conflicts.append(option_conflicts)
    hooks.cell_filters.append(
        lambda state, cells, card, seat, found: filter_cells(state, cells, card, found)
    )
    hooks.placement_violation.append(placement_violation)
    hooks.early_end.append(after_scoring)
    hooks.sector_worth.append(sector_worth)
    hooks.final_selection.append(_final_selection)
    hooks.returned_warehouses.append(kept_warehouses)
    hooks.command.append(_decide)
    hooks.decision_pending.append(lambda state: pending_seat(state) is not None)
    hooks.take_goods.append(take_goods)
    hooks.after_turn.append(after_turn)
    hooks.layout.append(layout_cells)
    hooks.dock_deck.append(deck_filter)
    hooks.start_fields.append(extra_start)
    hooks.variant_view.append(view_keys)
    hooks.scenario_settings.append(scenario_settings)


def _decide(log, seat: int, command) -> bool:
    """While a scenario's decision waits (second canal, raised warehouse), only its
    commands; then the scenario commands."""
    if pending_seat(log.state) is not None and not isinstance(command, SCENARIO_COMMANDS):
        raise RuleViolation(
            "kontor.decision_pending",
            "Finish the pending decision first (second canal or raised warehouse).",
        )
    return decide_command(log, seat, command)


def scenario_settings(scenario: str, seat_count: int) -> dict | None:
    """The scenario's switches (scenarios/data.py), after the variant's."""
    if scenario not in SCENARIO_SETTINGS:
        return None
    return {**SCENARIO_SETTINGS[scenario], **SCENARIO_SEAT_SETTINGS.get((scenario, seat_count), {})}
