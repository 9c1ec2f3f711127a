"""Every `sh` block of README.md works: run for real, in order, as one bash session against
a live `entrepot serve` (real PostgreSQL, Redis and an RQ worker for computer seats).

A block preceded by ``<!-- readme-test: NAME -->`` is not run as is (installing the
package, or running the whole suite inside a test); NAME picks the check that stands in for
it below, and an unknown NAME fails. Whatever blocks the README holds, each one is either
run or checked: none is silently left out.
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import tomllib
from pathlib import Path

import requests

from tests.conftest import ROOT
from tests.e2e.conftest import SERVER_MAIL

BLOCK = re.compile(r"(?:<!-- readme-test: (?P<marker>[\w-]+) -->\s*\n)?```sh\n(?P<code>.*?)```", re.S)

#: every command fails loudly: curl on an HTTP error (printing the problem), the script on
#: any failing command, unset variable or failing pipe
PRELUDE = """set -euo pipefail
curl() { command curl --fail-with-body --show-error --max-time 60 "$@"; }
"""


def blocks() -> list[tuple[str | None, str]]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    found = [(m["marker"], m["code"]) for m in BLOCK.finditer(text)]
    assert len(found) == text.count("```sh"), "a sh block the pattern did not read"
    return found


def console_scripts(folder: Path) -> Path:
    """The commands pyproject.toml declares, as pip would install them, running this tree."""
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    folder.mkdir(exist_ok=True)
    for name, target in scripts.items():
        module, _, function = target.partition(":")
        script = folder / name
        script.write_text(f"#!{sys.executable}\nimport sys\nsys.path.insert(0, {str(ROOT)!r})\n"
                          f"from {module} import {function}\nsys.exit({function}())\n")
        script.chmod(0o755)
    return folder


def test_every_runnable_readme_snippet_succeeds_against_a_live_server(server, tmp_path):
    runnable = [code for marker, code in blocks() if marker is None]
    assert len(runnable) >= 3
    script = PRELUDE + "".join(
        f"echo '>>> README sh block {i + 1}' >&2\n{code}\n" for i, code in enumerate(runnable))
    # a user's shell after `pip install -e .`: the project's commands and this Python first
    # on PATH, no ENTREPOT_* but the server's address
    env = {k: v for k, v in os.environ.items() if not k.startswith("ENTREPOT_")}
    path = f"{console_scripts(tmp_path / 'bin')}:{sys.prefix}/bin:{env.get('PATH', '/usr/bin:/bin')}"
    # run in a folder of its own (snippets write files); the project importable, as installed
    env.update(ENTREPOT_URL=server, PATH=path, PYTHONPATH=str(ROOT))
    # where this server writes its mails and listens for replies ("Play by email")
    env.update(ENTREPOT_MAIL_DIR=str(SERVER_MAIL["dir"]), ENTREPOT_SMTP_IN=f"smtp://127.0.0.1:{SERVER_MAIL['port']}")
    done = subprocess.run(["bash", "-c", script], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=300)
    failed_in = re.findall(r">>> README sh block (\d+)", done.stderr)
    assert done.returncode == 0, (
        f"README sh block {failed_in[-1] if failed_in else '?'} (of the runnable ones) failed:\n"
        f"{done.stderr[-3000:]}\n--- stdout ---\n{done.stdout[-2000:]}")
    assert len(failed_in) == len(runnable)
    assert "Traceback" not in done.stderr


def check_quick_start(code: str, server: str, scripts: Path) -> None:
    """`pip install -e '.[dev]' && entrepot serve`: the extra exists, `entrepot` is the
    service CLI, its serve command answers --help, and it starts (the live server of this
    session is that same command)."""
    assert code.strip() == "pip install -e '.[dev]' && entrepot serve"
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert "dev" in project["optional-dependencies"]
    entrepot = console_scripts(scripts) / "entrepot"  # the declared entry point, as installed
    done = subprocess.run([str(entrepot), "serve", "--help"], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and "--data-dir" in done.stdout, done.stderr
    assert requests.get(server + "/v1/health", timeout=10).ok


def check_pytest(code: str, server: str, scripts: Path) -> None:
    """`pytest`: the command CI runs itself, over the tests folder this file is in."""
    assert code.strip() == "pytest"
    options = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["pytest"]["ini_options"]
    assert options["testpaths"] == ["tests"]
    assert (ROOT / ".ci" / "run").read_text().count("pytest") >= 1


def check_smtp_in(code: str, server: str, scripts: Path) -> None:
    """`entrepot serve --smtp-in-port 2525`: the option exists, and the session's server runs
    with it (the "Play by email" blocks reply through it)."""
    assert code.strip() == "entrepot serve --smtp-in-port 2525"
    entrepot = console_scripts(scripts) / "entrepot"
    done = subprocess.run([str(entrepot), "serve", "--help"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and "--smtp-in-port" in done.stdout, done.stderr
    with socket.create_connection(("127.0.0.1", SERVER_MAIL["port"]), timeout=10) as listener:
        assert listener.recv(200).startswith(b"220")


def check_load_test(code: str, server: str, scripts: Path) -> None:
    """The limits are the deployment's: the block's variables set them, and the session's
    server, started with them (UNTHROTTLED), applies them in its API processes."""
    from service.config import Settings
    from tests.conftest import UNTHROTTLED

    env = dict(re.findall(r"(ENTREPOT_RATE_LIMIT_PER_\w+)=(\S+)", code))
    assert set(env) == {"ENTREPOT_RATE_LIMIT_PER_IP", "ENTREPOT_RATE_LIMIT_PER_TOKEN"}
    assert code.strip().endswith("entrepot serve")
    done = subprocess.run(
        [sys.executable, "-c", "from service.config import Settings; s = Settings.from_env();"
                               " print(s.rate_limit_per_ip, s.rate_limit_per_token)"],
        cwd=ROOT, capture_output=True, text=True, timeout=60,
        env={**os.environ, **env, "DATABASE_URL": "postgresql://x", "REDIS_URL": "redis://x"})
    assert done.stdout.split() == [env["ENTREPOT_RATE_LIMIT_PER_IP"], env["ENTREPOT_RATE_LIMIT_PER_TOKEN"]], done.stderr
    assert Settings.rate_limit_per_ip != env["ENTREPOT_RATE_LIMIT_PER_IP"]  # not the default
    response = requests.get(server + "/v1/titles", timeout=10)
    assert response.headers["RateLimit-Limit"] == UNTHROTTLED.split("/")[0]


CHECKS = {"quick-start": check_quick_start, "pytest": check_pytest, "smtp-in": check_smtp_in,
          "load-test": check_load_test}


def test_every_readme_snippet_not_run_as_is_has_its_check(server, tmp_path):
    marked = [(marker, code) for marker, code in blocks() if marker is not None]
    assert {marker for marker, _ in marked} == set(CHECKS), "a readme-test marker without a check"
    for marker, code in marked:
        CHECKS[marker](code, server, tmp_path)
