"""A real HTTP receiver of webhooks (http.server in a thread) that verifies every delivery's
signature with the Standard Webhooks library, as a receiver in the wild would."""

from __future__ import annotations

import json
import ssl
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from standardwebhooks.webhooks import Webhook, WebhookVerificationError


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: dict
    verified: bool
    at: float


class Receiver:
    """Answers each POST with ``answer(path, webhook_id, nth)`` -> (status, delay seconds)."""

    def __init__(self, tls: ssl.SSLContext | None = None, host: str = "127.0.0.1"):
        self.received: list[Received] = []
        self.secrets: dict[str, str] = {}  # path -> the webhook's secret
        self.answer: Callable[[str, str, int], tuple[int, float]] = lambda path, msg_id, nth: (200, 0.0)
        self._lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                raw = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                headers = {k.lower(): v for k, v in self.headers.items()}
                secret = receiver.secrets.get(self.path)
                try:
                    body = Webhook(secret).verify(raw, headers) if secret else json.loads(raw)
                    verified = secret is not None
                except WebhookVerificationError:
                    body, verified = json.loads(raw), False
                with receiver._lock:
                    nth = sum(1 for r in receiver.received if r.headers.get("webhook-id") == headers.get("webhook-id"))
                    receiver.received.append(Received(self.path, headers, body, verified, time.time()))
                status, delay = receiver.answer(self.path, headers.get("webhook-id", ""), nth)
                if delay:
                    time.sleep(delay)
                self.send_response(status)
                self.send_header("Content-Length", "2")
                self.end_headers()
                self.wfile.write(b"ok")

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer((host, 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://{host}:{self.server.server_port}"
        if tls is not None:  # https, under the name its certificate carries
            self.server.socket = tls.wrap_socket(self.server.socket, server_side=True)
            self.url = f"https://localhost:{self.server.server_port}"
        self._thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def start(self) -> Receiver:
        self._thread.start()
        return self

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    def at(self, path: str) -> list[Received]:
        with self._lock:
            return [r for r in self.received if r.path == path]
