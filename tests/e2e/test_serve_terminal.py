"""`entrepot serve` as a newcomer sees it in a terminal: a few lines ending with where it
serves (the embedded engines' setup goes to the log file), and Ctrl-C (SIGINT to the
terminal's whole process group) leaves none of its processes running: no API, worker,
listener, PostgreSQL or Redis. Also: a child started with ``die_with_parent`` (serve's
children, the tests' workers) ends when its parent is killed outright."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from tests.conftest import ROOT
from tests.e2e.live import embedded_env, free_port

pytestmark = pytest.mark.slow(seconds=25)  # started first: tests/conftest.py


def _processes() -> dict[int, tuple[int, str]]:
    """pid -> (parent pid, command line) of every process."""
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        found[int(entry.name)] = (int(stat.rsplit(")", 1)[1].split()[1]), cmdline)
    return found


def _family(root: int, data_dir: Path) -> set[int]:
    """The processes ``root`` started (at any depth), and those running on ``data_dir``
    (the embedded engines detach from it)."""
    table = _processes()
    family, grew = {root}, True
    while grew:
        more = {pid for pid, (parent, _) in table.items() if parent in family} - family
        family |= more
        grew = bool(more)
    family |= {pid for pid, (_, cmd) in table.items() if str(data_dir) in cmd and "pytest" not in cmd}
    return {pid for pid in family if pid in table}


def _alive(pids: set[int]) -> set[int]:
    table = _processes()
    return {pid for pid in pids if pid in table and " <defunct>" not in table[pid][1]}


@pytest.fixture
def data_dir():
    # not under pytest's tmp_path: the embedded PostgreSQL drops root's privileges
    path = Path(tempfile.mkdtemp(prefix="entrepot-data-"))
    path.chmod(0o755)
    yield path
    shutil.rmtree(path, ignore_errors=True)


def test_serve_says_where_it_serves_last_and_ctrl_c_leaves_nothing_running(data_dir, tmp_path):
    port = free_port()
    screen = tmp_path / "terminal.txt"
    with open(screen, "wb") as terminal:
        process = subprocess.Popen(
            [sys.executable, "-m", "service.runtime.cli", "serve", "--port", str(port), "--data-dir", str(data_dir),
             "--workers", "1", "--smtp-in-port", str(free_port())],
            cwd=ROOT, env=embedded_env(), stdout=terminal, stderr=subprocess.STDOUT,
            start_new_session=True)  # its own process group, as a terminal's foreground job
    try:
        deadline = time.monotonic() + 120
        while "serving on" not in screen.read_text():
            assert process.poll() is None, screen.read_text()
            assert time.monotonic() < deadline, screen.read_text()
            time.sleep(0.2)
        family = _family(process.pid, data_dir)
        lines = screen.read_text().strip().splitlines()
        assert lines[-1] == f"Entrepot is serving on http://127.0.0.1:{port} (Ctrl-C stops it)", lines
        assert len(lines) <= 4, lines  # not the engines' 90 lines of setup
        log = (data_dir / "entrepot.log").read_text()
        assert "initdb" in log and "initdb" not in screen.read_text()  # kept for the log
        commands = " ".join(cmd for pid, (_, cmd) in _processes().items() if pid in family)
        for part in ("uvicorn", "workers --queues main", "workers --queues ai", "service.runtime.mail_listener",
                     "postgres", "redis-server"):
            assert part in commands, (part, commands)
        os.killpg(process.pid, signal.SIGINT)  # Ctrl-C
        process.wait(timeout=60)
        deadline = time.monotonic() + 30
        while _alive(family) and time.monotonic() < deadline:
            time.sleep(0.2)
        left = {pid: _processes().get(pid) for pid in _alive(family)}
        assert not left, left
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def test_serve_verbose_is_offered():
    done = subprocess.run([sys.executable, "-m", "service.runtime.cli", "serve", "--help"], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert "--verbose" in done.stdout and "entrepot.log" in done.stdout


def test_a_child_started_with_die_with_parent_ends_when_its_parent_is_killed():
    parent = subprocess.Popen(
        [sys.executable, "-c", "import subprocess, sys, time\n"
         "from service.runtime.lifeline import die_with_parent\n"
         "child = subprocess.Popen(['sleep', '120'], preexec_fn=die_with_parent)\n"
         "print(child.pid, flush=True)\n"
         "time.sleep(120)\n"],
        cwd=ROOT, stdout=subprocess.PIPE, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    child = int(parent.stdout.readline())
    assert _alive({child})
    parent.kill()  # SIGKILL: no cleanup of its own runs
    parent.wait()
    deadline = time.monotonic() + 10
    while _alive({child}) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive({child})


def test_engines_of_a_process_killed_outright_are_stopped_by_their_watchdog(data_dir):
    """SIGKILL: no handler, no atexit; the embedded PostgreSQL and Redis still stop."""
    owner = subprocess.Popen(
        [sys.executable, "-c", "import sys, time\nfrom pathlib import Path\n"
         "from service.runtime.embedded import EmbeddedEngines\n"
         "engines = EmbeddedEngines(Path(sys.argv[1]))\n"
         "engines.start_postgres(); engines.start_redis()\n"
         "print('ready', flush=True)\ntime.sleep(300)\n", str(data_dir)],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
        env={**embedded_env(), "PYTHONPATH": str(ROOT)}, start_new_session=True)
    try:
        assert owner.stdout.readline().strip() == "ready"
        engines = {pid for pid, (_, cmd) in _processes().items()
                   if str(data_dir) in cmd and ("postgres" in cmd or "redis-server" in cmd)}
        assert len(engines) >= 2, engines
        os.killpg(owner.pid, signal.SIGKILL)
        owner.wait()
        deadline = time.monotonic() + 30
        while _alive(engines) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not _alive(engines), {pid: _processes().get(pid) for pid in _alive(engines)}
    finally:
        if owner.poll() is None:
            os.killpg(owner.pid, signal.SIGKILL)
            owner.wait()


SLEEPER = '''
import os
import time
from pathlib import Path

from tests.mail.conftest import mail_services, mail_settings, sink  # noqa: F401 (fixtures)
from tests.mail.test_correspondence_by_mail import worker  # noqa: F401 (the real fixture)


def test_a_worker_then_a_long_wait(worker):
    Path(os.environ["SLEEPER_PID_FILE"]).write_text(str(worker.pid))
    time.sleep(300)
'''


def test_ctrl_c_of_pytest_leaves_no_worker_of_its_tests(tmp_path):
    """`pytest` as a developer runs it (xdist, the project's options), stopped by Ctrl-C
    while a test's RQ worker (the mail tests' fixture: its own session, so the terminal's
    Ctrl-C does not reach it) runs: the worker and its scheduler end with the run."""
    test_file = tmp_path / "test_sleeper.py"
    test_file.write_text(SLEEPER)
    pid_file, output = tmp_path / "worker.pid", tmp_path / "pytest.txt"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "PYTEST_XDIST"))}
    with open(output, "wb") as screen:
        pytest_run = subprocess.Popen(
            [sys.executable, "-m", "pytest", "-c", str(ROOT / "pyproject.toml"), "--rootdir", str(ROOT),
             "-p", "tests.conftest", "-p", "no:cacheprovider", str(test_file)],
            cwd=ROOT, stdout=screen, stderr=subprocess.STDOUT,
            env={**env, "PYTHONPATH": str(ROOT), "SLEEPER_PID_FILE": str(pid_file)}, start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        while not pid_file.exists() or not pid_file.read_text():
            assert pytest_run.poll() is None, output.read_text()[-3000:]
            assert time.monotonic() < deadline, output.read_text()[-3000:]
            time.sleep(0.2)
        worker = int(pid_file.read_text())
        family = _family(worker, tmp_path / "nothing")
        assert worker in family and _alive(family)
        os.killpg(pytest_run.pid, signal.SIGINT)  # Ctrl-C in the terminal
        time.sleep(0.3)
        os.killpg(pytest_run.pid, signal.SIGINT)  # and again, impatient: the teardowns are cut short
        pytest_run.wait(timeout=60)
        deadline = time.monotonic() + 30
        while _alive(family) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not _alive(family), {pid: _processes().get(pid) for pid in _alive(family)}
    finally:
        if pytest_run.poll() is None:
            os.killpg(pytest_run.pid, signal.SIGKILL)
            pytest_run.wait()
