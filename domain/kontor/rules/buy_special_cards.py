"""Special rule A « Achat de cartes spéciales » (``buy_special_cards``, 2 players; switch
``special_price``; kontor.fr.txt, « Variantes avec les cartes spéciales »):

« Les 6 cartes spéciales sont brouillées et placées faces cachées en une pile. Avant chaque
tour, un joueur peut acheter des cartes spéciales pour un coût de deux pièces de monnaie.
Si les deux joueurs veulent acheter et qu'il ne reste pas assez de cartes spéciales, le
joueur qui montre la carte de numéro le plus élevé achète en premier. »

Reading R-A8 (docs/rules/kontor.md): before each round (and before the first, once
Justice's set-up is over) the seats that can pay say in secret whether they buy
(phase ``buy``: BuySpecialCard); then each buyer takes one card, the one whose dock pile
shows the higher number first. Hook points: deal (the pile shuffled), started,
the steps "buying" (the round's end) and "first_buying" (the set-up's end: the buying opens), to_act, legal_commands, command; the
view, the redaction and redetermine keep the pile, the wishes and the cards bought
secret. Tests: tests/domain/kontor/test_kontor_special_a.py (buy special cards).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from domain.common.frozen import replace
from domain.decider import RuleViolation
from domain.kontor.core import events as ev
from domain.kontor.core.changes import set_at, without_one
from domain.kontor.core.data import CARDS, special_cards
from domain.kontor.core.hooks import Hooks
from domain.kontor.core.state import KontorState, change_part, part
from domain.kontor.core.view import shown_in_hand


@dataclass(frozen=True)
class BuyingOpened:
    """Achat de cartes spéciales: before the round, these seats may buy a special card."""

    TYPE: ClassVar[str] = "kontor.BuyingOpened"
    SCHEMA_VERSION: ClassVar[int] = 1
    seats: tuple[int, ...]


@dataclass(frozen=True)
class BuyDeclared:
    """A seat said whether it buys (``buy`` None for others until all have said)."""

    TYPE: ClassVar[str] = "kontor.BuyDeclared"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int
    buy: bool | None


@dataclass(frozen=True)
class SpecialCardBought:
    """The buyer pays ``price`` to the treasury and takes the top special card (``card``
    None for others: it stays face down)."""

    TYPE: ClassVar[str] = "kontor.SpecialCardBought"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int
    card: int | None
    price: int


@dataclass(frozen=True)
class BuyingClosed:
    """The buying is over: who wanted to buy (public now); the round's choice begins."""

    TYPE: ClassVar[str] = "kontor.BuyingClosed"
    SCHEMA_VERSION: ClassVar[int] = 1
    wanted: tuple[int, ...]


EVENTS: tuple[type, ...] = (BuyingOpened, BuyDeclared, SpecialCardBought, BuyingClosed)


@dataclass(frozen=True)
class BuySpecialCard:
    """Achat de cartes spéciales: before the round, say (secretly) whether you buy a special
    card from the face-down pile for 2 florins."""

    TYPE: ClassVar[str] = "BuySpecialCard"
    buy: bool


COMMANDS: tuple[type, ...] = (BuySpecialCard,)


@dataclass(frozen=True)
class SpecialsState:
    specials_pile: tuple[int, ...] = ()  # the face-down pile, top first
    buy_pending: tuple[int, ...] = ()  # the seats asked this round
    #: per seat: None = not asked or not yet declared, True/False = wants to buy (secret
    #: until all declared)
    buy_wants: tuple[bool | None, ...] = ()


def _own(state: KontorState) -> SpecialsState:
    return part(state, SpecialsState)


# ---------------------------------------------------------------------------------------
# set-up, the buying before each round


def deal(options, seat_count: int, rng, dock_hands: list, piles: list, specials: list):
    """« Les 6 cartes spéciales sont brouillées et placées faces cachées en une pile »;
    the first buying opens at once, unless a set-up phase comes first (Justice)."""
    if not options.special_price:
        return {}, []
    follow: list = []
    fields = {"specials_pile": tuple(rng.shuffle(special_cards()))}
    if not options.starting_dock_choice:
        buyers = tuple(
            s for s in range(seat_count) if options.starting_money >= options.special_price
        )
        if buyers:
            follow.append(BuyingOpened(buyers))
    return fields, follow


def started(event, state: KontorState) -> KontorState:
    if not event.specials_pile:
        return state
    return change_part(
        state,
        SpecialsState,
        specials_pile=event.specials_pile,
        buy_wants=(None,) * state.seat_count,
    )


def open_round(log) -> None:
    """« Avant chaque tour »: the seats that can pay may buy."""
    st = log.state
    price = st.options.special_price
    if not price or st.phase == "over" or not _own(st).specials_pile:
        return
    seats = tuple(s for s in range(st.seat_count) if st.money[s] >= price)
    if seats:
        log.emit(BuyingOpened(seats))


def to_act(state: KontorState) -> tuple[int, ...] | None:
    if state.phase != "buy":
        return None
    return tuple(s for s in _own(state).buy_pending if _own(state).buy_wants[s] is None)


def legal_commands(state: KontorState, seat: int) -> list | None:
    if state.phase != "buy":
        return None
    out = [BuySpecialCard(False)]
    if state.money[seat] >= state.options.special_price:
        out.insert(0, BuySpecialCard(True))
    return out


def decide(log, seat: int, command) -> bool:
    """BuySpecialCard (``log`` is the decide context)."""
    if not isinstance(command, BuySpecialCard):
        return False
    st = log.state
    if st.phase != "buy":
        raise RuleViolation("kontor.not_buying", "Special cards are bought before a round.")
    price = st.options.special_price
    if command.buy and st.money[seat] < price:
        raise RuleViolation(
            "kontor.cannot_afford", f"A special card costs {price} florins (« deux pièces »)."
        )
    log.emit(BuyDeclared(seat, bool(command.buy)))
    st = log.state
    if all(_own(st).buy_wants[s] is not None for s in _own(st).buy_pending):
        resolve_buying(log)
    log.after_command()
    return True


def shown_number(state: KontorState, seat: int) -> int:
    """The number a seat shows: the face-up top card of its dock pile (0 when empty)."""
    pile = state.dock_piles[seat]
    return CARDS[pile[0]].number or 0 if pile else 0


def resolve_buying(log) -> None:
    """« le joueur qui montre la carte de numéro le plus élevé achète en premier »: the
    wishes were secret until all had said; then the buyers buy one card each, the one
    whose dock pile shows the higher number first (reading R-A8)."""
    st = log.state
    wanted = [s for s in _own(st).buy_pending if _own(st).buy_wants[s]]
    wanted.sort(key=lambda s: (-shown_number(st, s), s))
    price = st.options.special_price
    for seat in wanted:
        pile = _own(log.state).specials_pile
        if not pile:
            break
        log.emit(SpecialCardBought(seat, pile[0], price))
    log.emit(BuyingClosed(tuple(sorted(wanted))))


def evolve_event(state: KontorState, event) -> KontorState | None:
    t = type(event)
    n = state.seat_count
    if t is BuyingOpened:
        state = replace(state, phase="buy")
        return change_part(state, SpecialsState, buy_pending=event.seats, buy_wants=(None,) * n)
    if t is BuyDeclared:
        wants = set_at(_own(state).buy_wants, event.seat, event.buy)
        return change_part(state, SpecialsState, buy_wants=wants)
    if t is SpecialCardBought:
        seat = event.seat
        card = event.card if event.card is not None else _own(state).specials_pile[0]
        state = replace(
            state,
            hands=set_at(state.hands, seat, state.hands[seat] + (card,)),
            money=set_at(state.money, seat, state.money[seat] - event.price),
            treasury=state.treasury + event.price,
        )
        pile = without_one(_own(state).specials_pile, card)
        return change_part(state, SpecialsState, specials_pile=pile)
    if t is BuyingClosed:
        state = replace(state, phase="choose")
        return change_part(state, SpecialsState, buy_pending=(), buy_wants=(None,) * n)
    return None


# ---------------------------------------------------------------------------------------
# view, redaction, redetermination


def view_keys(state: KontorState, out: dict, cells, viewer: int | None) -> None:
    """Public: the pile's size, who buys, who has said; the seat's own wish."""
    if state.options.special_price:
        out["specials_pile"] = len(_own(state).specials_pile)
        if state.phase == "buy":
            out["buying"] = {
                "seats": list(_own(state).buy_pending),
                "declared": [s for s in _own(state).buy_pending if _own(state).buy_wants[s] is not None],
            }
    if viewer is not None and "you" in out and state.phase == "buy":
        out["you"]["buy"] = _own(state).buy_wants[viewer]


def view_hidden(state: KontorState, hidden: dict) -> None:
    if state.options.special_price:
        hidden["specials_pile"] = list(_own(state).specials_pile)


def redact(event, viewer: int | None, data: dict) -> dict:
    t = type(event)
    if t is ev.GameStarted:
        data["specials_pile"] = {"size": len(event.specials_pile)}
    elif t is BuyDeclared and event.seat != viewer:
        data["buy"] = None
    elif t is SpecialCardBought and event.seat != viewer:
        data["card"] = None
    return data


def redetermine(original: KontorState, observer, rng, slot, state: KontorState) -> KontorState:
    """Re-deal the special-card pile with the special cards other seats hold unseen; while
    buying, other seats' wishes."""
    n = state.seat_count
    hands = [list(h) for h in state.hands]
    specials_pile = list(_own(state).specials_pile)
    pools: dict[tuple, list[int]] = {}
    slots: list = []  # (container, index)

    def put(container: list, i: int) -> None:
        pools.setdefault(slot(container[i]), []).append(container[i])
        slots.append((container, i))

    if specials_pile:
        for i in range(len(specials_pile)):
            put(specials_pile, i)
        for s in range(n):
            if s == observer:
                continue
            shown = shown_in_hand(original, s)
            for i, c in enumerate(hands[s]):
                if CARDS[c].is_special and c not in shown:  # shown cards stay (expansions)
                    put(hands[s], i)
    for key in sorted(pools, key=repr):
        pools[key] = list(rng.shuffle(pools[key]))
    for container, i in slots:
        container[i] = pools[slot(container[i])].pop()
    wants = list(_own(state).buy_wants)
    if state.phase == "buy":
        for s in _own(state).buy_pending:
            if s != observer and wants[s] is not None:
                wants[s] = bool(rng.below(2))
    if not slots and wants == list(_own(state).buy_wants):
        return state
    state = replace(state, hands=tuple(tuple(h) for h in hands))
    return change_part(
        state, SpecialsState, specials_pile=tuple(specials_pile), buy_wants=tuple(wants)
    )


def register(hooks: Hooks) -> None:
    hooks.to_act.append(to_act)
    hooks.legal_commands.append(legal_commands)
    hooks.on_commands((BuySpecialCard,), decide)
    hooks.add_step("buying", lambda log, turn: open_round(log) or False, after="new_round")
    hooks.add_step("first_buying", lambda log, _: open_round(log) or False, after="setup_over")
    hooks.deal.append(deal)
    hooks.after_event((ev.GameStarted,), lambda old, event, new: started(event, new))
    hooks.on_events((BuyingOpened, BuyDeclared, SpecialCardBought, BuyingClosed), evolve_event)
    hooks.add_view(view_keys, after="you")
    hooks.view_hidden.append(view_hidden)
    hooks.redact.append(redact)
    hooks.redetermine.append(redetermine)
