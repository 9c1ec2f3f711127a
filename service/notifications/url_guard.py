"""Where a webhook may point: http(s) URLs of public addresses only (no SSRF).

A URL is checked when it is registered and again before every delivery (its name may
resolve elsewhere by then: DNS rebinding), and the delivery connects to the very address
checked, never to a second resolution. ``allow_private`` (ENTREPOT_WEBHOOK_ALLOW_PRIVATE)
lifts the address rule for tests and single-machine setups; the scheme rule stays.
"""

from __future__ import annotations

import ipaddress
import logging
import socket
from dataclasses import dataclass
from urllib.parse import urlsplit

from service.errors import WebhookUrlRefused

MAX_URL_LENGTH = 2000
log = logging.getLogger(__name__)


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


#: Never public, whatever Python's ``is_global`` says of them (192.0.0.8 was accepted).
_IPV4_NOT_PUBLIC = [ipaddress.ip_network(n) for n in (
    "0.0.0.0/8", "10.0.0.0/8", "100.64.0.0/10", "127.0.0.0/8", "169.254.0.0/16", "172.16.0.0/12",
    "192.0.0.0/24", "192.0.2.0/24", "192.31.196.0/24", "192.52.193.0/24", "192.88.99.0/24",
    "192.168.0.0/16", "192.175.48.0/24", "198.18.0.0/15", "198.51.100.0/24", "203.0.113.0/24",
    "224.0.0.0/4", "240.0.0.0/4")]
_IPV6_NOT_PUBLIC = [ipaddress.ip_network(n) for n in (
    "::/128", "::1/128", "100::/64", "2001:2::/48", "2001:10::/28", "2001:20::/28", "2001:db8::/32",
    "fc00::/7", "fe80::/10", "fec0::/10", "ff00::/8", "3fff::/20", "5f00::/16")]
#: IPv6 forms that carry an IPv4 address in their last 32 bits: IPv4-compatible (::/96),
#: IPv4-mapped (::ffff:0:0/96), IPv4-translated (::ffff:0:0:0/96), NAT64 (64:ff9b::/96,
#: 64:ff9b:1::/48); 6to4 (2002::/16) and Teredo (2001::/32) are unwrapped by ipaddress.
_EMBEDS_IPV4_LOW = [ipaddress.ip_network(n) for n in (
    "::/96", "::ffff:0:0/96", "::ffff:0:0:0/96", "64:ff9b::/96", "64:ff9b:1::/48")]


def _embedded_ipv4(ip: ipaddress.IPv6Address) -> list[ipaddress.IPv4Address]:
    """Every IPv4 address an IPv6 address wraps (a router would deliver to it)."""
    found: list[ipaddress.IPv4Address] = []
    if any(ip in net for net in _EMBEDS_IPV4_LOW):
        found.append(ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF))
    if ip.sixtofour is not None:
        found.append(ip.sixtofour)
    if ip.teredo is not None:
        found.extend(ip.teredo)  # (server, client)
    return found


def refused_address(address: str) -> str | None:
    """Why an address may not be called, or None for a public one. An IPv6 address that
    embeds an IPv4 one (mapped, compatible, 6to4, NAT64, Teredo) is judged by it as well."""
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    candidates: list[ipaddress.IPv4Address | ipaddress.IPv6Address] = [ip]
    if isinstance(ip, ipaddress.IPv6Address):
        candidates += _embedded_ipv4(ip)
    for candidate in candidates:
        reason = _refused(candidate)
        if reason is not None:
            return reason
    return None


def _refused(ip: ipaddress.IPv4Address | ipaddress.IPv6Address) -> str | None:
    table = _IPV4_NOT_PUBLIC if isinstance(ip, ipaddress.IPv4Address) else _IPV6_NOT_PUBLIC
    if any(ip in net for net in table):
        return "reserved"
    for reason, flag in (("loopback", ip.is_loopback), ("private", ip.is_private),
                         ("link-local", ip.is_link_local), ("multicast", ip.is_multicast),
                         ("reserved", ip.is_reserved), ("unspecified", ip.is_unspecified),
                         ("site-local", getattr(ip, "is_site_local", False))):
        if flag:
            return reason
    if not ip.is_global:
        return "not public"
    return None


def _not_public(host: str) -> WebhookUrlRefused:
    """One answer for a name that does not resolve and one that resolves to an address
    not allowed: the refusal must not tell how internal names resolve (what a prober of
    the server's network would learn from "resolves to a private address (10.1.2.3)")."""
    return WebhookUrlRefused(f"the host {host} is not a public address this server may call:"
                             " webhooks call public addresses only")


def resolve(url: str, allow_private: bool) -> Target:
    """The URL's target with an address it may call; WebhookUrlRefused otherwise. Every
    address the name resolves to must be allowed (a name that resolves to a public and a
    private address is refused: the client would pick either)."""
    scheme, host, port, path = parse(url)
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError, OSError):
        raise _not_public(host) from None
    addresses = sorted({info[4][0] for info in infos})
    if not addresses:
        raise _not_public(host)
    if not allow_private:
        for address in addresses:
            reason = refused_address(address)
            if reason is not None:
                log.info("webhook host %s refused: %s resolves to a %s address", host, address, reason)
                raise _not_public(host)
    return Target(scheme, host, port, path, addresses[0])
