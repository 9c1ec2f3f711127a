"""Outbound mail: an SMTP server (ENTREPOT_SMTP_URL) with smtplib, or else a folder of
.eml files under the data directory (the log says so once).

URLs: ``smtp://user:pass@host:port`` (plain; ``?starttls=1`` upgrades), ``smtp+starttls://``
(STARTTLS), ``smtps://`` (implicit TLS). Auth when a user is given.
"""

from __future__ import annotations

import logging
import smtplib
import ssl
import threading
import uuid
from dataclasses import dataclass
from email.message import EmailMessage
from pathlib import Path
from typing import Protocol
from urllib.parse import parse_qs, unquote, urlsplit

log = logging.getLogger(__name__)

SMTP_TIMEOUT_SECONDS = 30.0


class Transport(Protocol):
    def send(self, message: EmailMessage) -> None: ...


@dataclass(frozen=True)
class SmtpServer:
    host: str
    port: int
    tls: str  # "none" | "starttls" | "implicit"
    user: str | None
    password: str | None


def parse_smtp_url(url: str) -> SmtpServer:
    parts = urlsplit(url)
    query = parse_qs(parts.query)
    if parts.scheme == "smtps":
        tls, default_port = "implicit", 465
    elif parts.scheme == "smtp+starttls" or query.get("starttls", ["0"])[0] in ("1", "true", "yes"):
        tls, default_port = "starttls", 587
    elif parts.scheme == "smtp":
        tls, default_port = "none", 25
    else:
        raise ValueError(f"ENTREPOT_SMTP_URL: unknown scheme {parts.scheme!r} (smtp, smtp+starttls, smtps)")
    if not parts.hostname:
        raise ValueError("ENTREPOT_SMTP_URL names no host")
    return SmtpServer(parts.hostname, parts.port or default_port, tls,
                      unquote(parts.username) if parts.username else None,
                      unquote(parts.password) if parts.password else None)


class SmtpTransport:
    """One connection per mail: mails are few per player, and a fresh connection never
    inherits a broken one's state."""

    def __init__(self, url: str):
        self.server = parse_smtp_url(url)

    def send(self, message: EmailMessage) -> None:
        server = self.server
        context = ssl.create_default_context()
        if server.tls == "implicit":
            client: smtplib.SMTP = smtplib.SMTP_SSL(server.host, server.port, timeout=SMTP_TIMEOUT_SECONDS,
                                                    context=context)
        else:
            client = smtplib.SMTP(server.host, server.port, timeout=SMTP_TIMEOUT_SECONDS)
        with client:
            if server.tls == "starttls":
                client.starttls(context=context)
            if server.user:
                client.login(server.user, server.password or "")
            client.send_message(message)


class FolderTransport:
    """Each mail as ``<time>-<id>.eml`` in a folder: what a server without SMTP sends."""

    _announced = False
    _lock = threading.Lock()

    def __init__(self, folder: Path):
        self.folder = folder

    def send(self, message: EmailMessage) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        with FolderTransport._lock:
            if not FolderTransport._announced:
                log.warning("no ENTREPOT_SMTP_URL: mails are written to %s", self.folder)
                FolderTransport._announced = True
        name = self.folder / f"{uuid.uuid1().hex}.eml"
        partial = name.with_suffix(".part")
        partial.write_bytes(message.as_bytes())  # its own policy (service/mail/compose.py)
        partial.rename(name)  # a reader never sees half a mail


def transport_for(smtp_url: str | None, folder: Path) -> Transport:
    return SmtpTransport(smtp_url) if smtp_url else FolderTransport(folder)
