"""The shape DESIGN.md asks for, checked: a pure domain, titles apart, one GAME per title."""

from __future__ import annotations

import ast
import sys

from domain.decider import GameDefinition
from domain.registry import titles
from tests.conftest import ROOT


def _imports(path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.split(".")[0])
    return found


def test_the_domain_uses_the_standard_library_only():
    allowed = set(sys.stdlib_module_names) | {"domain", "__future__"}
    for path in (ROOT / "domain").rglob("*.py"):
        outside = _imports(path) - allowed
        assert not outside, f"{path.relative_to(ROOT)} imports {sorted(outside)}"


def test_the_domain_reads_no_clock_and_no_global_random():
    for path in (ROOT / "domain").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        imported = _imports(path)
        assert "random" not in imported and "secrets" not in imported, path
        for forbidden in ("datetime.now", "time.time(", "utcnow(", "os.environ", "open("):
            assert forbidden not in text, f"{path.relative_to(ROOT)} uses {forbidden}"


def test_every_title_exports_one_game_with_explicit_event_names():
    for title_id, game in titles().items():
        assert isinstance(game, GameDefinition) and game.id == title_id
        names = [cls.TYPE for cls in game.event_types]
        assert len(names) == len(set(names))
        assert all(name.startswith(f"{title_id}.") for name in names), names
        assert all(isinstance(getattr(cls, "SCHEMA_VERSION", None), int) for cls in game.event_types)
        commands = [cls.TYPE for cls in game.command_types]
        assert len(commands) == len(set(commands))
