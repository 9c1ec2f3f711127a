"""Where a webhook may point: http(s) URLs of public addresses only (no SSRF).

A URL is checked when it is registered and again before every delivery (its name may
resolve elsewhere by then: DNS rebinding), and the delivery connects to the very address
checked, never to a second resolution. ``allow_private`` (ENTREPOT_WEBHOOK_ALLOW_PRIVATE)
lifts the address rule for tests and single-machine setups; the scheme rule stays.
"""

from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass
from urllib.parse import urlsplit

from service.errors import WebhookUrlRefused

MAX_URL_LENGTH = 2000


@dataclass(frozen=True)
class Target:
    scheme: str
    host: str  # as written in the URL (the TLS name and the Host header)
    port: int
    path: str  # path and query
    address: str  # the checked address to connect to


def parse(url: str) -> tuple[str, str, int, str]:
    """(scheme, host, port, path) of an http(s) URL, or WebhookUrlRefused."""
    if len(url) > MAX_URL_LENGTH:
        raise WebhookUrlRefused(f"a webhook URL has at most {MAX_URL_LENGTH} characters")
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as err:
        raise WebhookUrlRefused(f"this is not a URL: {err}") from None
    if parts.scheme not in ("http", "https"):
        raise WebhookUrlRefused("a webhook URL must be http:// or https://")
    if not parts.hostname:
        raise WebhookUrlRefused("a webhook URL must name a host")
    if parts.username or parts.password:
        raise WebhookUrlRefused("a webhook URL may not carry a user or password")
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return parts.scheme, parts.hostname, port or (443 if parts.scheme == "https" else 80), path


def refused_address(address: str) -> str | None:
    """Why an address may not be called, or None for a public one."""
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    for reason, flag in (("loopback", ip.is_loopback), ("private", ip.is_private),
                         ("link-local", ip.is_link_local), ("multicast", ip.is_multicast),
                         ("reserved", ip.is_reserved), ("unspecified", ip.is_unspecified)):
        if flag:
            return reason
    if not ip.is_global:
        return "not public"
    return None


def resolve(url: str, allow_private: bool) -> Target:
    """The URL's target with an address it may call; WebhookUrlRefused otherwise. Every
    address the name resolves to must be allowed (a name that resolves to a public and a
    private address is refused: the client would pick either)."""
    scheme, host, port, path = parse(url)
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as err:
        raise WebhookUrlRefused(f"the host {host} does not resolve ({err})") from None
    addresses = sorted({info[4][0] for info in infos})
    if not addresses:
        raise WebhookUrlRefused(f"the host {host} does not resolve")
    if not allow_private:
        for address in addresses:
            reason = refused_address(address)
            if reason is not None:
                raise WebhookUrlRefused(
                    f"the host {host} resolves to a {reason} address ({address}): webhooks call public addresses only")
    return Target(scheme, host, port, path, addresses[0])
