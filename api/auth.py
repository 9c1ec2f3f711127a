"""Who is calling: a bearer token (personal access token or OAuth token, with scopes) or
the web client's session cookie. Reads without either are the spectator's.

Scopes are decided here, from the route, for every route at once (``needed_scope``): a
route that identifies its caller gets 403 ``missing_scope`` when the token lacks it.

CSRF: a request authenticated by the session cookie that may change anything (any method
but GET/HEAD/OPTIONS) must pass both defences: its ``Origin`` (when sent) is the server's
own and ``Sec-Fetch-Site`` (when sent) is not cross-site, and it carries the session's
CSRF token in the ``X-CSRF-Token`` header (an HMAC of the session, readable by the page
from the ``entrepot_csrf`` cookie, which other sites can neither read nor set in a
SameSite=Lax, host-only jar). Bearer requests need neither: browsers never add them.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import request

from api.limits import EPOCH
from api.observe import note_player
from api.services import services
from service.accounts import ALL_SCOPES, Credential, CsrfRefused, MissingScope
from service.accounts.players import PlayerService
from service.errors import Unauthorized
from service.games.store import Player

_KEY = "entrepot.credential"
SESSION_COOKIE = "entrepot_session"
CSRF_COOKIE = "entrepot_csrf"
CSRF_HEADER = "X-CSRF-Token"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})

#: path prefixes (under /v1/players/me) and the scope they need, whatever the method
_ACCOUNT_PATHS = ("/v1/players/me/tokens", "/v1/players/me/sessions", "/v1/players/me/password",
                  "/v1/players/me/email")
_NOTIFICATION_PATHS = ("/v1/players/me/webhooks", "/v1/players/me/stream", "/v1/players/me/notifications")


def needed_scope(method: str, path: str) -> str:
    """The scope a bearer token needs for this request: ``account`` for the account's
    tokens, sessions, password, address (and PATCH /v1/players/me, which changes the
    address), ``notifications`` for webhooks and the player's stream, ``read`` for every
    other read, ``play`` for every other change (games, seats, commands, messages, notes,
    vacation)."""
    if path.startswith(_ACCOUNT_PATHS) or (path == "/v1/players/me" and method not in SAFE_METHODS):
        return "account"
    if path.startswith(_NOTIFICATION_PATHS):
        return "notifications"
    return "read" if method in SAFE_METHODS else "play"


def require_scope(credential: Credential, scope: str) -> None:
    if scope not in credential.scopes:
        raise MissingScope(f"this token lacks the {scope!r} scope this request needs"
                           f" (it has: {', '.join(sorted(credential.scopes)) or 'none'})")


def optional_credential() -> Credential | None:
    # kept on the request itself: an app context (and its g) can outlive a request
    if _KEY in request.environ:
        return request.environ[_KEY]
    header = request.headers.get("Authorization")
    if header is not None:
        # the credential epoch the rate limits read (api/limits.py): absent, the token is
        # looked up in PostgreSQL
        credential = bearer_credential(services().players, header, request.environ.get(EPOCH))
        require_scope(credential, needed_scope(request.method, request.path))
    else:
        credential = cookie_credential()
        if credential is not None and request.method not in SAFE_METHODS:
            check_csrf(request.cookies[SESSION_COOKIE])
    request.environ[_KEY] = credential
    return credential


def cookie_credential() -> Credential | None:
    """The session the cookie names; an unknown, ended or expired one is no one."""
    secret = request.cookies.get(SESSION_COOKIE)
    accounts = services().accounts
    if not secret or accounts is None:
        return None
    return accounts.session_credential(secret)


def own_origins() -> set[str]:
    public = urlsplit(services().settings.public_url)
    return {f"{request.scheme}://{request.host}", f"{public.scheme}://{public.netloc}"}


def check_origin() -> None:
    """Refuse a browser request sent by another site (Origin, Fetch Metadata)."""
    origin = request.headers.get("Origin")
    if origin is not None and origin not in own_origins():
        raise CsrfRefused(f"requests from {origin} may not use this site's session")
    if request.headers.get("Sec-Fetch-Site") == "cross-site":
        raise CsrfRefused("cross-site requests may not use this site's session")


def check_csrf(session_secret: str) -> None:
    check_origin()
    if not services().accounts.csrf_matches(session_secret, request.headers.get(CSRF_HEADER)):
        raise CsrfRefused(f"a change made with the session cookie needs the {CSRF_HEADER} header"
                          f" (the value of the {CSRF_COOKIE} cookie)")


def optional_player() -> Player | None:
    credential = optional_credential()
    return credential.player if credential is not None else None


def bearer_credential(players: PlayerService, header: str, epoch: bytes | None = None) -> Credential:
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise Unauthorized("use Authorization: Bearer <token>")
    credential = players.credential(token.strip(), epoch)
    note_player(credential.player.id)
    return credential


def bearer_player(players: PlayerService, header: str | None, scope: str | None = None) -> Player | None:
    """The player an Authorization header names; None without one. ``scope``: the one the
    token must have."""
    if header is None:
        return None
    credential = bearer_credential(players, header)
    if scope is not None:
        require_scope(credential, scope)
    return credential.player


def stream_player(players: PlayerService, header: str | None, session_secret: str | None,
                  scope: str) -> Player | None:
    """The caller of a live stream (a GET): a bearer token with ``scope``, else the session
    cookie, else None."""
    if header is not None:
        return bearer_player(players, header, scope)
    if session_secret and players.credentials is not None:
        credential = players.credentials.session_credential(session_secret)
        return credential.player if credential is not None else None
    return None


def required_credential() -> Credential:
    credential = optional_credential()
    if credential is None:
        raise Unauthorized("this request needs Authorization: Bearer <token> or a signed-in session")
    return credential


def required_player() -> Player:
    return required_credential().player


__all__ = ["ALL_SCOPES", "CSRF_COOKIE", "CSRF_HEADER", "SESSION_COOKIE", "bearer_player", "needed_scope",
           "optional_player", "required_player", "stream_player"]
