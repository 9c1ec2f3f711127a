"""RQ job of accounts (service/accounts/): mail the sign-in or reset links a request asked
for. Its argument is the request's id; a request is handled once (a retried job finds it
handled and sends nothing)."""

from __future__ import annotations

import logging

from workers.services import services

log = logging.getLogger(__name__)


def account_mail(request_id: int) -> int:
    sent = services().accounts.mail_links(int(request_id))
    log.info("account request %s: %d link(s) mailed", request_id, sent)
    return sent


def sweep_accounts() -> int:
    """For the sweeper: sign-in and reset requests whose job was lost are queued again."""
    return services().accounts.sweep_requests()
