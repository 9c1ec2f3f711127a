"""Special rule A « Choix de la marchandise » (``choice_of_goods``, 2 and 4 players; switch
``choose_good``; kontor.fr.txt, « Règles spéciales »):

« Lorsqu'on pose un dock qui montre 2 ou 3 marchandises, il faut décider laquelle de ces 2
ou 3 marchandises on choisit. Seul l'entrepôt correspondant sera posé sur la carte. »

Its step "choose_good" (before the core's "warehouses"; a dock with 2 or 3 goods waits for the placer's ChooseGood, step
``good`` of rules/pending_step.py; two identical goods: their one warehouse at once);
command (ChooseGood); warehouses_added (a dock holding fewer goods than printed:
``GoodsChoiceState.warehouse_goods``, the hook point ``counting``: ``Counting.goods``); the view (the goods to choose from, each warehouse's goods).
Tests: tests/domain/kontor/test_kontor_special_a.py (choice of goods).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from domain.decider import RuleViolation
from domain.kontor.core import events as ev
from domain.kontor.core.data import CARDS, GOODS
from domain.kontor.core.hooks import Counting, Hooks
from domain.kontor.core.state import KontorState, change_part, part
from domain.kontor.rules.pending_step import StepClosed, StepOpened, step_card, waiting_step


@dataclass(frozen=True)
class ChooseGood:
    """Choix de la marchandise: the one good of the dock just placed that gets a warehouse."""

    TYPE: ClassVar[str] = "ChooseGood"
    good: str


COMMANDS: tuple[type, ...] = (ChooseGood,)


@dataclass(frozen=True)
class GoodsChoiceState:
    #: (dock card, goods that got warehouses) when not all its printed goods did
    warehouse_goods: tuple[tuple[int, tuple[str, ...]], ...] = ()


def chosen_goods(state: KontorState) -> tuple[tuple[int, tuple[str, ...]], ...]:
    return part(state, GoodsChoiceState).warehouse_goods


def good_choices(card: int) -> list[str]:
    """« il faut décider laquelle de ces 2 ou 3 marchandises on choisit »."""
    goods = CARDS[card].goods
    return [g for g in GOODS if g in goods]


def open_good_step(log, seat: int, card: int) -> str | None:
    """A dock with 2 or 3 goods waits for ChooseGood ("step"); with two identical goods
    its one warehouse is laid at once ("added"); None: the normal warehouses."""
    if not log.state.options.choose_good:
        return None
    goods = good_choices(card)
    if len(CARDS[card].goods) < 2:
        return None
    if len(goods) == 1:
        # two identical goods: the one good, one warehouse (« Seul l'entrepôt
        # correspondant sera posé sur la carte »)
        log.emit(ev.WarehousesAdded(seat, card, (goods[0],)))
        return "added"
    log.emit(StepOpened(seat, "good", card))
    return "step"


def good_step(log, turn) -> bool:
    """A step of the placer's turn (core/decide.py: TURN_STEPS, before "warehouses"): the
    turn waits for ChooseGood (True), or the one warehouse was laid."""
    c = CARDS[turn.card]
    if turn.warehoused or not (c.is_dock and c.goods):
        return False
    done = open_good_step(log, turn.seat, turn.card)
    if done is not None:
        turn.warehoused = True
    return done == "step"


def legal_commands(state: KontorState, seat: int) -> list | None:
    if waiting_step(state) != "good":
        return None
    return [ChooseGood(g) for g in good_choices(step_card(state))]


def decide(log, seat: int, command) -> bool:
    """ChooseGood (``log`` is the decide context)."""
    if not isinstance(command, ChooseGood):
        return False
    st = log.state
    if waiting_step(st) != "good":
        raise RuleViolation("kontor.no_good_choice", "There is no good to choose now.")
    card = step_card(st)
    if command.good not in good_choices(card):
        raise RuleViolation(
            "kontor.good_not_on_card",
            "Choose one of the goods the dock shows (« laquelle de ces 2 ou 3 "
            "marchandises on choisit »).",
        )
    log.emit(StepClosed(seat, "good", command.good))
    log.emit(ev.WarehousesAdded(seat, card, (command.good,)))
    log.after_warehouses(seat, card)
    log.after_command()
    return True


def record_goods(event, state: KontorState) -> KontorState:
    """WarehousesAdded with fewer goods than printed. Only under this rule: the export
    warehouse keeps its own account (expansions)."""
    if not state.options.choose_good:
        return state
    recorded = chosen_goods(state)
    rest = tuple(e for e in recorded if e[0] != event.card)
    if tuple(event.goods) != CARDS[event.card].goods:
        rest = rest + ((event.card, tuple(event.goods)),)
    if rest == recorded:
        return state
    return change_part(state, GoodsChoiceState, warehouse_goods=rest)


def view_keys(state: KontorState, out: dict, cells, viewer: int | None) -> None:
    """Public: the goods to choose from; the one good a warehouse holds."""
    if waiting_step(state) == "good":
        out["step"]["goods"] = good_choices(step_card(state))
    if chosen_goods(state):
        goods = dict(chosen_goods(state))
        for w in out["board"]["warehouses"]:
            if w["card"] in goods:
                w["goods"] = list(goods[w["card"]])


def register(hooks: Hooks) -> None:
    hooks.legal_commands.append(legal_commands)
    hooks.on_commands((ChooseGood,), decide)
    hooks.add_step("choose_good", good_step, before="warehouses")
    hooks.before_event(
        ev.WarehousesAdded,
        lambda state, event: record_goods(event, state),
        when=lambda options: options.choose_good,
    )
    hooks.add_view(view_keys, after="you")
    hooks.counting.append(lambda state: Counting(goods=chosen_goods(state)))
