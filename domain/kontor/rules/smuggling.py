"""Special rule B « Contrebande » (``smuggling``, 2 players; switch ``smuggling``;
kontor.fr.txt, « Règles spéciales »):

« Chaque joueur peut placer, une fois dans la partie, une carte cachée de sa main. Cette
carte peut être un canal ou un dock avec marchandise. Elle n'est révélée qu'à la fin de la
partie. Un secteur qui contiendrait une telle carte ne sera comptabilisé qu'à la fin, après
avoir retourné la carte. »

Hook points: the choice may be face down (choose_commands; command: ChooseFaceDown, with
the pile of the replacement draw); the reveal shows only the card's back, its colour's
pseudo card ``data.FACE_DOWN_IDS`` (revealed_cards), placed after the others (its own
"order" step, swapped for the core's), its draw from the chosen pile (its swap of the
core's draw pile); a sector holding it is not counted (a hidden card, core/scoring.py:
``Card.is_hidden``) until the end reveals it (its step "face_down_revealed" of the game's
end: FaceDownRevealed, its warehouses, the sectors scored). Secrets: the view shows the face-down card's colour to all and the
card to its owner (the view's ``you.face_down``); the redaction hides another seat's face-down
choice; redetermine re-deals the face-down cards the observer cannot see.
Events and commands: its own, here (``EVENTS``, ``COMMANDS``). Readings and tests:
docs/rules/kontor.md (Special rules B), tests/domain/kontor/test_kontor_special_b.py.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from domain.common.frozen import replace
from domain.decider import RuleViolation
from domain.kontor.core import events as ev
from domain.kontor.core.changes import set_at
from domain.kontor.core.data import CARDS, FACE_DOWN_IDS, SEAT_COLORS, replacement_pile
from domain.kontor.core.hooks import Hooks, Seen
from domain.kontor.core.scoring import score_closed_sectors
from domain.kontor.core.sides import side_of
from domain.kontor.core.state import PASS_CHOICE, Cell, KontorState, change_part, part
from domain.kontor.core.view import shown_in_hand


@dataclass(frozen=True)
class FaceDownRevealed:
    """Contrebande, at the end: the face-down card at (x, y) is turned over."""

    TYPE: ClassVar[str] = "kontor.FaceDownRevealed"
    SCHEMA_VERSION: ClassVar[int] = 1
    seat: int
    x: int
    y: int
    card: int


EVENTS: tuple[type, ...] = (FaceDownRevealed,)


@dataclass(frozen=True)
class ChooseFaceDown:
    """Contrebande: lay ``card`` (a canal or a goods dock) face down this round, to be
    placed face down; ``draw`` names the pile ("dock" | "water") of the replacement draw,
    so the draw does not betray the card."""

    TYPE: ClassVar[str] = "ChooseFaceDown"
    card: int
    draw: str = "dock"


COMMANDS: tuple[type, ...] = (ChooseFaceDown,)


@dataclass(frozen=True)
class SmugglingState:
    #: per seat, (card, draw pile) chosen face down this round (secret)
    face_down: tuple = ()
    #: (seat, x, y, card) of the face-down cards on the board (the card is secret)
    smuggled: tuple[tuple[int, int, int, int], ...] = ()
    smuggle_used: tuple[int, ...] = ()  # seats that have placed their face-down card


def _own(state: KontorState) -> SmugglingState:
    return part(state, SmugglingState)


#: the piles a face-down card may be replaced from
DRAW_PILES: tuple[str, ...] = ("dock", "water")


def _face_down(state: KontorState) -> tuple:
    return _own(state).face_down or (None,) * state.seat_count


def is_face_down(card: int | None) -> bool:
    return card is not None and CARDS[card].kind == "face_down"


def may_smuggle(state: KontorState, seat: int) -> bool:
    """« une fois dans la partie »"""
    return state.options.smuggling and seat not in _own(state).smuggle_used


def smugglable(card: int) -> bool:
    """« Cette carte peut être un canal ou un dock avec marchandise »"""
    c = CARDS[card]
    return c.kind == "water" or (c.kind == "dock" and bool(c.goods))


# ---------------------------------------------------------------------------------------
# the choice, the reveal, the turn order, the draw


def choose_commands(state: KontorState, seat: int) -> list:
    """A face-down choice of each card that may be hidden, with each draw pile."""
    if not may_smuggle(state, seat):
        return []
    return [
        ChooseFaceDown(c, pile)
        for c in sorted(set(state.hands[seat]))
        if smugglable(c)
        for pile in DRAW_PILES
    ]


def decide(log, seat: int, command) -> bool:
    """ChooseFaceDown (``log`` is the decide context)."""
    if not isinstance(command, ChooseFaceDown):
        return False
    st = log.state
    if st.phase != "choose":
        raise RuleViolation("kontor.not_choosing", "Cards are chosen only at the start of a round.")
    if not st.options.smuggling:
        raise RuleViolation("kontor.no_smuggling", "Face-down cards need Contrebande.")
    if seat in _own(st).smuggle_used:
        raise RuleViolation(
            "kontor.smuggling_used",
            "A card is placed face down once per game (« une fois dans la partie »).",
        )
    if command.card not in st.hands[seat]:
        raise RuleViolation("kontor.card_not_in_hand", "Choose one of the cards in your hand.")
    if not smugglable(command.card):
        raise RuleViolation(
            "kontor.not_smugglable",
            "Only a canal or a dock with goods may be placed face down (« Cette carte "
            "peut être un canal ou un dock avec marchandise »).",
        )
    if command.draw not in DRAW_PILES:
        raise RuleViolation("kontor.draw_pile", "draw is 'dock' or 'water'.")
    log.emit(ev.CardChosen(seat, command.card, face_down=True, draw=command.draw))
    log.after_choice()
    log.after_command()
    return True


def shown_cards(state: KontorState, shown: tuple) -> tuple:
    """What the reveal shows: a face-down card shows only its back (its colour's pseudo
    card)."""
    fd = _face_down(state)
    return tuple(
        FACE_DOWN_IDS[side_of(state.options, s)] if fd[s] is not None else shown[s]
        for s in range(state.seat_count)
    )


def order_key(state: KontorState, seat: int) -> tuple[int, int]:
    """Highest number first; a face-down card shows no number and is placed after the
    others (several: in seat order). The round's "order" step, swapped."""
    card = state.revealed[seat]
    if is_face_down(card):
        return (1, seat)
    return (0, -card)


#: what Contrebande says of the hands: a card seen going into one may be smuggled unseen
HANDS_UNSEEN = Seen(hands_unseen=True)


def step_order(log, chosen) -> bool:
    """The round's "order" step, Contrebande's way (``order_key``)."""
    log.set_order(order_key)
    return False


def draw_pile(state: KontorState, seat: int, card: int) -> str | None:
    """A face-down card is replaced from the pile chosen with it (the core's draw pile,
    swapped: any other card as the core's, data.replacement_pile)."""
    if CARDS[card].kind != "face_down":
        return replacement_pile(card)
    fd = _face_down(state)[seat]
    return fd[1] if fd is not None else "dock"


def reveal_face_down(log, reason: str) -> bool:
    """« Elle n'est révélée qu'à la fin de la partie »: the cards, their warehouses, then
    the sectors they held. The end does not wait (False)."""
    st = log.state
    if not _own(st).smuggled:
        return False
    for seat, x, y, card in _own(st).smuggled:
        log.emit(FaceDownRevealed(seat, x, y, card))
        c = CARDS[card]
        if c.kind == "dock" and c.goods:
            log.emit(ev.WarehousesAdded(seat, card, c.goods))
    score_closed_sectors(log)
    return False


# ---------------------------------------------------------------------------------------
# evolve (only records)


def evolve_own(state: KontorState, event) -> KontorState | None:
    if type(event) is not FaceDownRevealed:
        return None
    board = tuple(
        Cell(c.x, c.y, event.card)
        if (c.x, c.y) == (event.x, event.y) and is_face_down(c.card)
        else c
        for c in state.board
    )
    smuggled = tuple(s for s in _own(state).smuggled if (s[1], s[2]) != (event.x, event.y))
    return change_part(replace(state, board=board), SmugglingState, smuggled=smuggled)


def evolved(old: KontorState | None, event, new: KontorState) -> KontorState:
    """What the shared events also do: the face-down choice, its placement (the real card
    kept aside), its return to the hand, a new round."""
    if not new.options.smuggling:
        return new
    t = type(event)
    if t is ev.GameStarted:
        return change_part(new, SmugglingState, face_down=(None,) * new.seat_count)
    fd = _face_down(new)
    if t is ev.CardChosen and event.face_down and event.card is not None:
        return change_part(new, SmugglingState, face_down=set_at(fd, event.seat, (event.card, event.draw)))
    if t is ev.CardPlaced and is_face_down(event.card) and fd[event.seat] is not None:
        real = fd[event.seat][0]
        own = part(new, SmugglingState)
        return change_part(
            new,
            SmugglingState,
            face_down=set_at(fd, event.seat, None),
            smuggled=own.smuggled + ((event.seat, event.x, event.y, real),),
            smuggle_used=own.smuggle_used + (event.seat,),
        )
    if t is ev.CardReturned and is_face_down(event.card) and fd[event.seat] is not None:
        hand = list(new.hands[event.seat])
        hand[hand.index(event.card)] = fd[event.seat][0]
        new = replace(new, hands=set_at(new.hands, event.seat, tuple(hand)))
        return change_part(new, SmugglingState, face_down=set_at(fd, event.seat, None))
    if t is ev.RoundStarted:
        return change_part(new, SmugglingState, face_down=(None,) * new.seat_count)
    return new


# ---------------------------------------------------------------------------------------
# view, redaction, redetermination


def view_keys(state: KontorState, out: dict, cells, viewer: int | None) -> None:
    """Public: the face-down cards' colours, who used the rule; the owner's own cards."""
    out["board"]["face_down"] = [
        {"x": p[0], "y": p[1], "color": SEAT_COLORS[CARDS[c].owner]}
        for p, c in sorted(cells.items(), key=lambda kv: (kv[0][1], kv[0][0]))
        if CARDS[c].kind == "face_down"
    ]
    for p in out["players"]:
        p["smuggling_used"] = p["seat"] in _own(state).smuggle_used
    if viewer is not None and "you" in out:
        own = _own(state)
        fd = own.face_down[viewer] if own.face_down else None
        out["you"]["face_down"] = [
            {"x": x, "y": y, "card": card} for seat, x, y, card in _own(state).smuggled if seat == viewer
        ]
        out["you"]["face_down_chosen"] = None if fd is None else {"card": fd[0], "draw": fd[1]}


def redact(event, viewer: int | None, data: dict) -> dict:
    """Another seat's CardChosen: neither the card nor whether it lies face down."""
    if type(event) is ev.CardChosen and event.seat != viewer:
        data.pop("face_down", None)
        data.pop("draw", None)
    return data


def _eligible(card: int, side: int) -> bool:
    c = CARDS[card]
    return smugglable(card) and (c.kind == "water" or c.owner == side)


def redetermine(
    original: KontorState, observer: int | None, rng, slot, new: KontorState
) -> KontorState:

    """Re-deal the face-down cards the observer cannot see.  In the choice phase another
    seat's face-down intent is secret too; on the board and in flight a face-down card
    may be any unseen canal or own goods dock: swapped first with an unseen card of its
    kind (hand or pile below its top), then with a hand card of the other kind (the draw
    pile was chosen freely, so the kinds in the hand do not tell)."""
    if not new.options.smuggling:
        return new
    n = new.seat_count
    hands = [list(h) for h in new.hands]
    piles = [list(p) for p in new.dock_piles]
    water = list(new.water_pile)
    known = new.pile_known or (0,) * n
    fd = list(_own(new).face_down or (None,) * n)
    smuggled = list(_own(new).smuggled)
    for s in range(n):
        if s == observer:
            continue
        side = side_of(new.options, s)
        if new.phase == "choose" and new.chosen[s] is not None:
            card = new.chosen[s]
            # a secret pass (Marins ivres morts) is no card: nothing to lay face down
            if card != PASS_CHOICE and s not in _own(new).smuggle_used and smugglable(card) and rng.below(2) == 0:
                fd[s] = (card, ("dock", "water")[rng.below(2)])
            else:
                fd[s] = None
            continue

        # cards shown in a hand are known, never swapped
        shown = shown_in_hand(original, s)

        def swap(card: int, s: int = s, side: int = side, shown: frozenset = shown) -> int:
            kind = CARDS[card].kind
            same: list[tuple[str, int]] = [("self", -1)]
            for i, c in enumerate(hands[s]):
                if CARDS[c].kind == kind and _eligible(c, side) and c not in shown:
                    same.append(("hand", i))
            if kind == "water":
                same += [("water", i) for i in range(1, len(water))]
            else:
                cut = max(1, len(piles[s]) - known[s])
                same += [("pile", i) for i in range(1, cut) if _eligible(piles[s][i], side)]
            where, i = same[rng.below(len(same))]
            store = {"hand": hands[s], "water": water, "pile": piles[s]}.get(where)
            if store is not None:
                card, store[i] = store[i], card
            other = [("self", -1)] + [
                ("hand", i)
                for i, c in enumerate(hands[s])
                if CARDS[c].kind != CARDS[card].kind and _eligible(c, side) and c not in shown
            ]
            where, i = other[rng.below(len(other))]
            if where == "hand":
                card, hands[s][i] = hands[s][i], card
            return card

        if fd[s] is not None:
            fd[s] = (swap(fd[s][0]), fd[s][1])
        for k, (seat, x, y, card) in enumerate(smuggled):
            if seat == s:
                smuggled[k] = (seat, x, y, swap(card))
    new = replace(
        new,
        hands=tuple(tuple(h) for h in hands),
        dock_piles=tuple(tuple(p) for p in piles),
        water_pile=tuple(water),
    )
    return change_part(new, SmugglingState, face_down=tuple(fd), smuggled=tuple(smuggled))


def register(hooks: Hooks) -> None:
    hooks.guard(hooks.refuse_while_waiting)
    hooks.on_commands((ChooseFaceDown,), decide)
    hooks.add_commands("face_down", lambda state, seat, _: choose_commands(state, seat), after="pass")
    hooks.revealed_cards.append(shown_cards)
    hooks.swap_step("order", step_order)
    hooks.add_step("face_down_revealed", lambda log, end: reveal_face_down(log, end.reason), before="final_selection")
    hooks.swap("draw_pile", draw_pile)
    # a smuggled card may be one seen going into a hand: redetermine keeps none
    hooks.seen.append(lambda state, observer: HANDS_UNSEEN)  # registered under Contrebande only
    hooks.on_events((FaceDownRevealed,), evolve_own)
    hooks.after_event(
        (ev.GameStarted, ev.CardChosen, ev.CardPlaced, ev.CardReturned, ev.RoundStarted),
        evolved,
        when=lambda options: options.smuggling,
    )
    hooks.add_view(view_keys, after="you")
    hooks.redact.append(redact)
    hooks.redetermine.append(redetermine)
