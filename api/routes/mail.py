"""Mail links: address verification and one-click unsubscribe (RFC 8058).

The GET pages only show a button: mail scanners follow links, and a GET must not change
anything. The POSTs need no bearer token: the signed token in the path is the proof.
"""

from __future__ import annotations

import html

from flask import Blueprint, Response

from api.auth import required_player
from api.io import load_body, send
from api.schemas import EmailVerification, MeOut
from api.services import services

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


@bp.post("/email/verify/<token>")
def verify_email_link(token: str):
    services().players.verify_email(token, None)
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
    done = services().players.unsubscribe(token)
    return _page("Unsubscribed", f"<p>No more {html.escape(_UNSUBSCRIBE_KINDS[done.kind])} from Entrepot."
                 " Change this any time with PATCH /v1/players/me.</p>")
