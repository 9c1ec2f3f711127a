"""The floor of the stack: the smallest ASGI app, run by bench/http_games.py under the same
uvicorn command as `entrepot serve` (service.runtime.cli.uvicorn_command), so that Entrepot's
figures are read against the fastest any Python web stack here can answer.

Every request gets 200 and the same small JSON body as GET /v1/health's shape.
"""

from __future__ import annotations

BODY = b'{"status": "ok"}'
HEAD = {
    "type": "http.response.start",
    "status": 200,
    "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(BODY)).encode())],
}


async def app(scope, receive, send):
    if scope["type"] == "lifespan":
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                await send({"type": "lifespan.shutdown.complete"})
                return
    while True:  # drain the request body
        message = await receive()
        if not message.get("more_body"):
            break
    await send(HEAD)
    await send({"type": "http.response.body", "body": BODY})


def create_app():
    return app
