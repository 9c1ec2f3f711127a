"""Accounts: cookie sessions (sign in with a password, a mailed link or a token; sign out;
list and end sessions), sign-in links and password resets by mail, the password, and
personal access tokens with scopes. See api/auth.py for scopes and the CSRF defence."""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import Blueprint, Response, request
from marshmallow import Schema, ValidationError, fields, validate, validates_schema

from api.auth import (
    CSRF_COOKIE,
    SESSION_COOKIE,
    bearer_credential,
    check_origin,
    required_credential,
    required_player,
)
from api.io import load_body, optional_json_body, send_json
from api.problems import problem
from api.ratelimit import TooManyAttempts, throttle
from api.schemas import Strict
from api.services import services
from service.accounts import SCOPES, NewSession
from service.errors import Unauthorized

bp = Blueprint("accounts", __name__)


class SignIn(Strict):
    email = fields.Email(validate=validate.Length(max=320))
    password = fields.Str(validate=validate.Length(max=1024))
    link_token = fields.Str(validate=validate.Length(min=1, max=200))

    @validates_schema
    def one_way(self, data, **kwargs):
        if "link_token" in data and ("email" in data or "password" in data):
            raise ValidationError("send either email and password, or link_token", "body")
        if "link_token" not in data and not ("email" in data and "password" in data):
            raise ValidationError("send email and password (or link_token)", "body")


class EmailOnly(Strict):
    email = fields.Email(required=True, validate=validate.Length(max=320))


class ResetComplete(Strict):
    token = fields.Str(required=True, validate=validate.Length(min=1, max=200))
    password = fields.Str(required=True, validate=validate.Length(min=8, max=256))


class PasswordChange(Strict):
    password = fields.Str(required=True, validate=validate.Length(min=8, max=256))
    current_password = fields.Str(load_default=None, validate=validate.Length(max=1024))


class TokenCreate(Strict):
    name = fields.Str(required=True, validate=validate.Length(min=1, max=100))
    scopes = fields.List(fields.Str(validate=validate.OneOf(SCOPES)), required=True,
                         validate=validate.Length(min=1, max=len(SCOPES)))


class SessionOut(Schema):
    id = fields.Str()
    method = fields.Str()
    user_agent = fields.Str()
    created_at = fields.AwareDateTime()
    last_seen_at = fields.AwareDateTime()
    expires_at = fields.AwareDateTime()


class TokenOut(Schema):
    id = fields.Str()
    kind = fields.Str()
    name = fields.Str()
    client_id = fields.Str(allow_none=True)
    scopes = fields.List(fields.Str())
    created_at = fields.AwareDateTime()
    last_used_at = fields.AwareDateTime(allow_none=True)
    expires_at = fields.AwareDateTime(allow_none=True)


SIGN_IN = SignIn()
EMAIL_ONLY = EmailOnly()
RESET_COMPLETE = ResetComplete()
PASSWORD_CHANGE = PasswordChange()
TOKEN_CREATE = TokenCreate()
SESSION_OUT = SessionOut()
TOKEN_OUT = TokenOut()


@bp.errorhandler(TooManyAttempts)
def too_many(err: TooManyAttempts):
    response = problem(429, "rate_limited", err.detail)
    response.headers["Retry-After"] = str(err.retry_after)
    return response


def _user_agent() -> str:
    return (request.headers.get("User-Agent") or "")[:300]


def _secure() -> bool:
    return request.is_secure or urlsplit(services().settings.public_url).scheme == "https"


def _session_response(session: NewSession) -> Response:
    """201 and the cookies: the session's (HttpOnly) and its CSRF token's (readable by the page)."""
    response = send_json({"player_id": session.player_id, "session_id": session.id,
                          "expires_at": session.expires_at.isoformat(), "csrf_token": session.csrf}, 201)
    secure = _secure()
    response.set_cookie(SESSION_COOKIE, session.secret, expires=session.expires_at, path="/",
                        httponly=True, secure=secure, samesite="Lax")
    response.set_cookie(CSRF_COOKIE, session.csrf, expires=session.expires_at, path="/",
                        httponly=False, secure=secure, samesite="Strict")
    response.headers["Cache-Control"] = "no-store"
    return response


def _clear_cookies(response: Response) -> Response:
    secure = _secure()
    response.delete_cookie(SESSION_COOKIE, path="/", httponly=True, secure=secure, samesite="Lax")
    response.delete_cookie(CSRF_COOKIE, path="/", secure=secure, samesite="Strict")
    return response


# sessions -----------------------------------------------------------------------------
@bp.post("/sessions")
def create_session():
    """Sign in: {"email", "password"}, {"link_token"}, or no body with a bearer token that
    has the account scope (a browser that kept its token from before sessions)."""
    check_origin()  # no login CSRF: another site cannot sign a browser in to its account
    accounts = services().accounts
    header = request.headers.get("Authorization")
    if header is not None and optional_json_body() is None:
        throttle("signin", None)
        return _session_response(accounts.sign_in_with_token(bearer_credential(services().players, header),
                                                             _user_agent()))
    data = load_body(SIGN_IN)
    if "link_token" in data:
        throttle("signin", None)
        return _session_response(accounts.sign_in_with_link(data["link_token"], _user_agent()))
    throttle("signin", data["email"])
    return _session_response(accounts.sign_in(data["email"], data["password"], _user_agent()))


@bp.get("/sessions/current")
def current_session():
    """The signed-in session (for the web client on load): its player and CSRF token."""
    credential = required_credential()
    if credential.kind != "session":
        raise Unauthorized("no session: this request was authenticated by a bearer token")
    return send_json({"player_id": credential.player.id, "session_id": credential.id,
                      "name": credential.player.name,
                      "csrf_token": services().accounts.csrf_token(request.cookies[SESSION_COOKIE])})


@bp.delete("/sessions/current")
def sign_out():
    credential = required_credential()
    if credential.kind != "session":
        raise Unauthorized("no session to end: this request was authenticated by a bearer token")
    services().accounts.end_session(credential.player, credential.id)
    return _clear_cookies(Response(status=204))


@bp.post("/sessions/link")
def request_sign_in_link():
    check_origin()
    data = load_body(EMAIL_ONLY)
    throttle("signin", data["email"])
    services().accounts.request_link("signin", data["email"])
    return send_json({"detail": "if this address belongs to a verified account, a sign-in link is on its way"},
                     202)


@bp.post("/password-reset")
def request_password_reset():
    check_origin()
    data = load_body(EMAIL_ONLY)
    throttle("signin", data["email"])
    services().accounts.request_link("reset", data["email"])
    return send_json({"detail": "if this address belongs to a verified account, a reset link is on its way"}, 202)


@bp.post("/password-reset/complete")
def complete_password_reset():
    check_origin()
    data = load_body(RESET_COMPLETE)
    throttle("signin", None)
    return _session_response(services().accounts.reset_password(data["token"], data["password"], _user_agent()))


@bp.get("/players/me/sessions")
def list_sessions():
    credential = required_credential()
    rows = services().accounts.sessions(credential.player)
    return send_json({"sessions": [{**SESSION_OUT.dump(row), "current": credential.kind == "session"
                                    and row.id == credential.id} for row in rows]})


@bp.delete("/players/me/sessions/<session_id>")
def end_session(session_id: str):
    services().accounts.end_session(required_player(), session_id)
    return Response(status=204)


# password -----------------------------------------------------------------------------
@bp.put("/players/me/password")
def set_password():
    player = required_player()
    data = load_body(PASSWORD_CHANGE)
    services().accounts.set_password(player, data["password"], data["current_password"])
    return Response(status=204)


# personal access tokens ----------------------------------------------------------------
@bp.post("/players/me/tokens")
def create_token():
    player = required_player()
    data = load_body(TOKEN_CREATE)
    created = services().accounts.create_token(player, data["name"], data["scopes"])
    return send_json({**TOKEN_OUT.dump(created.token), "token": created.secret}, 201)


@bp.get("/players/me/tokens")
def list_tokens():
    return send_json({"tokens": TOKEN_OUT.dump(services().accounts.tokens(required_player()), many=True)})


@bp.delete("/players/me/tokens/<token_id>")
def revoke_token(token_id: str):
    services().accounts.revoke_token(required_player(), token_id)
    return Response(status=204)

