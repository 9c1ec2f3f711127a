"""Child processes that never outlive their parent.

``die_with_parent`` is a ``preexec_fn`` for ``subprocess.Popen``: on Linux the kernel sends
the child SIGTERM when the process that started it dies, however it dies (Ctrl-C, a kill,
a crash), so no worker, listener or API process of an ``entrepot serve`` (or of a test
session) is left running on its own. Elsewhere it does nothing.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import signal
import sys

PR_SET_PDEATHSIG = 1


def die_with_parent() -> None:
    if not sys.platform.startswith("linux"):
        return
    libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
    libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
    if os.getppid() == 1:  # the parent died before prctl: nobody is left to stop us
        os.kill(os.getpid(), signal.SIGTERM)
