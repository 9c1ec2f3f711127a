"""The shape DESIGN.md asks for, checked: a pure domain, titles apart, one GAME per title."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

from domain.decider import GameDefinition
from domain.kontor.registry import EXTENSIONS
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


def _hidden_imports(tree: ast.AST) -> list[tuple[int, str]]:
    """Imports inside a function, or under ``if TYPE_CHECKING``: both hide a cycle."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            for inner in ast.walk(node):
                if isinstance(inner, (ast.Import, ast.ImportFrom)):
                    found.append((inner.lineno, f"import inside {getattr(node, 'name', 'lambda')}"))
        elif isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            found.append((node.lineno, "import under TYPE_CHECKING"))
        elif isinstance(node, ast.Call) and ast.unparse(node.func).endswith("import_module"):
            found.append((node.lineno, "importlib.import_module"))
        elif isinstance(node, ast.Call) and ast.unparse(node.func) == "__import__":
            found.append((node.lineno, "__import__"))
    return found


def test_the_domain_hides_no_import_inside_a_function():
    """DESIGN: « No imports hidden inside functions to dodge cycles »: every module of
    domain/ imports at its top, so import-linter sees every dependency."""
    hidden = []
    for path in sorted((ROOT / "domain").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        hidden += [f"{path.relative_to(ROOT)}:{line}: {what}" for line, what in _hidden_imports(tree)]
    assert not hidden, "\n".join(hidden)


def test_the_hidden_import_check_sees_each_kind():
    source = (
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    import os\n"
        "def f():\n    from os import path\n    return path\n"
        "def g():\n    return importlib.import_module('os')\n"
    )
    kinds = [what for _line, what in _hidden_imports(ast.parse(source))]
    assert kinds == ["import under TYPE_CHECKING", "import inside f", "importlib.import_module"]


def test_no_module_of_the_domain_takes_another_modules_private_helpers():
    """Issue 13: « no module-level function takes another module's private helpers »: an
    extension gets the decide context (its public steps), never a core function named
    with an underscore, and no module imports one."""
    taken = []
    for path in sorted((ROOT / "domain").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module != "__future__":
                taken += [
                    f"{path.relative_to(ROOT)}:{node.lineno}: {node.module}.{alias.name}"
                    for alias in node.names
                    if alias.name.startswith("_")
                ]
    assert not taken, "\n".join(taken)


def test_every_kontor_extension_quotes_its_rulebook_passage_at_the_top():
    """Issue 13: each form, scenario, special rule and expansion module « with its rulebook
    passage at the top »: its docstring quotes the French text (« ... »)."""
    missing = [
        module.__name__
        for module in EXTENSIONS
        if "«" not in (ast.get_docstring(ast.parse(Path(module.__file__).read_text("utf-8"))) or "")
    ]
    assert not missing, missing


def test_the_application_layer_has_no_near_homonyms():
    """service/ is grouped into parts (docs/architecture.md); within it, and beside the workers'
    modules, no two modules or parts share a name or its plural (as clock.py and clocks.py,
    notify.py and notifications.py, or four jobs.py once did). Each part's ``service.py`` (its
    use cases) and ``records.py`` (its SQL) are the one convention repeated on purpose."""
    conventions = {"service", "services", "records", "__init__"}
    seen: dict[str, Path] = {}
    for top in ("service", "workers"):
        for path in sorted((ROOT / top).rglob("*")):
            if "__pycache__" in path.parts or "migrations" in path.parts:
                continue
            if not (path.suffix == ".py" or (path.is_dir() and (path / "__init__.py").exists())):
                continue
            name = path.stem if path.suffix == ".py" else path.name
            if name in conventions:
                continue
            key = name.removesuffix("s")
            assert key not in seen, f"{path.relative_to(ROOT)} and {seen[key].relative_to(ROOT)}"
            seen[key] = path


def test_pictures_are_drawn_outside_the_application_layer():
    assert not (ROOT / "service" / "boards").exists()
    for path in (ROOT / "boards").rglob("*.py"):
        assert not {"service", "api", "workers"} & _imports(path), path.relative_to(ROOT)
