"""OAuth 2.0 for third-party apps, with Authlib's Flask authorization server: the
authorization code grant (RFC 6749 4.1) with PKCE S256 required (RFC 7636), token
revocation (RFC 7009) and server metadata (RFC 8414).

As lichess does it, there is no client registration: every client is public (no secret,
token endpoint auth method "none"), its client id is whatever it says, and the consent
page shows that id and the redirect URI's host to the player, who decides. Redirect URIs
must be https, or http on a loopback address (native apps, RFC 8252 7.3). Codes live two
minutes and are claimed at their first use (a second use finds nothing); codes and access
tokens are stored as SHA-256 hashes (service/accounts/). Access tokens are bearer tokens
of the same table as personal access tokens, limited to the scopes granted, and listed
on the player's tokens page, where they can be revoked too.
"""

from __future__ import annotations

import html
import ipaddress
from urllib.parse import urlencode, urlsplit

from authlib.integrations.flask_oauth2 import AuthorizationServer
from authlib.oauth2.rfc6749 import ClientMixin, OAuth2Error, grants
from authlib.oauth2.rfc6749.errors import InvalidRequestError, InvalidScopeError
from authlib.oauth2.rfc6749.models import AuthorizationCodeMixin, TokenMixin
from authlib.oauth2.rfc7009 import RevocationEndpoint
from authlib.oauth2.rfc7636 import CodeChallenge
from authlib.oauth2.rfc8414 import AuthorizationServerMetadata
from flask import Blueprint, Flask, Response, current_app, redirect, request

from api.auth import SESSION_COOKIE, check_origin, cookie_credential
from api.io import send_json
from api.services import services
from service.accounts import SCOPES, CsrfRefused
from service.entropy import new_token

bp = Blueprint("oauth", __name__)

SCOPE_WORDS = {
    "read": "see your games, their positions and your profile",
    "play": "play for you: create and join games, make moves, write messages, take a vacation",
    "notifications": "manage your webhooks and follow your notifications",
    "account": "manage your account: tokens, sessions, address and password",
}
TOKEN_TTL_SECONDS = 365 * 24 * 3600
_LOOPBACK_NAMES = {"localhost"}


def redirect_uri_allowed(uri: str) -> bool:
    """https, or http on loopback; no fragment (RFC 6749 3.1.2)."""
    try:
        parts = urlsplit(uri)
    except ValueError:
        return False
    if parts.fragment or not parts.hostname:
        return False
    if parts.scheme == "https":
        return True
    if parts.scheme != "http":
        return False
    if parts.hostname in _LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(parts.hostname).is_loopback
    except ValueError:
        return False


class PublicClient(ClientMixin):
    """Any client id: public, PKCE, authorization code only."""

    def __init__(self, client_id: str):
        self.client_id = client_id

    def get_client_id(self):
        return self.client_id

    def get_default_redirect_uri(self):
        return None  # the request must name one

    def get_allowed_scope(self, scope):
        return " ".join(s for s in SCOPES if s in (scope or "").split())

    def check_redirect_uri(self, redirect_uri):
        return redirect_uri_allowed(redirect_uri)

    def check_client_secret(self, client_secret):
        return False

    def check_endpoint_auth_method(self, method, endpoint):
        return method == "none"

    def check_response_type(self, response_type):
        return response_type == "code"

    def check_grant_type(self, grant_type):
        return grant_type == "authorization_code"


def query_client(client_id: str | None):
    if not client_id or len(client_id) > 200 or not client_id.isprintable():
        return None
    return PublicClient(client_id)


class Code(AuthorizationCodeMixin):
    def __init__(self, row: dict):
        self.row = row
        self.code_challenge = row["code_challenge"]
        self.code_challenge_method = row["code_challenge_method"]

    def get_redirect_uri(self):
        return self.row["redirect_uri"]

    def get_scope(self):
        return " ".join(self.row["scopes"])


class IssuedToken(TokenMixin):
    def __init__(self, row: dict):
        self.row = row

    def check_client(self, client):
        return client.get_client_id() == self.row["client_id"]

    def get_scope(self):
        return " ".join(self.row["scopes"])

    def get_expires_in(self):
        return TOKEN_TTL_SECONDS

    def is_expired(self):
        return False

    def is_revoked(self):
        return self.row["revoked_at"] is not None

    def get_user(self):
        return self.row["player_id"]

    def get_client(self):
        return PublicClient(self.row["client_id"])


class CodeGrant(grants.AuthorizationCodeGrant):
    TOKEN_ENDPOINT_AUTH_METHODS = ["none"]

    def save_authorization_code(self, code, request):
        data = request.payload.data
        services().accounts.save_code(code, request.client.get_client_id(), request.user.id,
                                      request.payload.redirect_uri, request.scope.split(),
                                      data.get("code_challenge"), data.get("code_challenge_method"))

    def query_authorization_code(self, code, client):
        # claimed here, at its first presentation: single use even under concurrent requests
        row = services().accounts.claim_code(code, client.get_client_id())
        return Code(row) if row else None

    def delete_authorization_code(self, authorization_code):
        pass  # claimed by query_authorization_code

    def authenticate_user(self, authorization_code):
        return services().players.get(authorization_code.row["player_id"])


class S256Only(CodeChallenge):
    SUPPORTED_CODE_CHALLENGE_METHOD = ["S256"]


class Revocation(RevocationEndpoint):
    CLIENT_AUTH_METHODS = ["none"]

    def query_token(self, token_string, token_type_hint):
        row = services().accounts.oauth_token(token_string)
        return IssuedToken(row) if row else None

    def revoke_token(self, token, request):
        services().accounts.revoke_oauth_token(token.row["id"])


def _save_token(token: dict, request) -> None:
    services().accounts.issue_oauth_token(request.user.id, request.client.get_client_id(),
                                          token["scope"].split(), token["access_token"])


def install(app: Flask) -> None:
    server = AuthorizationServer()
    server.init_app(app, query_client=query_client, save_token=_save_token)
    server.load_config({
        "OAUTH2_ACCESS_TOKEN_GENERATOR": lambda *args, **kwargs: new_token(),
        "OAUTH2_TOKEN_EXPIRES_IN": {"authorization_code": TOKEN_TTL_SECONDS},
        "OAUTH2_SCOPES_SUPPORTED": list(SCOPES),
    })
    server.register_grant(CodeGrant, [S256Only(required=True)])
    server.register_endpoint(Revocation)
    app.extensions["entrepot.oauth"] = server
    app.register_blueprint(bp)


def _server() -> AuthorizationServer:
    return current_app.extensions["entrepot.oauth"]


def _issuer() -> str:
    public = services().settings.public_url
    return public if urlsplit(public).netloc == request.host else request.host_url.rstrip("/")


@bp.get("/.well-known/oauth-authorization-server")
def metadata():
    issuer = _issuer()
    body = AuthorizationServerMetadata({
        "issuer": issuer,
        "authorization_endpoint": f"{issuer}/oauth/authorize",
        "token_endpoint": f"{issuer}/oauth/token",
        "revocation_endpoint": f"{issuer}/oauth/revoke",
        "scopes_supported": list(SCOPES),
        "response_types_supported": ["code"],
        "response_modes_supported": ["query"],
        "grant_types_supported": ["authorization_code"],
        "token_endpoint_auth_methods_supported": ["none"],
        "revocation_endpoint_auth_methods_supported": ["none"],
        "code_challenge_methods_supported": ["S256"],
        "service_documentation": f"{issuer}/v1/openapi.yaml",
    })
    return send_json(body)


def _page(title: str, body: str, status: int = 200) -> Response:
    page = (f"<!doctype html><html lang='en'><head><meta charset='utf-8'><title>{html.escape(title)}</title>"
            "<meta name='viewport' content='width=device-width, initial-scale=1'>"
            "<link rel='stylesheet' href='/web/style.css'></head>"
            f"<body><main><h1>{html.escape(title)}</h1>{body}</main></body></html>")
    response = Response(page, status=status, mimetype="text/html")
    # the consent page must not be framed (clickjacking) nor cached
    response.headers["X-Frame-Options"] = "DENY"
    response.headers["Content-Security-Policy"] = "frame-ancestors 'none'"
    response.headers["Cache-Control"] = "no-store"
    # the decision form posts back here: under the site-wide "no-referrer" a browser sends
    # "Origin: null" with it, which check_origin() refuses; same-origin keeps the Origin
    response.headers["Referrer-Policy"] = "same-origin"
    return response


def _refusal(error: OAuth2Error) -> Response:
    """An invalid request: back to the client when its redirect URI is known good, else a page."""
    if error.redirect_uri:
        params = {"error": error.error}
        if error.description:
            params["error_description"] = error.description
        if error.state:
            params["state"] = error.state
        separator = "&" if "?" in error.redirect_uri else "?"
        return redirect(f"{error.redirect_uri}{separator}{urlencode(params)}", 302)
    return _page("This sign-in request is not valid",
                 f"<p>{html.escape(error.error)}: {html.escape(error.description or '')}</p>", 400)


def _pkce_problem() -> str | None:
    if not request.values.get("code_challenge"):
        return "the request has no code_challenge: PKCE (RFC 7636) with S256 is required"
    if request.values.get("code_challenge_method") != "S256":
        return "code_challenge_method must be S256"
    return None


@bp.route("/oauth/authorize", methods=["GET", "POST"])
def authorize():
    credential = cookie_credential()
    if credential is None:
        if request.method == "POST":
            return _page("Sign in first", "<p>Your session has ended: sign in and try again.</p>", 401)
        back = request.full_path
        return _page("Sign in to Entrepot first", (
            "<p>An application asks to use your Entrepot account. Sign in first; you will come back here"
            " to decide.</p>"
            f"<p><a href='/?{html.escape(urlencode({'next': back}))}#/'>Sign in</a></p>"))
    server = _server()
    try:
        grant = server.get_consent_grant(end_user=credential.player)
    except OAuth2Error as error:
        return _refusal(error)
    pkce = _pkce_problem()
    if pkce is not None:
        return _refusal(InvalidRequestError(pkce, redirect_uri=grant.redirect_uri,
                                                        state=request.values.get("state")))
    if not grant.request.scope:
        return _refusal(InvalidScopeError("ask for at least one of: " + " ".join(SCOPES),
                                                      redirect_uri=grant.redirect_uri,
                                                      state=request.values.get("state")))
    client_id = grant.client.get_client_id()
    scopes = grant.request.scope.split()
    if request.method == "GET":
        csrf = services().accounts.csrf_token(request.cookies[SESSION_COOKIE])
        host = urlsplit(grant.redirect_uri).netloc
        items = "".join(f"<li><strong>{html.escape(s)}</strong>: {html.escape(SCOPE_WORDS[s])}</li>" for s in scopes)
        return _page("Allow this application?", (
            f"<p>The application <strong id='client-id'>{html.escape(client_id)}</strong> asks to use your"
            f" Entrepot account, {html.escape(credential.player.name)}. It is not registered with Entrepot:"
            " this name is only what it calls itself.</p>"
            f"<p>It will be sent back to <strong id='redirect-host'>{html.escape(host)}</strong> and may:</p>"
            f"<ul id='scopes'>{items}</ul>"
            f"<form method='post' action='{html.escape(request.full_path)}'>"
            f"<input type='hidden' name='csrf_token' value='{html.escape(csrf)}'>"
            "<button type='submit' name='decision' value='allow' class='primary'>Allow</button> "
            "<button type='submit' name='decision' value='deny'>Deny</button></form>"
            "<p>You can revoke its access any time on your tokens page.</p>"))
    # POST: the decision, from our own page only (Origin check and the session's CSRF token)
    try:
        check_origin()
        if not services().accounts.csrf_matches(request.cookies[SESSION_COOKIE], request.form.get("csrf_token")):
            raise CsrfRefused("the form's CSRF token does not match this session")
    except CsrfRefused as refused:
        return _page("Refused", f"<p>{html.escape(refused.detail)}</p>", 403)
    allowed = request.form.get("decision") == "allow"
    return server.create_authorization_response(grant_user=credential.player if allowed else None, grant=grant)


@bp.post("/oauth/token")
def issue_token():
    return _server().create_token_response()


@bp.post("/oauth/revoke")
def revoke_token():
    return _server().create_endpoint_response(Revocation.ENDPOINT_NAME)


__all__ = ["install", "redirect_uri_allowed"]
