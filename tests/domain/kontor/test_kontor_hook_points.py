"""Issue 32: the hook points that remain are few and used. Counted by
tests/domain/kontor/hook_points.py (each extension registered into a fresh Hooks)."""

from __future__ import annotations

from pathlib import Path

from domain.kontor import GAME
from domain.kontor.core import hooks as hooks_module
from tests.domain.kontor.hook_points import points, summary, swapped, users

#: the counts today (before issue 32's second part: 64 points, 39 with one user; 49 and 27
#: after the steps, then 7 more, 6 of one user, when the last extensions' fields left the
#: core state: the core asks the owning sub-state through them, core/hooks.py's last
#: block; then 56 and 33 less the four moments turned into step lists: a Pass, the
#: set-up's end, sectors scored, any command; 49 and 25 when the four ways a rule changes
#: a sector's count became one point, ``counting``; 48 and 23 with the free wheel's
#: finished sectors among the docks the ship may not remove, ``ship_protected``; 47 and
#: 22 when redetermine kept the cards shown from a hand through ``hand_shown`` and the
#: piles seen through ``piles_seen``, not ``hidden_kept``; 45 and 21 when before_end and
#: final_points became the steps of the game's end, GAME_END; 42 and 19 when the commands
#: rules add to a choosing or placing seat's became parts of CHOOSE_COMMANDS and
#: PLACE_COMMANDS; 41 and 17 when Décisions' wait joined the special rules A's pending
#: step at ``step_waits``; 38 and 14 when the set-up became a step list, START_STEPS,
#: whose "deal" the free wheel swaps and after which the event deck is shuffled, and
#: Contrebande swapped the round's "order" step; 34 and 10 when a layout's canals, the
#: cards removed, a scenario's and a special rule's switches became tables by name:
#: layouts, removed_cards, scenario_settings, rule_settings; 31 and 7 when what was seen
#: became one point, ``seen`` (the piles seen whole, the hands shown, the hands a rule
#: may change unseen), and the event deck's new order the first of ``redetermine``; 25
#: and 1 when the free wheel's legal cells and dock owner, Contrebande's draw pile,
#: Embargo's placed goods and returned warehouses became swaps of the core's function
#: (``Hooks.swap``, typed in ``Swaps``) and a sector holding a face-down card waited for
#: being hidden (``Card.is_hidden``), not through ``sector_held``; 24 and 0 when « Jours
#: dorés »' points joined ``counting``, ``Counting.points``); lower them when a point
#: goes, never raise them
MAX_POINTS = 24
MAX_ONE_USER = 0


def test_every_hook_point_has_a_user():
    assert [p for p, modules in users().items() if not modules] == []


def test_every_point_of_one_user_says_why():
    """core/hooks.py: the line above such a point's field reads « #: one user: <why> »."""
    source = Path(hooks_module.__file__).read_text(encoding="utf-8").splitlines()
    above = {
        line.split(":")[0].strip(): source[i - 1].strip()
        for i, line in enumerate(source)
        if line.startswith("    ") and ": list[" in line and not line.startswith("     ")
    }
    lonely = [p for p, modules in users().items() if len(modules) == 1]
    assert [p for p in lonely if not above[p].startswith("#: one user: ")] == []


def test_the_hook_points_do_not_grow_back():
    counted = summary()
    assert counted["points"] == len(points()) <= MAX_POINTS
    assert counted["one_user"] <= MAX_ONE_USER


def test_the_points_turned_into_steps_or_parts_are_gone():
    gone = {
        "decide", "after_reveal", "game_ends", "good_step", "take_goods", "export_warehouses",
        "alternative_play", "ship_may_unblock", "no_cell_reason", "before_dock_removed",
        "view_last", "variant_view", "form_view", "team_view", "view",
        "pass_turn", "setup_done", "after_scoring", "after_command",
        "dock_goods", "extra_warehouses", "count_adjust", "goods_beats", "ship_closed_cells",
        "hidden_kept", "before_end", "final_points", "choose_commands", "place_commands",
        "after_ship_commands", "decision_pending", "start", "start_events", "order_key",
        "layout", "dock_deck", "piles_seen", "hand_shown", "hands_unseen", "reshuffled",
        "placement_cells", "dock_owner", "draw_pile", "placed_goods", "returned_warehouses",
        "sector_held", "bonus_points",
    }
    assert not gone & set(points())


def test_every_swap_is_used_and_swapped_once():
    """A core function or step is swapped by one extension (a second would raise), and
    no field of Swaps is left without a swap."""
    import dataclasses

    from domain.kontor.core.hooks import Swaps

    found = swapped()
    assert all(len(modules) == 1 for modules in found.values())
    assert {f.name for f in dataclasses.fields(Swaps)} <= set(found)


def test_the_orders_at_a_point_that_the_rules_rely_on():
    """What registry.EXTENSIONS' order decides (the round's order is the step lists):
    the order of the functions at one point, where it matters."""
    used = users()

    def order(point: str, *modules: str) -> list[str]:
        return [m for m in used[point] if m in modules]

    # Corruption's reason for refusing a cell comes after the Blocus's
    assert order("placement_error", "rules.blockade", "rules.bribery") == ["rules.blockade", "rules.bribery"]
    # redetermine's draws: Justice's pools, then the special cards', then a secret pass
    assert used["redetermine"][:3] == ["rules.justice", "rules.buy_special_cards", "rules.drunken_sailors"]
    # ... and before them all, the event deck's new order (``redraw_first``)
    from domain.kontor.core.hooks import rules_for
    from domain.kontor.expansions import event_cards

    options = GAME.parse_options({"variant": "advanced", "expansions": ["event_cards"], "special_rules": ["justice"]}, 2)
    assert rules_for(options).redetermine[0] is event_cards.reshuffled
    # Libre choix's free piles, then Premier choix's « dock_pick » joins them
    assert used["draw_choices"] == ["rules.free_choice", "rules.first_choice"]
