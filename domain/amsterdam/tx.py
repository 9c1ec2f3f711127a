"""A decision in progress: events emitted one by one, each applied at once, so the rules
read an up-to-date state. Gains go through here, so card triggers fire in one place."""

from __future__ import annotations

from domain.amsterdam import data
from domain.amsterdam import events as ev
from domain.amsterdam.board import has_active
from domain.amsterdam.evolve import evolve
from domain.amsterdam.state import State


class Tx:
    def __init__(self, state: State):
        self.state = state
        self.events: list = []

    def emit(self, event) -> None:
        self.state = evolve(self.state, event)
        self.events.append(event)

    def seat(self, seat: int):
        return self.state.seats[seat]

    # -- gains ---------------------------------------------------------------------
    def florins(self, seat: int, amount: int, source: str, by_card: bool = False) -> None:
        if amount == 0:
            return
        self.emit(ev.FlorinsChanged(seat, amount, source))
        # 071 (B16): florins gained through another card's effect, once per round
        if (amount > 0 and by_card and source != "071" and has_active(self.seat(seat), "071")
                and "071" not in self.seat(seat).once):
            self.emit(ev.OnceSpent(seat, "071"))
            self.emit(ev.FlorinsChanged(seat, 1, "071"))

    def points(self, seat: int, amount: int, source: str, by_card: bool = False) -> None:
        if amount == 0:
            return
        self.emit(ev.PointsScored(seat, amount, source))
        if (amount > 0 and by_card and source != "072" and has_active(self.seat(seat), "072")
                and "072" not in self.seat(seat).once):
            self.emit(ev.OnceSpent(seat, "072"))
            self.emit(ev.PointsScored(seat, 1, "072"))

    def resources(self, seat: int, colours: tuple[str, ...], source: str) -> None:
        if colours:
            self.emit(ev.ResourcesGained(seat, colours, source))

    def choices(self, seat: int, count: int, source: str) -> None:
        if count > 0:
            self.emit(ev.ChoicesOwed(seat, count, source))

    def spend(self, seat: int, colours: tuple[str, ...], reason: str) -> None:
        if colours:
            self.emit(ev.ResourcesSpent(seat, colours, reason))

    # -- the Amstel ----------------------------------------------------------------
    def advance(self, seat: int, spaces: int, source: str, action: bool = False) -> None:
        """Move a pawn (L589-605); card and tile moves are free extra moves (B5): they
        score bridges and the mouth, stop there, land on top and trigger 014."""
        me = self.seat(seat)
        if me.mouth_slot is not None or spaces <= 0:
            return
        start = me.amstel
        end = min(data.AMSTEL_SPACES, start + spaces)
        bridges = [v for k, v in sorted(data.AMSTEL["bridges"].items()) if start <= k < end]
        slot = self.state.mouth_arrivals + 1 if end == data.AMSTEL_SPACES else None
        self.emit(ev.AmstelAdvanced(seat, end, self.state.next_stamp, slot, len(bridges), action))
        for value in bridges:
            self.points(seat, value, "amstel_bridge")
        if slot is not None:
            self.points(seat, data.MOUTH_POINTS, "amstel_mouth")
        if (end > start and has_active(self.seat(seat), "014")
                and not self.seat(seat).turn.amstel_point and self.state.phase != "finished"):
            self.emit(ev.OnceSpent(seat, "014"))
            self.points(seat, 1, "014", by_card=True)
