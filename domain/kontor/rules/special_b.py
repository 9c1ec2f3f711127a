"""Special rules B of Kontor (« Règles spéciales »): Vieilles rancunes (old_grudges),
Blocus (blockade), Corruption 1 / 2 (bribery_1 / bribery_2), Point final (final_point),
Contrebande (smuggling); Protection is protection.py.

decide.py calls the hooks here (the round keeps its structure); placement, ship and
scoring hooks live in rule_b_filters.py; view hooks in rule_b_view.py.  Every reading is
written down, with its passage, in docs/rules/kontor.md (Special rules B).
"""

from __future__ import annotations

from domain.common.frozen import replace
from domain.decider import RuleViolation
from domain.kontor.core import events as ev
from domain.kontor.core import events_b as evb
from domain.kontor.core.board import Pos, grow, is_closed, occupancy, sector_of
from domain.kontor.core.commands_b import (
    COMMANDS_B,
    ChooseFaceDown,
    DecideTavernSector,
    EndBribe,
    PlaceBribeWarehouse,
)
from domain.kontor.core.data import CARDS, FACE_DOWN_IDS, FINAL_POINT_BONUS
from domain.kontor.core.placement import scored_cells
from domain.kontor.core.scoring import score_closed_sectors
from domain.kontor.core.sides import seats_of, side_of
from domain.kontor.core.state import Cell, KontorState

DRAW_PILES: tuple[str, ...] = ("dock", "water")


def _set(values: tuple, index: int, value) -> tuple:
    return values[:index] + (value,) + values[index + 1 :]


def _face_down(state: KontorState) -> tuple:
    return state.face_down or (None,) * state.seat_count


def is_face_down(card: int | None) -> bool:
    return card is not None and CARDS[card].kind == "face_down"


# ---------------------------------------------------------------------------------------
# Who acts, what they may send


def to_act_b(state: KontorState) -> tuple[int, ...] | None:
    """A pending bribe (the tavern's placer) or a tavern decision comes first."""
    if state.bribe is not None:
        return (state.bribe[0],)
    if state.phase == "grudges":
        return (grudge_decider(state),) if state.grudge_pending else ()
    return None


def grudge_decider(state: KontorState) -> int:
    """The owner of the tavern: its colour's first seat (our convention in the team game:
    « Un joueur ou une équipe qui possède une taverne »)."""
    _, tavern = grudge_tavern(state, state.grudge_pending[0])
    owner = CARDS[occupancy(state)[tavern]].owner
    return seats_of(state.options, owner, state.seat_count)[0]


def commands_b(state: KontorState, seat: int) -> list | None:
    if state.bribe is not None:
        return [PlaceBribeWarehouse(x, y) for x, y in bribe_targets(state)] + [EndBribe()]
    if state.phase == "grudges":
        if not state.grudge_pending:
            return []
        _, (x, y) = grudge_tavern(state, state.grudge_pending[0])
        return [DecideTavernSector(x, y, True), DecideTavernSector(x, y, False)]
    return None


def choose_commands(state: KontorState, seat: int) -> list:
    """Contrebande: « une fois dans la partie, une carte cachée de sa main. Cette carte
    peut être un canal ou un dock avec marchandise »."""
    if not may_smuggle(state, seat):
        return []
    return [
        ChooseFaceDown(c, pile)
        for c in sorted(set(state.hands[seat]))
        if smugglable(c)
        for pile in DRAW_PILES
    ]


def may_smuggle(state: KontorState, seat: int) -> bool:
    return state.options.smuggling and seat not in state.smuggle_used


def smugglable(card: int) -> bool:
    c = CARDS[card]
    return c.kind == "water" or (c.kind == "dock" and bool(c.goods))


def guard(state: KontorState, command) -> None:
    """While a bribe or a tavern decision waits, only its commands are accepted."""
    if state.bribe is not None and not isinstance(command, (PlaceBribeWarehouse, EndBribe)):
        raise RuleViolation(
            "kontor.bribe_pending",
            "First add the bribe warehouses or end the bribe (PlaceBribeWarehouse / EndBribe).",
        )
    if state.phase == "grudges" and not isinstance(command, DecideTavernSector):
        raise RuleViolation(
            "kontor.tavern_decision_pending",
            "The game is ending: the tavern's owner decides whether its sector counts.",
        )


# ---------------------------------------------------------------------------------------
# Contrebande: the reveal, the turn order, the draw


def shown_cards(state: KontorState) -> tuple[int | None, ...]:
    """What the reveal shows: a face-down card shows only its back (its colour's pseudo
    card)."""
    fd = _face_down(state)
    return tuple(
        FACE_DOWN_IDS[side_of(state.options, s)] if fd[s] is not None else state.chosen[s]
        for s in range(state.seat_count)
    )


def order_key(state: KontorState, seat: int) -> tuple[int, int]:
    """Highest number first; a face-down card shows no number and is placed after the
    others (several: in seat order)."""
    card = state.revealed[seat]
    if is_face_down(card):
        return (1, seat)
    return (0, -card)


def draw_pile(state: KontorState, seat: int, card: int) -> str | None:
    """The pile of the replacement draw: as the card's kind, or for a face-down card the
    pile chosen with it; None for a special card."""
    c = CARDS[card]
    if c.kind == "face_down":
        fd = _face_down(state)[seat]
        return fd[1] if fd is not None else "dock"
    if c.is_special:
        return None
    return "dock" if c.is_dock else "water"


def reveal_face_down(log) -> None:
    """« Elle n'est révélée qu'à la fin de la partie. Un secteur qui contiendrait une telle
    carte ne sera comptabilisé qu'à la fin, après avoir retourné la carte. »"""
    st = log.state
    if not st.smuggled:
        return
    for seat, x, y, card in st.smuggled:
        log.emit(evb.FaceDownRevealed(seat, x, y, card))
        c = CARDS[card]
        if c.kind == "dock" and c.goods:
            log.emit(ev.WarehousesAdded(seat, card, c.goods))
    score_closed_sectors(log)


# ---------------------------------------------------------------------------------------
# Corruption


def bribe_targets(state: KontorState) -> list[Pos]:
    """Own single-good docks holding their warehouses in an open sector: Corruption 1 in
    the tavern's sector; Corruption 2 outside it and outside the sector already bribed
    (« Ces deux docks, ainsi que la taverne, ne doivent pas être dans le même secteur »)."""
    if state.bribe is None:
        return []
    seat, _left, tx, ty, used = state.bribe
    cells = occupancy(state)
    side = side_of(state.options, seat)
    size = state.options.board_size
    box = grow(state.span, cells) if state.span is not None else None
    closed = scored_cells(state)
    tavern_sector = sector_of(cells, (tx, ty))
    used_sectors = [sector_of(cells, tuple(p)) for p in used]
    out = []
    for pos, card in cells.items():
        c = CARDS[card]
        if c.kind != "dock" or c.owner != side or len(c.goods) != 1:
            continue
        if card not in state.warehouses or pos in closed:
            continue
        if state.options.bribery == 1:
            if pos not in tavern_sector:
                continue
        else:
            if pos in tavern_sector or any(pos in s for s in used_sectors):
                continue
        sector = sector_of(cells, pos)
        if is_closed(cells, sector, size, box):
            continue
        out.append(pos)
    return sorted(out, key=lambda p: (p[1], p[0]))


def offer_bribe(log, seat: int, card: int, pos: Pos) -> bool:
    """After the tavern: « le joueur peut ajouter ... un entrepôt de même type ». Pauses
    the turn (True) when there is a dock to bribe."""
    st = log.state
    if not st.options.bribery or not CARDS[card].tavern:
        return False
    count = 1 if st.options.bribery == 1 else 2
    log.emit(evb.BribeOffered(seat, pos[0], pos[1], count))
    if bribe_targets(log.state):
        return True
    log.emit(evb.BribeEnded(seat))
    return False


# ---------------------------------------------------------------------------------------
# decide


def decide_b(log, seat: int, command) -> None:
    """``log`` is the decide context (decide.DecideContext)."""
    st = log.state
    if isinstance(command, ChooseFaceDown):
        if st.phase != "choose":
            raise RuleViolation(
                "kontor.not_choosing", "Cards are chosen only at the start of a round."
            )
        if not st.options.smuggling:
            raise RuleViolation("kontor.no_smuggling", "Face-down cards need Contrebande.")
        if seat in st.smuggle_used:
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
        return
    if isinstance(command, (PlaceBribeWarehouse, EndBribe)):
        if st.bribe is None or st.bribe[0] != seat:
            raise RuleViolation(
                "kontor.no_bribe", "A bribe follows only the placement of a tavern."
            )
        tavern = occupancy(st)[(st.bribe[2], st.bribe[3])]
        if isinstance(command, PlaceBribeWarehouse):
            pos = (command.x, command.y)
            if pos not in bribe_targets(st):
                raise RuleViolation(
                    "kontor.bribe_target",
                    "A bribe warehouse goes on an own dock showing a single good, in an open "
                    "sector: with Corruption 1 the tavern's, with Corruption 2 two other "
                    "sectors, one each (« Ces deux docks, ainsi que la taverne, ne doivent "
                    "pas être dans le même secteur »).",
                )
            card = occupancy(st)[pos]
            log.emit(evb.BribeWarehouseAdded(seat, card, pos[0], pos[1], CARDS[card].goods[0]))
            if log.state.bribe[1] > 0 and bribe_targets(log.state):
                return
        log.emit(evb.BribeEnded(seat))
        log.finish_place(seat, tavern, "dock")
        return
    if isinstance(command, DecideTavernSector):
        if st.phase != "grudges" or not st.grudge_pending:
            raise RuleViolation("kontor.no_tavern_decision", "No tavern decision is pending.")
        index = st.grudge_pending[0]
        _, tavern = grudge_tavern(st, index)
        if (command.x, command.y) != tavern:
            raise RuleViolation(
                "kontor.tavern_decision_cell",
                f"The decision pending is the sector of the tavern at {tavern}.",
            )
        log.emit(evb.TavernSectorDecided(seat, index, tavern[0], tavern[1], command.counted))
        if not log.state.grudge_pending:
            log.end_game(log.state.ending)
        return
    raise RuleViolation("kontor.unknown_command", f"Unknown command {command!r}.")


# ---------------------------------------------------------------------------------------
# The end: reveal (Contrebande), last sector (Point final), tavern decisions


def grudge_tavern(state: KontorState, index: int) -> tuple[int, Pos]:
    cells = occupancy(state)
    sector = state.scored[index].cells
    taverns = [tuple(p) for p in sector if CARDS[cells[tuple(p)]].tavern]
    return index, taverns[0]


def grudge_sectors(state: KontorState) -> tuple[int, ...]:
    """Scored sectors holding exactly one tavern (« Si les deux tavernes sont dans un même
    secteur, il est obligatoirement comptabilisé »)."""
    cells = occupancy(state)
    out = []
    for i, s in enumerate(state.scored):
        taverns = [p for p in s.cells if CARDS[cells[tuple(p)]].tavern]
        if len(taverns) == 1:
            out.append(i)
    return tuple(out)


def before_end(log, reason: str) -> bool:
    """Runs first in _end_game; True while the end waits for a tavern decision."""
    st = log.state
    opts = st.options
    if st.phase == "grudges":
        return bool(st.grudge_pending)
    reveal_face_down(log)
    st = log.state
    if opts.final_point and not st.final_point_done:
        log.emit(evb.FinalPointAwarded(st.last_closed, FINAL_POINT_BONUS))
    st = log.state
    if opts.old_grudges and st.ending is None:
        pending = grudge_sectors(st)
        if pending:
            log.emit(evb.TavernSectorsAsked(reason, pending))
            return True
    return False


# ---------------------------------------------------------------------------------------
# evolve


def evolve_b(state: KontorState, event) -> KontorState:
    t = type(event)
    if t is evb.BribeOffered:
        return replace(state, bribe=(event.seat, event.count, event.x, event.y, ()))
    if t is evb.BribeWarehouseAdded:
        seat, left, x, y, used = state.bribe
        return replace(
            state,
            bribes=state.bribes + (event.card,),
            bribe=(seat, left - 1, x, y, used + ((event.x, event.y),)),
        )
    if t is evb.BribeEnded:
        return replace(state, bribe=None)
    if t is evb.FaceDownRevealed:
        board = tuple(
            Cell(c.x, c.y, event.card)
            if (c.x, c.y) == (event.x, event.y) and is_face_down(c.card)
            else c
            for c in state.board
        )
        smuggled = tuple(s for s in state.smuggled if (s[1], s[2]) != (event.x, event.y))
        return replace(state, board=board, smuggled=smuggled)
    if t is evb.LastSectorsClosed:
        return replace(state, last_closed=event.sectors)
    if t is evb.FinalPointAwarded:
        scored = list(state.scored)
        points = list(state.points)
        for i in event.sectors:
            s = scored[i]
            if s.winner is None:
                continue
            scored[i] = replace(s, points=s.points + event.bonus)
            for seat in seats_of(state.options, s.winner, state.seat_count):
                points[seat] += event.bonus
        return replace(state, scored=tuple(scored), points=tuple(points), final_point_done=True)
    if t is evb.TavernSectorsAsked:
        return replace(state, phase="grudges", ending=event.reason, grudge_pending=event.sectors)
    if t is evb.TavernSectorDecided:
        points = state.points
        s = state.scored[event.sector]
        if not event.counted and s.winner is not None:
            for seat in seats_of(state.options, s.winner, state.seat_count):
                points = _set(points, seat, points[seat] - s.points)
        return replace(
            state,
            points=points,
            grudges=state.grudges + ((event.sector, event.counted),),
            grudge_pending=tuple(i for i in state.grudge_pending if i != event.sector),
        )
    raise TypeError(f"unknown event {event!r}")


def after_evolve(old: KontorState | None, new: KontorState, event) -> KontorState:
    """What the shared events also do under Contrebande and Corruption."""
    opts = new.options
    if not (opts.smuggling or opts.bribery):
        return new
    t = type(event)
    if t is ev.GameStarted:
        return replace(new, face_down=(None,) * new.seat_count)
    if t is ev.WarehousesAdded and new.bribes:
        # a dock placed again (after the ship removed it) comes without a bribe
        return replace(new, bribes=tuple(b for b in new.bribes if b != event.card))
    if not opts.smuggling:
        return new
    fd = _face_down(new)
    if t is ev.CardChosen and event.face_down and event.card is not None:
        return replace(new, face_down=_set(fd, event.seat, (event.card, event.draw)))
    if t is ev.CardPlaced and is_face_down(event.card) and fd[event.seat] is not None:
        real = fd[event.seat][0]
        return replace(
            new,
            face_down=_set(fd, event.seat, None),
            smuggled=new.smuggled + ((event.seat, event.x, event.y, real),),
            smuggle_used=new.smuggle_used + (event.seat,),
        )
    if t is ev.CardReturned and is_face_down(event.card) and fd[event.seat] is not None:
        hand = list(new.hands[event.seat])
        hand[hand.index(event.card)] = fd[event.seat][0]
        return replace(
            new,
            hands=_set(new.hands, event.seat, tuple(hand)),
            face_down=_set(fd, event.seat, None),
        )
    if t is ev.RoundStarted:
        return replace(new, face_down=(None,) * new.seat_count)
    return new


__all__ = ["COMMANDS_B"]


# ---------------------------------------------------------------------------------------
# The computer policy's choices for these commands (it reads only its own seat's
# knowledge: the board, the public state, its own hand)


def policy_b(state: KontorState, seat: int, legal: list, evaluate, rng):
    """A command for a pending bribe or tavern decision, or a face-down choice; None to
    let the main policy decide."""
    side = side_of(state.options, seat)
    if state.bribe is not None:
        best, best_value = EndBribe(), evaluate(state)
        for cmd in legal:
            if isinstance(cmd, PlaceBribeWarehouse):
                card = occupancy(state)[(cmd.x, cmd.y)]
                v = evaluate(replace(state, bribes=state.bribes + (card,)))
                v += rng.below(1000) / 1e6
                if v > best_value:
                    best, best_value = cmd, v
        return best
    if state.phase == "grudges":
        cmd = legal[0]
        s = state.scored[state.grudge_pending[0]]
        # keep a sector won or tied; drop one the other side won
        counted = s.winner is None or s.winner == side
        return DecideTavernSector(cmd.x, cmd.y, counted)
    return None


def smuggle_choice(state: KontorState, seat: int, card: int) -> ChooseFaceDown | None:
    """Late in the game, hide a goods dock with two or more goods (its warehouses then
    count only at the end, out of the opponent's sight)."""
    if not may_smuggle(state, seat) or state.round < 8:
        return None
    c = CARDS[card]
    if c.kind == "dock" and len(c.goods) >= 2 and state.dock_piles[seat]:
        return ChooseFaceDown(card, "dock")
    return None


def register(hooks) -> None:
    hooks.to_act.append(to_act_b)
    hooks.legal_commands.append(commands_b)
    hooks.command.append(_decide)
    hooks.choose_commands.append(choose_commands)
    hooks.revealed_cards.append(_shown)
    hooks.order_key.append(lambda state, seat: order_key(state, seat) if state.options.smuggling else None)
    hooks.before_end.append(before_end)
    hooks.draw_pile.append(_draw_pile)
    hooks.after_warehouses.append(offer_bribe)
    hooks.evolve_own.append(
        lambda state, event: evolve_b(state, event) if type(event) in evb.EVENTS_B else None
    )
    hooks.evolved.append(lambda old, event, new: after_evolve(old, new, event))


def _decide(log, seat: int, command) -> bool:
    """While a bribe or a tavern decision waits, only its commands; then the rules' own."""
    guard(log.state, command)
    if not isinstance(command, COMMANDS_B):
        return False
    decide_b(log, seat, command)
    log.after_command()
    return True


def _shown(state: KontorState, shown: tuple) -> tuple:
    """A face-down card shows only its back at the reveal."""
    if not state.options.smuggling:
        return shown
    fd = _face_down(state)
    return tuple(
        FACE_DOWN_IDS[side_of(state.options, s)] if fd[s] is not None else shown[s]
        for s in range(state.seat_count)
    )


def _draw_pile(state: KontorState, seat: int, card: int, draw: str | None) -> str | None:
    return draw_pile(state, seat, card) if CARDS[card].kind == "face_down" else draw
