"""Mail links: address verification and one-click unsubscribe (RFC 8058).

The GET pages only show a button: mail scanners follow links, and a GET must not change
anything. The POSTs need no bearer token: the signed token in the path is the proof.
"""

from __future__ import annotations

import html

from flask import Blueprint, Response, request

from api.auth import required_player
from api.io import load_body, send
from api.schemas import EmailVerification, MeOut
from api.services import services
from service.errors import InvalidToken, ServiceError, TokenExpired, TokenUsed

bp = Blueprint("mail", __name__)

ME_OUT = MeOut()
EMAIL_VERIFICATION = EmailVerification()

_UNSUBSCRIBE_KINDS = {"your_turn": "“your turn” mails", "reminder": "reminders", "finished": "game results",
                      "messages": "message mails", "all": "every mail"}


def _page(title: str, body: str, status: int = 200) -> Response:
    # styled like the web client (its stylesheet and icon), with a way back to it
    page = (f"<!doctype html><html lang='en'><head><meta charset='utf-8'>"
            "<meta name='viewport' content='width=device-width, initial-scale=1'>"
            f"<title>{html.escape(title)} · Entrepot</title>"
            "<link rel='stylesheet' href='/web/style.css'><link rel='icon' href='/web/img/icon.svg'></head>"
            "<body><header><p class='brand'><a href='/'>Entrepot</a></p></header>"
            f"<main><section><h1>{html.escape(title)}</h1>{body}"
            "<p><a href='/'>Back to your games</a></p></section></main></body></html>")
    return Response(page, status=status, mimetype="text/html")


def _button(action: str, label: str) -> str:
    return (f"<form method='post' action='{html.escape(action)}'>"
            f"<button type='submit'>{html.escape(label)}</button></form>")


@bp.post("/players/me/email/verify")
def verify_email():
    player = required_player()
    data = load_body(EMAIL_VERIFICATION)
    return send(ME_OUT, services().players.verify_email(data["token"], player))


@bp.get("/email/verify/<token>")
def verify_email_page(token: str):
    return _page("Confirm your email address", _button(f"/v1/email/verify/{token}", "Confirm my address"))


def _wants_page() -> bool:
    """A browser (the button of the page above) asks for HTML: it gets a page for a
    refusal too, never problem+json; an API client keeps the problem document."""
    best = request.accept_mimetypes.best_match(["application/problem+json", "application/json", "text/html"])
    return best == "text/html" and request.accept_mimetypes["text/html"] > request.accept_mimetypes["application/json"]


#: a refused link as a person reads it: (status, title, what to do); the statuses are the
#: problem documents' (api/problems.py)
_REFUSED = {
    TokenUsed: (409, "Already confirmed", "This address was confirmed already: there is nothing more to do."),
    TokenExpired: (409, "This link has expired", "Change your address in your settings again to get a new link."),
    InvalidToken: (422, "This link is not valid", "Open the link exactly as it came in the mail, or ask for a new"
                   " one by changing your address in your settings."),
}


@bp.post("/email/verify/<token>")
def verify_email_link(token: str):
    try:
        services().players.verify_email(token, None)
    except (TokenUsed, TokenExpired, InvalidToken) as err:
        if not _wants_page():
            raise
        status, title, text = _REFUSED[type(err)]
        return _page(title, f"<p>{html.escape(text)}</p>", status)
    return _page("Address confirmed", "<p>Entrepot will mail you what you chose to receive.</p>")


@bp.get("/unsubscribe/<token>")
def unsubscribe_page(token: str):
    kind = token.split(".")[1] if token.count(".") == 2 else "all"
    what = _UNSUBSCRIBE_KINDS.get(kind, "these mails")
    return _page("Unsubscribe", f"<p>Stop {html.escape(what)} from Entrepot?</p>"
                 + _button(f"/v1/unsubscribe/{token}", "Unsubscribe"))


@bp.post("/unsubscribe/<token>")
def unsubscribe(token: str):
    # RFC 8058: the body is "List-Unsubscribe=One-Click" (form encoded); the token decides
    try:
        done = services().players.unsubscribe(token)
    except ServiceError as err:
        if not _wants_page() or not isinstance(err, InvalidToken):
            raise
        return _page("This link is not valid", "<p>Open the unsubscribe link exactly as it came in the mail."
                     " You can also turn mails off in your notification settings.</p>", 422)
    return _page("Unsubscribed", f"<p>No more {html.escape(_UNSUBSCRIBE_KINDS[done.kind])} from Entrepot."
                 " You can turn them on again any time in your notification settings.</p>")
