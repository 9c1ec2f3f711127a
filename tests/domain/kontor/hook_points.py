"""Count Kontor's hook points and who uses them (issue 32): each extension of
``registry.EXTENSIONS`` registers into a fresh ``Hooks`` of its own, and a point's users
are the modules that put at least one function there. The tables (commands, events,
steps, and the set-up's and the options' tables by name) are counted apart: they are
dispatch by type or by name and the round's step lists, not points asked in turn.

Run from the worktree: ``PYTHONPATH=$PWD python -m tests.domain.kontor.hook_points``."""

from __future__ import annotations

import dataclasses

from domain.kontor import registry
from domain.kontor.core.hooks import Hooks, Swaps

#: the fields of Hooks that are tables (by type, by name, or the step lists), not points
TABLES = (
    "commands", "events", "instead", "before", "after", "steps", "view_parts", "command_parts", "derived",
    "layouts", "removed_cards", "rule_settings", "scenario_settings", "swaps",
)


def points() -> tuple[str, ...]:
    """The hook points: the list fields of Hooks that are not tables."""
    return tuple(f.name for f in dataclasses.fields(Hooks) if f.name not in TABLES)


def users() -> dict[str, list[str]]:
    """{point: [module names that register a function there]} for every point."""
    found: dict[str, list[str]] = {p: [] for p in points()}
    for extension in registry.EXTENSIONS:
        hooks = Hooks()
        extension.register(hooks)
        for p in found:
            if getattr(hooks, p):
                found[p].append(extension.__name__.removeprefix("domain.kontor."))
    return found


def functions() -> int:
    """Functions registered at the points, in all (a registry's order)."""
    total = 0
    for extension in registry.EXTENSIONS:
        hooks = Hooks()
        extension.register(hooks)
        total += sum(len(getattr(hooks, p)) for p in points())
    return total


def swapped() -> dict[str, list[str]]:
    """{a core function or step swapped: [the modules that swap it]}: the Swaps' fields
    and the steps swapped (``Hooks.swap``, ``Hooks.swap_step``), one module each."""
    found: dict[str, list[str]] = {}
    for extension in registry.EXTENSIONS:
        hooks = Hooks()
        extension.register(hooks)
        name = extension.__name__.removeprefix("domain.kontor.")
        for f in dataclasses.fields(Swaps):
            if getattr(hooks.swaps, f.name) is not None:
                found.setdefault(f.name, []).append(name)
        for at, step, _, _ in hooks.steps:
            if at == "instead":
                found.setdefault(f"step {step}", []).append(name)
    return found


def summary() -> dict[str, int]:
    used = users()
    return {
        "points": len(used),
        "functions": functions(),
        "one_user": sum(1 for u in used.values() if len(u) == 1),
        "unused": sum(1 for u in used.values() if not u),
        "swaps": len(swapped()),
    }


if __name__ == "__main__":
    for point, modules in sorted(users().items(), key=lambda kv: (len(kv[1]), kv[0])):
        print(f"{len(modules):2} {point:22} {', '.join(modules)}")
    for name, modules in sorted(swapped().items()):
        print(f"swap {name:22} {', '.join(modules)}")
    print(summary())
