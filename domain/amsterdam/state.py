"""The state of an Amsterdam game: frozen, built by evolve from the events.

Resource vectors are tuples of 6 counts in data.COLOURS order. Everything here is
public except the card piles, the market stack and its removed tiles, the district
tiles not scored (face down or boxed) and the seed (future dice); see view.py.
"""

from __future__ import annotations

from dataclasses import dataclass

from domain.amsterdam.options import Options

OPENING_CARD = "opening_card"
OPENING_RESOURCES = "opening_resources"
PLACEMENTS = "placements"  # expansions 1 and 3: foreman, bailiff, black-market pawn
CARDS = "cards"          # Phase I
DICE = "dice"            # Phase II
ACTIONS = "actions"      # Phase III
FINISHED = "finished"

EMPTY = (0, 0, 0, 0, 0, 0)


@dataclass(frozen=True)
class Turn:
    """What a seat did in its current Phase-III turn (reset when the turn ends)."""

    blocks_taken: int = 0
    amstel_moved: bool = False
    amstel_open: bool = False      # the Amstel move may go on (no other action since)
    market_uses: int = 0
    barge_credit: int = 0          # steps already paid for (022, 040)
    barge_steps: int = 0
    docker_taken_here: bool = False  # B7: one docker per stop
    plans_used: tuple[str, ...] = ()  # districts of the plans used this turn (B17)
    plan_uses: tuple[str, ...] = ()   # plan card ids, once per use (029)
    free_activations: int = 0      # CA 20, CB 24
    foreman_due: bool = False      # a good went to the foreman's place (L782)
    amstel_point: bool = False     # 014 scored this turn
    barge_point: bool = False      # 016 scored this turn


@dataclass(frozen=True)
class SeatState:
    florins: int = 0
    points: int = 0
    penalties: int = 0
    rose: tuple[tuple[int, ...], ...] = (EMPTY,) * 6   # slots 1..6
    reserve: tuple[int, ...] = EMPTY
    house: str | None = None
    inactive: tuple[str, ...] = ()
    active: tuple[str, ...] = ()
    used: tuple[str, ...] = ()          # III / I / II cards used this round (markers)
    once: tuple[str, ...] = ()          # once-per-round triggers spent (071, 072)
    trades_activated: tuple[str, ...] = ()  # 042: trades of craftsmen activated so far
    activated_count: int = 0
    provisional: tuple[str, ...] = ()   # goods in the provisional warehouse
    cargo: tuple[str, ...] = ()         # goods on the barge
    dockers: tuple[str, ...] = ()       # dockers on the barge
    barge: str = "start"
    amstel: int = 0                     # 0 = the blue start space, 19 = the mouth
    stamp: int = 0                      # higher = higher in a stack
    mouth_slot: int | None = None
    bridges_passed: int = 0
    dice: tuple[int, ...] = ()          # the two dice chosen this round (colour indexes)
    pending_choices: int = 0            # resources "of your choice" still to name
    turn: Turn = Turn()


@dataclass(frozen=True)
class TomState:
    """The solo opponent (L895): score, florins (none at start), Amstel pawn, triples seen."""

    points: int = 0
    florins: int = 0
    amstel: int = 0
    stamp: int = 0
    mouth_slot: int | None = None
    bridges_passed: int = 0
    triples: tuple[int, ...] = ()


@dataclass(frozen=True)
class ScoreLine:
    penalties: int
    laurel_cards: int
    city: int
    districts: int
    tasks: int
    surplus: int
    during_play: int
    total: int
    amstel_rank: int  # 0 = furthest on the Amstel (the tie-break, L739)


@dataclass(frozen=True)
class State:
    seat_count: int
    seed: str
    rng_counter: int
    options: Options
    rules_version: str
    seats: tuple[SeatState, ...]
    phase: str = OPENING_CARD
    round: int = 0
    order: tuple[int, ...] = ()         # this phase's order (snapshot, B1)
    position: int = 0                   # index in order of the seat to act
    dice: tuple[int, ...] = ()          # this round's faces, after the late-round change
    # the board
    block_goods: tuple[str | None, ...] = ()
    block_owner: tuple[int | None, ...] = ()
    roofs: tuple[int, ...] = ()         # filled roofs per good (data.GOODS order)
    depots: tuple[str | None, ...] = ()
    pontoons: tuple[tuple[str, ...], ...] = ()
    docker_building: tuple[tuple[str, int], ...] = ()
    black_market: tuple[str, ...] = ()
    districts_scored: tuple[str, ...] = ()
    districts_hidden: tuple[str, ...] = ()   # face down and boxed: hidden, irrelevant
    # cards and tiles
    craftsmen: tuple[str, ...] = ()     # piles, top first: hidden order
    buildings: tuple[str, ...] = ()
    plans: tuple[str, ...] = ()
    offer: tuple[str, ...] = ()
    discard: tuple[str, ...] = ()
    market_stack: tuple[str, ...] = ()  # top first: hidden
    market_removed: tuple[str, ...] = ()  # hidden
    market_tile: str | None = None
    market_seen: tuple[str, ...] = ()
    tasks: tuple[tuple[int, ...], ...] = ()   # per seat (ext. 2); secret modes: hidden
    task_pile: tuple[int, ...] = ()           # undealt tiles: hidden
    placing: tuple[str, ...] = ()   # the figures still to place at setup
    foreman: str | None = None      # a warehouse (its good) or a depot
    bailiff: str | None = None      # a block
    market_pawn: str | None = None  # a black-market space (its good)
    tom: TomState | None = None       # the solo opponent
    #: simultaneous dice choice (B2): (seat, dice, slots) chosen face down this round
    dice_choices: tuple[tuple[int, tuple[str, str], tuple[int, int]], ...] = ()
    tom_discard: tuple[str, ...] = ()
    tom_score: ScoreLine | None = None  # tied cards TOM discards, the human chooses (L903)
    next_stamp: int = 0
    mouth_arrivals: int = 0
    scores: tuple[ScoreLine, ...] = ()
    winners: tuple[int, ...] = ()
