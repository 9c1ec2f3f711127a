"""A trace of the timers' jobs for the clocks bench (``bench/clocks.py --trace``).

Off unless ``ENTREPOT_TRACE_TIMERS`` names a file: then the schedulers, the timer jobs and
the sweepers of every process append one JSON line per step (what, when, which process),
so a late timeout can be followed from its slot's job being scheduled to its end.
"""

from __future__ import annotations

import json
import os
import time

PATH = os.environ.get("ENTREPOT_TRACE_TIMERS") or None


def trace(what: str, **fields) -> None:
    if PATH is None:
        return
    line = json.dumps({"what": what, "t": time.time(), "pid": os.getpid(), **fields}, default=str)
    # one short write per line in append mode: lines of several processes do not interleave
    with open(PATH, "a") as out:
        out.write(line + "\n")
