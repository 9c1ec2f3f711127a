"""A watchdog that stops the embedded engines of a process that died without doing so.

`entrepot serve` (and a test session without ENTREPOT_TEST_*_URL) start PostgreSQL and
Redis as daemons of their own: Ctrl-C or a kill of the terminal's process group does not
reach them, and a process killed outright (SIGKILL, or SIGTERM without a handler) never
runs its cleanup. So each EmbeddedEngines starts this watchdog, in a session of its own:
it polls its parent and, once that is gone, stops whatever engine still runs under the
data directory (PostgreSQL's fast shutdown through its postmaster.pid; Redis' SHUTDOWN
through its socket). A normal stop ends the watchdog first.

    python -m service.runtime.engine_watch PARENT_PID DATA_DIR
"""

from __future__ import annotations

import os
import signal
import sys
import time
from pathlib import Path

POLL_SECONDS = 0.5


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def stop_engines(data_dir: Path) -> None:
    postmaster = data_dir / "pgdata" / "postmaster.pid"
    try:
        pid = int(postmaster.read_text().split()[0])
        os.kill(pid, signal.SIGINT)  # PostgreSQL's fast shutdown
    except (OSError, ValueError, IndexError):
        pass
    socket = data_dir / "redis" / "redis.sock"
    if socket.exists():
        try:
            from redis import Redis

            Redis(unix_socket_path=str(socket), socket_timeout=5).shutdown(save=True)
        except Exception:  # gone already (the connection drops as it shuts down)
            pass


def main(argv: list[str] | None = None) -> int:
    parent, data_dir = (argv if argv is not None else sys.argv[1:])[:2]
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # a terminal's Ctrl-C is for the parent
    while alive(int(parent)) and os.getppid() != 1:
        time.sleep(POLL_SECONDS)
    stop_engines(Path(data_dir))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
