"""evolve for the free wheel events (« Roue libre », « Roue libre individuelle ») and the
free-wheel effects of shared events (« Il place ensuite un marqueur à sa couleur sur le
numéro »: who owns a dock in free for all). Applies facts, decides nothing; registered at
the core's evolve hook points."""

from __future__ import annotations

from domain.kontor.core import events as ev
from domain.kontor.core.changes import set_at
from domain.kontor.core.data import CARDS
from domain.kontor.core.state import KontorState, replace_in, without_cell
from domain.kontor.forms.free_wheel import events as fw_ev
from domain.kontor.forms.free_wheel.state import FreeWheelState, fw


def _remove(hand: tuple[int, ...], card: int) -> tuple[int, ...]:
    i = hand.index(card)
    return hand[:i] + hand[i + 1 :]


def started(state: KontorState, event: ev.GameStarted) -> KontorState:
    return replace_in(
        state,
        FreeWheelState,
        skip_next=(False,) * event.seat_count,
        common_docks=event.common_docks,
        phase="turn",
    )


def placed(state: KontorState, event: ev.CardPlaced) -> KontorState:
    """Record who owns a new tavern and, in free for all, who owns a new dock."""
    c = CARDS[event.card]
    if c.tavern and state.options.tavern_drunk:
        state = replace_in(state, FreeWheelState, taverns=fw(state).taverns + ((event.card, event.seat, None),))
    if state.options.shared_dock_pile and c.kind == "dock":
        owners = tuple(o for o in fw(state).dock_owners if o[0] != event.card)
        state = replace_in(state, FreeWheelState, dock_owners=owners + ((event.card, event.seat),))
    return state


#: the free wheel's own events (applied by ``evolve_free_wheel``)
OWN_EVENTS = (
    fw_ev.TurnStarted,
    fw_ev.TurnSkipped,
    fw_ev.CardPlayed,
    fw_ev.TaxUnpaid,
    fw_ev.StepStarted,
    fw_ev.DrunkDockSet,
    fw_ev.DockSobered,
    fw_ev.AllianceProposed,
    fw_ev.AllianceDeclared,
    fw_ev.AllianceDeclined,
    fw_ev.AllianceEnded,
    fw_ev.SectorCounted,
)


def evolve_free_wheel(state: KontorState, event) -> KontorState | None:
    """The new state, or None when the shared evolve handles the event."""
    t = type(event)
    n = state.seat_count
    if t is fw_ev.TurnStarted:
        return replace_in(
            state,
            FreeWheelState,
            current=event.seat,
            round=event.turn,
            idle_rounds=event.idle_turns,
            phase="turn",
            revealed=(None,) * n,
            chosen=(None,) * n,
            order=(),
            returned=(),
            passed=set_at(state.passed, event.seat, False),
            tax=("",) * n,
            tavern_moved=(),
            proposed=False,
            proposal=None,
            barred=tuple(s for s in fw(state).barred if s != event.seat),
            ship_moved=False,
            placed_this_round=False,
        )
    if t is fw_ev.TurnSkipped:
        return replace_in(state, FreeWheelState, skip_next=set_at(fw(state).skip_next, event.seat, False))
    if t is fw_ev.CardPlayed:
        return replace_in(
            state,
            FreeWheelState,
            hands=set_at(state.hands, event.seat, _remove(state.hands[event.seat], event.card)),
            revealed=set_at(state.revealed, event.seat, event.card),
            order=(event.seat,),
            phase="place",
        )
    if t is fw_ev.TaxUnpaid:
        return replace_in(
            state,
            FreeWheelState,
            skip_next=set_at(fw(state).skip_next, event.seat, True),
            tax=set_at(state.tax, event.seat, "unpaid"),
        )
    if t is fw_ev.StepStarted:
        return replace_in(state, FreeWheelState, phase=event.step)
    if t is fw_ev.DrunkDockSet:
        taverns = tuple(
            (tv, owner, event.card if tv == event.tavern else d) for tv, owner, d in fw(state).taverns
        )
        return replace_in(state, FreeWheelState, taverns=taverns, tavern_moved=fw(state).tavern_moved + (event.tavern,))
    if t is fw_ev.DockSobered:
        taverns = tuple(
            (tv, owner, None if tv == event.tavern else d) for tv, owner, d in fw(state).taverns
        )
        return replace_in(state, FreeWheelState, taverns=taverns)
    if t is fw_ev.AllianceProposed:
        return replace_in(
            state,
            FreeWheelState,
            phase="alliance",
            proposal=(event.seat, event.partner, event.x, event.y),
            proposed=True,
        )
    if t is fw_ev.AllianceDeclared:
        a, b = event.seats
        return replace_in(
            state,
            FreeWheelState,
            alliances=fw(state).alliances + ((a, b, event.cells),),
            phase="turn",
            proposal=None,
        )
    if t is fw_ev.AllianceDeclined:
        return replace_in(state, FreeWheelState, phase="turn", proposal=None)
    if t is fw_ev.AllianceEnded:
        a, b = event.seats
        key = (a, b, event.cells)
        alliances = tuple(al for al in fw(state).alliances if al != key)
        barred = fw(state).barred
        if event.reason == "merged":
            barred = tuple(sorted(set(barred) | {a, b}))
        return replace_in(state, FreeWheelState, alliances=alliances, barred=barred)
    if t is fw_ev.SectorCounted:
        points = tuple(p + s for p, s in zip(state.points, event.shares))
        return replace_in(state, FreeWheelState, points=points, results=fw(state).results + (event,))
    if state.options.shared_dock_pile:
        if t is ev.CardDrawn and event.pile == "common":
            return replace_in(
                state,
                FreeWheelState,
                common_docks=fw(state).common_docks[1:],
                common_known=min(fw(state).common_known, len(fw(state).common_docks) - 1),
                hands=set_at(state.hands, event.seat, state.hands[event.seat] + (event.card,)),
            )
        if t is ev.DockRemoved:
            # « Il est replacé sous la pile »: the one common pile
            board = without_cell(state.board, event.x, event.y)
            return replace_in(
                state,
                FreeWheelState,
                board=board,
                warehouses=state.warehouses - {event.card},
                common_docks=fw(state).common_docks + (event.card,),
                common_known=fw(state).common_known + 1,
                dock_owners=tuple(o for o in fw(state).dock_owners if o[0] != event.card),
            )
    return None


def _started(event: ev.GameStarted, state: KontorState) -> KontorState:
    return started(state, event) if event.options.sequential_turns else state


def _evolve(state: KontorState, event) -> KontorState | None:
    return evolve_free_wheel(state, event) if state.options.sequential_turns else None


def _placed(event: ev.CardPlaced, state: KontorState) -> KontorState:
    return placed(state, event) if state.options.sequential_turns else state


def dock_owner(state: KontorState, card: int) -> int | None:
    """Free for all: the seat that placed the dock (None: not on the board)."""
    for c, seat in fw(state).dock_owners:
        if c == card:
            return seat
    return None


def register(hooks) -> None:
    free_wheel = lambda options: options.sequential_turns  # noqa: E731
    hooks.swap("dock_owner", dock_owner)
    hooks.after_event((ev.GameStarted,), lambda old, event, new: _started(event, new), when=free_wheel)
    hooks.on_events(OWN_EVENTS, evolve_free_wheel)
    # the one common dock pile (free for all): drawn from and put back under
    hooks.instead_of(ev.CardDrawn, _evolve, when=free_wheel)
    hooks.instead_of(ev.DockRemoved, _evolve, when=free_wheel)
    hooks.before_event(ev.CardPlaced, lambda state, event: _placed(event, state), when=free_wheel)
