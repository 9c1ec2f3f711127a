"""Assembles the Speicherstadt GameDefinition."""

from __future__ import annotations

from domain.decider import GameDefinition, Result
from domain.speicherstadt import data
from domain.speicherstadt.commands import COMMAND_TYPES
from domain.speicherstadt.events import EVENT_TYPES
from domain.speicherstadt.evolve import evolve
from domain.speicherstadt.options import (
    MAX_SEATS,
    MIN_SEATS,
    Options,
    options_schema,
    parse_options,
)
from domain.speicherstadt.policy import evaluate, policy
from domain.speicherstadt.rules import RULES_VERSION, decide, legal_commands, start, to_act
from domain.speicherstadt.state import FINISHED, State
from domain.speicherstadt.view import redact_event, redetermine, view


def is_finished(state: State) -> bool:
    return state.phase == FINISHED


def result(state: State) -> Result | None:
    if state.phase != FINISHED:
        return None
    return Result(
        scores=tuple(float(line.total) for line in state.scores),
        winners=state.winners,
        detail={"coins": [line.coins for line in state.scores],
                "breakdown": [
                    {k: getattr(line, k) for k in ("fire", "offices", "contracts", "chamber",
                                                   "churches", "port", "warehouse", "traders",
                                                   "total", "coins")}
                    for line in state.scores]},
    )


def component_data() -> dict:
    cards = [
        {"id": c.id, "season": c.season, "kind": c.kind, "name": c.name, "value": c.value,
         "goods": list(c.goods), "fire_points": c.bonus,
         "contract_points": data.contract_points(c) if c.kind == data.CONTRACT else 0}
        for c in data.CARDS
    ]
    return {
        "goods": list(data.GOODS),
        "seasons": list(data.SEASONS),
        "cards": cards,
        "setup": dict(data.SETUP),
        "counting_office_points": {"provenance": data.COUNTING_OFFICE_POINTS["provenance"],
                                   "table": list(data.COUNTING_OFFICE_POINTS["table"])},
        "contract_points": {"provenance": data.CONTRACT_POINTS["provenance"],
                            "table": {str(k): v for k, v in data.CONTRACT_POINTS["table"].items()}},
        "end_points": {"provenance": data.END_POINTS["provenance"],
                       **{k: v for k, v in data.END_POINTS.items() if k != "provenance"}},
        "removed_by_players": {"provenance": data.REMOVED_BY_PLAYERS["provenance"],
                               "table": {str(k): list(v) for k, v in
                                         data.REMOVED_BY_PLAYERS["table"].items()}},
        "provenance": {
            "firemen": data.FIREMEN["provenance"],
            "fires": data.FIRES["provenance"],
            "contracts": data.CONTRACTS["provenance"],
            "traders": data.TRADERS["provenance"],
            "card_mix": data.SINGLES["provenance"],
        },
    }


GAME = GameDefinition(
    id="speicherstadt",
    name="Speicherstadt",
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
    component_data=component_data,
    evaluate=evaluate,
    rollout_depth=24,
)
