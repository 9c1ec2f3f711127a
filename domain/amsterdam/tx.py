"""A decision in progress: events emitted one by one, each applied at once, so the rules
read an up-to-date state. Gains go through here, so card triggers fire in one place."""

from __future__ import annotations

from domain.amsterdam import data
from domain.amsterdam import events as ev
from domain.amsterdam.evolve import evolve
from domain.amsterdam.state import State

#: the cards whose triggers live here: 071 and 072 (a florin or a point more when another
#: card gives some, B16), 014 (a point when the pawn advances, once a turn)
ON_CARD_FLORINS = data.cards_with("on_card_florins")
ON_CARD_POINTS = data.cards_with("on_card_points")
ON_AMSTEL_POINT = data.cards_with("on_amstel_point")


def _bonus(seat, cards: tuple[str, ...], spent: tuple[str, ...], source: str):
    """The first of ``cards`` the seat has active and has not spent this round (and that
    is not the gain's own source), or None."""
    for card in cards:
        if card != source and card in seat.active and card not in spent:
            return card
    return None


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
        if amount > 0 and by_card:
            me = self.seat(seat)
            card = _bonus(me, ON_CARD_FLORINS, me.once, source)
            if card is not None:
                self.emit(ev.OnceSpent(seat, card))
                self.emit(ev.FlorinsChanged(seat, data.CARDS[card].effect.params[0], card))

    def points(self, seat: int, amount: int, source: str, by_card: bool = False) -> None:
        if amount == 0:
            return
        self.emit(ev.PointsScored(seat, amount, source))
        # 072 (B16): points gained through another card's effect, once per round
        if amount > 0 and by_card:
            me = self.seat(seat)
            card = _bonus(me, ON_CARD_POINTS, me.once, source)
            if card is not None:
                self.emit(ev.OnceSpent(seat, card))
                self.emit(ev.PointsScored(seat, data.CARDS[card].effect.params[0], card))

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
        me = self.seat(seat)
        if end > start and not me.turn.amstel_point and self.state.phase != "finished":
            card = _bonus(me, ON_AMSTEL_POINT, (), source)
            if card is not None:                                             # 014
                self.emit(ev.OnceSpent(seat, card))
                self.points(seat, data.CARDS[card].effect.params[0], card, by_card=True)
