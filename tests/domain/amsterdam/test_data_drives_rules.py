"""The rules read every parameter from data.py (issue 32, item 6).

Two kinds of proof:
- each parameter, changed in a copy of its table (monkeypatch restores the original), changes
  what the rules decide, by the amount the new value says: the code cannot hold a literal
  that shadows the table;
- the rules modules hold no number above 1 and no card number: the few integers left are
  listed below with their reason, so a new literal fails here until it moves into data.py.
"""

from __future__ import annotations

import ast
import re
from dataclasses import replace as dc_replace
from pathlib import Path

from domain.amsterdam import GAME, actions, cards, data, figures, market_tiles, rounds, scoring
from domain.amsterdam import tom as tom_rules
from domain.amsterdam.board import amstel_order
from domain.amsterdam.commands import (
    ActivateCard,
    AdvanceAmstel,
    ChooseDice,
    DeclineCard,
    DeliverGood,
    EndTurn,
    MoveBarge,
    TakeBlock,
    UseCard,
)
from domain.amsterdam.state import ACTIONS, DICE, Turn
from domain.amsterdam.tasks import score_tasks
from domain.amsterdam.tx import Tx
from domain.common.frozen import replace
from domain.rng import Rng
from tests.domain.amsterdam.helpers import acting, at_phase, play, started, vector, with_seat

RULE_MODULES = ("actions", "board", "cards", "evolve", "figures", "market_tiles", "payments",
                "rounds", "scoring", "tasks", "tom", "tx")
HERE = Path(__file__).resolve().parents[3] / "domain" / "amsterdam"

#: every integer above 1 left in the rules (indexes aside), how often, and why it is no
#: rule parameter
ALLOWED_INTEGERS = {
    ("cards", 2): (2, "// 2: a pair (103, 104 « par paire »)"),
    ("rounds", 2): (1, "round % 2: the 3-player offer alternates by parity (L387-390)"),
    ("tasks", 3): (1, "task 34 returns 3 items: 1 docker, 1 good, 1 resource (L2082)"),
    ("payments", 99): (1, "the sort rank of an unknown colour (refused later), no rule"),
}


def _source(module: str) -> str:
    return (HERE / f"{module}.py").read_text(encoding="utf-8")


def test_the_rules_hold_no_number_above_one_outside_the_listed_few():
    found: dict[tuple[str, int], int] = {}
    for module in RULE_MODULES:
        tree = ast.parse(_source(module))
        indexes = {id(n.slice) for n in ast.walk(tree) if isinstance(n, ast.Subscript)}
        for node in ast.walk(tree):
            if (isinstance(node, ast.Constant) and type(node.value) is int
                    and node.value not in (-1, 0, 1) and id(node) not in indexes):
                found[(module, node.value)] = found.get((module, node.value), 0) + 1
    assert found == {key: count for key, (count, _) in ALLOWED_INTEGERS.items()}


def test_the_rules_name_no_card_by_its_number():
    """Cards are found by their effect (data.cards_with), so data decides which card does
    what; a number in the code would shadow the table."""
    for module in RULE_MODULES:
        numbers = [node.value for node in ast.walk(ast.parse(_source(module)))
                   if isinstance(node, ast.Constant) and isinstance(node.value, str)
                   and re.fullmatch(r"0\d\d|1[0-3]\d", node.value)]
        assert numbers == [], (module, numbers)


def test_every_table_of_data_is_read():
    """Each upper-case name of data.py is read by a rules module, or by data.py itself to
    build another table (the provenance texts, the raw layouts)."""
    data_source = _source("data")
    names = [n.id for n in ast.walk(ast.parse(data_source))
             if isinstance(n, ast.Name) and n.id.isupper() and isinstance(n.ctx, ast.Store)]
    rules = "\n".join(_source(m) for m in RULE_MODULES)
    unread = [n for n in dict.fromkeys(names) if not re.search(rf"\b{n}\b", rules)
              and len(re.findall(rf"\b{n}\b", data_source)) < 2]
    assert unread == []


# -- each parameter changed in a copy of its table --------------------------------------
def _effect(monkeypatch, card: str, *params) -> None:
    """Card ``card`` with other parameters (data.CARDS is the one table every module reads)."""
    old = data.CARDS[card]
    monkeypatch.setitem(data.CARDS, card, dc_replace(old, effect=dc_replace(old.effect,
                                                                             params=params)))


def _me(active=(), **changes):
    state = at_phase(ACTIONS, 2)
    seat = acting(state)
    return with_seat(state, seat, active=active, **changes), seat


def _free_block(state, colour: str, cost: int):
    return next(b for b in data.BLOCKS.values() if b.colour == colour and b.cost == cost
                and state.block_owner[data.BLOCK_IDS.index(b.id)] is None)


def _block_payments(state, seat, block):
    return {(c.payment, c.by_florins) for c in GAME.legal_commands(state, seat)
            if isinstance(c, TakeBlock) and c.block == block}


def test_025_block_discount(monkeypatch):
    state, me = _me(("025",), reserve=vector("grey", "grey", "grey"))
    block = _free_block(state, "grey", 3).id
    assert _block_payments(state, me, block) == {(("grey", "grey"), False)}
    _effect(monkeypatch, "025", 2)
    assert _block_payments(state, me, block) == {(("grey",), False)}


def test_027_block_for_florins(monkeypatch):
    state, me = _me(("027",), reserve=vector(), florins=3)
    block = _free_block(state, "grey", 3).id
    assert ((), True) in _block_payments(state, me, block)
    _effect(monkeypatch, "027", 4)
    assert ((), True) not in _block_payments(state, me, block)
    state = with_seat(state, me, florins=4)
    move = next(c for c in GAME.legal_commands(state, me)
                if isinstance(c, TakeBlock) and c.block == block and c.by_florins)
    assert play(state, move).seats[me].florins == 0


def test_028_and_the_printed_one_block_per_turn(monkeypatch):
    state, me = _me(("028",))
    assert actions.block_limit(state.seats[me]) == 2
    assert actions.block_limit(state.seats[1 - me]) == 1
    _effect(monkeypatch, "028", 3)
    monkeypatch.setattr(data, "BLOCKS_PER_TURN", 2)
    assert actions.block_limit(state.seats[me]) == 3
    assert actions.block_limit(state.seats[1 - me]) == 2


def test_020_and_the_printed_market_once_per_turn(monkeypatch):
    state, me = _me(("020",))
    assert (actions.market_limit(state.seats[me]), actions.market_limit(state.seats[1 - me])) == (2, 1)
    _effect(monkeypatch, "020", 4)
    monkeypatch.setattr(data, "MARKET_USES_PER_TURN", 3)
    assert (actions.market_limit(state.seats[me]), actions.market_limit(state.seats[1 - me])) == (4, 3)


def test_029_plan_uses(monkeypatch):
    state, me = _me(("029", "110"), reserve=vector(*["pink"] * 4))
    state = play(play(state, UseCard("110", ("pink",))), UseCard("110", ("pink",)))
    assert UseCard("110", ("pink",)) in GAME.legal_commands(state, me)
    _effect(monkeypatch, "029", 2)
    assert UseCard("110", ("pink",)) not in GAME.legal_commands(state, me)


def test_031_and_042_activation_discounts(monkeypatch):
    state, me = _me(("031",), inactive=("061",), reserve=(5,) * 6)   # 061 costs 3
    sizes = {len(p) for p, florins in cards.activation_payments(state.seats[me], "061")}
    assert sizes == {2}
    _effect(monkeypatch, "031", data.BUILDING, 2)
    assert {len(p) for p, _ in cards.activation_payments(state.seats[me], "061")} == {1}
    _effect(monkeypatch, "031", data.CRAFTSMAN, 1)   # now for craftsmen only
    assert {len(p) for p, _ in cards.activation_payments(state.seats[me], "061")} == {3}
    state = with_seat(state, me, active=("042",), inactive=("031",))  # 031 costs 3
    assert {len(p) for p, _ in cards.activation_payments(state.seats[me], "031")} == {2}
    _effect(monkeypatch, "042", 3)
    assert {len(p) for p, _ in cards.activation_payments(state.seats[me], "031")} == {0}


def test_038_activation_for_florins(monkeypatch):
    state, me = _me(("038",), inactive=("061",), reserve=vector(), florins=4)
    assert ActivateCard("061", (), True) in GAME.legal_commands(state, me)
    assert play(state, ActivateCard("061", (), True)).seats[me].florins == 1
    _effect(monkeypatch, "038", 5)
    assert ActivateCard("061", (), True) not in GAME.legal_commands(state, me)
    _effect(monkeypatch, "038", 4)
    assert play(state, ActivateCard("061", (), True)).seats[me].florins == 0


def test_040_spaces_per_cube(monkeypatch):
    state, me = _me(("040",), reserve=vector("pink"), barge=data.START)
    assert play(state, MoveBarge("W1", "pink")).seats[me].turn.barge_credit == 1
    _effect(monkeypatch, "040", 3)
    assert play(state, MoveBarge("W1", "pink")).seats[me].turn.barge_credit == 2


def test_050_docker_points(monkeypatch):
    state, me = _me(("050",), dockers=("white",))
    pontoon = next(p for p, c in data.PONTOONS.items() if c == "white")

    def scored():
        tx = Tx(state)
        actions.arrive(tx, me, pontoon)
        return tx.state.seats[me].points - state.seats[me].points
    assert scored() == 2 * data.DOCKER_BUILDING["values"][0]
    _effect(monkeypatch, "050", 3)
    assert scored() == 3 * data.DOCKER_BUILDING["values"][0]
    monkeypatch.setitem(data.DOCKER_BUILDING, "values", (4, 3, 2, 1))
    assert scored() == 3 * 4


def test_051_052_054_phase_two(monkeypatch):
    state = at_phase(DICE, 2)
    seat = acting(state)
    state = with_seat(state, seat, active=("051", "052", "054"), florins=0, rose=((0,) * 6,) * 6)
    state = replace(state, dice=(1, 4, 2, 3, 5, 6))
    choice = ChooseDice(("black", "brown"), (1, 4))

    def rose_and_florins():
        after = play(state, choice).seats[seat]
        return after.rose[0][0], after.rose[3][1], after.florins
    assert rose_and_florins() == (1 + 1 + 2, 4 + 1, 2)
    _effect(monkeypatch, "051", 1, 5)
    _effect(monkeypatch, "052", 1, 3, 1)
    _effect(monkeypatch, "054", 2)
    assert rose_and_florins() == (1 + 2 + 3, 4 + 2, 5)
    _effect(monkeypatch, "051", 4, 5)     # now on a chosen 4
    _effect(monkeypatch, "052", 1, 3, 6)  # the extra cubes on slot 6
    after = play(state, choice).seats[seat]
    assert after.rose[5][0] == 3 and after.florins == 5


def test_016_barge_steps(monkeypatch):
    state, me = _me(("016",), points=0)
    state = with_seat(state, me, turn=Turn(barge_steps=2))

    def scored():
        tx = Tx(state)
        cards.on_barge_steps(tx, me)
        return tx.state.seats[me].points
    assert scored() == 1
    _effect(monkeypatch, "016", 3, 1)
    assert scored() == 0
    _effect(monkeypatch, "016", 2, 4)
    assert scored() == 4


def test_014_071_072_triggers(monkeypatch):
    state, me = _me(("014",), amstel=0, points=0, florins=0)
    cards_071_072 = with_seat(state, me, active=("071", "072", "024"))

    def gains():
        tx = Tx(state)
        tx.advance(me, 1, "017")                        # no bridge before space 3
        after = play(cards_071_072, UseCard("024")).seats[me]   # 024: +1 florin, +1 point
        return tx.state.seats[me].points, after.florins, after.points
    assert gains() == (1, 2, 2)
    _effect(monkeypatch, "014", 3)
    _effect(monkeypatch, "071", 2)
    _effect(monkeypatch, "072", 5)
    assert gains() == (3, 3, 6)


def test_use_cards_019_022_023_044_048_088(monkeypatch):
    mine = [data.BLOCK_IDS[i] for i in range(3)]
    state, me = _me(("019", "022", "023", "044", "048", "088", "087", "042", "043"),
                    reserve=vector("pink", "pink"), florins=3, points=0)
    owners = list(state.block_owner)
    for block in mine:
        owners[data.BLOCK_IDS.index(block)] = me
    state = replace(state, block_owner=tuple(owners))

    def after(command):
        return play(state, command).seats[me]
    carpenters = sum(1 for c in ("042", "043") if data.CARDS[c].group == "carpenter")
    assert after(UseCard("019")).florins == 3 + 1                      # ceil(3 / 5)
    assert after(UseCard("022")).turn.barge_credit == 3
    assert (after(UseCard("023")).florins, after(UseCard("023")).points) == (2, 1)
    assert after(UseCard("044")).points == carpenters
    assert after(UseCard("048", ("pink",))).florins == 4
    assert after(UseCard("088")).florins == 4 + 1                      # 087 is a tower
    _effect(monkeypatch, "019", 2, ("florins", 3))
    _effect(monkeypatch, "022", 2, 4)
    _effect(monkeypatch, "023", 3, ("points", 2))
    _effect(monkeypatch, "044", "carpenter", 4, ("florins", 1))
    _effect(monkeypatch, "048", 2, ("florins", 5))
    _effect(monkeypatch, "088", "Westerkerk", ("florins", 1), ("florins", 7))
    assert after(UseCard("019")).florins == 3 + 2 * 3                  # ceil(3 / 2) x 3
    assert (after(UseCard("022")).florins, after(UseCard("022")).turn.barge_credit) == (1, 4)
    assert (after(UseCard("023")).florins, after(UseCard("023")).points) == (0, 2)
    assert after(UseCard("044")).points == 4 * carpenters
    assert UseCard("048", ("pink", "pink")) in GAME.legal_commands(state, me)
    assert after(UseCard("048", ("pink", "pink"))).florins == 3 + 5
    assert after(UseCard("088")).florins == 3 + 1                      # no Westerkerk


def test_009_and_the_churches_at_the_end(monkeypatch):
    state, me = _me(("009", "067", "070", "073", "055"), amstel=0, inactive=())

    def final():
        tx = Tx(state)
        scoring.final_scoring(tx)
        return tx.state.seats[me].amstel, cards.end_points(state, me)
    assert final() == (5, 15)
    _effect(monkeypatch, "009", 2)
    for card in ("067", "068", "069"):
        _effect(monkeypatch, card, ("Oude Kerk", "Waag", "Pakhuis"), 1, 2, 4)
    assert final() == (2, 2)   # Waag 055 pairs, Pakhuis does not: one partner


def test_scales_of_the_base_game(monkeypatch):
    state, me = _me((), reserve=vector("pink", "pink", "grey", "grey", "grey"))
    assert {len(c.payment) for c in actions.amstel_commands(state, me)} == {1}
    monkeypatch.setitem(data.AMSTEL_COST, "first", 2)
    assert {len(c.payment) for c in actions.amstel_commands(state, me)} == {2}
    state = play(state, AdvanceAmstel(("grey", "pink")))
    assert {len(c.payment) for c in actions.amstel_commands(state, me)} == {2}
    monkeypatch.setitem(data.AMSTEL_COST, "further", 1)
    assert {len(c.payment) for c in actions.amstel_commands(state, me)} == {1}


def test_black_market_bailiff_and_foreman_scales(monkeypatch):
    state, me = _me((), reserve=vector("grey", "grey", "grey"))
    block = _free_block(state, "grey", 3).id
    state = replace(state, bailiff=block)
    assert _block_payments(state, me, block) == {(("grey", "grey"), False)}
    monkeypatch.setattr(data, "BAILIFF_DISCOUNT", 3)
    assert _block_payments(state, me, block) == {((), False)}
    tx = Tx(state)
    actions.acquire_block(tx, me, block, "resource", None, None)
    assert tx.state.seats[me].pending_choices == 1
    monkeypatch.setattr(data, "BLACK_MARKET_CHOICES", 2)
    tx = Tx(state)
    actions.acquire_block(tx, me, block, "resource", None, None)
    assert tx.state.seats[me].pending_choices == 2
    monkeypatch.setattr(data, "FIGURE_PLACERS", {"foreman": 0, "bailiff": -1, "market_pawn": -1})
    state = started(3, {"expansions": ["skilled_workers"]})
    order = amstel_order(state)
    assert figures.placements(state) == (("foreman", order[0]), ("bailiff", order[-1]))


def test_foreman_points(monkeypatch):
    state, me = _me((), cargo=("beer",), barge="beer", points=0)
    state = replace(state, foreman="beer", round=9)

    def scored():
        return play(state, DeliverGood("beer")).seats[me].points
    assert scored() == data.ROOFS["beer"][0] + 2
    monkeypatch.setattr(data, "FOREMAN_POINTS", 5)
    assert scored() == data.ROOFS["beer"][0] + 5


def test_setup_scales(monkeypatch):
    state = started(3)
    assert len(state.districts_scored) == 2 and all(len(p) == 2 for p in state.pontoons)
    assert state.round == 1
    monkeypatch.setattr(data, "FIRST_ROUND", 2)
    assert started(3).round == 2
    monkeypatch.setitem(data.DISTRICTS_SCORED, 3, 4)
    monkeypatch.setitem(data.DOCKERS_PER_PONTOON, "game", 1)
    state = started(3)
    assert len(state.districts_scored) == 4 and all(len(p) == 1 for p in state.pontoons)
    rose = at_phase(DICE, 2).seats[0].rose        # the first choice: 1 + 2 black cubes
    assert (rose[0][0], rose[1][0]) == (1, 2)
    monkeypatch.setattr(data, "OPENING_SLOTS", (3, 5))
    rose = at_phase(DICE, 2).seats[0].rose
    assert (rose[0][0], rose[1][0], rose[2][0], rose[4][0]) == (0, 0, 1, 2)


def test_dice_scales(monkeypatch):
    monkeypatch.setattr(data, "DIE_FACES", 2)
    state = at_phase(DICE, 2)
    assert set(state.dice) <= {1, 2}
    monkeypatch.setattr(data, "DIE_FACES", 6)
    monkeypatch.setattr(data, "DICE_CHANGE_FROM_ROUND", 1)
    monkeypatch.setattr(data, "DICE_CHANGE_BASE", 2)   # every face >= 1 changes
    monkeypatch.setattr(data, "DICE_CHANGED_FACE", 3)
    state = at_phase(DICE, 2, seed=5)
    assert set(state.dice) == {3}
    seat = acting(state)
    state = with_seat(state, seat, active=("053",))
    monkeypatch.setattr(data, "ROSE_SLOTS", 3)
    slots = {s for c in GAME.legal_commands(state, seat) for s in c.slots}
    assert slots == {2, 3}
    monkeypatch.setattr(data, "ROSE_SLOTS", 4)
    assert {s for c in GAME.legal_commands(state, seat) for s in c.slots} == {2, 3, 4}


def test_solo_scales(monkeypatch):
    state = replace(started(1), round=3, market_tile="B16")   # 6 florins: out of reach

    def tom_after(rolled):
        tx = Tx(state)
        tom_rules.play_round(tx, rolled)
        return tx.state.tom
    rolled = (1, 2, 2, 5, 3, 4)            # one Amstel face (1), no block face (6)
    base = tom_after(rolled)
    assert base.amstel == 1 and base.triples == ()
    monkeypatch.setitem(data.SOLO, "amstel_per_face", 2)
    monkeypatch.setitem(data.SOLO, "triple", 2)       # the pair of 2s is now a "triple"
    monkeypatch.setitem(data.SOLO, "docker_florins", 4)
    changed = tom_after(rolled)        # solo: one docker on each pontoon (L894)
    assert changed.amstel == 2 and changed.triples == (2,)
    assert (base.florins, changed.florins) == (1, 4 + 1)     # + the market's florin


def test_solo_market_florins(monkeypatch):
    state = replace(started(1), round=3)
    state = replace(state, market_tile="B16")           # 6 florins: TOM cannot pay

    def florins():
        tx = Tx(state)
        tom_rules.play_round(tx, (2, 3, 4, 5, 2, 3))
        return tx.state.tom.florins
    assert florins() == 1
    monkeypatch.setitem(data.SOLO, "market_florins", 3)
    assert florins() == 3


def test_task_counts(monkeypatch):
    state, me = _me(("007", "008", "009", "010"))
    state = replace(state, tasks=((15,), (15,)))
    assert score_tasks(state, me)[0] == data.TASKS[15].points[0]         # 4 laurel cards >= 3
    monkeypatch.setitem(data.TASKS, 15, dc_replace(data.TASKS[15], count=5))
    assert score_tasks(state, me)[0] == 0
    state = with_seat(state, me, dockers=("pink", "pink", "white"), cargo=("beer",))
    state = replace(state, tasks=((32,), (32,)))
    assert score_tasks(state, me) == (data.TASKS[32].points[0], 3)
    monkeypatch.setitem(data.TASKS, 32, dc_replace(data.TASKS[32], count=3))
    assert score_tasks(state, me) == (data.TASKS[32].points[0], 4)
    monkeypatch.setattr(data, "TASK_POINT_SEATS", (1, 2, 3))   # columns for 1 / 2 / 3 seats
    assert score_tasks(state, me) == (data.TASKS[32].points[1], 4)


def test_extra_market_tiles_and_c_tile_counts(monkeypatch):
    stack, removed = market_tiles.stack(Rng("0" * 64), 12)
    assert len(stack) == 12 and sum(data.MARKET_TILES[t].expansion for t in stack) == 6
    monkeypatch.setitem(data.EXTRA_MARKET_TILES, "c_kept", {12: 4, 10: 2})
    monkeypatch.setitem(data.EXTRA_MARKET_TILES, "base_kept", 2)
    stack, removed = market_tiles.stack(Rng("0" * 64), 12)
    assert len(stack) == 12 and sum(data.MARKET_TILES[t].expansion for t in stack) == 8
    state, me = _me(())
    for tile, count, field in (("CA17", 3, "barge_credit"), ("CA20", 1, "free_activations"),
                               ("CB24", 2, "free_activations")):
        for n in (count, count + 2):
            monkeypatch.setitem(data.MARKET_TILES, tile, dc_replace(data.MARKET_TILES[tile], count=n))
            tx = Tx(state)
            market_tiles.apply(tx, me, data.MARKET_TILES[tile], None)
            assert getattr(tx.state.seats[me].turn, field) == n


def test_rounds_reads_the_offer_and_the_phase_one_card(monkeypatch):
    """049 is found by its effect: give its effect to another card and that one declines."""
    state = at_phase("cards", 2)
    seat = acting(state)
    state = with_seat(state, seat, active=("046",))
    assert DeclineCard() not in rounds.card_commands(state, seat)
    monkeypatch.setitem(data.CARDS, "046", dc_replace(data.CARDS["046"], effect=data.CARDS["049"].effect))
    assert DeclineCard() in rounds.card_commands(state, seat)
    after = play(state, DeclineCard(), seat)
    assert "046" in after.seats[seat].used


def test_house_capacity(monkeypatch):
    state, me = _me((), reserve=vector("pink"))
    assert EndTurn("pink") in actions.end_turn_commands(state, me)
    monkeypatch.setattr(data, "HOUSE_CAPACITY", 0)
    assert actions.end_turn_commands(state, me) == [EndTurn(None)]
