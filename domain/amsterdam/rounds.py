"""Setup, the flow of rounds and phases, and the decide entry point."""

from __future__ import annotations

from itertools import combinations

from domain.amsterdam import actions, cards, data, figures, market_tiles, tom
from domain.amsterdam import events as ev
from domain.amsterdam.board import amstel_order, seat_order
from domain.amsterdam.commands import (
    ChooseDice,
    ChooseOpeningCard,
    ChooseOpeningResources,
    ChooseResource,
    DeclineCard,
    DiscardForTom,
    PlaceFigure,
    TakeCard,
)
from domain.amsterdam.options import Options
from domain.amsterdam.payments import normal
from domain.amsterdam.scoring import final_scoring
from domain.amsterdam.state import (
    ACTIONS,
    CARDS,
    DICE,
    FINISHED,
    OPENING_CARD,
    OPENING_RESOURCES,
    PLACEMENTS,
    State,
)
from domain.amsterdam.tx import Tx
from domain.amsterdam.versions import RULES_VERSION
from domain.common.frozen import replace
from domain.decider import GameOver, Issued, NotYourTurn, RuleViolation
from domain.rng import Rng


def _violation(rule: str, message: str) -> RuleViolation:
    return RuleViolation(f"amsterdam.{rule}", message)


# -- setup -------------------------------------------------------------------------------
def _deal_dockers(rng: Rng, per_pontoon: int) -> tuple[tuple[str, ...], ...]:
    """L250-251: two per pontoon, never a pair, never on the pontoon of its own colour;
    solo (L894): one of each colour. Drawn uniformly among the valid assignments."""
    pool = [c for c in data.DOCKER_COLOURS for _ in range(per_pontoon)]
    pontoons = tuple(data.PONTOONS.values())
    while True:
        drawn = rng.shuffle(pool)
        groups = tuple(tuple(sorted(drawn[per_pontoon * i:per_pontoon * (i + 1)]))
                       for i in range(len(pontoons)))
        if all(len(set(g)) == len(g) and own not in g for g, own in zip(groups, pontoons)):
            return groups


def _market_stack(rng: Rng, options: Options) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """L273, L279: 2 (short game: 3) random tiles of each half removed unseen; A on top."""
    remove = data.MARKET_REMOVED_PER_HALF[options.rounds]
    stack: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()
    for half in ("A", "B"):
        tiles = rng.shuffle([t.id for t in data.MARKET_TILES.values()
                             if t.half == half and not t.expansion])
        removed += tiles[:remove]
        stack += tiles[remove:]
    return stack, removed


def start(options: Options, seat_count: int, seed: str) -> list:
    tx = Tx(None)
    tx.emit(ev.GameStarted(options, seat_count, RULES_VERSION, seed))
    rng = Rng(seed, 0)
    goods = rng.shuffle([g for g in data.GOODS for _ in range(data.GOODS_PER_TYPE["count"])])
    solo = seat_count == 1
    pontoons = _deal_dockers(rng, data.DOCKERS_PER_PONTOON["solo" if solo else "game"])
    districts = rng.shuffle(list(data.DISTRICTS["colour"]))
    scored = data.DISTRICTS_SCORED[seat_count]  # L252; solo: TOM counts as a player
    piles = {kind: rng.shuffle(data.PILES[kind]) for kind in data.PILES}
    stack, removed = (market_tiles.stack(rng, options.rounds) if options.extra_market_tiles
                      else _market_stack(rng, options))
    order = rng.shuffle(range(data.TOM + 1 if solo else seat_count))  # L895: TOM's pawn too
    first_round = (data.FIRST_ROUND if options.rounds == data.ROUNDS_FULL
                   else data.SHORT_GAME_FIRST_ROUND)
    tx.emit(ev.BoardDealt(goods, pontoons, districts[:scored], districts[scored:],
                          piles[data.CRAFTSMAN], piles[data.BUILDING], piles[data.PLAN],
                          stack, removed, tuple(order), first_round, rng.counter))
    if options.tasks != "none":
        per_seat, secret = data.TASK_DEAL[options.tasks]
        tiles = rng.shuffle(sorted(data.TASKS))
        hands = tuple(tuple(sorted(tiles[i * per_seat:(i + 1) * per_seat]))
                      for i in range(seat_count))
        tx.emit(ev.TasksDealt(hands, tuple(sorted(tiles[seat_count * per_seat:])),
                                secret, rng.counter))
    state = tx.state
    offer = (state.craftsmen[:data.OPENING_OFFER["craftsmen"][seat_count]]
             + state.buildings[:data.OPENING_OFFER["buildings"][seat_count]])
    tx.emit(ev.CardsRevealed(offer))
    # A1: the seat at the bottom of the stack chooses first, then reverse Amstel order
    tx.emit(ev.PhaseStarted(OPENING_CARD, first_round, tuple(reversed(seat_order(tx.state)))))
    return tx.events


def start_version(options: Options, seat_count: int, seed: str, rules_version: str) -> list:
    """The setup of a game played under ``rules_version``: the released versions differ
    only in what decide decides (versions.py), so the same deal, recording that version."""
    started, *rest = start(options, seat_count, seed)
    return [replace(started, rules_version=rules_version), *rest]


# -- flow --------------------------------------------------------------------------------
def _next_seat(tx: Tx) -> bool:
    """Move to the next seat of the phase; False when the phase is over."""
    state = tx.state
    if state.position + 1 < len(state.order):
        tx.emit(ev.SeatAdvanced(state.position + 1))
        return True
    return False


def _begin_round(tx: Tx) -> None:
    state = tx.state
    tx.emit(ev.PhaseStarted(CARDS, state.round, seat_order(state)))
    offer_seats = data.SOLO["offer_seats"] if state.tom else state.seat_count
    plans, buildings, craftsmen = data.ROUND_OFFER[offer_seats][0 if state.round % 2 else 1]
    tx.emit(ev.CardsRevealed(state.plans[:plans] + state.buildings[:buildings]
                             + state.craftsmen[:craftsmen]))
    if tx.state.tom is not None and amstel_order(tx.state)[0] == data.TOM:   # L903
        candidates = tom.discard_candidates(tx.state)
        if len(candidates) == 1:
            tx.emit(ev.TomDiscarded(candidates[0]))
        else:
            tx.emit(ev.TomDiscardTied(candidates))


def _begin_dice(tx: Tx) -> None:
    state = tx.state
    rng = Rng(state.seed, state.rng_counter)
    rolled = tuple(rng.roll(data.DIE_FACES) for _ in data.COLOURS)
    faces = rolled
    if state.round >= data.DICE_CHANGE_FROM_ROUND:                    # L645
        limit = data.DICE_CHANGE_BASE - state.round
        faces = tuple(data.DICE_CHANGED_FACE if f >= limit else f for f in rolled)
    tx.emit(ev.PhaseStarted(DICE, state.round, seat_order(state)))
    tx.emit(ev.DiceRolled(rolled, faces, rng.counter))
    if tx.state.tom is not None:  # L923: TOM first, on the unmodified dice
        tom.play_round(tx, rolled)


def _end_dice(tx: Tx) -> None:
    for seat in tx.state.order:
        if not any(tx.seat(seat).rose[0]):                            # L438, B18
            tx.emit(ev.PenaltyTaken(seat, "empty_arrow"))
        tx.emit(ev.RoseTurned(seat))
    tx.emit(ev.PhaseStarted(ACTIONS, tx.state.round, seat_order(tx.state)))


def _end_actions(tx: Tx) -> None:
    state = tx.state
    if state.round >= data.ROUNDS_FULL:
        final_scoring(tx)
        return
    next_tile = state.market_stack[0] if state.market_stack else None
    tx.emit(ev.RoundEnded(state.round, next_tile))
    _begin_round(tx)


# -- phases ------------------------------------------------------------------------------
def _opening_card(tx: Tx, seat: int, command) -> None:
    if not isinstance(command, ChooseOpeningCard) or command.card not in tx.state.offer:
        raise _violation("opening_card", "Choose one of the revealed cards (L315).")
    tx.emit(ev.CardTaken(seat, command.card, None))
    if not _next_seat(tx):
        tx.emit(ev.OfferDiscarded(tx.state.offer))
        tx.emit(ev.PhaseStarted(OPENING_RESOURCES, tx.state.round, seat_order(tx.state)))


def _opening_resources(tx: Tx, seat: int, command) -> None:
    if (not isinstance(command, ChooseOpeningResources) or command.single not in data.COLOURS
            or command.pair not in data.COLOURS):
        raise _violation("opening_resources", "Take 1 resource of any colour for slot 1 and"
                         " 2 of one colour for slot 2 (L320).")
    single_slot, pair_slot = data.OPENING_SLOTS
    tx.emit(ev.RoseFilled(seat, ((command.single, data.OPENING_SINGLE, single_slot),
                                 (command.pair, data.OPENING_PAIR, pair_slot)), ()))
    if not _next_seat(tx):
        todo = figures.placements(tx.state)
        if todo:
            tx.emit(ev.PlacementsStarted(tuple(f for f, _ in todo), tuple(s for _, s in todo)))
        else:
            _begin_round(tx)


def placement_commands(state: State) -> list[PlaceFigure]:
    figure = state.placing[state.position]
    return [PlaceFigure(figure, space) for space in figures.placement_spaces(figure)]


def _placements(tx: Tx, seat: int, command) -> None:
    if command not in placement_commands(tx.state):
        raise _violation("placement", "Place the foreman on a small depot, the bailiff on a"
                         " double block, the pawn on a black-market space (L760-762, L848).")
    tx.emit(ev.FigureMoved(command.figure, command.space))
    if not _next_seat(tx):
        _begin_round(tx)


def card_commands(state: State, seat: int) -> list:
    if state.tom_discard:
        return [DiscardForTom(c) for c in state.tom_discard]
    me = state.seats[seat]
    out: list = []
    for card in dict.fromkeys(state.offer):
        if len(me.inactive) < data.INACTIVE_SLOTS:
            out.append(TakeCard(card, None))
        else:  # L398: discard one of the six, take a penalty
            out += [TakeCard(card, d) for d in dict.fromkeys(me.inactive + (card,))]
    if "skip_card" in cards.phase_two(me):                            # 049
        out.append(DeclineCard())
    return out


def _cards(tx: Tx, seat: int, command) -> None:
    if command not in card_commands(tx.state, seat):
        raise _violation("take_card", "Take one revealed card; with 5 inactive cards discard"
                         " one of the six (L392-398); only 049 lets you take none.")
    if isinstance(command, DiscardForTom):
        tx.emit(ev.TomDiscarded(command.card))
        return
    if isinstance(command, DeclineCard):
        tx.emit(ev.CardDeclined(seat))
    else:
        tx.emit(ev.CardTaken(seat, command.card, command.discard))
        if command.discard is not None:
            tx.emit(ev.PenaltyTaken(seat, "sixth_card"))
    if not _next_seat(tx):
        tx.emit(ev.OfferDiscarded(tx.state.offer))
        _begin_dice(tx)


def dice_commands(state: State, seat: int) -> list[ChooseDice]:
    adjacent = "adjacent_slot" in cards.phase_two(state.seats[seat])   # 053 (B19)
    out = []
    for a, b in combinations(range(len(data.COLOURS)), data.DICE_CHOSEN):   # L426
        fa, fb = state.dice[a], state.dice[b]
        dice = (data.COLOURS[a], data.COLOURS[b])
        out.append(ChooseDice(dice, (fa, fb)))
        if adjacent:
            for sa in (fa - 1, fa + 1):
                if 1 <= sa <= data.ROSE_SLOTS:
                    out.append(ChooseDice(dice, (sa, fb)))
            for sb in (fb - 1, fb + 1):
                if 1 <= sb <= data.ROSE_SLOTS:
                    out.append(ChooseDice(dice, (fa, sb)))
    return out


def _dice(tx: Tx, seat: int, command) -> None:
    if command not in dice_commands(tx.state, seat):
        raise _violation("dice", "Choose two different dice; their resources go on the slot"
                         " of their face (L426-434; 053: a neighbouring slot).")
    if tx.state.options.dice_choice == "simultaneous":                # L430, B2: face down
        tx.emit(ev.DiceChosen(seat, command.dice, command.slots))
        if len(tx.state.dice_choices) == len(tx.state.order):
            for chosen_seat, dice, slots in sorted(tx.state.dice_choices):
                _fill_rose(tx, chosen_seat, ChooseDice(dice, slots))
            _end_dice(tx)
        return
    _fill_rose(tx, seat, command)
    if not _next_seat(tx):
        _end_dice(tx)


def _fill_rose(tx: Tx, seat: int, command: ChooseDice) -> None:
    effects = cards.phase_two(tx.seat(seat))
    placements = []
    extra = effects.get("extra_resource", (0,))[0]                  # 054
    ones_resources = effects.get("ones_resources")                   # 052: face, count, slot
    ones_florins = effects.get("ones_florins")                       # 051: face, florins
    for colour, slot in zip(command.dice, command.slots):
        face = tx.state.dice[data.COLOURS.index(colour)]
        placements.append((colour, face + extra, slot))
        if ones_resources is not None and face == ones_resources[0]:
            placements.append((colour, ones_resources[1], ones_resources[2]))
        if ones_florins is not None and face == ones_florins[0]:
            source = next(c for c, e in cards.effects(tx.seat(seat), "phase")
                          if e.name == "ones_florins")
            tx.florins(seat, ones_florins[1], source, by_card=True)
    dice = tuple(data.COLOURS.index(c) for c in command.dice)
    tx.emit(ev.RoseFilled(seat, tuple(placements), dice))


def _actions(tx: Tx, seat: int, command) -> None:
    handler = actions.HANDLERS.get(type(command))
    if handler is None:
        raise _violation("phase", "That is not a Phase III action (L448-620).")
    if isinstance(getattr(command, "payment", None), tuple):  # a multiset: any order is fine
        command = replace(command, payment=normal(command.payment))
    if tx.seat(seat).turn.amstel_open and type(command).__name__ != "AdvanceAmstel":
        tx.emit(ev.AmstelMoveEnded(seat))
    handler(tx, seat, command)
    if type(command).__name__ == "EndTurn" and not _next_seat(tx):
        _end_actions(tx)


PHASES = {OPENING_CARD: _opening_card, OPENING_RESOURCES: _opening_resources,
          PLACEMENTS: _placements, CARDS: _cards,
          DICE: _dice, ACTIONS: _actions}


# -- the decider -------------------------------------------------------------------------
def to_act(state: State) -> tuple[int, ...]:
    if state.phase == FINISHED or not state.order:
        return ()
    if state.phase == DICE and state.options.dice_choice == "simultaneous":
        chosen = {seat for seat, _, _ in state.dice_choices}
        return tuple(sorted(s for s in state.order if s not in chosen))
    return (state.order[state.position],)


def legal_commands(state: State, seat: int) -> list:
    if seat not in to_act(state):
        return []
    if state.seats[seat].pending_choices:
        return [ChooseResource(c) for c in data.COLOURS]
    if state.phase == OPENING_CARD:
        return [ChooseOpeningCard(c) for c in dict.fromkeys(state.offer)]
    if state.phase == OPENING_RESOURCES:
        return [ChooseOpeningResources(a, b) for a in data.COLOURS for b in data.COLOURS]
    if state.phase == PLACEMENTS:
        return placement_commands(state)
    if state.phase == CARDS:
        return card_commands(state, seat)
    if state.phase == DICE:
        return dice_commands(state, seat)
    return actions.action_commands(state, seat)


def decide(state: State, issued: Issued) -> list:
    if state.phase == FINISHED:
        raise GameOver()
    seat = issued.seat
    if seat is None or seat not in to_act(state):
        raise NotYourTurn()
    command = issued.command
    tx = Tx(state)
    if state.seats[seat].pending_choices:
        if not isinstance(command, ChooseResource) or command.colour not in data.COLOURS:
            raise _violation("choose_resource", "First name the colour of the resource of"
                             " your choice that you gained.")
        tx.emit(ev.ResourceChosen(seat, command.colour))
        return tx.events
    if isinstance(command, ChooseResource):
        raise _violation("choose_resource", "No resource of your choice is owed.")
    PHASES[state.phase](tx, seat, command)
    return tx.events
