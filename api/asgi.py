"""The ASGI entry point `entrepot serve` runs: `uvicorn --factory api.asgi:create_asgi_app`
(DATABASE_URL and REDIS_URL set).

Live streams (api/live.py) are served natively async, so they take no request thread;
every other route is the Flask app, run in a pool of ENTREPOT_THREADS threads with one hop
to a thread and one back per request (api/bridge.py).
"""

from __future__ import annotations

import os
from contextlib import asynccontextmanager

from redis import asyncio as aioredis
from starlette.applications import Starlette
from starlette.middleware.errors import ServerErrorMiddleware
from starlette.routing import Route

from api import create_app
from api.bridge import FlaskBridge
from api.edge import Edge, unexpected
from api.live import GameStreams, PlayerStreams
from api.lobby_live import LobbyStreams
from api.observe import ObserveMiddleware
from service.config import Settings
from service.games.store import AsyncReader
from service.job_queue import fanouts_key, watched_queues
from service.notifications.streams import Fanout, LiveEvents
from service.observability import logs, metrics, tracing
from service.runtime.container import Services, build


def create_asgi_app(services: Services | None = None, threads: int | None = None) -> ObserveMiddleware:
    process = services is None  # the server's own (uvicorn --factory), not a test's
    if process:
        logs.configure()
        tracing.setup("entrepot-api")
    services = services or build(Settings.from_env())
    threads = threads or int(os.environ.get("ENTREPOT_THREADS", "8"))
    reader = AsyncReader(services.settings.database_url, max_size=services.settings.pool_max,
                         pgbouncer=services.settings.pgbouncer,
                         statement_timeout_ms=services.settings.statement_timeout_ms)
    fanout = Fanout(services.settings.redis_url, reader)
    redis = aioredis.from_url(services.settings.redis_url)
    streams = GameStreams(services.players, LiveEvents(reader), fanout, redis, reader,
                          message_count=services.messages.readable_count)
    player_streams = PlayerStreams(services.players, reader, fanout)
    lobby_streams = LobbyStreams(services.lobby, fanout)
    edge = Edge(services.settings, redis)  # the edge policy of every route (api/edge.py)

    @asynccontextmanager
    async def lifespan(_app):
        await reader.open()
        await fanout.start()
        try:
            yield
        finally:
            await fanout.stop()
            await redis.aclose()
            await reader.close()

    if process:
        metrics.sample_pools({"api": services.store.pool, "streams": reader.pool})
        metrics.serve_from_env(services.settings.redis_url, watched_queues(services.settings.queue_name),
                            fanouts_key(services.settings.queue_name))
    router = Starlette(
        routes=[
            # every method, so that the others get a problem+json 405 rather than a 404
            Route("/v1/games/{game_id}/stream", edge.route(streams.endpoint),
                  methods=["GET", "POST", "PUT", "PATCH", "DELETE"]),
            Route("/v1/players/me/stream", edge.route(player_streams.endpoint),
                  methods=["GET", "POST", "PUT", "PATCH", "DELETE"]),
            Route("/v1/lobby/stream", edge.route(lobby_streams.endpoint),
                  methods=["GET", "POST", "PUT", "PATCH", "DELETE"]),
        ],
        lifespan=lifespan,
        exception_handlers={Exception: unexpected},
    )
    return assemble(router, FlaskBridge(create_app(services), threads, services.settings.max_body_bytes))


def assemble(router: Starlette, bridge: FlaskBridge) -> ObserveMiddleware:
    """Request ids and the log line outermost (api/observe.py), the security headers
    (api/edge.py), then the stream routes' router or, for any other path, the Flask app.

    Only a path ending in /stream can be a stream route: every other request goes to the
    bridge behind the same last-resort 500 problem as the router's, without Starlette's
    exception middleware, router and their wrappers of ``send`` (bench/README.md, section
    21). A path ending in /stream that is no stream route reaches Flask as the router's
    default, rather than through a Mount("/"): a Mount's pattern does not match a path
    holding a newline (%0A), which then got Starlette's plain-text 404 instead of Flask's
    problem; and no redirect of a path that only differs from a stream's by a slash."""
    router.router.default = bridge
    router.router.redirect_slashes = False
    flask = ServerErrorMiddleware(bridge, handler=unexpected)

    async def streams_or_flask(scope, receive, send):
        if scope["type"] == "http" and not scope["path"].endswith("/stream"):
            return await flask(scope, receive, send)
        return await router(scope, receive, send)

    return ObserveMiddleware(Edge.around(streams_or_flask))
