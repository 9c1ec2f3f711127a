"""The HTTP protocol `entrepot serve` gives uvicorn: uvicorn's own, with TCP_NODELAY set on
every accepted connection.

Why: uvicorn writes a response's head and its body in two socket writes. Without
TCP_NODELAY, Nagle's algorithm holds the second write until the first is acknowledged,
and on a kept-alive connection the client delays that ACK (about 40 ms on Linux): every
request after the first on a connection took ~44 ms. asyncio sets TCP_NODELAY itself only
on sockets whose ``proto`` is IPPROTO_TCP; uvicorn's multi-process mode (``--workers`` > 1,
the default here) binds the shared socket with ``socket.socket(family)``, proto 0, so the
connections it accepts kept Nagle on (one worker binds through ``loop.create_server``, which
sets it). Setting it per connection holds under every process model and bind.
"""

from __future__ import annotations

import asyncio
import socket

from uvicorn.protocols.http.auto import AutoHTTPProtocol


def set_nodelay(transport: asyncio.BaseTransport) -> None:
    sock = transport.get_extra_info("socket")
    if sock is not None and sock.family in (socket.AF_INET, socket.AF_INET6):
        try:
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        except OSError:  # the peer is already gone
            pass


class NoDelayHTTPProtocol(AutoHTTPProtocol):  # type: ignore[misc, valid-type]
    def connection_made(self, transport):  # type: ignore[override]
        set_nodelay(transport)
        super().connection_made(transport)
