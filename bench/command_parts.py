"""Where a POST /commands goes, by part, from a py-spy profile of bench/profile_commands.py:

    py-spy record --gil -r 500 -f raw -o spy.txt -- python bench/profile_commands.py --commands 1200 --no-profile
    python bench/command_parts.py spy.txt 2.65     # the run's "API CPU per POST /commands", in ms
    python bench/command_parts.py old.txt 3.10 /tmp/old/bench/profile_commands.py   # another tree's run

Each part is its share of the samples taken inside the POST (the test client's call), a
part including what it calls (the last two lines cut across the others), and that share of
the CPU per command. ``--gil`` counts only the thread holding the GIL, so waits on sockets
are left out.
"""

from __future__ import annotations

import collections
import sys
from pathlib import Path

path, cpu = sys.argv[1], float(sys.argv[2])
# the profile_commands.py that ran (a third argument: another tree's), for the POST's line
_bench = Path(sys.argv[3]) if len(sys.argv) > 3 else Path(__file__).parent / "profile_commands.py"
_lines = _bench.read_text().splitlines()
post_line = next(i for i, line in enumerate(_lines, 1) if 'client.post(f"/v1/games/{game[\'id\']}/commands"' in line)
P = f"profile_commands.py:{post_line})"
PARTS = [
    ("decode the command", ["decode_command ("], []),
    ("load and fold (live: head read + fold of the tail; seen: the cached state)",
     ["live (service/games/service.py", "seen (service/games/service.py"], []),
    ("  of which SQL (head)", ["head (service/games/store.py"], []),
    ("decide (the title's rules)", ["decide (domain/decider.py", "decide (domain/common/table.py"], []),
    ("append: encode, fold, read model (without SQL)", ["_append (service/games/service.py"], ["append (service/games/store.py"]),
    ("SQL write (Tx.append without hash chain)", ["append (service/games/store.py"], ["link (verifier/chain.py"]),
    ("hash chain (link)", ["link (verifier/chain.py"], []),
    ("redact", ["_redacted (service/games/service.py"], []),
    ("receipt signature", ["receipt (service/audit/signing.py"], []),
    ("idempotency / unit of work (once, pool; no key)", ["once (service/games/idempotency.py"], ["work (service/games/service.py"]),
    ("after commit: fan-out enqueue (Redis)", ["appended (service/notifications/service.py"], []),
    ("after commit: streams wake, cache, timers", ["_after_commit (service/games/service.py"], ["appended (service/notifications/service.py"]),
    ("rate limits (Redis)", ["rate_limit (api/limits.py"], []),
    ("auth", ["required_player (api/auth.py"], []),
    ("body: JSON, checks, load", ["load_body (api/io.py", "json_body (api/io.py", "command_fields (api/routes"], []),
    ("response: render + JSON", ["respond (api/io.py"], []),
    ("Flask, Werkzeug, test client, observe (rest)", [P], ["post_command (api/routes/games.py", "rate_limit (api/limits.py"]),
    ("-- all JSON (json/ frames, across parts)", ["json/"], []),
    ("-- all SQL (psycopg frames, across parts)", ["psycopg/"], []),
]
tot = 0
c: collections.Counter = collections.Counter()
for line in open(path):
    stack, _, n = line.rstrip("\n").rpartition(" ")
    if P not in stack:
        continue
    n = int(n)
    tot += n
    for name, inc, exc in PARTS:
        if any(x in stack for x in inc) and not any(x in stack for x in exc):
            c[name] += n
print(f"samples {tot}, CPU per command {cpu} ms")
for name, _, _ in PARTS:
    print(f"| {name} | {c[name]/tot*100:.1f}% | {c[name]/tot*cpu:.3f} |")
