"""What a seat (or the public) sees; event redaction; re-dealing the hidden things.

Hidden while the game runs (AMSTERDAM.md §8.2): the order of the three card piles (their
sizes are public), the market stack and its removed tiles (the revealed tiles are public),
the district tiles not scored (face down or boxed) and the seed (future dice). No seat
holds a private hand in the base game, so ``view["you"]`` only names the seat.
"""

from __future__ import annotations

from domain.amsterdam import data
from domain.amsterdam import events as ev
from domain.amsterdam.board import amstel_order
from domain.amsterdam.rounds import dice_commands, legal_commands, to_act
from domain.amsterdam.scoring import surplus_items
from domain.amsterdam.state import FINISHED, State
from domain.common.codec import to_data
from domain.common.frozen import replace


def _vector(vector) -> dict[str, int]:
    return dict(zip(data.COLOURS, vector))


def tasks_visible(state: State, seat: int, viewer: int | None) -> bool:
    """Secret task tiles (L810) are seen by their owner only; open ones (L814) by all."""
    if not state.tasks:
        return False
    secret = data.TASK_DEAL[state.options.tasks][1]
    return not secret or viewer == seat or state.phase == FINISHED


def _seat_view(state: State, i: int, viewer: int | None) -> dict:
    s = state.seats[i]
    return {
        "tasks": (list(state.tasks[i]) if tasks_visible(state, i, viewer)
                  else len(state.tasks[i]) if state.tasks else []),
        "seat": i, "florins": s.florins, "points": s.points, "penalties": s.penalties,
        "rose": {str(slot + 1): _vector(v) for slot, v in enumerate(s.rose)},
        "reserve": _vector(s.reserve), "house": s.house,
        "inactive": list(s.inactive), "active": list(s.active), "used": list(s.used),
        "provisional": list(s.provisional), "barge": {"node": s.barge, "goods": list(s.cargo),
                                                      "dockers": list(s.dockers)},
        "amstel": {"space": s.amstel, "stack_height": s.stamp, "mouth_slot": s.mouth_slot,
                   "bridges_passed": s.bridges_passed},
        "dice": [data.COLOURS[d] for d in s.dice],
        "pending_choices": s.pending_choices,
        "turn": to_data(s.turn),
        "surplus_items": surplus_items(state, i),
    }


def view(state: State, viewer: int | None) -> dict:
    finished = state.phase == FINISHED
    out: dict = {
        "title": "amsterdam",
        "round": state.round,
        "last_round": data.ROUNDS_FULL,
        "phase": state.phase,
        "order": list(state.order),
        "to_act": list(to_act(state)),
        "amstel_order": list(amstel_order(state)),
        "dice": list(state.dice),
        "city": [{"block": b, "good": g, "owner": o}
                 for b, g, o in zip(data.BLOCK_IDS, state.block_goods, state.block_owner)],
        "harbour": {
            "roofs": {g: n for g, n in zip(data.GOODS, state.roofs)},
            "depots": dict(zip(data.DEPOTS, state.depots)),
            "pontoons": {p: list(d) for p, d in zip(data.PONTOONS, state.pontoons)},
            "barges": {str(i): s.barge for i, s in enumerate(state.seats)},
        },
        "amstel": [{"seat": i, "space": s.amstel, "mouth_slot": s.mouth_slot}
                   for i, s in enumerate(state.seats)],
        "docker_building": [{"colour": c, "seat": s} for c, s in state.docker_building],
        "black_market": list(state.black_market),
        "figures": {"foreman": state.foreman, "bailiff": state.bailiff,
                    "market_pawn": state.market_pawn, "to_place": list(state.placing[state.position:])
                    if state.phase == "placements" else []},
        "districts_scored": list(state.districts_scored),
        "market_tile": state.market_tile,
        "market_tiles_seen": list(state.market_seen),
        "market_stack_size": len(state.market_stack),
        "piles": {"craftsman": len(state.craftsmen), "building": len(state.buildings),
                  "plan": len(state.plans)},
        "offer": list(state.offer),
        "discard": list(state.discard),
        "seats": [_seat_view(state, i, viewer) for i in range(state.seat_count)],
        "tom": to_data(state.tom) if state.tom is not None else None,
        "dice_chosen": sorted(seat for seat, _, _ in state.dice_choices),
        "tom_discard": list(state.tom_discard),
        "task_pile_size": len(state.task_pile),
        "you": None,
    }
    if viewer is not None:
        mine = [{"dice": list(d), "slots": list(s)} for seat, d, s in state.dice_choices
                if seat == viewer]
        out["you"] = {"seat": viewer, "dice_choice": mine[0] if mine else None,
                      "tasks": list(state.tasks[viewer]) if state.tasks else [],
                      "legal_command_count": len(legal_commands(state, viewer))}
    if finished:
        out["scores"] = [to_data(line) for line in state.scores]
        out["winners"] = list(state.winners)
        out["tom_score"] = to_data(state.tom_score) if state.tom_score else None
        out["market_stack"] = list(state.market_stack)
        out["market_removed"] = list(state.market_removed)
        out["districts_hidden"] = list(state.districts_hidden)
    return out


def redact_event(event, viewer: int | None) -> dict:
    data_ = to_data(event)
    if isinstance(event, ev.GameStarted):
        data_["seed"] = None
    if isinstance(event, ev.DiceChosen) and viewer != event.seat:
        data_["dice"] = data_["slots"] = None
    if isinstance(event, ev.TasksDealt):
        data_["hands"] = [list(h) if (not event.secret or viewer == i) else len(h)
                          for i, h in enumerate(event.hands)]
        data_["pile"] = len(event.pile)
    if isinstance(event, ev.BoardDealt):
        for pile in ("craftsmen", "buildings", "plans"):
            data_[pile] = len(getattr(event, pile))
        data_["market_stack"] = [event.market_stack[0]]  # only the top tile is revealed
        data_["market_removed"] = len(event.market_removed)
        data_["districts_hidden"] = len(event.districts_hidden)
    return data_


def _any_dice_choice(state: State, seat: int, rng) -> tuple:

    command = rng.choice(dice_commands(state, seat))
    return command.dice, command.slots


def redetermine(state: State, observer: int | None, rng) -> State:
    """Re-deal exactly the hidden things: each pile, each half of the unrevealed market
    tiles with that half's removed tiles, the unscored districts, and the seed."""
    if state.phase == FINISHED:
        return state
    # every shuffle starts from a sorted order: the deal depends on what is hidden, never
    # on where it lies (tests/domain/common/test_computer_hidden_information.py)
    piles = {name: rng.shuffle(sorted(getattr(state, name))) for name in ("craftsmen", "buildings", "plans")}
    stack: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()
    for half in ("A", "B"):
        unseen = [t for t in state.market_stack + state.market_removed
                  if data.MARKET_TILES[t].half == half]
        in_stack = sum(1 for t in state.market_stack if data.MARKET_TILES[t].half == half)
        dealt = rng.shuffle(sorted(unseen))
        stack += dealt[:in_stack]
        removed += dealt[in_stack:]
    tasks = state.tasks
    task_pile = rng.shuffle(sorted(state.task_pile))
    if tasks and data.TASK_DEAL[state.options.tasks][1]:
        others = [i for i in range(state.seat_count) if i != observer]
        pool = rng.shuffle(sorted(state.task_pile + tuple(t for i in others for t in tasks[i])))
        hands = list(tasks)
        for i in others:
            hands[i], pool = tuple(sorted(pool[:len(tasks[i])])), pool[len(tasks[i]):]
        tasks, task_pile = tuple(hands), tuple(sorted(pool))
    choices = tuple((seat, *_any_dice_choice(state, seat, rng)) if seat != observer
                    else (seat, dice, slots) for seat, dice, slots in state.dice_choices)
    seed = "".join(f"{rng.u64():016x}" for _ in range(4))
    return replace(state, **piles, tasks=tasks, task_pile=task_pile, dice_choices=choices, market_stack=stack, market_removed=removed,
                   districts_hidden=rng.shuffle(sorted(state.districts_hidden)), seed=seed)
