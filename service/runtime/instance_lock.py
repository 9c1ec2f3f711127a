"""One `entrepot serve` per data directory.

The embedded engines keep their socket, pid and data files under the data directory; a
second server starting there would remove the first one's Redis socket and stop its
PostgreSQL. An exclusive ``flock`` on ``<data dir>/entrepot.lock``, held for the life of
the process, makes the second one refuse instead. The kernel drops the lock when the
process dies, however it dies, so a stale file never blocks a restart.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path


class AlreadyRunning(Exception):
    """Another live process holds the data directory."""


class InstanceLock:
    def __init__(self, data_dir: Path):
        self.path = data_dir / "entrepot.lock"
        self._fd: int | None = None

    def acquire(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 32, 0).decode(errors="replace").strip() or "unknown"
            os.close(fd)
            raise AlreadyRunning(
                f"another entrepot serve (pid {holder}) is using the data directory "
                f"{self.path.parent}; stop it first or pass another --data-dir"
            ) from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        self._fd = fd

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)  # closing the only descriptor drops the lock
            self._fd = None
