"""The two 2-player expansions, « l'entrepôt d'exportation » (export_warehouse.py) and
« cartes d'événements » (event_cards.py): the hooks the shared modules call.  Each hook is
a no-op when neither expansion is on, so the basic, advanced and team games are unchanged.
"""

from __future__ import annotations

from domain.common.frozen import replace
from domain.kontor.core import events as ev
from domain.kontor.core.board import occupancy, sector_of, supremacy, warehouse_counts
from domain.kontor.core.commands import (
    ChooseFromPile,
    ExportWarehouse,
    PlaceCard,
    PutUnder,
    SkipEvent,
    SwapWarehouse,
)
from domain.kontor.core.data import CARDS, GOODS
from domain.kontor.core.state import KontorState
from domain.kontor.expansions import event_cards, export_warehouse

EVENT_COMMANDS = (ChooseFromPile, PutUnder, SwapWarehouse, SkipEvent)


def start_events(options, seat_count: int, seed_hex: str, rng_counter: int) -> list:
    return event_cards.start_events(options, seat_count, seed_hex, rng_counter)


# --- decide --------------------------------------------------------------------------


def to_act(state: KontorState) -> tuple[int, ...]:
    return event_cards.event_to_act(state)


def legal_event_commands(state: KontorState, seat: int) -> list:
    return event_cards.event_commands(state, seat)


def place_commands(state: KontorState, seat: int, places: list[PlaceCard]) -> list:
    return export_warehouse.export_commands(state, seat, places)


def handles(command) -> bool:
    return isinstance(command, (ExportWarehouse, *EVENT_COMMANDS))


def decide_command(log, seat: int, command) -> None:
    """``log`` is the decide context (decide.DecideContext)."""
    if isinstance(command, ExportWarehouse):
        export_warehouse.check_export(log.state, seat, command)
        log.place(seat, command.x, command.y, command.good)
    else:
        event_cards.decide_event(log, seat, command)


def warehouse_events(seat: int, card: int, export: str) -> list:
    return export_warehouse.warehouse_events(seat, card, export)


def before_dock_removed(state: KontorState, card: int) -> list:
    return export_warehouse.before_dock_removed(state, card)


def before_next_round(log) -> bool:
    return event_cards.before_next_round(log)


def after_round_started(log) -> None:
    event_cards.after_round_started(log)


def final_points(log, points: tuple[int, ...]) -> tuple[int, ...]:
    """Export majorities and « Jours dorés » bonus points, added at the end."""
    st = log.state
    opts = st.options
    if not (opts.export_warehouse or opts.event_cards):
        return points
    bonus = st.bonus_points or (0,) * st.seat_count
    majority = export_warehouse.majority_points(st)
    total = tuple(p + b + m for p, b, m in zip(points, bonus, majority))
    log.emit(ev.FinalBonusesCounted(export_warehouse.export_majorities(st), bonus, total))
    return total


# --- scoring and board reads ------------------------------------------------------------


def adjust(state: KontorState):
    return export_warehouse.adjust(state)


def goods_beats(state: KontorState):
    return event_cards.goods_beats(state)


def bonus(state: KontorState) -> tuple[int, ...]:
    return state.bonus_points or (0,) * state.seat_count


# --- evolve ------------------------------------------------------------------------------


def evolve(state: KontorState, event) -> KontorState | None:
    if type(event) is ev.FinalBonusesCounted:
        return replace(state, points=event.points)
    out = export_warehouse.evolve_export(state, event)
    if out is None:
        out = event_cards.evolve_event(state, event)
    return out


def card_left_hand(state: KontorState, seat: int, card: int) -> KontorState:
    """A card shown by « Lutte d'influence » is no longer known once played."""
    return event_cards.forget_shown(state, seat, card)


def forget_dock(state: KontorState, card: int) -> KontorState:
    """A dock left the board: warehouses swapped on it leave with it."""
    if not state.swapped:
        return state
    return replace(state, swapped=tuple(e for e in state.swapped if e[0] != card))


# --- view --------------------------------------------------------------------------------


def view_keys(state: KontorState, out: dict, viewer) -> None:
    opts = state.options
    if not (opts.export_warehouse or opts.event_cards):
        return
    export_warehouse.view_keys(state, out)
    event_cards.view_keys(state, out, viewer)
    if state.export_missing or state.swapped:
        delta = adjust(state) or {}
        for w in out["board"]["warehouses"]:
            d = delta.get(w["card"])
            if d:
                row = [0, 0, 0]
                for g in CARDS[w["card"]].goods:
                    row[GOODS.index(g)] += 1
                row = [a + b for a, b in zip(row, d)]
                w["goods"] = [g for i, g in enumerate(GOODS) for _ in range(row[i])]


def redact(event, viewer, data: dict) -> dict:
    return event_cards.redact(event, viewer, data)


def reshuffled(observer, rng, state: KontorState) -> KontorState:
    """The event deck's order is secret: redetermine draws it again."""
    if not state.event_deck:
        return state
    return replace(state, event_deck=tuple(rng.shuffle(sorted(state.event_deck))))


def hidden_kept(state: KontorState, observer) -> tuple[frozenset[int], frozenset[int]]:
    """What redetermine keeps in place: cards shown by « Lutte d'influence » (still held)
    and the seats whose whole dock pile the observer has seen (his own, after « Mariage »)."""
    cards: set[int] = set()
    for seat in range(state.seat_count):
        if seat != observer:
            cards.update(event_cards.known_hand(state, seat))
    piles = set()
    if observer is not None and state.pile_open and state.pile_open[observer]:
        piles.add(observer)
    return frozenset(cards), frozenset(piles)


# --- the computer player -----------------------------------------------------------------


def _dock_worth(card: int) -> float:
    c = CARDS[card]
    return len(c.goods) + (0.5 if c.florin else 0.0) + (0.3 if c.crane else 0.0)


def policy_export(state: KontorState, seat: int, place: PlaceCard, legal: list):
    """Export one good of a dock with two or three goods when that good's export majority
    is not already ours (the other goods still go to the sector); a single-good dock keeps
    its warehouse in the sector, where it may win the sector."""
    if not state.options.export_warehouse:
        return place
    card = state.revealed[seat]
    c = CARDS[card]
    if not c.is_dock or len(c.goods) < 2:
        return place
    ex = export_warehouse.exports_of(state)
    other = 1 - seat
    best = None
    for good in sorted(set(c.goods)):
        i = GOODS.index(good)
        margin = ex[seat][i] - ex[other][i]
        if margin <= 0 and (best is None or margin < best[0]):
            best = (margin, good)
    if best is None:
        return place
    cmd = ExportWarehouse(place.x, place.y, best[1])
    return cmd if cmd in legal else place


def policy_event(state: KontorState, seat: int, legal: list, rng):
    """Mariage: take the pile's best dock (most goods), put the weakest one under.
    Inondation: the swap that makes the seat lead a sector it does not lead, else skip."""
    takes = [c for c in legal if isinstance(c, ChooseFromPile)]
    if takes:
        return max(takes, key=lambda c: (_dock_worth(c.card), -c.card))
    unders = [c for c in legal if isinstance(c, PutUnder)]
    if unders:
        return min(unders, key=lambda c: (_dock_worth(c.card), c.card))
    swaps = [c for c in legal if isinstance(c, SwapWarehouse)]
    if swaps:
        cells = occupancy(state)
        for cmd in swaps:
            sector = sector_of(cells, (cmd.x, cmd.y))
            before = warehouse_counts(cells, sector, state.warehouses, 2, adjust=adjust(state))
            lead, _ = supremacy(before, goods_beats(state))
            if lead == seat:
                continue
            card = cells[(cmd.x, cmd.y)]
            after_state = replace(state, swapped=state.swapped + ((card, cmd.good, cmd.new_good),))
            after = warehouse_counts(cells, sector, state.warehouses, 2, adjust=adjust(after_state))
            if supremacy(after, goods_beats(state))[0] == seat:
                return cmd
    skip = [c for c in legal if isinstance(c, SkipEvent)]
    return skip[0] if skip else rng.choice(legal)


def _event_to_act(state: KontorState) -> tuple[int, ...] | None:
    return to_act(state) if state.phase == "event" else None


def _event_legal(state: KontorState, seat: int) -> list | None:
    return legal_event_commands(state, seat) if state.phase == "event" else None


def register(hooks) -> None:
    hooks.to_act.append(_event_to_act)
    hooks.legal_commands.append(_event_legal)
    hooks.count_adjust.append(export_warehouse.adjust)
    hooks.goods_beats.append(event_cards.goods_beats)
    hooks.command.append(_decide)
    hooks.place_commands.append(place_commands)
    hooks.before_dock_removed.append(before_dock_removed)
    hooks.export_warehouses.append(warehouse_events)
    hooks.end_of_round.append(before_next_round)
    hooks.round_started.append(after_round_started)
    hooks.final_points.append(final_points)
    hooks.start_events.append(start_events)
    hooks.card_placed.append(lambda event, state: card_left_hand(state, event.seat, event.card))
    hooks.dock_removed.append(lambda event, state: forget_dock(state, event.card))
    hooks.evolve_unknown.append(evolve)
    hooks.view_last.append(view_keys)
    hooks.redact.append(redact)
    hooks.hidden_kept.append(hidden_kept)
    hooks.reshuffled.append(reshuffled)


def _decide(log, seat: int, command) -> bool:
    if not handles(command) or log.state.pending:
        return False
    decide_command(log, seat, command)
    log.after_command()
    return True
