"""A kept-alive connection answers as fast as a fresh one under `entrepot serve`.

Not timed against a figure: both ways are measured in the same test, interleaved, so a
loaded machine slows both alike. Before api/tcp.py every request after the first on a
connection waited for the client's delayed ACK (Nagle on the response's second write,
at least 40 ms on Linux), while a fresh connection answered in a few ms.
"""

from __future__ import annotations

import http.client
import statistics
import time
from urllib.parse import urlsplit

#: well under Linux's 40 ms minimum delayed ACK, well over the noise between medians
TOLERANCE = 0.010
#: a static file of the web client: the cheapest route (no database, no Redis but the
#: rate limit), so the medians are the connection's cost, not a backing service's noise
PATH = "/web/index.html"


def _timed(conn: http.client.HTTPConnection, path: str) -> float:
    t0 = time.perf_counter()
    conn.request("GET", path)
    response = conn.getresponse()
    body = response.read()
    elapsed = time.perf_counter() - t0
    assert response.status == 200, body
    return elapsed


def test_a_kept_alive_connection_is_not_slower_than_fresh_ones(server):
    """`server` runs serve's default process model (several uvicorn workers on one socket)."""
    host, port = urlsplit(server).hostname, urlsplit(server).port
    kept = http.client.HTTPConnection(host, port, timeout=10)
    _timed(kept, PATH)  # the connection's first request is a fresh one
    kept_alive, fresh = [], []
    for _ in range(20):
        kept_alive.append(_timed(kept, PATH))
        conn = http.client.HTTPConnection(host, port, timeout=10)
        try:
            fresh.append(_timed(conn, PATH))
        finally:
            conn.close()
    kept.close()
    kept_median, fresh_median = statistics.median(kept_alive), statistics.median(fresh)
    assert kept_median <= fresh_median + TOLERANCE, (
        f"kept-alive median {kept_median * 1000:.1f} ms, fresh median {fresh_median * 1000:.1f} ms")
