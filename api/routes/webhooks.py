"""A player's webhooks: register (the secret is shown once), list, delete, delivery log."""

from __future__ import annotations

from flask import Blueprint, Response

from api.auth import required_player
from api.io import idempotency, load_body, load_query, respond, send
from api.schemas import (
    DeliveriesQuery,
    DeliveryListOut,
    NewWebhookOut,
    WebhookCreate,
    WebhookListOut,
)
from api.services import services

bp = Blueprint("webhooks", __name__)

WEBHOOK_CREATE = WebhookCreate()
DELIVERIES_QUERY = DeliveriesQuery()
NEW_WEBHOOK_OUT = NewWebhookOut()
WEBHOOK_LIST_OUT = WebhookListOut()
DELIVERY_LIST_OUT = DeliveryListOut()


@bp.post("/players/me/webhooks")
def register_webhook():
    caller = required_player()
    data = load_body(WEBHOOK_CREATE)
    created = services().webhooks.register(caller, data["url"], data["events"], data["format"],
                                           idempotency(_render_new))
    return respond(created, _render_new)


def _render_new(created) -> tuple[int, dict]:
    return 201, NEW_WEBHOOK_OUT.dump({**created.webhook.__dict__, "active": created.webhook.active,
                                      "secret": created.secret})


@bp.get("/players/me/webhooks")
def list_webhooks():
    webhooks = services().webhooks.list(required_player())
    return send(WEBHOOK_LIST_OUT, {"webhooks": webhooks})


@bp.delete("/players/me/webhooks/<webhook_id>")
def delete_webhook(webhook_id: str):
    services().webhooks.delete(required_player(), webhook_id)
    return Response(status=204)


@bp.get("/players/me/webhooks/<webhook_id>/deliveries")
def webhook_deliveries(webhook_id: str):
    caller = required_player()
    query = load_query(DELIVERIES_QUERY)
    return send(DELIVERY_LIST_OUT, {"deliveries": services().webhooks.deliveries(caller, webhook_id, query["limit"])})
