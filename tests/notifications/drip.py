"""A hostile webhook receiver over a real socket: it reads the request, then answers one
byte at a time (a status line, then a header that never ends), or never answers at all.
urllib3's ``Timeout(total=...)`` bounds each read, not their sum: such a receiver held a
delivery, and every job queued behind it, for minutes (issue 26, item 1)."""

from __future__ import annotations

import socket
import threading
import time


class DripReceiver:
    def __init__(self, every: float = 0.1, for_seconds: float = 60.0, silent: bool = False):
        self.every, self.for_seconds, self.silent = every, for_seconds, silent
        self.server = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.server.getsockname()[1]}"
        #: (opened, closed) monotonic times of each connection
        self.connections: list[tuple[float, float | None]] = []
        self._stop = threading.Event()
        self._lock = threading.Lock()

    def start(self) -> DripReceiver:
        threading.Thread(target=self._accept, daemon=True).start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self.server.close()

    def _accept(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = self.server.accept()
            except OSError:
                return
            threading.Thread(target=self._drip, args=(conn,), daemon=True).start()

    def _drip(self, conn: socket.socket) -> None:
        with self._lock:
            index = len(self.connections)
            self.connections.append((time.monotonic(), None))
        try:
            conn.settimeout(1.0)
            try:
                conn.recv(65536)
            except OSError:
                pass
            until = time.monotonic() + self.for_seconds
            payload = b"" if self.silent else b"HTTP/1.1 200 OK\r\nX-Drip: " + b"a" * 100_000
            sent = 0
            while time.monotonic() < until and not self._stop.is_set():
                if sent < len(payload):
                    conn.sendall(payload[sent:sent + 1])
                    sent += 1
                time.sleep(self.every)
        except OSError:
            pass  # the sender hung up: what a deadline does
        finally:
            with self._lock:
                self.connections[index] = (self.connections[index][0], time.monotonic())
            conn.close()
