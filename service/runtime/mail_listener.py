"""The built-in inbound SMTP listener (aiosmtpd): each message received is handled at once
by the same code as ``entrepot mail-in`` (service/mail/inbound.py), in a thread so the
listener's event loop keeps accepting. Handled directly rather than queued: the sender's
SMTP client learns the outcome (250 handled, even when refused with an answer mail; 554
for what is no message or is refused for good: over a bound of service/mail/guard.py, or
one the parser chokes on; 451 to retry only when the database or Redis is down). A
transaction is bounded before DATA: at most MAX_RECIPIENTS recipients (452, RFC 5321),
and SIZE = MAX_MESSAGE_BYTES (552 past it).

``python -m service.runtime.mail_listener --port N`` is what ``entrepot serve --smtp-in-port N``
starts as a child process.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import signal
import threading

from aiosmtpd.controller import Controller

from service.config import Settings
from service.mail.guard import MAX_MESSAGE_BYTES, MAX_RECIPIENTS
from service.mail.inbound import Inbound, Unparseable, transient
from service.runtime.container import build

log = logging.getLogger(__name__)


class InboundHandler:
    def __init__(self, inbound: Inbound):
        self.inbound = inbound

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options) -> str:
        if len(envelope.rcpt_tos) >= MAX_RECIPIENTS:
            return "452 4.5.3 Too many recipients"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope) -> str:
        raw = envelope.original_content or envelope.content
        if isinstance(raw, str):
            raw = raw.encode("utf-8", "surrogateescape")
        loop = asyncio.get_running_loop()
        try:
            outcome = await loop.run_in_executor(None, self.inbound.handle, raw, list(envelope.rcpt_tos))
        except Unparseable as err:
            return f"554 5.6.0 {err}"
        except Exception as err:
            log.exception("inbound mail failed")
            if transient(err):
                return "451 4.3.0 try again later"
            return "554 5.6.0 this message cannot be handled"  # a poison message: not retried
        return f"250 2.0.0 {outcome.reason}"


def listener(inbound: Inbound, host: str, port: int) -> Controller:
    """A started-on-demand controller: ``.start()``, ``.stop()``."""
    return Controller(InboundHandler(inbound), hostname=host, port=port, data_size_limit=MAX_MESSAGE_BYTES)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m service.runtime.mail_listener")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    services = build(Settings.from_env())
    controller = listener(Inbound(services.mailer), args.host, args.port)
    controller.start()
    log.info("inbound SMTP listener on %s:%s", args.host, args.port)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    stop.wait()
    controller.stop()
    services.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
