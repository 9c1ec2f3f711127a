"""Assembles the Amsterdam GameDefinition."""

from __future__ import annotations

from domain.amsterdam import data
from domain.amsterdam.commands import COMMAND_TYPES
from domain.amsterdam.evaluation import evaluate
from domain.amsterdam.events import EVENT_TYPES
from domain.amsterdam.evolve import evolve
from domain.amsterdam.options import MAX_SEATS, MIN_SEATS, Options, options_schema, parse_options
from domain.amsterdam.policy import policy
from domain.amsterdam.rounds import decide, legal_commands, start, start_version, to_act
from domain.amsterdam.state import FINISHED, State
from domain.amsterdam.versions import EARLIER_VERSIONS, RELEASED_VERSIONS, RULES_VERSION
from domain.amsterdam.view import redact_event, redetermine, view
from domain.common.codec import to_data
from domain.decider import GameDefinition, Result


def is_finished(state: State) -> bool:
    return state.phase == FINISHED


def result(state: State) -> Result | None:
    if state.phase != FINISHED:
        return None
    return Result(scores=tuple(float(line.total) for line in state.scores),
                  winners=state.winners,
                  detail={"breakdown": [to_data(line) for line in state.scores],
                          "tie_break": "amstel (L739): amstel_rank 0 is furthest",
                          "tom": to_data(state.tom_score) if state.tom_score else None})


def component_data() -> dict:
    return {
        "colours": list(data.COLOURS),
        "goods": list(data.GOODS),
        "docker_colours": list(data.DOCKER_COLOURS),
        "districts": data.DISTRICTS["colour"],
        "cards": [{"id": c.id, "kind": c.kind, "group": c.group, "cost": list(c.cost),
                   "timing": c.timing, "effect": {"kind": c.effect.kind, "name": c.effect.name,
                                                  "params": to_data(c.effect.params)}}
                  for c in data.CARDS.values()],
        "market_tiles": [to_data(t) for t in data.MARKET_TILES.values()],
        "city": {"blocks": [to_data(b) for b in data.BLOCKS.values()],
                 "bridges": {b: list(n) for b, n in data.BRIDGES.items()}},
        "harbour": {"start": data.START, "edges": {n: list(e) for n, e in data.HARBOUR.items()},
                    "water": list(data.WATER), "roofs": {g: list(v) for g, v in data.ROOFS.items()},
                    "depots": data.DEPOTS, "pontoons": data.PONTOONS},
        "amstel": {"spaces": data.AMSTEL_SPACES,
                   "bridges": {str(k): v for k, v in data.AMSTEL["bridges"].items()},
                   "mouth_points": data.MOUTH_POINTS},
        "docker_building": list(data.DOCKER_BUILDING["values"]),
        "black_market": {g: list(p) for g, p in data.BLACK_MARKET["grid"].items()},
        "majority_points": {str(k): list(v) for k, v in data.MAJORITY_POINTS.items()},
        "provenance": data.PROVENANCE,
    }


GAME = GameDefinition(
    id="amsterdam",
    name="Amsterdam",
    rules_version=RULES_VERSION,
    min_players=MIN_SEATS,
    max_players=MAX_SEATS,
    variants=("standard",),
    options_type=Options,
    command_types=COMMAND_TYPES,
    event_types=EVENT_TYPES,
    parse_options=parse_options,
    options_schema=options_schema,
    start=start,
    decide=decide,
    evolve=evolve,
    to_act=to_act,
    legal_commands=legal_commands,
    view=view,
    redact_event=redact_event,
    is_finished=is_finished,
    result=result,
    redetermine=redetermine,
    policy=policy,
    evaluate=evaluate,
    #: about one seat's turn and the others' answers: the heuristic reads a settled board
    rollout_depth=12,
    component_data=component_data,
    released_versions=RELEASED_VERSIONS,
    earlier_versions_of=lambda options: EARLIER_VERSIONS,
    start_version=start_version,
)
