"""What each viewer may see: view, redact_event, redetermine, result."""

from __future__ import annotations

from functools import cache

from domain.common.codec import to_data
from domain.common.frozen import replace
from domain.decider import Result
from domain.kontor.core import events as ev
from domain.kontor.core.board import (
    bounds,
    closed_within,
    occupancy,
    possible_area,
    sectors,
    supremacy,
    warehouse_counts,
)
from domain.kontor.core.data import CARDS, GOODS, card_json
from domain.kontor.core.data import MARKER_COLORS as SEAT_COLORS  # free for all: 3-4 colours
from domain.kontor.core.decide import placing_card, to_act
from domain.kontor.core.hooks import CATALOGUE, Hooks, filtered, in_game_order, rules_for
from domain.kontor.core.options import view_options
from domain.kontor.core.placement import box_of, placement_cells
from domain.kontor.core.scoring import (
    anchor_steps,
    count_adjust,
    current_points,
    distance_by_steps,
    extra_warehouses,
    goods_beats,
    goods_of,
    select_final,
)
from domain.kontor.core.ship import may_move_ship
from domain.kontor.core.sides import side_count, side_of
from domain.kontor.core.state import PASS_CHOICE, KontorState


def is_finished(state: KontorState) -> bool:
    return state.phase == "over"


def result(state: KontorState) -> Result | None:
    if not is_finished(state):
        return None
    detail = {
        "reason": state.end_reason,
        "points": list(state.points),
        "money": list(state.money),
        "tie_break": "money",
    }
    for add_keys in rules_for(state.options).result:  # e.g. the team game's teams and tie-break
        add_keys(state, detail)
    if state.options.final_selection != "all":
        detail["counted_sectors"] = list(state.counted)
        detail["eliminated_sectors"] = list(state.eliminated)
    return Result(
        scores=tuple(float(p) for p in state.points),
        winners=state.winners,
        detail=detail,
    )


@cache
def _card_view(card: int) -> dict:
    """``card_json`` and the id, worked out once per card (a view shows every card on the
    board): shared, so read it and copy it, never change it."""
    return card_json(card) | {"id": card}


def _card(card: int) -> dict:
    """A fresh ``card_json`` with the id: the caller owns its view, no dict or list in it
    is shared with another view."""
    out = _card_view(card).copy()
    out["goods"] = out["goods"].copy()
    return out


def _cell_card(state: KontorState, card: int) -> dict:
    out = _card(card)
    if state.options.teams and CARDS[card].is_special:
        out["owner"] = None  # « Les six cartes spéciales neutres »
    return out


def _color(seat: int | None) -> str | None:
    return SEAT_COLORS[seat] if seat is not None else None


def _pile(cards: tuple[int, ...]) -> dict:
    return {"size": len(cards), "top": _card(cards[0]) if cards else None}


def _top_cells(state: KontorState, cells) -> list[dict]:
    """The board's squares with the card on top of each, in the order laid."""
    return [{"x": c.x, "y": c.y, "card": _cell_card(state, c.card)} for c in state.board if cells.get((c.x, c.y)) == c.card]


def words_view(state: KontorState, viewer: int | None) -> dict:
    """The part of ``view`` that the seat's legal commands are said in words from
    (service/games/moves.py): the options, the cards on top of the board, the card being
    placed, the piles' tops and the seat's own (colour, hand), each built as ``view``
    builds it; without the sectors, the points and the legal squares the whole view works
    out, most of its cost (issue 24: GET legal-commands asks it at every turn).
    tests/service/test_moves.py holds the words equal on both, in every form."""
    cells = occupancy(state)
    card = placing_card(state)
    out = {
        "options": view_options(state.options),
        "board": {"cells": _top_cells(state, cells)},
        "water_pile": _pile(state.water_pile),
        "players": [{"seat": seat, "dock_pile": _pile(pile)} for seat, pile in enumerate(state.dock_piles)],
        "placing": {"seat": state.order[0], "card": card} if card is not None else None,
    }
    _part_you(state, out, cells, viewer)
    return out


def view(state: KontorState, viewer: int | None) -> dict:
    cells = occupancy(state)
    opts = state.options
    size = opts.board_dims
    sides = side_count(opts, state.seat_count)
    selection = opts.final_selection != "all"
    min_x, max_x, min_y, max_y = bounds(cells)
    width, height = max_x - min_x + 1, max_y - min_y + 1
    finished = is_finished(state)
    acting = to_act(state)
    scored = {frozenset(s.cells): (i, s) for i, s in enumerate(state.scored)}  # with its index
    # worked out once for every sector: what may still hold a card (is_closed), the steps
    # from the anchor, the side colours, and the visible warehouse docks in board order
    # (a side's first one in a sector is its distribution centre there)
    open_area = possible_area(box_of(state, cells), size)
    steps = anchor_steps(cells) if selection else None
    provisional = select_final(state, cells, steps)[0] if selection and not finished else None
    counted = set(state.counted if provisional is None else provisional)
    colors = SEAT_COLORS[:sides]
    warehouse_docks = [
        ((c.x, c.y), SEAT_COLORS[owner])
        for c in state.board
        if c.card in state.warehouses
        and cells.get((c.x, c.y)) == c.card
        and (owner := CARDS[c.card].owner) is not None
        and owner < sides
    ]
    sector_views = []
    # what the rules change in counting, the same for every sector: asked once
    goods, extra_docks, adjust, beats = goods_of(state), extra_warehouses(state), count_adjust(state), goods_beats(state)
    for sector in sectors(cells):
        ordered = sorted((y, x) for x, y in sector)  # (y, x) order
        i, s = scored.get(sector, (None, None))
        counts = warehouse_counts(cells, sector, state.warehouses, sides, goods, extra=extra_docks, adjust=adjust)
        centres = dict.fromkeys(colors)
        for (x, y), color in warehouse_docks:
            if centres[color] is None and (x, y) in sector:
                centres[color] = {"x": x, "y": y}
        leader, rule = supremacy(counts, beats) if s is None else (s.winner, s.rule)
        extra = {}
        if selection:
            extra = {
                "size": len(sector),
                "anchor_distance": distance_by_steps(steps, cells, sector),
                "counted": s is not None and i in counted,
                "points": s.points if s is not None and s.winner is not None else 0,
            }
        sector_views.append(
            {
                **extra,
                "cells": [{"x": x, "y": y} for y, x in ordered],
                "closed": s is not None or closed_within(cells, sector, open_area),
                "scored": s is not None,
                "winner": _color(s.winner) if s else None,
                "rule": s.rule if s else None,
                "guardian": {"x": s.guardian[0], "y": s.guardian[1]} if s and s.guardian else None,
                "leader": _color(leader) if s is None else None,
                "leader_rule": rule if s is None else None,
                "warehouses": {colors[seat]: dict(zip(GOODS, counts[seat])) for seat in range(sides)},
                "distribution_centres": centres,
            }
        )
    card = placing_card(state)
    legal = []
    if card is not None:
        legal = [{"x": x, "y": y} for x, y in placement_cells(state, cells, card, state.order[0])]
    players = []
    points = current_points(state, provisional)
    for seat in range(state.seat_count):
        side = side_of(opts, seat)
        player = {"team": SEAT_COLORS[side]} if opts.teams else {}
        if selection:
            player["guardian_points"] = sum(sc.points for sc in state.scored if sc.winner == side)
        players.append(
            player
            | {
                "seat": seat,
                "color": SEAT_COLORS[side],
                "points": points[seat],
                "money": state.money[seat],
                "hand_size": len(state.hands[seat]),
                "dock_pile": _pile(state.dock_piles[seat]),
                "chosen": state.chosen[seat] is not None or state.revealed[seat] is not None,
                "passed": state.passed[seat],
                "revealed": state.revealed[seat],
                "tax": state.tax[seat] or None,
                "to_act": seat in acting,
                "guardians": sum(1 for s in state.scored if s.winner == side),
            }
        )
    goods_shown = state.goods_map()  # the warehouses' goods where not the printed ones
    out = {
        "phase": state.phase,
        "round": state.round,
        "finished": finished,
        "rules_version": state.rules_version,
        "options": view_options(state.options),
        "board": {
            "cells": _top_cells(state, cells),
            "size": opts.board_size,
            "bounds": {"min_x": min_x, "max_x": max_x, "min_y": min_y, "max_y": max_y},
            "width": width,
            "height": height,
            "width_fixed": width >= size[0],
            "height_fixed": height >= size[1],
            "full": len(cells) >= opts.board_cells,
            "warehouses": [
                {
                    "x": c.x,
                    "y": c.y,
                    "card": c.card,
                    "owner": _color(CARDS[c.card].owner),
                    "goods": list(goods_shown.get(c.card, CARDS[c.card].goods)),
                }
                for c in state.board
                if c.card in state.warehouses
            ],
            "sectors": sector_views,
            "legal_cells": legal,
        },
        "treasury": state.treasury,
        "water_pile": _pile(state.water_pile),
        "players": players,
        "to_act": list(acting),
        "placing": {"seat": state.order[0], "card": card} if card is not None else None,
        "order": list(state.order),
        "returned": [{"seat": s, "card": c, "reason": r} for s, c, r in state.returned],
        "idle_rounds": state.idle_rounds,
        "end_reason": state.end_reason,
        "winners": list(state.winners) if finished else None,
    }
    for _, part in view_parts(rules_for(state.options)):  # the core's parts and the rules', in order
        part(state, out, cells, viewer)
    return out


def _part_variant(state: KontorState, out: dict, cells, viewer) -> None:
    """Keys only the advanced and team games have (the basic game's view is unchanged)."""
    opts = state.options
    if opts.ship:
        out["board"]["ship"] = {"x": state.ship[0], "y": state.ship[1]} if state.ship else None
        if out["placing"] is not None:
            out["placing"]["may_move_ship"] = may_move_ship(state, state.order[0])
    covered = []
    top = cells
    for c in state.board:
        if top.get((c.x, c.y)) != c.card:
            covered.append({"x": c.x, "y": c.y, "card": _cell_card(state, c.card)})
    if covered or opts.specials_dealt:
        out["board"]["covered"] = covered
    if opts.specials_dealt:
        out["specials_aside"] = len(state.specials_aside)


def _part_final_scoring(state: KontorState, out: dict, cells, viewer) -> None:
    opts = state.options
    if opts.final_selection != "all":
        out["final_scoring"] = {
            "rule": opts.final_selection,
            "count": opts.final_count,
            "min_docks": opts.final_min_docks,
            "provisional": state.phase != "over",
            "counted": [sv["cells"] for sv in out["board"]["sectors"] if sv.get("counted")],
            "eliminated": [
                [{"x": x, "y": y} for x, y in state.scored[i].cells] for i in state.eliminated
            ],
        }


def _part_known_piles(state: KontorState, out: dict, cells, viewer) -> None:
    if any(state.pile_known):
        for seat, p in enumerate(out["players"]):
            p["dock_pile"]["known_bottom"] = list(
                state.dock_piles[seat][len(state.dock_piles[seat]) - state.pile_known[seat] :]
            )


def _part_you(state: KontorState, out: dict, cells, viewer) -> None:
    if viewer is not None:
        out["you"] = {
            "seat": viewer,
            "color": SEAT_COLORS[side_of(state.options, viewer)],
            "hand": [_cell_card(state, c) for c in sorted(state.hands[viewer])],
            "chosen": state.chosen[viewer],
        }


def _part_hidden(state: KontorState, out: dict, cells, viewer) -> None:
    if is_finished(state):
        out["hidden"] = {
            "hands": [list(h) for h in state.hands],
            "dock_piles": [list(p) for p in state.dock_piles],
            "water_pile": list(state.water_pile),
            "seed": state.seed,
        }
        if state.specials_aside:
            out["hidden"]["specials_aside"] = list(state.specials_aside)
        for add_hidden in rules_for(state.options).view_hidden:
            add_hidden(state, out["hidden"])


#: the view after its board, players and round (``view``), in order (name, part(state,
#: out, cells, viewer)): the rules add theirs (``hooks.add_view``): the team game's teams
#: after "variant", the scenarios' public facts after "final_scoring", a form's keys
#: before "you", the special rules' and the expansions' keys after "you"
VIEW_PARTS: tuple[tuple[str, object], ...] = (
    ("variant", _part_variant),
    ("final_scoring", _part_final_scoring),
    ("known_piles", _part_known_piles),
    ("you", _part_you),
    ("hidden", _part_hidden),
)

def view_parts(rules: Hooks = CATALOGUE) -> tuple[tuple[str, object], ...]:
    """The view's parts with the rules' (by default every rule's), in order; kept in the
    rule set. A rule's part is placed as among every rule's (CATALOGUE)."""
    parts = rules.derived.get("view")
    if parts is None:
        parts = rules.derived["view"] = in_game_order(VIEW_PARTS, CATALOGUE.view_parts, rules.view_parts)
    return parts


def redact_event(event, viewer: int | None) -> dict:
    data = to_data(event)
    t = type(event)
    if t is ev.GameStarted:
        data["seed"] = None
        n = event.seat_count
        data["hands"] = [list(event.hands[s]) if s == viewer else None for s in range(n)]
        data["hand_sizes"] = [len(h) for h in event.hands]
        data["dock_piles"] = [
            {"size": len(p), "top": p[0] if p else None} for p in event.dock_piles
        ]
        data["water_pile"] = {
            "size": len(event.water_pile),
            "top": event.water_pile[0] if event.water_pile else None,
        }
        data["specials_aside"] = {"size": len(event.specials_aside)}
    elif t is ev.CardChosen and event.seat != viewer:
        data["card"] = None
    return filtered(CATALOGUE.redact, data, event, viewer)  # no game: every rule's


def hidden_slot(card: int) -> tuple:
    """The kind of a hidden slot: what any observer knows about the card in it."""
    c = CARDS[card]
    if c.is_special:
        return ("special",)
    if c.kind in ("water", "anchor"):
        return ("water",)
    return ("dock", c.owner)


def _seen_in_hands(state: KontorState, observer: int | None) -> frozenset[int]:
    """Cards every seat saw go into another seat's hand and still held there. None while
    that seat's secret choice is pending (it may be one of them), nor when a rule may
    change hands unseen (``Seen.hands_unseen``)."""
    if any(seen.hands_unseen for seen in _seen(state, observer)):
        return frozenset()
    out: set[int] = set()
    for s in range(state.seat_count):
        if s == observer or (state.chosen and state.chosen[s] is not None):
            continue
        out.update(c for c in state.hands[s] if (s, c) in state.seen_in_hand)
    return frozenset(out)


def seen_piles(state: KontorState, observer: int | None) -> frozenset[int]:
    """The seats whose whole dock pile ``observer`` has seen, as the rules tell it."""
    return frozenset(seat for seen in _seen(state, observer) for seat in seen.piles)


def shown_in_hand(state: KontorState, seat: int) -> frozenset[int]:
    """Cards of the seat's hand every seat was shown, as the rules tell it."""
    for seen in _seen(state, None):
        if seen.hands is not None:
            return seen.hands[seat]
    return frozenset()


def _seen(state: KontorState, observer: int | None) -> list:
    """What the rules say was seen (hook point ``seen``)."""
    return [seen for f in rules_for(state.options).seen if (seen := f(state, observer)) is not None]


def _still_shown(state: KontorState, observer: int | None) -> frozenset[int]:
    """Cards of other seats' hands every seat was shown (``shown_in_hand``) and still held
    there, or chosen from there this round (which of them was chosen stays secret)."""
    out: set[int] = set()
    for s in range(state.seat_count):
        if s == observer:
            continue
        shown = shown_in_hand(state, s)
        if shown:
            held = set(state.hands[s])
            if state.chosen and state.chosen[s] is not None:
                held.add(state.chosen[s])
            out |= shown & held
    return frozenset(out)


def redetermine(state: KontorState, observer: int | None, rng) -> KontorState:
    """Re-deal what ``observer`` cannot see: other seats' hands (special cards included;
    cards all saw go into them stay) and unrevealed choices, the special cards set aside,
    and every pile below its visible top card (docks the ship sent to the bottom of a
    pile stay there: that was public). Each hidden slot keeps its kind (a colour's dock, a canal, a special card), so counts
    and every public fact stay the same."""
    if state.phase == "over":
        return state
    n = state.seat_count
    hands = [list(h) for h in state.hands]
    chosen = list(state.chosen)
    pools: dict[tuple, list[int]] = {}
    # the kind of each hidden slot, as the forms and rules tell it (free wheel: specials
    # hide among the canals; specials dealt by colour keep their identity)
    rules = rules_for(state.options)
    slot_kind = filtered(rules.slot, hidden_slot, state)
    # a secret pass is no card; some rules show a seat a whole pile
    chosen = [None if c == PASS_CHOICE else c for c in chosen]
    seen = seen_piles(state, observer)

    def put(card: int) -> None:
        pools.setdefault(slot_kind(card), []).append(card)

    # cards all saw: shown from a hand (the event cards' « Lutte d'influence ») and still
    # held, or seen going into a hand
    shown = _still_shown(state, observer) | _seen_in_hands(state, observer)
    for s in range(n):
        if s == observer:
            continue
        for c in hands[s] + ([chosen[s]] if chosen[s] is not None else []):
            if c not in shown:
                put(c)
    known = state.pile_known or (0,) * n
    hidden_piles = []
    for s in range(n):
        pile = state.dock_piles[s]
        cut = 1 if s in seen else max(1, len(pile) - known[s])
        hidden_piles.append(cut)
        for c in pile[1:cut]:
            put(c)
    for c in state.water_pile[1:]:
        put(c)
    for c in state.specials_aside:
        put(c)
    # a form's or a rule's own hidden stock (free for all's dock pile, canals set aside)
    stocks = [s for s in (f(state, observer) for f in rules.hidden_stock) if s is not None]
    for cards, _put_back in stocks:
        for c in cards:
            put(c)
    for key in sorted(pools):  # sorted first: the deal depends on what is hidden, not where
        pools[key] = list(rng.shuffle(sorted(pools[key])))

    def take(card: int) -> int:
        return pools[slot_kind(card)].pop()

    for s in range(n):
        if s == observer:
            continue
        hands[s] = [c if c in shown else take(c) for c in hands[s]]
        if chosen[s] is not None and chosen[s] not in shown:
            chosen[s] = take(chosen[s])
    piles = tuple(
        p[:1] + tuple(take(c) for c in p[1:cut]) + p[cut:]
        for p, cut in zip(state.dock_piles, hidden_piles)
    )
    water_pile = state.water_pile[:1] + tuple(take(c) for c in state.water_pile[1:])
    aside = tuple(take(c) for c in state.specials_aside)
    chosen = [
        PASS_CHOICE if old == PASS_CHOICE else c
        for old, c in zip(state.chosen, chosen)
    ]
    dealt = [(tuple(take(c) for c in cards), put_back) for cards, put_back in stocks]
    out = replace(
        state,
        hands=tuple(tuple(h) for h in hands),
        chosen=tuple(chosen),
        dock_piles=piles,
        water_pile=water_pile,
        specials_aside=aside,
        seed="0" * 64,
    )
    for cards, put_back in dealt:
        out = put_back(out, cards)
    return filtered(rules.redetermine, out, state, observer, rng, slot_kind)
